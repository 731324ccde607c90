# SPDX-License-Identifier: MIT
# Thin wrapper over meson + ninja. `make` builds into build/ (the tool is
# build/landfence); `make check` builds and runs every test suite.
BUILD ?= build
MESON_OPTS ?=
NINJA ?= ninja

.PHONY: all deps check sanitize check-sanitize demo bench valgrind fuzz format-check clean \
	install uninstall

all: $(BUILD)/build.ninja
	$(NINJA) -C $(BUILD)

deps:
	@tools/deps

$(BUILD)/build.ninja:
	@tools/deps
	meson setup $(BUILD) $(MESON_OPTS)

check: all
	tools/run-tests $(BUILD)

# The same suites under AddressSanitizer + UndefinedBehaviorSanitizer.
check-sanitize:
	$(MAKE) check BUILD=build-sanitize \
		MESON_OPTS="$(MESON_OPTS) -Db_sanitize=address,undefined -Db_lundef=false"

demo: all
	tools/demo $(BUILD)

bench: all
	@tools/deps bench
	tools/run-bench $(BUILD)

format-check:
	tools/format-check

# `make install [PREFIX=/usr/local] [DESTDIR=]`: meson install of the tool,
# the shared and static libraries, the header, landfence.pc, the manual
# pages, the shell completions and the AppArmor profile (doc: README,
# "Install"). The build is configured for PREFIX first, since the profile
# names the installed program's path. Configuration goes to /etc for
# PREFIX=/usr, else to PREFIX/etc.
PREFIX ?= /usr/local
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)

install: $(BUILD)/build.ninja
	meson configure $(BUILD) -Dprefix=$(PREFIX) -Dsysconfdir=$(SYSCONFDIR)
	$(NINJA) -C $(BUILD)
	DESTDIR="$(DESTDIR)" meson install -C $(BUILD) --no-rebuild

uninstall:
	DESTDIR="$(DESTDIR)" $(NINJA) -C $(BUILD) uninstall

clean:
	rm -rf build build-*

# Analysis (doc/analysis.md). valgrind: every test suite of a plain build
# under memcheck, failing on any error or definite leak. lint: cppcheck and
# clang-tidy on src/. fuzz: the libFuzzer harnesses, FUZZ_TIME seconds each.
VALGRIND_BUILD ?= build-valgrind
FUZZ_TIME ?= 60
.PHONY: lint

valgrind:
	tools/valgrind $(VALGRIND_BUILD)

lint:
	tools/lint

fuzz: differential
	fuzz/run $(FUZZ_TIME)

# The differential test of check against bash (doc/shell.md) with more
# lines than CI runs, and a seed of one's choosing.
DIFF_LINES ?= 20000
DIFF_SEED ?= $(shell date +%s)
.PHONY: differential
differential: all
	meson test -C $(BUILD) --suite differential --verbose --timeout-multiplier 20 \
		--test-args="-n $(DIFF_LINES) -s $(DIFF_SEED)"

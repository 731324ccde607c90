# SPDX-License-Identifier: MIT
# Thin wrapper over meson + ninja. `make` builds into build/ (the tool is
# build/landfence); `make check` builds and runs every test suite.
BUILD ?= build
MESON_OPTS ?=
NINJA ?= ninja

.PHONY: all deps check sanitize check-sanitize demo bench valgrind fuzz format-check clean

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

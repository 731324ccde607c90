#!/bin/bash
# SPDX-License-Identifier: MIT
# The library as an embedder gets it (doc/api.md): meson installs it into
# a scratch DESTDIR; examples/embed.c is built against that tree alone
# with pkg-config, shared and static; then, policy by policy, `landfence
# run` and embed run the same probe and must agree on everything: the
# probe's view of the sandbox (reads, writes, creates, execs on many
# paths), every message, the exit status.
#
#   embed.sh PROBE [SANITIZE_FLAGS]
set -u
probe=$(realpath "${1:?usage: embed.sh PROBE [SANITIZE_FLAGS]}") || exit 1
san=${2:-}
src=${LANDFENCE_SRCDIR:?}
build=${LANDFENCE_BUILDDIR:?}
bin=${LANDFENCE_BIN:?}
cc=${CC:-cc}
fails=0
# meson points this at the build tree; embed must find the installed
# library, through its rpath.
unset LD_LIBRARY_PATH

work=$(mktemp -d /tmp/lf-embed.XXXXXX) || exit 1
chmod 755 "$work"
cleanup() {
	chmod -R u+rwX "$work" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# ---- 1. install, and build embed against the installed tree ----------
if ! "$LANDFENCE_SRCDIR/tests/meson-install.sh" "$build" "$work/dest" >"$work/install.log" 2>&1; then
	cat "$work/install.log"
	echo "FAIL: meson install"
	exit 1
fi
pc=$(find "$work/dest" -name landfence.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no landfence.pc installed"; exit 1; }
export PKG_CONFIG_PATH=${pc%/*} PKG_CONFIG_SYSROOT_DIR=$work/dest
# A path the .pc names, inside the scratch tree (pkg-config may or may not
# put the sysroot in front of a variable).
inroot() {
	case $1 in "$work/dest"*) echo "$1" ;; *) echo "$work/dest$1" ;; esac
}
libdir=$(inroot "$(pkg-config --variable=libdir landfence)")
header=$(inroot "$(pkg-config --variable=includedir landfence)")/landfence.h
for f in "$libdir/liblandfence.a" "$libdir/liblandfence.so.0" "$header"; do
	[ -e "$f" ] || fail "not installed: $f"
done

# The version the header states is the package's.
want=$(sed -n 's/^#define LANDFENCE_VERSION_STRING "\(.*\)"$/\1/p' "$header")
[ "$(pkg-config --modversion landfence)" = "$want" ] ||
	fail "landfence.pc says $(pkg-config --modversion landfence), the header $want"

# The shared library exports exactly the header's LF_EXPORT functions.
grep -oE '^LF_EXPORT [^(]*\(' "$header" | grep -oE 'lf_[a-z_0-9]+\(' | tr -d '(' | sort >"$work/declared"
nm -D --defined-only "$libdir/liblandfence.so.0" | awk '{print $3}' | sort >"$work/exported"
diff "$work/declared" "$work/exported" >"$work/abi.diff" || { cat "$work/abi.diff"; fail "exported symbols differ from the header"; }

# Built with the installed header only: no -I into the source tree.
# shellcheck disable=SC2046,SC2086
if ! $cc -std=c99 -Wall -Wextra -Werror $san $(pkg-config --cflags landfence) \
	"$src/examples/embed.c" -o "$work/embed" $(pkg-config --libs landfence) \
	-Wl,-rpath,"$libdir" 2>"$work/cc.log"; then
	cat "$work/cc.log"
	echo "FAIL: examples/embed.c does not build against the installed library"
	exit 1
fi
# shellcheck disable=SC2046,SC2086
if ! $cc -std=c99 -Wall -Wextra -Werror $san $(pkg-config --cflags landfence) \
	"$src/examples/embed.c" -o "$work/embed-static" "$libdir/liblandfence.a" \
	$(pkg-config --static --libs-only-l landfence | sed 's/-llandfence//') 2>"$work/cc.log"; then
	cat "$work/cc.log"
	echo "FAIL: examples/embed.c does not link the static library"
	exit 1
fi
ldd "$work/embed-static" | grep -q liblandfence && fail "embed-static needs liblandfence.so"
[ "$(wc -l <"$src/examples/embed.c")" -lt 150 ] || fail "examples/embed.c is 150 lines or more"

# ---- 2. the same runs, side by side ------------------------------------
abi=$("$bin" doctor --json 2>/dev/null | sed -n 's/^ *"landlock_abi": \([0-9]*\),*$/\1/p')
if [ "${abi:-0}" = 0 ] && [ "${LANDFENCE_TESTS_MUST_ENFORCE:-0}" = 1 ]; then
	echo "FAIL: no Landlock here, and LANDFENCE_TESTS_MUST_ENFORCE=1"
	exit 1
fi

t=$work/t
# What the probe tries: the project, secrets and hooks in it, the host,
# the home directory, places outside, the run directory, devices.
probes=(
	'r:$PWD/README' 'l:$PWD' 'w:$PWD/new.txt' 'c:$PWD/src' 'r:$PWD/src/a.c'
	'w:$PWD/src/gen/out' 'r:$PWD/secret/k' 'w:$PWD/secret/k' 'r:$PWD/.git/config'
	'w:$PWD/.git/hooks/post-commit' 'x:$PWD/bin/tool' 'r:/etc/passwd' 'r:/etc/shadow'
	'l:/etc' 'w:/usr/lf-probe' 'x:/bin/true' 'r:$HOME/.ssh/id' 'w:$HOME/.bashrc'
	'r:$HOME/.claude/settings.json' 'w:$HOME/.claude/x' 'r:$OUT/ro/o' 'w:$OUT/ro/o'
	'r:$OUT/rw/o' 'w:$OUT/rw/o' 'c:$TMPDIR' 'r:/proc/self/status' 'w:/dev/null'
	'r:/dev/urandom' 'r:$XDG_CONFIG_HOME/landfence/trusted'
	'w:$XDG_CONFIG_HOME/landfence/trusted'
)

# A fresh world for each run: a git project with a secret, a home with
# keys and agent settings, outside directories, a configuration directory.
world() {
	rm -rf "$t"
	mkdir -p "$t/proj/.git/hooks" "$t/proj/src/gen" "$t/proj/secret" "$t/proj/bin" \
		"$t/home/.ssh" "$t/home/.claude" "$t/out/ro" "$t/out/rw" "$t/config"
	echo readme >"$t/proj/README"
	echo 'int main;' >"$t/proj/src/a.c"
	echo KEY >"$t/proj/secret/k"
	echo '[core]' >"$t/proj/.git/config"
	cp /bin/true "$t/proj/bin/tool"
	echo key >"$t/home/.ssh/id"
	echo '{}' >"$t/home/.claude/settings.json"
	echo o >"$t/out/ro/o"
	echo o >"$t/out/rw/o"
	chmod -R a+rX "$t"
}

policy() { # policy FILE JSON
	printf '%s\n' "$2" >"$1"
}

# run TOOL DIR EXTRA-ENV ARGS...: one run, in DIR, its status, stdout and
# stderr in $work/TOOL.{code,out,err}.
run() {
	local tool=$1 dir=$2 extra=$3
	shift 3
	local exe=("$bin" run)
	[ "$tool" = embed ] && exe=("$work/embed")
	[ "$tool" = embed-static ] && exe=("$work/embed-static")
	# shellcheck disable=SC2086
	(cd "$dir" && env -i PATH="$t/proj/bin:/usr/local/bin:/usr/bin:/bin" HOME="$t/home" PWD="$dir" \
		XDG_CONFIG_HOME="$t/config" OUT="$t/out" LC_ALL=C \
		${LANDFENCE_NO_NAMESPACES:+LANDFENCE_NO_NAMESPACES=$LANDFENCE_NO_NAMESPACES} $extra \
		"${exe[@]}" "$@" >"$work/$tool.out" 2>"$work/$tool.err")
	echo $? >"$work/$tool.code"
}

# same NAME SETUP EXPECT DIR EXTRA-ENV ARGS...: runs `landfence run ARGS`
# and embed ARGS, each in a fresh world prepared by SETUP, and compares.
# EXPECT is the exit status both must give where Landlock is on.
same() {
	local name=$1 setup=$2 expect=$3 dir=$4 extra=$5 before=$fails
	shift 5
	for tool in landfence embed embed-static; do
		world
		"$setup"
		run "$tool" "$dir" "$extra" "$@"
	done
	for tool in embed embed-static; do
		for part in code out err; do
			if ! cmp -s "$work/landfence.$part" "$work/$tool.$part"; then
				fail "$name: $tool's $part differs from landfence run's"
				diff "$work/landfence.$part" "$work/$tool.$part" | head -20
			fi
		done
	done
	if [ "${abi:-0}" != 0 ] && [ "$(cat "$work/landfence.code")" != "$expect" ]; then
		fail "$name: exit $(cat "$work/landfence.code"), want $expect"
		head -20 "$work/landfence.err"
	fi
	[ "$fails" = "$before" ] &&
		echo "ok: $name (exit $(cat "$work/landfence.code"), $(wc -l <"$work/landfence.out") probe lines)"
}

# The probes, after "--".
P=("$probe" "${probes[@]}")

nothing() { :; }
host_policy() {
	policy "$t/host.json" '{"version": 1, "fallback": "deny", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["**"]},
	 {"effect": "allow", "capability": "write", "paths": ["src/**"]}],
	 "host": {"read": ["'"$t"'/out/ro"], "write": ["'"$t"'/out/rw"]}}'
}
profile_policy() {
	policy "$t/prof.json" '{"version": 1, "fallback": "deny", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["**"]}], "profiles": ["claude"]}'
}
fence_policy() {
	policy "$t/fences.json" '{"version": 1, "fallback": "ask", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["src/**", "README", "bin/**"]},
	 {"effect": "allow", "capability": "write", "paths": ["src/**"]},
	 {"effect": "deny", "capability": "read", "paths": ["secret/**"]},
	 {"effect": "ask", "capability": "write", "paths": ["src/gen/**"]}]}'
}
link_policy() { # link_policy FALLBACK
	policy "$t/link.json" '{"version": 1, "fallback": "'"$1"'", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["src/**"]},
	 {"effect": "deny", "capability": "read", "paths": ["secret/**"]}]}'
	ln "$t/proj/secret/k" "$t/proj/src/k-link"
}
link_deny() { link_policy deny; }
link_ask() { link_policy ask; }
project_policy() {
	mkdir -p "$t/proj/.landfence"
	policy "$t/proj/.landfence/policy.json" '{"version": 1, "fallback": "deny", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["src/**"]}]}'
}
trusted_policy() {
	project_policy
	(cd "$t/proj" && env -i HOME="$t/home" XDG_CONFIG_HOME="$t/config" "$bin" trust >/dev/null)
}
managed_policy() {
	mkdir -p "$t/etc"
	policy "$t/etc/policy.json" '{"version": 1, "rules": [
	 {"effect": "deny", "capability": "read", "paths": ["src/**"]},
	 {"effect": "ask", "capability": "write", "paths": ["README"]}]}'
	chmod 755 "$t/etc"
	chmod 644 "$t/etc/policy.json"
}
managed_unsafe() {
	managed_policy
	chmod 666 "$t/etc/policy.json"
}
too_old_policy() {
	policy "$t/old.json" '{"version": 1, "fallback": "deny", "rules": [
	 {"effect": "allow", "capability": "read", "paths": ["**"]},
	 {"effect": "deny", "capability": "write", "paths": ["secret/**"]}]}'
}
bad_policy() {
	policy "$t/bad.json" '{"version": 1, "fallback": "sometimes"}'
}
agent() {
	cp "$probe" "$t/proj/bin/codex"
}
plant() { :; }
device() {
	mknod "$t/proj/src/disk" b 7 0 2>/dev/null || echo "(no CAP_MKNOD: no device)" >&2
}

same "the embedded default" nothing 0 "$t/proj" "" -- "${P[@]}"
# The probe must see a sandbox, not a failure to look: the project is
# readable, a secret of the home directory is not.
grep -q '^r:\$PWD/README ok$' "$work/landfence.out" || fail "the probe cannot read the project"
grep -q '^r:\$HOME/.ssh/id EACCES$' "$work/landfence.out" || fail "the probe reads ~/.ssh"
same "host grants" host_policy 0 "$t/proj" "" -p "$t/host.json" -- "${P[@]}"
same "an agent profile" profile_policy 0 "$t/proj" "" -p "$t/prof.json" -- "${P[@]}"
same "fences (deny and ask)" fence_policy 0 "$t/proj" "" -p "$t/fences.json" -- "${P[@]}"
# With a mount namespace a hard link to a fenced file is masked at its own
# name and a device node cannot be opened (the grants are mounted nodev):
# both run. Without one, both refuse under fallback deny.
refuse=125
"$bin" doctor --json 2>/dev/null | grep -A1 '"mount_namespace"' | grep -q '"available": true' &&
	refuse=0
same "a hard link, fallback deny" link_deny "$refuse" "$t/proj" "" -p "$t/link.json" -- "${P[@]}"
same "a hard link, fallback ask" link_ask 0 "$t/proj" "" -p "$t/link.json" -- "${P[@]}"
same "an untrusted project policy" project_policy 2 "$t/proj" "" -- "${P[@]}"
same "a trusted project policy" trusted_policy 0 "$t/proj" "" -- "${P[@]}"
if [ "$(id -u)" = 0 ]; then
	same "the managed layer" managed_policy 0 "$t/proj" \
		"LANDFENCE_MANAGED_POLICY=$t/etc/policy.json" -- "${P[@]}"
	same "a device node below a grant" device "$refuse" "$t/proj" "" -- "${P[@]}"
fi
same "an unsafe managed layer" managed_unsafe 2 "$t/proj" \
	"LANDFENCE_MANAGED_POLICY=$t/etc/policy.json" -- "${P[@]}"
same "KernelTooOld (ABI 2, fallback deny, a write fence)" too_old_policy 125 "$t/proj" \
	"LANDFENCE_ABI_MAX=2" -p "$t/old.json" -- "${P[@]}"
same "a malformed policy" bad_policy 2 "$t/proj" "" -p "$t/bad.json" -- "${P[@]}"
same "command not found" nothing 127 "$t/proj" "" -- lf-no-such-command
same "not executable" nothing 126 "$t/proj" "" -- "$t/proj/README"
same "an agent's command (its profile added)" agent 0 "$t/proj" "" -- codex "${probes[@]}"
same "a planted hook, reported after the run" plant 0 "$t/proj" "" -- "$probe" \
	'w:$PWD/.git/hooks/post-commit'
same "-C naming the home directory" nothing 0 "$t/proj" "" -C "$t/home" -- "${P[@]}"
same "the home directory as a discovered root" nothing 2 "$t/home" "" -- "${P[@]}"
same "-C naming no directory" nothing 2 "$t/proj" "" -C "$t/nowhere" -- "${P[@]}"

if [ "$fails" -gt 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "embed: every run agreed with landfence run"

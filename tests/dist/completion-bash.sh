#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completion (dist/completions/landfence.bash), called as bash
# calls it: COMP_WORDS and COMP_CWORD set, _landfence run, COMPREPLY read.
# Each case runs in a fresh bash, once with bash-completion's library
# loaded (as in an interactive shell) and once without it, with the built
# tool as the word being completed for.
set -u
bin=${LANDFENCE_BIN:?LANDFENCE_BIN not set}
src=${LANDFENCE_SRCDIR:?LANDFENCE_SRCDIR not set}
comp=$src/dist/completions/landfence.bash
lib=/usr/share/bash-completion/bash_completion

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir sub
touch policy.json notes.txt sub/inner.json

pass=0
fail=0

# complete LIBRARY WORD... -> the sorted, de-duplicated COMPREPLY, one a
# line. The last WORD is the one being completed. (bash-completion's
# compopt complains outside a real completion; that line is dropped.)
complete_words()
{
	local with=$1
	shift
	bash --norc --noprofile -c '
		with=$1 lib=$2 comp=$3
		shift 3
		[ "$with" = yes ] && . "$lib"
		. "$comp"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_landfence
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$with" "$lib" "$comp" "$@" 2> >(grep -v 'compopt: not currently executing' >&2) |
		sed '/^$/d' | sort -u
}

# expect NAME "EXPECTED WORDS" WORD... : COMPREPLY is exactly those words.
expect()
{
	local name=$1 want with got
	want=$(printf '%s\n' $2 | sed '/^$/d' | sort -u)
	shift 2
	for with in yes no; do
		[ "$with" = yes ] && [ ! -r "$lib" ] && continue
		got=$(complete_words "$with" "$@")
		if [ "$got" = "$want" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: $name (bash-completion loaded: $with): completing '$*'"
			echo "  expected: $(echo $want)"
			echo "  got:      $(echo $got)"
		fi
	done
}

# expect_has NAME WORD-EXPECTED WORD... : COMPREPLY holds that word.
expect_has()
{
	local name=$1 want=$2 with
	shift 2
	for with in yes no; do
		[ "$with" = yes ] && [ ! -r "$lib" ] && continue
		if complete_words "$with" "$@" | grep -qx -- "$want"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: $name (bash-completion loaded: $with): '$want' not offered for '$*'"
		fi
	done
}

commands=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^[ \t]+[a-z]/ { print $1; next } on { exit }')
for c in run plan check; do
	echo "$commands" | grep -qx "$c" || {
		echo "FAIL: landfence --help lists no $c:" $commands
		exit 1
	}
done
profiles=$("$bin" --list-profiles)
[ -n "$profiles" ] || { echo "FAIL: landfence --list-profiles printed nothing"; exit 1; }

expect "the commands" "$commands" "$bin" ""
expect "a command by prefix" "plan" "$bin" pl
expect "the tool's own options" "--help --version --list-profiles" "$bin" --
expect "run's options" "--policy --directory --profile --quiet --help" "$bin" run --
expect "plan's options" "--policy --directory --profile --json --tree --help" "$bin" plan --
expect "doctor's options" "--json --help" "$bin" doctor --
expect "short and long options" "-p -C -q -h --policy --directory --profile --quiet --help" "$bin" run -
expect "profiles for --profile" "$profiles" "$bin" run --profile ""
expect "profiles by prefix" "claude codex" "$bin" plan -q --profile c
expect "directories for -C" "sub" "$bin" plan -C ""
expect "directories for --directory" "sub" "$bin" init --directory ""
expect "policy files for -p" "sub policy.json" "$bin" run -p ""
expect "policy files below a directory" "sub/inner.json" "$bin" check --policy sub/
expect "check's requests" "read write delete bash" "$bin" check ""
expect "check's requests after options" "read write delete bash" "$bin" check -p policy.json ""
expect "check read: paths" "notes.txt policy.json sub" "$bin" check read ""
expect "hook's agent" "claude" "$bin" hook ""
expect "export's agent" "claude" "$bin" export -C sub ""
expect "import's agent, then settings files" "sub policy.json" "$bin" import claude ""
expect_has "run: the command to run" "sh" "$bin" run -q sh
expect_has "run: the command after --" "sh" "$bin" run -- sh
# The program's own options are not landfence's.
expect "run: no landfence option after the command" "" "$bin" run -- true --pol
expect "run: none after the command without --" "" "$bin" run true --pol

echo "completion-bash: $pass checks passed, $fail failed"
[ "$fail" = 0 ]

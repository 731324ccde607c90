#!/usr/bin/env zsh
# SPDX-License-Identifier: MIT
# The zsh completion (dist/completions/_landfence) in a real interactive
# zsh driven through a pseudo-terminal (zsh/zpty): each case types a
# command line and TAB, and the matches the completion system offers are
# compared with the expected ones. compadd is wrapped so that every match
# added is also printed, tagged, to the terminal; the built landfence is
# first on PATH.
emulate -L zsh
setopt extendedglob
zmodload zsh/zpty || { print "SKIP: no zsh/zpty"; exit 77 }

bin=${LANDFENCE_BIN:?LANDFENCE_BIN not set}
src=${LANDFENCE_SRCDIR:?LANDFENCE_SRCDIR not set}
comp=$src/dist/completions

work=$(mktemp -d)
trap 'zpty -d lfz 2>/dev/null; rm -rf $work' EXIT
cd $work || exit 1
mkdir dir
touch policy.json notes.txt

integer pass=0 fail=0

zpty -b lfz zsh -f -i
zpty -w lfz "PS1='> '; path=(${bin:h} \$path); fpath=($comp \$fpath)"
zpty -w lfz 'autoload -Uz compinit && compinit -u -D'
zpty -w lfz "zstyle ':completion:*' menu no"
# TAB completes, then says so: a case sends its next keys only once the
# completion has ended, so no completion ever runs with keys pending (a
# loaded machine once lost the matches of one case that way).
zpty -w lfz 'lf-tab() { zle complete-word; print -r -- "EN""D-TAB" >/dev/tty; }; zle -N lf-tab; bindkey "^I" lf-tab'
# Matches added with -O, -A or -D are collected, not offered: pass those on.
zpty -w lfz 'compadd() { local -a m; if [[ " $* " == *" "-[OAD]" "* ]]; then builtin compadd "$@"; return; fi; builtin compadd -O m "$@"; print -rl -- "LFMATCH:"${^m} >/dev/tty; builtin compadd "$@"; }'
zpty -w lfz 'print EN""D-SETUP'
zpty -r lfz out '*END-SETUP*' || { print "FAIL: the interactive zsh did not start"; exit 1 }

# matches LINE: the matches offered for LINE followed by TAB, sorted.
matches() {
  local out
  local tab
  zpty -w -n lfz "$1"$'\t'
  zpty -r lfz tab '*END-TAB*'
  zpty -w lfz $'\C-u''print EN""D-CASE'
  zpty -r lfz out '*END-CASE*'
  out=${tab//$'\r'/}${out//$'\r'/}
  print -rl -- ${(ou)${${(M)${(f)out}:#*LFMATCH:*}##*LFMATCH:}}
}

# expect NAME "WORDS" LINE: exactly those matches.
expect() {
  local want got
  want=${(F)${(ou)${=2}}}
  got=$(matches $3)
  if [[ $got == $want ]]; then
    (( pass++ ))
  else
    (( fail++ ))
    print -r -- "FAIL: $1: completing '$3'"
    print -r -- "  expected: ${(f)want}"
    print -r -- "  got:      ${(f)got}"
  fi
}

# expect_has NAME WORD LINE: that match among others.
expect_has() {
  local -a got
  got=(${(f)"$(matches $3)"})
  if (( ${got[(Ie)$2]} )); then
    (( pass++ ))
  else
    (( fail++ ))
    print -r -- "FAIL: $1: '$2' not offered for '$3'"
  fi
}

cmds=(${${(M)${(f)"$($bin --help)"}:#  [a-z]*}//(#b)  ([a-z]##)*/$match[1]})
profiles=(${(f)"$($bin --list-profiles)"})
(( $#cmds >= 9 && $#profiles >= 1 )) || { print "FAIL: no commands or profiles from the tool"; exit 1 }

expect "the commands" "$cmds" "landfence "
expect "a command by prefix" "plan" "landfence pl"
expect "the tool's own options" "--help --list-profiles --version" "landfence --"
expect "run's long options" "--allow-unscoped --directory --help --policy --profile --quiet --unsafe-root" "landfence run --"
expect "doctor's options" "--help --json" "landfence doctor --"
expect "profiles for --profile" "$profiles" "landfence run --profile "
expect "directories for -C" "dir" "landfence plan -C "
expect "policy files for -p" "dir policy.json" "landfence run -p "
expect "check's requests" "bash delete read write" "landfence check "
expect "hook's agent" "claude" "landfence hook "
expect_has "run: the command to run" "true" "landfence run -q tru"
expect_has "run: the command after --" "true" "landfence run -- tru"

print "completion-zsh: $pass checks passed, $fail failed"
(( fail == 0 ))

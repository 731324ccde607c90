#!/bin/sh
# SPDX-License-Identifier: MIT
# Real agents under the embedded default policy: `claude --version` and
# `codex --version` must run inside the sandbox (no network needed).
# Skips (77) when an agent is not installed, unless LANDFENCE_TESTS_AGENTS=1
# (set in CI, which installs both from the npm registry).
set -u
bin=${LANDFENCE_BIN:?LANDFENCE_BIN not set}
agent=$1
expect=$2
profile=$3

if ! command -v "$agent" >/dev/null 2>&1; then
	if [ "${LANDFENCE_TESTS_AGENTS:-0}" = 1 ]; then
		echo "FAIL: $agent is not installed (npm install -g the agent first)"
		exit 1
	fi
	echo "SKIP: $agent is not installed"
	exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/proj"
cd "$work/proj" || exit 1
git init -q . 2>/dev/null || mkdir .git

out=$(env -i PATH="$PATH" HOME="$work/home" TERM=dumb \
	XDG_CONFIG_HOME="$work/home/.config" \
	"$bin" run --profile "$profile" -- "$agent" --version 2>"$work/err")
status=$?
echo "status: $status"
echo "stdout: $out"
echo "stderr:"; cat "$work/err"
if [ $status -ne 0 ]; then
	echo "FAIL: landfence run --profile $profile -- $agent --version exited $status"
	exit 1
fi
case "$out" in
*"$expect"*) echo "PASS: $agent --version ran under the sandbox" ;;
*) echo "FAIL: output lacks '$expect'"; exit 1 ;;
esac

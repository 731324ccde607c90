#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/meson-install.sh BUILD DESTDIR [meson install options...]
# meson install of BUILD into DESTDIR, for the tests that check what an
# installed tree holds. meson writes its install log into the build tree;
# a user who may not write there (the suites' unprivileged pass) installs
# from a private build tree instead: its own meson-private and meson-logs,
# links to everything else.
set -eu
build=$1
dest=$2
shift 2
from=$build
if [ ! -w "$build/meson-logs" ]; then
	from=$(mktemp -d "${TMPDIR:-/tmp}/lf-install-plan.XXXXXX")
	trap 'rm -rf "$from"' EXIT
	mkdir -p "$from/meson-logs"
	cp -a "$build/meson-private" "$from/"
	for e in "$build"/*; do
		[ -e "$from/${e##*/}" ] || ln -s "$e" "$from/${e##*/}"
	done
fi
meson install -C "$from" --no-rebuild --destdir "$dest" "$@"

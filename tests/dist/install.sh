#!/bin/sh
# SPDX-License-Identifier: MIT
# meson install (what `make install` runs) into a scratch DESTDIR puts
# everything where it belongs: the tool, the shared and static libraries,
# the header, landfence.pc, the manual pages (when this build made them),
# the shell completions and the AppArmor profile naming the installed
# program. A program then builds against the installed tree through
# pkg-config, shared and static, and runs (not in sanitizer builds, whose
# library needs the sanitizer runtime).
#
#   install.sh PREFIX BINDIR LIBDIR BASHCOMPDIR ZSHCOMPDIR APPARMORDIR MANS(yes|no) SANITIZE
# (the directories as meson has them: absolute, or relative to PREFIX)
set -u
build=${LANDFENCE_BUILDDIR:?LANDFENCE_BUILDDIR not set}
prefix=$1 mans=$7 sanitize=$8
abs() {
	case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac
}
bindir=$(abs "$2") libdir=$(abs "$3") bashdir=$(abs "$4") zshdir=$(abs "$5") aadir=$(abs "$6")

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

if ! "$LANDFENCE_SRCDIR/tests/meson-install.sh" "$build" "$root" --quiet >"$root.log" 2>&1; then
	cat "$root.log"
	rm -f "$root.log"
	echo "FAIL: meson install"
	exit 1
fi
rm -f "$root.log"

for f in "$bindir/landfence" "$libdir/liblandfence.so.0" "$libdir/liblandfence.so" \
	"$libdir/liblandfence.a" "$libdir/pkgconfig/landfence.pc" "$prefix/include/landfence.h" \
	"$bashdir/landfence" "$zshdir/_landfence" "$aadir/landfence"; do
	[ -e "$root$f" ] || bad "not installed: $f"
done
if [ "$mans" = yes ]; then
	for m in man1/landfence.1 man1/landfence-run.1 man1/landfence-plan.1 man1/landfence-check.1 \
		man1/landfence-hook.1 man1/landfence-import.1 man1/landfence-export.1 \
		man1/landfence-doctor.1 man1/landfence-init.1 man1/landfence-trust.1 \
		man5/landfence-policy.5 man7/landfence.7; do
		[ -s "$root$prefix/share/man/$m" ] || bad "not installed: $prefix/share/man/$m"
	done
fi
grep -q "^profile landfence $bindir/landfence " "$root$aadir/landfence" ||
	bad "the installed AppArmor profile does not attach to $bindir/landfence"
"$root$bindir/landfence" --version | grep -q '^landfence ' || bad "the installed tool does not run"

if [ "$sanitize" = none ] && command -v pkg-config >/dev/null; then
	pc="pkg-config --define-variable=prefix=$root$prefix"
	export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
	cat >"$root/embed.c" <<'C'
#include <landfence.h>
#include <stdio.h>
int main(void)
{
	struct lf_policy *p = NULL;
	int r = lf_policy_default(&p);
	printf("%s\n", r == 0 ? lf_effect_name(LF_DENY) : "no policy");
	lf_policy_free(p);
	return r != 0;
}
C
	cc=${CC:-cc}
	# shellcheck disable=SC2046
	if $cc -o "$root/embed" "$root/embed.c" $($pc --cflags --libs landfence) 2>"$root/cc.log"; then
		[ "$(LD_LIBRARY_PATH="$root$libdir" "$root/embed")" = deny ] ||
			bad "a program linked with the installed shared library does not run"
	else
		bad "cannot link with the installed shared library: $(cat "$root/cc.log")"
	fi
	# shellcheck disable=SC2046
	if $cc -o "$root/embed-static" "$root/embed.c" $($pc --cflags landfence) \
		"$root$libdir/liblandfence.a" $($pc --libs-only-other --libs-only-l --static landfence |
			sed 's/-llandfence//') 2>"$root/cc.log"; then
		[ "$("$root/embed-static")" = deny ] ||
			bad "a program linked with the installed static library does not run"
	else
		bad "cannot link with the installed static library: $(cat "$root/cc.log")"
	fi
fi
[ $fail = 0 ] && echo "ok: installed as expected under $prefix"
exit $fail

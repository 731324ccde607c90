#!/bin/sh
# SPDX-License-Identifier: MIT
# The AppArmor profile (dist/apparmor/landfence.in, as configured for this
# build) is read by apparmor_parser without loading it (-Q, no cache).
# With AppArmor 4 (abi/4.0 installed) the profile is parsed as built. An
# AppArmor 3 parser (Debian 12) knows neither abi/4.0 nor the userns rule,
# so there the rest of the profile is parsed (abi 3.0, the userns line
# left out), and the userns rule is checked to stand in the profile block.
# Skips when apparmor_parser is not installed, unless
# LANDFENCE_TESTS_APPARMOR=1 (CI installs it).
#
#   apparmor.sh BINDIR   (the profile must attach to BINDIR/landfence)
set -u
build=${LANDFENCE_BUILDDIR:?LANDFENCE_BUILDDIR not set}
profile=$build/dist/apparmor-landfence

parser=$(command -v apparmor_parser 2>/dev/null || true)
for p in /usr/sbin/apparmor_parser /sbin/apparmor_parser; do
	[ -z "$parser" ] && [ -x "$p" ] && parser=$p
done
if [ -z "$parser" ]; then
	if [ "${LANDFENCE_TESTS_APPARMOR:-0}" = 1 ]; then
		echo "FAIL: apparmor_parser is not installed (apt-get install apparmor)"
		exit 1
	fi
	echo "SKIP: apparmor_parser is not installed"
	exit 77
fi

fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

bindir=${1:-} # where this build installs landfence
grep -Eq '^profile landfence /[^ ]*/landfence flags=\(unconfined\) \{$' "$profile" ||
	bad "no 'profile landfence /…/landfence flags=(unconfined) {' line in $profile"
# The userns rule, inside the profile's braces.
awk '/^profile landfence / { on = 1; next } on && /^}/ { exit } on && /^[ \t]*userns,[ \t]*$/ { found = 1 }
	END { exit !found }' "$profile" || bad "the profile has no userns rule"
grep -q '^abi <abi/4.0>,$' "$profile" || bad "the profile does not declare abi <abi/4.0>"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ -e /etc/apparmor.d/abi/4.0 ]; then
	if "$parser" -Q -K "$profile" >"$out" 2>&1; then
		echo "ok: apparmor_parser reads the profile as built"
	else
		bad "apparmor_parser rejects the profile: $(cat "$out")"
	fi
else
	if sed -e 's|^abi <abi/4.0>,$|abi <abi/3.0>,|' -e '/^[ \t]*userns,[ \t]*$/d' "$profile" |
		"$parser" -Q -K >"$out" 2>&1; then
		echo "ok: AppArmor 3's apparmor_parser reads the profile without its userns rule"
	else
		bad "apparmor_parser rejects the profile even without userns: $(cat "$out")"
	fi
	# What the Debian package's postinst relies on: this parser refuses the
	# profile as shipped, so the package disables it here.
	if "$parser" -Q -K <"$profile" >"$out" 2>&1; then
		bad "AppArmor 3's apparmor_parser accepts abi/4.0 and userns: the postinst's disable would be wrong"
	else
		echo "ok: this apparmor_parser cannot read the profile as shipped (AppArmor 3): the package disables it"
	fi
fi
[ -z "$bindir" ] || grep -q "^profile landfence $bindir/landfence " "$profile" ||
	bad "the profile does not attach to $bindir/landfence"
exit $fail

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--help and the manual pages document the same options.

For the tool and for every command `landfence --help` lists:
  - the command has a page, doc/man/landfence-COMMAND.1.scd, that the
    build installs (doc/man/meson.build) and that landfence(1) names;
  - the options its --help prints and the options its page's OPTIONS
    section documents are the same set, in every spelling (-p and
    --policy are two entries);
  - each documented option is accepted by the command's parser.

--help's options are the entries of its option list: lines whose first
character after at most 8 blanks is "-", up to the description (two or
more blanks). A page's options are the term lines of its OPTIONS section
(lines that start with "*-"). Every spelling on such a line counts; the
two sets must be equal, whatever the wrapping, alignment or markup. The
usage lines of --help and the page's SYNOPSIS may name only options of
those sets; options named in descriptions are references, not entries.

Usage: man-options.py (LANDFENCE_BIN and LANDFENCE_SRCDIR in the
environment, as meson test sets them).
"""
import os
import re
import subprocess
import sys

BIN = os.environ["LANDFENCE_BIN"]
SRC = os.environ["LANDFENCE_SRCDIR"]
MAN = os.path.join(SRC, "doc", "man")

# An option token: one or two dashes and a letter, preceded by the start
# of the text or by something that cannot be part of a word. A lone "--"
# (end of options) is not an option.
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")
# A metavariable after an option on a page's term line: *-p* _FILE_.
METAVAR = re.compile(r"_([A-Z][A-Z0-9_]*)_")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(args):
    p = subprocess.run([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def help_options(text):
    """(the option list's entries, the options the usage lines name)."""
    entries, usage = set(), set()
    in_usage = False
    for line in text.splitlines():
        if line.startswith("usage:") or (in_usage and re.match(r"^\s+landfence\b", line)):
            in_usage = True
            usage |= set(m.group(1) for m in OPTION.finditer(line))
            continue
        in_usage = False
        m = re.match(r"^[ \t]{0,8}(-.*)$", line)
        if m:
            spec = re.split(r"\s{2,}", m.group(1).rstrip(), maxsplit=1)[0]
            entries |= set(t.group(1) for t in OPTION.finditer(spec))
    return entries, usage


def page_sections(path):
    """{SECTION NAME: [lines]} of an scdoc page; comment lines dropped."""
    sections, name = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(";"):
                continue
            m = re.match(r"^# (.+)$", line)
            if m:
                name = m.group(1).strip()
                sections[name] = []
            elif name:
                sections[name].append(line)
    return sections


def page_options(path):
    """{option: metavariable or None} from the OPTIONS section's term lines."""
    sections = page_sections(path)
    if "OPTIONS" not in sections:
        fail("%s has no OPTIONS section" % os.path.relpath(path, SRC))
        return {}
    opts = {}
    for line in sections["OPTIONS"]:
        if not line.startswith("*-"):
            continue
        # Every spelling on the term line; its metavariable (_FILE_), if
        # any, belongs to all of them.
        names = [m.group(1) for m in re.finditer(r"\*(--?[A-Za-z][A-Za-z0-9-]*)\*", line)]
        arg = METAVAR.search(line)
        for name in names:
            opts[name] = arg.group(1) if arg else None
    if not opts:
        fail("%s: no option found in OPTIONS (term lines must start with *-)"
             % os.path.relpath(path, SRC))
    synopsis = "\n".join(sections.get("SYNOPSIS", []))
    named = set(m.group(1) for m in OPTION.finditer(synopsis.replace("*", " ")))
    stray = sorted(named - set(opts))
    if stray:
        fail("%s: SYNOPSIS names %s, which OPTIONS does not document"
             % (os.path.relpath(path, SRC), ", ".join(stray)))
    return opts


def compare(what, help_text, documented, page):
    rel = os.path.relpath(page, SRC)
    helped, usage = help_options(help_text)
    if not helped:
        fail("%s: --help lists no option (entries must start with - after at most 8 blanks)"
             % what)
    stray = sorted(usage - helped)
    if stray:
        fail("%s: the usage line of --help names %s, which its option list does not"
             % (what, ", ".join(stray)))
    only_help = sorted(helped - set(documented))
    only_page = sorted(set(documented) - helped)
    if only_help:
        fail("%s: --help prints %s, which %s does not document"
             % (what, ", ".join(only_help), rel))
    if only_page:
        fail("%s: %s documents %s, which --help does not print"
             % (what, rel, ", ".join(only_page)))
    if not only_help and not only_page:
        print("ok: %s: %d options agree (%s)" % (what, len(helped), " ".join(sorted(helped))))


def sample_arg(metavar, profiles):
    return {"FILE": "/nonexistent/policy.json", "DIR": ".",
            "NAME": profiles[0] if profiles else "claude"}.get(metavar, "x")


def check_accepted(cmd, opts, profiles):
    """Each documented option parses: `landfence CMD OPT [ARG] --help`
    prints the usage and exits 0 (an unknown option exits 2)."""
    for opt, metavar in sorted(opts.items()):
        if opt in ("-h", "--help"):
            args = [cmd, opt]
        else:
            args = [cmd, opt] + ([sample_arg(metavar, profiles)] if metavar else []) + ["--help"]
        code, out, err = run(args)
        if code != 0 or ("usage: landfence " + cmd) not in out:
            fail("landfence %s: exited %d (%s): the documented option %s is not accepted"
                 % (" ".join(args), code, err.strip()[:200], opt))


def main():
    code, top, err = run(["--help"])
    if code != 0:
        fail("landfence --help exited %d: %s" % (code, err))
        return
    # The commands: the indented lines of the "commands:" block.
    m = re.search(r"^commands:\n((?:[ \t]+\S.*\n)+)", top, re.M)
    if not m:
        fail("landfence --help has no commands: block")
        return
    commands = [line.split()[0] for line in m.group(1).splitlines()]
    if len(commands) < 9:
        fail("landfence --help lists only %d commands: %s" % (len(commands), commands))

    code, out, _ = run(["--list-profiles"])
    profiles = out.split()
    if code != 0 or not profiles:
        fail("landfence --list-profiles exited %d and printed %r" % (code, out))

    with open(os.path.join(MAN, "meson.build"), encoding="utf-8") as f:
        man_build = f.read()
    main_page = os.path.join(MAN, "landfence.1.scd")
    main_sections = page_sections(main_page)
    listed = "\n".join(main_sections.get("COMMANDS", []))

    # The tool itself: landfence(1)'s OPTIONS against landfence --help.
    top_opts = page_options(main_page)
    compare("landfence", top, top_opts, main_page)
    for opt in sorted(top_opts):
        code, out, err = run([opt])
        if code != 0 or not out:
            fail("landfence %s exited %d (%s)" % (opt, code, err.strip()[:200]))

    for page in ("landfence-policy.5", "landfence.7", "landfence.1"):
        if "'%s'" % page not in man_build:
            fail("doc/man/meson.build does not build %s" % page)

    for cmd in commands:
        page = os.path.join(MAN, "landfence-%s.1.scd" % cmd)
        if not os.path.exists(page):
            fail("landfence %s has no manual page (%s)" % (cmd, os.path.relpath(page, SRC)))
            continue
        if "'landfence-%s.1'" % cmd not in man_build:
            fail("doc/man/meson.build does not build landfence-%s.1" % cmd)
        if "*%s*" % cmd not in listed:
            fail("landfence(1) COMMANDS does not list %s" % cmd)
        code, out, err = run([cmd, "--help"])
        if code != 0:
            fail("landfence %s --help exited %d: %s" % (cmd, code, err.strip()[:200]))
            continue
        opts = page_options(page)
        compare("landfence " + cmd, out, opts, page)
        check_accepted(cmd, opts, profiles)

    print("man-options: %s" % ("%d problems" % len(failures) if failures
                                 else "--help and the manual pages agree"))


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)

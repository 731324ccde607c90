# SPDX-License-Identifier: MIT
"""Helpers of the Python suites that run the built tool end to end.

A suite script lists its tests in a dict {name: function}; main() runs the
names given on the command line (all when none), each with a fresh
Scratch: a temporary directory holding an empty home (mode 700) and a
project (a directory with .git), and a clean environment, as a user's
shell has it. A test raises Fail (check()) or Skip; Skip is exit 77 when
every test skipped, which meson shows as SKIP.

Tests that need the kernel to enforce call need_enforcement(): without
Landlock they skip, or fail when LANDFENCE_TESTS_MUST_ENFORCE=1.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
RUN_TIMEOUT = 120


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def landfence():
    return os.environ["LANDFENCE_BIN"]


class Result:
    def __init__(self, argv, code, out, err):
        self.argv, self.code, self.out, self.err = argv, code, out, err

    def __str__(self):
        return "$ %s\nexit %d\nstdout:\n%s\nstderr:\n%s" % (
            shlex.join(self.argv), self.code, self.out[-6000:], self.err[-6000:])


class Scratch:
    def __init__(self):
        self.top = os.path.realpath(tempfile.mkdtemp(prefix="lf-py."))
        self.home = os.path.join(self.top, "home")
        self.proj = os.path.join(self.top, "proj")
        os.mkdir(self.home, 0o700)
        os.makedirs(os.path.join(self.proj, ".git"))
        self.path_dirs = ["/usr/local/bin", "/usr/bin", "/bin"]
        self.extra = {}

    def env(self, extra=None):
        env = {
            "PATH": ":".join(self.path_dirs),
            "HOME": self.home,
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "TMPDIR": "/tmp",
        }
        for name in ("LANDFENCE_ABI_MAX", "LANDFENCE_NO_NAMESPACES"):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(self.extra)
        env.update(extra or {})
        return env

    def run(self, argv, cwd=None, extra=None, timeout=RUN_TIMEOUT, stdin=None):
        proc = subprocess.run(argv, cwd=cwd or self.proj, env=self.env(extra),
                              input=stdin, capture_output=True, text=True,
                              timeout=timeout)
        res = Result(argv, proc.returncode, proc.stdout, proc.stderr)
        print(res)
        return res

    def lf(self, *args, **kw):
        return self.run([landfence(), *args], **kw)

    def sh(self, script, **kw):
        """landfence run -- sh -c SCRIPT, with the options in kw['opts']."""
        opts = kw.pop("opts", [])
        return self.lf("run", *opts, "--", "sh", "-c", script, **kw)

    def write(self, path, text, mode=None):
        path = path if os.path.isabs(path) else os.path.join(self.proj, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        if mode is not None:
            os.chmod(path, mode)
        return path

    def read(self, path):
        path = path if os.path.isabs(path) else os.path.join(self.proj, path)
        with open(path) as f:
            return f.read()

    def h(self, rel):
        return os.path.join(self.home, rel)

    def cleanup(self):
        subprocess.run(["chmod", "-R", "u+rwX", self.top], capture_output=True)
        shutil.rmtree(self.top, ignore_errors=True)


def need_enforcement(s):
    """Skips (or fails when enforcement is required) unless `run` applies
    a Landlock ruleset here."""
    res = s.lf("plan")
    check(res.code == 0, "landfence plan failed")
    m = re.search(r"^status: (\S+)", res.out, re.M)
    check(m is not None, "landfence plan printed no status line")
    if m.group(1) != "enforced":
        msg = "the sandbox is not enforced here (%s)" % m.group(1)
        if os.environ.get("LANDFENCE_TESTS_MUST_ENFORCE") == "1":
            raise Fail(msg + " and LANDFENCE_TESTS_MUST_ENFORCE=1")
        raise Skip(msg)


def denied(res):
    return "Permission denied" in res.err or "Permission denied" in res.out


def main(tests):
    sys.dont_write_bytecode = True
    if not os.environ.get("LANDFENCE_BIN"):
        sys.stderr.write("LANDFENCE_BIN is not set\n")
        return 2
    names = sys.argv[1:] or list(tests)
    failed = skipped = 0
    for name in names:
        if name not in tests:
            sys.stderr.write("unknown test %s, expected one of %s\n"
                             % (name, ", ".join(tests)))
            return 2
        s = Scratch()
        print("=== %s" % name)
        try:
            tests[name](s)
            print("PASS: %s" % name)
        except Skip as e:
            print("SKIP: %s: %s" % (name, e))
            skipped += 1
        except Fail as e:
            print("FAIL: %s: %s" % (name, e))
            failed += 1
        finally:
            s.cleanup()
    if failed:
        return 1
    return SKIP if skipped == len(names) else 0

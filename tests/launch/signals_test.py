#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Signals and job control of `landfence run`, through a real terminal.

Each test starts a shell on a new pseudo-terminal (its controlling
terminal, the shell the session leader), types into it as a user would
(Ctrl-C is byte 0x03, Ctrl-Z 0x1a: the terminal's line discipline turns
them into SIGINT and SIGTSTP for the foreground process group) and
checks how the shell saw the job end:

  sigint-group     SIGINT to the foreground process group ends
                   `landfence run -- sleep 30` by SIGINT (not exit 130)
  sigint-loop      Ctrl-C in `for ...; do landfence run ...; done` ends
                   the loop (bash stops a loop only when its job died by
                   SIGINT)
  ctrl-z-fg        Ctrl-Z stops the job, `fg` continues it (the program
                   runs again), Ctrl-C then ends it: $? is 130
  stop-program     a SIGSTOP sent to the program alone: landfence stops
                   too, so the shell sees the job stopped; `fg` continues
                   both
  no-core          a program killed by SIGQUIT: landfence ends by SIGQUIT
                   and leaves no core file

The sandbox's policy is `fallback allow` in a scratch project: what is
tested does not depend on Landlock, and runs the same at any ABI.
"""

import os
import pty
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True

TIMEOUT = 30


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def wait_for(pred, what, timeout=TIMEOUT):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise Fail("timed out waiting for %s" % what)


class Terminal:
    """A shell on a fresh pseudo-terminal; its output is collected."""

    def __init__(self, argv, cwd, env):
        self.out = b""
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.chdir(cwd)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.status = None

    def pump(self, timeout=0.05):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            self.out += data
            return bool(data)
        return True

    def expect(self, text, timeout=TIMEOUT):
        end = time.monotonic() + timeout
        while text.encode() not in self.out:
            if time.monotonic() > end:
                raise Fail("timed out waiting for %r; the terminal showed:\n%s"
                           % (text, self.text()))
            if not self.pump(0.1) and text.encode() not in self.out:
                raise Fail("the terminal closed before %r:\n%s"
                           % (text, self.text()))

    def send(self, data):
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def wait(self, timeout=TIMEOUT):
        end = time.monotonic() + timeout
        while True:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = st
                while self.pump(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                return st
            if time.monotonic() > end:
                raise Fail("the shell did not end; the terminal showed:\n%s"
                           % self.text())
            self.pump(0.05)

    def text(self):
        return self.out.decode(errors="replace")

    def close(self):
        if self.status is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)


class Scratch:
    def __init__(self):
        self.top = os.path.realpath(tempfile.mkdtemp(prefix="lf-signals."))
        self.home = os.path.join(self.top, "home")
        self.proj = os.path.join(self.top, "proj")
        os.mkdir(self.home, 0o700)
        os.makedirs(os.path.join(self.proj, ".landfence"))
        self.policy = os.path.join(self.top, "policy.json")
        with open(self.policy, "w") as f:
            f.write('{"version": 1, "fallback": "allow"}\n')
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": self.home,
            "TERM": "dumb",
            "LANG": "C.UTF-8",
            "PS1": "PROMPT> ",
            "LANDFENCE": os.environ["LANDFENCE_BIN"],
        }
        for name in ("LANDFENCE_ABI_MAX", "LANDFENCE_NO_NAMESPACES"):
            if name in os.environ:
                self.env[name] = os.environ[name]

    def run_cmd(self, program, arg=""):
        """The shell text that runs PROGRAM (shell text, its $0 ARG, shell
        text too) under landfence."""
        return '"$LANDFENCE" run -q -p %s -- sh -c %s %s' % (
            shlex.quote(self.policy), shlex.quote(program), arg)

    def path(self, name):
        return os.path.join(self.proj, name)

    def read(self, name):
        try:
            with open(self.path(name)) as f:
                return f.read().strip()
        except OSError:
            return ""

    def cleanup(self):
        shutil.rmtree(self.top, ignore_errors=True)


def sigint_group(s):
    """SIGINT to the foreground process group, as a terminal sends it."""
    proc = subprocess.Popen(
        [os.environ["LANDFENCE_BIN"], "run", "-q", "-p", s.policy, "--", "sh",
         "-c", ": > started; exec sleep 30"],
        cwd=s.proj, env=s.env, start_new_session=True)
    try:
        wait_for(lambda: os.path.exists(s.path("started")), "the program")
        os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(code == -signal.SIGINT,
          "landfence run -- sleep 30 ended with %d after SIGINT to its group, "
          "expected death by SIGINT (%d)" % (code, -signal.SIGINT))


def sigint_loop(s):
    """Ctrl-C in a shell loop of landfence runs ends the loop."""
    loop = ("for i in 1 2 3; do %s; echo \"status $?\"; done; echo loop-ended"
            % s.run_cmd(': > "started.$0"; exec sleep 30', "$i"))
    t = Terminal(["/bin/bash", "--norc", "--noprofile", "-c", loop], s.proj,
                 s.env)
    try:
        wait_for(lambda: os.path.exists(s.path("started.1")), "the first run")
        t.send(b"\x03")
        st = t.wait()
        check(os.WIFSIGNALED(st) and os.WTERMSIG(st) == signal.SIGINT,
              "bash did not end by SIGINT (status %#x); the terminal showed:\n%s"
              % (st, t.text()))
        check("status" not in t.text() and "loop-ended" not in t.text(),
              "the loop went on after Ctrl-C:\n%s" % t.text())
        check(not os.path.exists(s.path("started.2")),
              "a second run started after Ctrl-C")
    finally:
        t.close()


TICKER = "echo $$ > pid; i=0; while :; do i=$((i+1)); echo $i > tick; sleep 0.05; done"


def ticks_advance(s):
    first = s.read("tick")
    wait_for(lambda: s.read("tick") not in ("", first), "the program to run")


def ticks_stopped(s):
    """Whether the ticker stays still for half a second."""
    before = s.read("tick")
    time.sleep(0.5)
    return s.read("tick") == before


def interactive(s):
    t = Terminal(["/bin/bash", "--norc", "--noprofile", "-i"], s.proj, s.env)
    t.expect("PROMPT> ")
    return t


def finish(t, s):
    """Ctrl-C ends the job; its status is 130, the shell goes on."""
    t.send(b"\x03")
    t.expect("PROMPT> ")
    t.out = b""
    # What is typed is echoed: the quotes keep it apart from the answer.
    t.send("echo \"R\"\"C=$?\"\n")
    t.expect("RC=")
    t.expect("PROMPT> ")
    check("RC=130" in t.text(), "the job's status after Ctrl-C is not 130:\n%s"
          % t.text())
    t.send("exit 0\n")
    st = t.wait()
    check(os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0,
          "the shell did not exit normally: %#x" % st)


def ctrl_z_fg(s):
    t = interactive(s)
    try:
        t.send(s.run_cmd(TICKER) + "\n")
        wait_for(lambda: s.read("tick") != "", "the program to start")
        ticks_advance(s)
        t.send(b"\x1a")
        t.expect("Stopped")
        t.expect("PROMPT> ")
        check(ticks_stopped(s), "the program still runs after Ctrl-Z")
        t.send("fg\n")
        ticks_advance(s)
        finish(t, s)
    finally:
        t.close()


def stop_program(s):
    t = interactive(s)
    try:
        t.send(s.run_cmd(TICKER) + "\n")
        wait_for(lambda: s.read("pid") != "" and s.read("tick") != "",
                 "the program to start")
        os.kill(int(s.read("pid")), signal.SIGSTOP)
        t.expect("Stopped")
        t.expect("PROMPT> ")
        check(ticks_stopped(s), "the program runs although it was stopped")
        t.send("fg\n")
        ticks_advance(s)
        finish(t, s)
    finally:
        t.close()


def no_core(s):
    # An ignored SIGQUIT is inherited through landfence, as through any
    # exec: a shell's background job (`make check &`) ignores it. The
    # program is to die by it here, so it starts with the default action.
    proc = subprocess.run(
        [os.environ["LANDFENCE_BIN"], "run", "-q", "-p", s.policy, "--", "sh",
         "-c", "kill -QUIT $$"],
        cwd=s.proj, env=s.env, timeout=TIMEOUT,
        preexec_fn=lambda: signal.signal(signal.SIGQUIT, signal.SIG_DFL))
    check(proc.returncode == -signal.SIGQUIT,
          "landfence did not end by SIGQUIT: %d" % proc.returncode)
    cores = [f for f in os.listdir(s.proj) if f.startswith("core")]
    check(not cores, "a core file was left: %s" % cores)


TESTS = {
    "sigint-group": sigint_group,
    "sigint-loop": sigint_loop,
    "ctrl-z-fg": ctrl_z_fg,
    "stop-program": stop_program,
    "no-core": no_core,
}


def main():
    if not os.environ.get("LANDFENCE_BIN"):
        sys.stderr.write("signals_test.py: LANDFENCE_BIN is not set\n")
        return 2
    names = sys.argv[1:] or list(TESTS)
    failed = 0
    for name in names:
        s = Scratch()
        try:
            TESTS[name](s)
            print("PASS: %s" % name)
        except Fail as e:
            print("FAIL: %s: %s" % (name, e))
            failed += 1
        finally:
            s.cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real agents under `landfence run`, as users install and run them.

Usage: agent_test.py TEST   (the tests are listed in TESTS below)

Each test makes a scratch home and a scratch git project in a temporary
directory, runs the agent there under the embedded default (or the policy
the test names) with a clean environment, and checks what happened on disk,
in the agent's output and, for Claude Code, in what the client sent to a
loopback stand-in of the Anthropic Messages API (anthropic_standin.py).

Where the agents come from: the npm user prefix $LANDFENCE_AGENTS_PREFIX
(default /var/cache/landfence-agents), filled by `tools/deps agents` with the
versions pinned in versions.txt. Without it a test skips (77), unless
LANDFENCE_TESTS_AGENTS=1 (CI), where a missing agent fails.

Without enforcement (no Landlock, LANDFENCE_ABI_MAX=0 as under
tools/valgrind) the sandbox cannot refuse anything, so the tests skip;
LANDFENCE_TESTS_MUST_ENFORCE=1 turns that skip into a failure.
"""

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

# The tests run from the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import anthropic_standin  # noqa: E402

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PREFIX = "/var/cache/landfence-agents"
# A run of an agent never takes this long offline; the limit only keeps a
# hung client from hanging the suite (meson's own timeout is longer).
RUN_TIMEOUT = 150
DENIED = re.compile(r"EACCES|Permission denied|permission denied")


class Skip(Exception):
    pass


class Fail(Exception):
    """A failed check."""


def env_on(name):
    return os.environ.get(name, "0") == "1"


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def denied_line(text):
    """The first line of TEXT that reports a Permission denied, or None."""
    for line in text.splitlines():
        if DENIED.search(line):
            return line.strip()
    return None


def pins():
    """{command: (package, version)} from versions.txt."""
    found = {}
    with open(os.path.join(HERE, "versions.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            spec, command = line.split()
            package, version = spec.rsplit("@", 1)
            found[command] = (package, version)
    return found


def agent_path(command):
    prefix = os.environ.get("LANDFENCE_AGENTS_PREFIX", DEFAULT_PREFIX)
    path = os.path.join(prefix, "node_modules", ".bin", command)
    if not os.access(path, os.X_OK):
        if env_on("LANDFENCE_TESTS_AGENTS"):
            raise Fail("%s is not installed in %s (run: tools/deps agents)"
                       % (command, prefix))
        raise Skip("%s is not installed in %s (tools/deps agents installs it)"
                   % (command, prefix))
    return path


class Scratch:
    """A scratch home with a secret, and a git project inside the scratch
    directory (not inside the home: the project root may not hold it)."""

    def __init__(self):
        self.top = os.path.realpath(tempfile.mkdtemp(prefix="lf-agents."))
        try:
            self.make()
        except BaseException:
            self.cleanup()
            raise

    def make(self):
        self.home = os.path.join(self.top, "home")
        self.proj = os.path.join(self.top, "proj")
        os.mkdir(self.home, 0o700)
        os.mkdir(self.proj)
        self.secret = "lf-secret-" + secrets.token_hex(16)
        self.secret_path = os.path.join(self.home, "secret.txt")
        with open(self.secret_path, "w") as f:
            f.write(self.secret + "\n")
        self.git("init", "-q", ".")
        self.git("config", "user.name", "Test")
        self.git("config", "user.email", "test@example.org")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args):
        return subprocess.run(["git", *args], cwd=self.proj, check=True,
                              env=self.env(), capture_output=True,
                              text=True).stdout

    def write(self, rel, text):
        path = os.path.join(self.proj, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def read(self, rel):
        with open(os.path.join(self.proj, rel)) as f:
            return f.read()

    def env(self, extra=None):
        """A clean environment, as a user's shell would have it."""
        prefix = os.environ.get("LANDFENCE_AGENTS_PREFIX", DEFAULT_PREFIX)
        env = {
            "PATH": os.path.join(prefix, "node_modules", ".bin")
            + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": self.home,
            "TERM": "dumb",
            "LANG": "C.UTF-8",
            "TMPDIR": "/tmp",
        }
        # The suites' own controls: a capped ABI, no mount namespaces.
        for name in ("LANDFENCE_ABI_MAX", "LANDFENCE_NO_NAMESPACES"):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(extra or {})
        return env

    def cleanup(self):
        shutil.rmtree(self.top, ignore_errors=True)


def landfence():
    return os.environ["LANDFENCE_BIN"]


def run(argv, scratch, extra_env=None, show=True):
    """Runs ARGV in the project; returns (status, stdout, stderr), and
    prints them when SHOW."""
    proc = subprocess.Popen(argv, cwd=scratch.proj, env=scratch.env(extra_env),
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise Fail("%s did not finish in %d s\nstdout: %s\nstderr: %s"
                   % (shlex.join(argv), RUN_TIMEOUT, out, err))
    print("$ " + shlex.join(argv))
    print("status: %d" % proc.returncode)
    if show:
        print("stdout: " + out.rstrip()[-4000:])
        print("stderr: " + err.rstrip()[-4000:])
    return proc.returncode, out, err


def need_enforcement(scratch):
    """Skips (or fails, when enforcement is required) unless `run` would
    apply a Landlock ruleset here."""
    status, out, err = run([landfence(), "plan"], scratch, show=False)
    check(status == 0, "landfence plan failed: %s" % err)
    m = re.search(r"^status: (\S+)", out, re.M)
    check(m is not None, "landfence plan printed no status line")
    print(m.group(0))
    if m.group(1) != "enforced":
        msg = "the sandbox is not enforced here (%s)" % m.group(1)
        if env_on("LANDFENCE_TESTS_MUST_ENFORCE"):
            raise Fail(msg + " and LANDFENCE_TESTS_MUST_ENFORCE=1")
        raise Skip(msg)


# ---------------------------------------------------------------- --version

# What a user who used the agent before has in the home besides what
# `--version` makes there: Codex keeps its login and configuration in
# ~/.codex (CODEX_HOME), made by `codex login`, not by `--version`.
WARM_DIRS = {"codex": [".codex"]}


def version_test(command, warm):
    """`COMMAND --version` from the user prefix under `landfence run`.
    warm: the scratch home first gets what the agent makes there when run
    without landfence (a user who used it before); otherwise it is empty
    (a first run)."""
    path = agent_path(command)
    package, version = pins()[command]
    scratch = Scratch()
    try:
        need_enforcement(scratch)
        if warm:
            status, _, _ = run([path, "--version"], scratch)
            check(status == 0, "%s --version fails even without landfence"
                  % command)
            for d in WARM_DIRS.get(command, ()):
                os.makedirs(os.path.join(scratch.home, d), 0o700, exist_ok=True)
        status, out, err = run([landfence(), "run", "--", command,
                                "--version"], scratch)
        denied = denied_line(out + err)
        check(status == 0, "landfence run -- %s --version exited %d: %s"
              % (command, status, denied or err.strip()[-300:]))
        check(version in out, "%s --version printed no %s (%s@%s)"
              % (command, version, package, version))
        check(denied is None, "%s --version met a Permission denied: %s"
              % (command, denied))
    finally:
        scratch.cleanup()


# ------------------------------------------------------------ Claude Code

CLAUDE_ENV = {
    "ANTHROPIC_API_KEY": "sk-ant-standin-not-a-key",
    # No telemetry, error reports, update checks or connectivity probe:
    # the stand-in is the only peer.
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
}
CLAUDE_TOOLS = ["Read", "Write", "Edit", "Bash"]


def claude_run(scratch, turns, warm=True):
    """Runs `claude -p` under `landfence run` against a stand-in playing
    TURNS. Returns (status, the parsed JSON result or None, stderr, the
    request log as a list, the request log's text)."""
    print("claude: %s" % agent_path("claude"))
    need_enforcement(scratch)
    if warm:
        # A user who ran Claude Code before has ~/.claude and ~/.claude.json.
        os.mkdir(os.path.join(scratch.home, ".claude"), 0o700)
        fd = os.open(os.path.join(scratch.home, ".claude.json"),
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"{}\n")
        os.close(fd)
    log_path = os.path.join(scratch.top, "requests.jsonl")
    server = anthropic_standin.StandIn(turns, log_path).start()
    try:
        env = dict(CLAUDE_ENV, ANTHROPIC_BASE_URL=server.base_url)
        # As root, --dangerously-skip-permissions and the bypassPermissions
        # mode are refused; naming the tools is the supported way to let
        # them run without a prompt in non-interactive mode.
        argv = [landfence(), "run", "--", "claude", "-p",
                "Do the scripted steps.", "--output-format", "json",
                "--allowedTools", *CLAUDE_TOOLS]
        status, out, err = run(argv, scratch, env)
    finally:
        server.shutdown()
        server.server_close()
    try:
        result = json.loads(out)
    except ValueError:
        result = None
    log = anthropic_standin.read_log(log_path)
    for e in log:
        print("request %d: %s %s kind=%s turn=%s" % (e["seq"], e["method"],
              e["path"], e["kind"], e["turn"]))
    with open(log_path, encoding="utf-8") as f:
        raw_log = f.read()
    return status, result, err, log, raw_log


def results_by_id(log):
    """{tool_use_id: tool_result block} over every request of the log."""
    found = {}
    for e in log:
        for block in anthropic_standin.tool_results(e["body"] or {}):
            found[block.get("tool_use_id")] = block
    return found


def scenario_ids(turns):
    ids = []
    sc = anthropic_standin.Scenario(turns)
    for k, turn in enumerate(turns):
        for i, block in enumerate(turn):
            if block.get("type") == "tool_use":
                ids.append(sc.tool_use_id(k, i))
    return ids


def text(s):
    return {"type": "text", "text": s}


def tool(name, **inp):
    return {"type": "tool_use", "name": name, "input": inp}


def claude_offline(warm=True):
    """Read, Write, Edit, a git commit and a read of a file outside the
    project, under the embedded default."""
    scratch = Scratch()
    try:
        notes = scratch.write("notes.txt", "hello world\nsecond line\n")
        scratch.git("add", "-A")
        scratch.git("commit", "-q", "-m", "initial")
        new = os.path.join(scratch.proj, "docs", "new.txt")
        message = "agent: add docs/new.txt and edit notes.txt"
        turns = [
            [text("Reading the notes."), tool("Read", file_path=notes)],
            [tool("Write", file_path=new, content="written by the agent\n")],
            [tool("Edit", file_path=notes, old_string="hello world",
                  new_string="hello landfence", replace_all=False)],
            [tool("Bash", command="git add -A && git commit -q -m %s && "
                  "git log -1 --format=%%s" % shlex.quote(message),
                  description="Commit the changes")],
            [tool("Bash", command="cat %s" % shlex.quote(scratch.secret_path),
                  description="Read a file outside the project")],
            [text("All steps done.")],
        ]
        ids = scenario_ids(turns)
        status, result, err, log, raw_log = claude_run(scratch, turns,
                                                       warm=warm)
        denied = denied_line(err)
        check(status == 0, "landfence run -- claude -p exited %d: %s"
              % (status, denied or err.strip()[-300:]))
        check(result is not None, "claude printed no JSON result")
        check(result.get("is_error") is False and
              result.get("result") == "All steps done.",
              "the run did not end with the scenario's last turn: %r"
              % {k: result.get(k) for k in ("is_error", "result",
                                            "num_turns")})
        unknown = [e["method"] + " " + e["path"] for e in log
                   if e["kind"] == "unknown"]
        check(not unknown, "the client called what the stand-in does not "
              "serve: %s" % unknown)
        turns_played = [e["turn"] for e in log if e["kind"] == "turn"]
        check(turns_played[-1:] == [len(turns) - 1],
              "the stand-in did not play the whole scenario: %s" % turns_played)
        results = results_by_id(log)
        for k, tid in enumerate(ids):
            check(tid in results, "no tool_result came back for step %d (%s)"
                  % (k, turns[k][-1]["name"]))
        read, write, edit, commit, outside = (results[t] for t in ids)
        rt = anthropic_standin.result_text
        check("hello world" in rt(read) and not read.get("is_error"),
              "Read's result lacks the file: %r" % rt(read))
        check(not write.get("is_error"), "Write failed: %r" % rt(write))
        check(not edit.get("is_error"), "Edit failed: %r" % rt(edit))
        check(not commit.get("is_error") and message in rt(commit),
              "the commit's result lacks its message: %r" % rt(commit))
        check(outside.get("is_error") is True and
              "Permission denied" in rt(outside),
              "reading %s did not come back as Permission denied: %r"
              % (scratch.secret_path, rt(outside)))
        # The effects on disk.
        check(scratch.read("docs/new.txt") == "written by the agent\n",
              "docs/new.txt does not hold what Write wrote")
        check(scratch.read("notes.txt") == "hello landfence\nsecond line\n",
              "the Edit is not in notes.txt: %r" % scratch.read("notes.txt"))
        check(scratch.git("log", "-1", "--format=%s").strip() == message,
              "the last commit is not the agent's")
        files = scratch.git("show", "--name-only", "--format=", "HEAD").split()
        check(sorted(files) == ["docs/new.txt", "notes.txt"],
              "the agent's commit holds %s" % files)
        check(scratch.git("status", "--porcelain") == "",
              "the work tree is not clean after the commit")
        # What never left the sandbox.
        check(scratch.secret not in raw_log,
              "the secret reached the stand-in")
        check(scratch.secret not in (json.dumps(result) + err),
              "the secret is in claude's output")
        if not warm:
            # A first run: the state Claude Code keeps must have been kept.
            state = os.path.join(scratch.home, ".claude.json")
            check(os.path.isfile(state),
                  "no ~/.claude.json after a first run: Claude Code's state "
                  "was lost")
            sid = result.get("session_id", "")
            projects = os.path.join(scratch.home, ".claude", "projects")
            found = [f for _, _, fs in os.walk(projects) for f in fs
                     if f == sid + ".jsonl"]
            check(found, "no transcript of session %s below ~/.claude/"
                  "projects after a first run" % sid)
    finally:
        scratch.cleanup()


HOOK_MATCHER = "Bash|Read|Glob|Grep|Edit|MultiEdit|Write|NotebookEdit"


def project_policy(scratch, host_read):
    """A trusted project policy: the embedded default's rules plus a deny
    of `touch`. (A file deny inside the project would fence the whole
    project's `**` allow of its class, doc/hook.md; a bash rule is not
    part of the kernel's plan.)"""
    policy = {
        "version": 1,
        "fallback": "deny",
        "rules": [
            {"effect": "allow", "capability": "read", "paths": ["**"]},
            {"effect": "allow", "capability": "write", "paths": ["**"]},
            {"effect": "allow", "capability": "delete", "paths": ["**"]},
            {"effect": "allow", "capability": "bash", "commands": [
                {"effect": "deny", "prefix": "touch"}]},
        ],
    }
    if host_read:
        policy["host"] = {"read": host_read}
    scratch.write(".landfence/policy.json", json.dumps(policy, indent=2))
    status, out, err = run([landfence(), "trust"], scratch)
    check(status == 0, "landfence trust failed: %s" % err)


def install_hook(scratch):
    hook = "%s hook claude -C \"$CLAUDE_PROJECT_DIR\"" % shlex.quote(landfence())
    settings = {"hooks": {"PreToolUse": [{
        "matcher": HOOK_MATCHER,
        "hooks": [{"type": "command", "command": hook, "timeout": 30}],
    }]}}
    scratch.write(".claude/settings.json", json.dumps(settings, indent=2))


def claude_hook(grant_landfence):
    """The landfence hook in the project's .claude/settings.json, under
    `landfence run`: a policy deny (a `touch`, and a Read outside the
    project, denied by the fallback) reaches the model as the tool's error
    and the tool does not run; what the policy allows runs.
    grant_landfence: the policy grants the landfence executable (a build
    folder is not a host grant); without, landfence itself must be."""
    scratch = Scratch()
    try:
        project_policy(scratch, [landfence()] if grant_landfence else None)
        install_hook(scratch)
        scratch.git("add", "-A")
        scratch.git("commit", "-q", "-m", "initial")
        marker = os.path.join(scratch.proj, "hook-marker")
        allowed = os.path.join(scratch.proj, "allowed.txt")
        turns = [
            [tool("Bash", command="touch %s" % marker,
                  description="Touch a marker")],
            [tool("Read", file_path=scratch.secret_path)],
            [tool("Bash", command="echo allowed > %s" % allowed,
                  description="Write a file")],
            [text("Hook steps done.")],
        ]
        ids = scenario_ids(turns)
        status, result, err, log, raw_log = claude_run(scratch, turns)
        check(status == 0, "landfence run -- claude -p exited %d: %s"
              % (status, err.strip()[-300:]))
        check(result is not None and result.get("result") == "Hook steps done.",
              "the run did not end with the scenario's last turn")
        results = results_by_id(log)
        for k, tid in enumerate(ids):
            check(tid in results, "no tool_result came back for step %d" % k)
        touch, read, echo = (results[t] for t in ids)
        rt = anthropic_standin.result_text
        # The hook's failure mode under `run` when landfence cannot execute
        # there: the shell exits 126, Claude Code takes that as a
        # non-blocking error and runs the tool, so the marker appears.
        blocked = False
        if os.path.exists(marker):
            blocked = landfence_blocked(scratch)
        check(touch.get("is_error") is True and "landfence: deny" in rt(touch)
              and "touch" in rt(touch),
              "the hook's deny of `touch` did not reach the model: %r%s"
              % (rt(touch), "; the hook cannot run: landfence itself is not "
                 "executable inside the sandbox (sh: exit 126, Permission "
                 "denied), and Claude Code ran the tool" if blocked else ""))
        check(not os.path.exists(marker), "the denied `touch` ran")
        # Without the hook the Read would run and meet the kernel's EACCES;
        # with it, the tool never runs and the model gets the hook's reason.
        check(read.get("is_error") is True and "landfence: deny" in rt(read)
              and scratch.secret_path in rt(read),
              "the hook's deny of the Read did not reach the model: %r"
              % rt(read))
        check(not echo.get("is_error") and os.path.isfile(allowed),
              "the allowed Bash did not run: %r" % rt(echo))
        denials = result.get("permission_denials") or []
        check(sorted(d.get("tool_name") for d in denials) == ["Bash", "Read"],
              "permission_denials is %r, expected the Bash and the Read"
              % denials)
        check(scratch.secret not in raw_log, "the secret reached the stand-in")
    finally:
        scratch.cleanup()


def landfence_blocked(scratch):
    """Whether landfence itself cannot be executed inside `landfence run`
    (exit 126, Permission denied): what makes a hook silent."""
    inner = "%s --version" % shlex.quote(landfence())
    status, _, err = run([landfence(), "run", "-q", "--", "sh", "-c", inner],
                         scratch)
    return status == 126 and denied_line(err) is not None


def landfence_inside_run():
    """landfence from a build folder, run inside `landfence run` (what the
    hook does): `landfence check bash -- ls` must answer allow."""
    scratch = Scratch()
    try:
        need_enforcement(scratch)
        inner = "%s check bash -- ls" % shlex.quote(landfence())
        status, out, err = run([landfence(), "run", "--", "sh", "-c", inner],
                               scratch)
        denied = denied_line(err)
        check(status == 0 and out.startswith("allow"),
              "landfence check inside landfence run exited %d: %s"
              % (status, denied or err.strip()[-300:]))
    finally:
        scratch.cleanup()


# -------------------------------------------------------------------- table

TESTS = {
    # name: (function, args)
    "claude-version": (version_test, ("claude", True)),
    "codex-version": (version_test, ("codex", True)),
    "gemini-version": (version_test, ("gemini", True)),
    "opencode-version": (version_test, ("opencode", True)),
    "codex-firstrun": (version_test, ("codex", False)),
    "gemini-firstrun": (version_test, ("gemini", False)),
    "opencode-firstrun": (version_test, ("opencode", False)),
    "claude-offline": (claude_offline, (True,)),
    "claude-firstrun": (claude_offline, (False,)),
    "claude-hook": (claude_hook, (True,)),
    "claude-hook-builddir": (claude_hook, (False,)),
    "landfence-inside-run": (landfence_inside_run, ()),
}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in TESTS:
        sys.stderr.write("usage: agent_test.py TEST, TEST one of: %s\n"
                         % ", ".join(TESTS))
        return 2
    if not os.environ.get("LANDFENCE_BIN"):
        sys.stderr.write("agent_test.py: LANDFENCE_BIN is not set\n")
        return 2
    name = sys.argv[1]
    func, args = TESTS[name]
    try:
        func(*args)
    except Skip as e:
        print("SKIP: %s" % e)
        return SKIP
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS: %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())

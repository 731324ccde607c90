#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`landfence run` as a new user meets it: first runs of agents, what run
says it dropped, policies that extend the embedded default, the starter
policy of `init`. Real sandboxes on scratch homes and projects; the
refusals checked are the kernel's.

Usage: run_test.py [TEST...]
"""

import json
import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.dont_write_bytecode = True
from lftest import check, denied, main, need_enforcement  # noqa: E402


def fake_agent(s, name, script):
    """An executable called NAME (so run adds its profile) in a bin
    directory outside the home and the project."""
    bindir = os.path.join(s.top, "agentbin")
    path = s.write(os.path.join(bindir, name), "#!/bin/sh\n" + script, 0o755)
    s.path_dirs.insert(0, bindir)
    return path


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def firstrun_profiles(s):
    """An empty home: the profile's places are made before the program
    starts (0700 directories, 0600 files, ~/.claude.json holding {}), the
    agent keeps its state, run says what it made; plan, before, says run
    will make them and makes nothing."""
    need_enforcement(s)
    fake_agent(s, "claude",
               'cat "$HOME/.claude.json" && echo state > "$HOME/.claude/kept" && '
               'echo c > "$HOME/.cache/claude/c" && echo ok\n')
    res = s.lf("plan", "--profile", "claude")
    check(res.code == 0 and "does not exist yet: `landfence run` makes it" in res.out,
          "plan does not say that run makes the missing profile places")
    check(not os.path.exists(s.h(".claude")), "plan made ~/.claude")
    res = s.lf("run", "--", "claude")
    check(res.code == 0, "a first run of claude failed")
    check(res.out.splitlines()[:2] == ["{}", "ok"],
          "~/.claude.json does not hold {}: %r" % res.out)
    check(s.read(s.h(".claude/kept")) == "state\n", "the state was not kept")
    check(mode(s.h(".claude")) == 0o700 and mode(s.h(".cache/claude")) == 0o700,
          "profile directories are not 0700")
    check(mode(s.h(".claude.json")) == 0o600, "~/.claude.json is not 0600")
    check("made %s (profile claude) before the program started" % s.h(".claude") in res.err,
          "run did not say what it made")
    # Optional places are not made: a backup, the native install.
    check(not os.path.exists(s.h(".claude.json.backup")) and
          not os.path.exists(s.h(".local/share/claude")),
          "an optional profile place was made")
    # The second run has nothing to make, and says nothing about it.
    res = s.lf("run", "--", "claude")
    check(res.code == 0 and "(profile claude) before" not in res.err,
          "a second run made a profile place")
    # The rest of the home stays out of reach.
    s.write(s.h("secret.txt"), "secret\n")
    fake_agent(s, "gemini", 'mkdir -p "$HOME/.gemini/tmp" && cat "$HOME/secret.txt"\n')
    res = s.lf("run", "-q", "--", "gemini")
    check(res.code != 0 and denied(res) and "secret\n" not in res.out,
          "the home's other files were readable")
    check(os.path.isdir(s.h(".gemini/tmp")), "gemini could not use ~/.gemini")
    check("made " not in res.err, "-q did not silence the notes")


def firstrun_unmakeable(s):
    """A profile place that cannot be made is skipped, and run says so
    (one note per place, silenced by -q); one below a directory of
    another user is not made."""
    need_enforcement(s)
    s.write(s.h(".cache"), "a file where a directory should be\n")
    fake_agent(s, "codex", 'echo run > "$HOME/.codex/x"\n')
    res = s.lf("run", "--", "codex")
    check(res.code == 0, "codex failed although ~/.codex could be made")
    want = "skipped read+write %s (profile codex: Not a directory)" % s.h(".cache/codex")
    check(want in res.err, "run did not report the skipped profile place")
    res = s.lf("run", "-q", "--", "codex")
    check("skipped" not in res.err, "-q did not silence the skipped place")
    if os.geteuid() == 0:
        other = s.h(".local")
        os.mkdir(other, 0o755)
        os.chown(other, 12345, 12345)
        fake_agent(s, "opencode", "true\n")
        res = s.lf("run", "--", "opencode")
        check(res.code == 0, "opencode failed")
        check("skipped read+write %s (profile opencode: does not exist, and cannot be made: "
              "Operation not permitted)" % s.h(".local/share/opencode") in res.err,
              "a place below another user's directory was not skipped")
        check(not os.path.exists(s.h(".local/share")), "it was made anyway")


DROPPING = """{
  "version": 1,
  "fallback": "deny",
  "rules": [
    { "effect": "allow", "capability": "read", "paths": ["**"] },
    { "effect": "allow", "capability": "write", "paths": ["**"] },
    { "effect": "deny", "capability": "write", "paths": ["vendor/**"] }
  ],
  "host": { "read": ["/nonexistent-landfence-test"] }
}
"""


def dropped_notes(s):
    """run names every dropped allow (the allow and the fence, with their
    places) and every skipped place before the program starts, with a
    pointer to plan; -q silences them."""
    need_enforcement(s)
    pol = s.write(os.path.join(s.top, "dropping.json"), DROPPING)
    res = s.sh("echo x > f", opts=["-p", pol])
    check(res.code != 0 and denied(res), "the dropped write was not refused")
    want = ("dropped write on %s (allow at %s:6:5): it overlaps the deny of %s/vendor at "
            "%s:7:5, which Landlock cannot carve out; see `landfence plan`"
            % (s.proj, pol, s.proj, pol))
    check(want in res.err, "run did not name the dropped allow and its fence")
    check("skipped read /nonexistent-landfence-test (host.read /nonexistent-landfence-test"
          in res.err and "No such file or directory); see `landfence plan`" in res.err,
          "run did not name the skipped host path")
    res = s.sh("cat .git/HEAD 2>/dev/null; true", opts=["-q", "-p", pol])
    check(res.code == 0 and "dropped" not in res.err and "skipped" not in res.err,
          "-q did not silence the notes")


def extends_default(s):
    """{"version":1,"extends":"default","host":{"read":[DIR]}} keeps the
    project writable, makes DIR readable and keeps the rest of the home
    out of reach; without "extends" the same policy grants nothing in the
    project, and run warns (also with -q)."""
    need_enforcement(s)
    ref = os.path.join(s.top, "reference")
    s.write(os.path.join(ref, "doc.txt"), "reference\n")
    s.write(s.h("secret.txt"), "secret\n")
    pol = {"version": 1, "extends": "default", "host": {"read": [ref]}}
    path = s.write(os.path.join(s.top, "extends.json"), json.dumps(pol))
    res = s.sh("echo written > new.txt && cat new.txt %s/doc.txt" % ref,
               opts=["-q", "-p", path])
    check(res.code == 0 and res.out == "written\nreference\n",
          "the project or DIR is not reachable under extends")
    res = s.sh("cat %s" % s.h("secret.txt"), opts=["-q", "-p", path])
    check(res.code != 0 and denied(res) and "secret" not in res.out,
          "the rest of the home is reachable under extends")
    res = s.sh("echo x > %s" % os.path.join(ref, "w"), opts=["-q", "-p", path])
    check(res.code != 0 and denied(res), "host.read made DIR writable")
    res = s.lf("plan", "-p", path)
    check(res.code == 0 and "<embedded> (project) %s (local) (\"extends\": \"default\")"
          % path in res.out, "plan does not show the embedded default as a layer")
    # The same without "extends" replaces the default.
    del pol["extends"]
    path = s.write(os.path.join(s.top, "replaces.json"), json.dumps(pol))
    res = s.sh("cat .git/HEAD", opts=["-q", "-p", path])
    check(res.code != 0, "the project is readable without extends")
    check("WARNING: the policy grants nothing in the project %s" % s.proj in res.err
          and "\"extends\": \"default\" builds on it" in res.err,
          "run did not warn about a policy that grants nothing in the project")


def init_starter(s):
    """`landfence init` writes a starter that extends the default: the
    project is writable under it, a git push is denied by its shell
    rule."""
    need_enforcement(s)
    res = s.lf("init")
    check(res.code == 0, "init failed")
    text = s.read(".landfence/policy.json")
    check('"extends": "default"' in text, "the starter does not extend the default")
    res = s.sh("echo hi > a.txt && cat a.txt", opts=["-q"])
    check(res.code == 0 and res.out == "hi\n", "the project is not writable under the starter")
    res = s.lf("check", "bash", "--", "git push origin main")
    check(res.code == 1 and res.out.startswith("deny"), "the starter does not deny git push")
    res = s.lf("plan")
    check("<embedded> (project)" in res.out and ".landfence/policy.json (project)" in res.out,
          "plan does not list the default and the starter as layers")


def git(s, cwd, *args):
    import subprocess
    env = s.env({"GIT_CONFIG_NOSYSTEM": "1"})
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e", "-c",
                    "protocol.file.allow=always", *args], cwd=cwd, env=env, check=True,
                   capture_output=True)


def git_repo(s, name):
    path = os.path.join(s.top, name)
    os.makedirs(path)
    git(s, path, "init", "-q", ".")
    s.write(os.path.join(path, "a.txt"), "a\n")
    git(s, path, "add", "a.txt")
    git(s, path, "commit", "-q", "-m", "init")
    return path


GIT_ID = "git -c user.name=t -c user.email=t@e "


def git_worktree(s):
    """A linked worktree (its .git a file naming main/.git/worktrees/wt):
    git status and git commit work inside it, while the main repository's
    hooks and config stay unwritable and its work tree unreadable."""
    need_enforcement(s)
    main_repo = git_repo(s, "main")
    wt = os.path.join(s.top, "wt")
    git(s, main_repo, "worktree", "add", "-q", wt)
    res = s.sh(GIT_ID + "status --short && echo b > b.txt && " + GIT_ID + "add b.txt && " +
               GIT_ID + "commit -q -m in-worktree && " + GIT_ID + "log -1 --format=%s",
               cwd=wt)
    check(res.code == 0 and res.out.strip().endswith("in-worktree"),
          "git status or git commit failed in the linked worktree")
    hooks = os.path.join(main_repo, ".git/hooks")
    res = s.sh("echo evil > %s/pre-commit; echo '[core]' >> %s/.git/config; cat %s/a.txt"
               % (hooks, main_repo, main_repo), cwd=wt)
    check(res.err.count("Permission denied") == 3, "the main repository's hooks, config or "
          "work tree are reachable from the worktree")
    check(not os.path.exists(os.path.join(hooks, "pre-commit")), "a hook was planted")
    res = s.lf("plan", cwd=wt)
    check("read+write git          %s/.git/worktrees/wt" % main_repo in res.out and
          "read       git          %s/.git  (" % main_repo in res.out,
          "plan does not list the worktree's grants")


def git_submodule(s):
    """A submodule's checkout as the project: git status works, and git
    add fails with git's Permission denied, which run explains first."""
    need_enforcement(s)
    lib = git_repo(s, "lib")
    sup = git_repo(s, "super")
    git(s, sup, "submodule", "add", "-q", lib, "sub")
    sub = os.path.join(sup, "sub")
    res = s.sh("git status --short && echo status-ok", cwd=sub)
    check(res.code == 0 and "status-ok" in res.out, "git status failed in the submodule")
    res = s.sh("echo c > c.txt && git add c.txt", cwd=sub)
    check(res.code != 0 and "index.lock': Permission denied" in res.err,
          "git add did not fail as documented")
    check("names the git directory %s/.git/modules/sub outside the project" % sup in res.err
          and "git add and git commit fail there" in res.err, "run did not say why")


def git_outside_notes(s):
    """`git worktree add ../wt` and `git submodule add /local/path` outside
    the grants: run says why before git fails."""
    need_enforcement(s)
    lib = git_repo(s, "lib2")
    git(s, s.proj, "init", "-q", ".")
    res = s.lf("run", "--", "git", "-C", ".", "worktree", "add", "-b", "x", "../wt")
    check(res.code != 0, "git worktree add outside the project succeeded")
    check("note: git worktree add ../wt: %s lies outside what the sandbox may write, so git "
          "will fail with Permission denied" % os.path.join(s.top, "wt") in res.err,
          "run did not explain git worktree add")
    res = s.lf("run", "--", "git", "submodule", "add", lib, "libs/lib2")
    check(res.code != 0, "git submodule add of an unreadable repository succeeded")
    check("note: git submodule add %s: the repository %s lies outside what the sandbox may "
          "read, so git will say it does not exist" % (lib, lib) in res.err,
          "run did not explain git submodule add")
    res = s.lf("run", "--", "git", "worktree", "add", "inside")
    check("lies outside" not in res.err, "a worktree inside the project was flagged")


NET_PROBE = r"""
import socket, sys
for what in sys.argv[1:]:
    kind, port = what.split(":")
    s = socket.socket()
    try:
        if kind == "connect":
            s.connect(("127.0.0.1", int(port)))
        else:
            s.bind(("127.0.0.1", int(port)))
            s.listen(1)
        print(what, "ok")
    except OSError as e:
        print(what, "errno", e.errno)
    finally:
        s.close()
"""


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def network(s):
    """Not restricted by default, and plan says so; "network" restricts
    TCP to the listed ports with real sockets on loopback (the allowed
    port connects, another one is EACCES; bind likewise); at ABI 3 a
    policy with fallback deny refuses to run, another runs Degraded with
    a warning."""
    import socket
    need_enforcement(s)
    listeners = []
    for _ in range(2):
        ls = socket.socket()
        ls.bind(("127.0.0.1", 0))
        ls.listen(8)
        listeners.append(ls)
    ok_port, other = (ls.getsockname()[1] for ls in listeners)
    bind_ok, bind_other = free_port(), free_port()
    probe = s.write("probe.py", NET_PROBE)
    args = ["connect:%d" % ok_port, "connect:%d" % other, "bind:%d" % bind_ok,
            "bind:%d" % bind_other]
    try:
        res = s.lf("run", "-q", "--", "/usr/bin/python3", probe, *args)
        check(res.code == 0 and res.out.count(" ok") == 4,
              "the network is restricted by default")
        res = s.lf("plan")
        check("network: NOT restricted: the program may connect to any host on any port"
              in res.out, "plan does not say the network is open")
        pol = s.write(os.path.join(s.top, "net.json"), json.dumps(
            {"version": 1, "extends": "default",
             "network": {"connect": [ok_port], "bind": [bind_ok]}}))
        res = s.lf("run", "-q", "-p", pol, "--", "/usr/bin/python3", probe, *args)
        check(res.code == 0 and res.out.splitlines() == [
            "connect:%d ok" % ok_port, "connect:%d errno 13" % other,
            "bind:%d ok" % bind_ok, "bind:%d errno 13" % bind_other],
            "TCP is not restricted to the policy's ports")
        res = s.lf("plan", "-p", pol)
        check("network: TCP restricted; connect: %d; bind: %d" % (ok_port, bind_ok) in res.out,
              "plan does not list the allowed ports")
        # ABI 3 has no network rules.
        res = s.lf("run", "-q", "-p", pol, "--", "/usr/bin/python3", probe, *args,
                   extra={"LANDFENCE_ABI_MAX": "3"})
        check(res.code == 125 and "KernelTooOld" in res.err and res.out == "",
              "a fallback-deny policy restricting TCP ran at ABI 3")
        loose = s.write(os.path.join(s.top, "loose.json"), json.dumps(
            {"version": 1, "fallback": "allow", "network": {"connect": [ok_port]}}))
        res = s.lf("run", "-q", "-p", loose, "--", "/usr/bin/python3", probe,
                   "connect:%d" % other, extra={"LANDFENCE_ABI_MAX": "3"})
        check(res.code == 0 and "WARNING: the sandbox is DEGRADED" in res.err and
              "restricts TCP, which needs Landlock ABI 4" in res.err and
              "connect:%d ok" % other in res.out,
              "at ABI 3 the network restriction is not reported as degraded")
    finally:
        for ls in listeners:
            ls.close()


TESTS = {
    "firstrun-profiles": firstrun_profiles,
    "firstrun-unmakeable": firstrun_unmakeable,
    "dropped-notes": dropped_notes,
    "extends-default": extends_default,
    "init-starter": init_starter,
    "git-worktree": git_worktree,
    "git-submodule": git_submodule,
    "git-outside-notes": git_outside_notes,
    "network": network,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))

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
import re
import shutil
import signal
import stat
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.dont_write_bytecode = True
from lftest import Skip, check, denied, landfence, main, need_enforcement  # noqa: E402


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


def cacheable(root):
    """Sixteen empty directories below root: a tree of fewer directories
    gets no cache file (src/fs/treecache.c, CACHE_MIN_DIRS)."""
    for i in range(16):
        os.makedirs(os.path.join(root, "fill/%02d" % i))


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
    """A submodule's checkout as the project: git status works. With a
    mount namespace git add and commit work there too, and the git
    directory's hooks and config (outside the project) stay read-only;
    without one git add fails with git's Permission denied, which run
    explains first."""
    need_enforcement(s)
    lib = git_repo(s, "lib")
    sup = git_repo(s, "super")
    git(s, sup, "submodule", "add", "-q", lib, "sub")
    sub = os.path.join(sup, "sub")
    gitdir = os.path.join(sup, ".git/modules/sub")
    res = s.sh("git status --short && echo status-ok", cwd=sub)
    check(res.code == 0 and "status-ok" in res.out, "git status failed in the submodule")
    ns = "mount namespace: yes" in s.lf("plan", cwd=sub).out
    if ns:
        res = s.sh("echo c > c.txt && git add c.txt && git -c user.name=t "
                   "-c user.email=t@example.com commit -q -m c && echo committed", cwd=sub)
        check(res.code == 0 and "committed" in res.out,
              "git commit failed in the submodule: %r" % res.err)
        for rel in ("hooks/pre-commit", "config"):
            res = s.sh("echo x >> %s/%s" % (gitdir, rel), cwd=sub)
            check(res.code != 0 and ("Read-only" in res.err or denied(res)),
                  "the submodule's %s was writable" % rel)
        check("x" not in s.read(os.path.join(gitdir, "config")).splitlines(),
              "the submodule's config was changed")
        return
    res = s.sh("echo c > c.txt && git add c.txt", cwd=sub)
    check(res.code != 0 and "index.lock': Permission denied" in res.err,
          "git add did not fail as documented")
    check("names the git directory %s outside the project" % gitdir in res.err
          and "git add and git commit fail there" in res.err, "run did not say why")


def git_planted(s):
    """A .git file the program writes naming a directory outside the
    project grants nothing at the next launch: git leaves a link back
    (a linked worktree's gitdir file, a submodule's core.worktree) that
    the program cannot forge. The run that wrote it reports it."""
    need_enforcement(s)
    q = os.path.join(s.top, "q")
    os.makedirs(q)
    private = s.write(os.path.join(s.top, "private", "data.txt"), "PRIVATE\n")
    other = git_repo(s, "other")  # a real git directory, not this project's
    for target in (os.path.dirname(private), os.path.join(other, ".git")):
        if os.path.lexists(os.path.join(q, ".git")):
            os.unlink(os.path.join(q, ".git"))
        res = s.sh("printf 'gitdir: %s\\n' > .git" % target, cwd=q)
        check(res.code == 0, "run 1 failed: %r" % res.err)
        check("made %s/.git, which names the git directory" % q in res.err,
              "the planted .git file was not reported: %r" % res.err)
        res = s.sh("cat %s/data.txt; cat %s/.git/HEAD" % (os.path.dirname(private), other),
                   cwd=q)
        check(res.err.count("Permission denied") == 2 and "PRIVATE" not in res.out,
              "a planted .git file naming %s widened the next run: %r" % (target, res.out))
        check("not granted: the git directory %s" % os.path.realpath(target) in res.err,
              "run did not say why %s was not granted: %r" % (target, res.err))


def discovery_planted(s):
    """What the program can write in the project does not point a later
    launch's discovered grants outside it: a pyvenv.cfg whose home holds
    no Python, and a link in a PATH entry's npm prefix, grant nothing,
    with a note each."""
    need_enforcement(s)
    private = s.write(os.path.join(s.top, "private", "bin", "data.txt"), "PRIVATE\n")
    docs = s.write(os.path.join(s.top, "docs", "letter.txt"), "LETTER\n")
    tool = s.write(".venv/bin/tool", "#!/bin/sh\ncat %s %s\n" % (private, docs), 0o755)
    s.write(".venv/pyvenv.cfg", "home = %s\n" % os.path.dirname(private))
    os.makedirs(os.path.join(s.proj, ".venv/lib"))
    os.symlink(os.path.dirname(docs), os.path.join(s.proj, ".venv/lib/node_modules"))
    s.path_dirs[:0] = [os.path.dirname(tool)]
    res = s.lf("run", "--", "tool")
    check(res.err.count("Permission denied") == 2 and "PRIVATE" not in res.out
          and "LETTER" not in res.out, "a place the project names was granted: %r" % res.out)
    check("not granted: %s (the virtual environment's home" % os.path.dirname(
        os.path.dirname(private)) in res.err, "run did not say why the home was not granted")
    check("reached through the symbolic link %s/.venv/lib/node_modules" % s.proj in res.err,
          "run did not say why the linked npm prefix was not granted")


# A reader whose main thread ends (SYS_exit: that thread only) while
# another thread reads .env into leak.
HIDDEN = r"""
import ctypes, os, platform, threading, time
def read():
    while True:
        try:
            with open(".env") as f, open("leak", "a") as o:
                o.write(f.read())
        except OSError:
            pass
        time.sleep(0.01)
threading.Thread(target=read).start()
time.sleep(0.05)
open("hidden-started", "w").close()
ctypes.CDLL(None).syscall({"x86_64": 60, "aarch64": 93}[platform.machine()], 0)
"""

def mask_falls(s):
    """A mask whose file is replaced outside the sandbox while the program
    runs (sed -i, an editor's save, git config: a rename over it) is taken
    off by the kernel in every namespace: run stops the program at once
    and says why, for a hidden file and for a read-only one."""
    import subprocess
    need_enforcement(s)
    if "mount namespace: yes" not in s.lf("plan").out:
        raise Skip("no mount namespace here: nothing is masked")
    s.write(".env", "SECRET=1\n")
    pol = s.write(os.path.join(s.top, "deny-env.json"), json.dumps(
        {"version": 1, "extends": "default",
         "rules": [{"effect": "deny", "capability": "read", "paths": [".env"]}]}))
    s.write(".git/config", "[core]\n")
    for rel, then in ((".env", "cat .env"), (".git/config", "echo '[x]' >> .git/config")):
        marker = os.path.join(s.proj, "started")
        if os.path.exists(marker):
            os.unlink(marker)
        proc = subprocess.Popen(
            [landfence(), "run", "-q", "-p", pol, "--", "sh", "-c",
             "touch started; i=0; while [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
             + then + "; echo after"],
            cwd=s.proj, env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(600):
            if os.path.exists(marker) or proc.poll() is not None:
                break
            time.sleep(0.05)
        check(os.path.exists(marker), "the program did not start")
        tmp = os.path.join(s.proj, rel + ".new")
        with open(tmp, "w") as f:
            f.write("SECRET=2\n" if rel == ".env" else "[core]\n\tbare = false\n")
        os.replace(tmp, os.path.join(s.proj, rel))
        out, err = proc.communicate(timeout=60)
        print("%s: exit %d\nstdout:\n%s\nstderr:\n%s" % (rel, proc.returncode, out, err))
        check(proc.returncode == 137 and "after" not in out and "SECRET" not in out,
              "the program ran on after the mask on %s fell" % rel)
        check("the mask on %s fell while it ran" % os.path.join(s.proj, rel) in err,
              "run did not say the mask on %s fell" % rel)
    check("[x]" not in s.read(".git/config"), ".git/config was written")
    # The program stops itself (landfence stops with it, as for Ctrl-Z)
    # while processes of its own read on: the whole namespace stops,
    # and on the way back the table is read before anything runs. One
    # of the readers is a process whose main thread has ended while
    # another thread reads: its own /proc/N/ns/mnt is gone, and the
    # walk that stops the namespace must look at its threads.
    s.write(".env", "SECRET=1\n")
    leak = os.path.join(s.proj, "leak")
    proc = subprocess.Popen(
        [landfence(), "run", "-q", "-p", pol, "--", "sh", "-c",
         "python3 -c \"$HIDDEN\" & (while :; do cat .env >> leak; sleep 0.01; done) & "
         "sleep 0.5; kill -STOP $$; echo resumed"],
        cwd=s.proj, env=s.env({"HIDDEN": HIDDEN}), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def state(pid):
        try:
            with open("/proc/%d/stat" % pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return "?"
    for _ in range(600):
        if state(proc.pid) == "T" or proc.poll() is not None:
            break
        time.sleep(0.05)
    if state(proc.pid) != "T":
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=60)
        print("stop: state %s, exit %s\nstdout:\n%s\nstderr:\n%s"
              % (state(proc.pid), proc.returncode, out, err))
    check(state(proc.pid) == "T", "landfence did not stop with the program")
    tmp = os.path.join(s.proj, ".env.new")
    with open(tmp, "w") as f:
        f.write("SECRET=2\n")
    os.replace(tmp, os.path.join(s.proj, ".env"))
    time.sleep(0.5)
    check("SECRET" not in s.read(leak), "a process read past the fallen mask while stopped")
    os.kill(proc.pid, signal.SIGCONT)
    out, err = proc.communicate(timeout=60)
    print("stop: exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, out, err))
    check(proc.returncode == 137 and "resumed" not in out and "SECRET" not in s.read(leak),
          "the program ran on after the mask fell while it was stopped")
    check(os.path.exists(os.path.join(s.proj, "hidden-started")),
          "the reader whose main thread ends did not start")
    # A chain of processes, each forking the next and exiting at once,
    # each reading .env: run reaps the generations as they end, and the
    # walk that kills the namespace goes on until it finds no process of
    # it left. (With a second's zombies kept and one walk, the chain read
    # on until it gave up by itself in 2 of 3 runs.) It gives up after
    # 20 s and then leaves .env.deadline; it must not get there.
    probe = os.path.join(os.environ["LANDFENCE_BUILDDIR"], "tests", "escape", "lf-probe")
    s.write(".env", "SECRET=1\n")
    for name in (".env.chain", ".env.deadline"):
        if os.path.exists(os.path.join(s.proj, name)):
            os.unlink(os.path.join(s.proj, name))
    proc = subprocess.Popen(
        [landfence(), "run", "-q", "-p", pol, "--", probe, "fork-chain", ".env", "20", "sync"],
        cwd=s.proj, env=s.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    ready = proc.stdout.readline() + proc.stdout.readline()
    time.sleep(1)  # a second of generations, each an orphan of run's when it ends
    tmp = os.path.join(s.proj, ".env.new")
    with open(tmp, "w") as f:
        f.write("SECRET=2\n")
    os.replace(tmp, os.path.join(s.proj, ".env"))
    time.sleep(0.5)  # the probe waits on its input: not closed before the fall is seen
    out, err = proc.communicate(timeout=60)
    print("chain: %r exit %d\nstderr:\n%s" % (ready, proc.returncode, err))
    check(ready == "ok\nready\n", "the chain did not start")
    check(proc.returncode == 137, "the chain's run did not end when the mask fell")
    time.sleep(1)
    check(not os.path.exists(os.path.join(s.proj, ".env.deadline")),
          "a process of the chain outlived the run")
    # A root program that changes its root the moment it runs: the
    # kernel shows a mount table from the root its reader had when it
    # opened it, so a table the launcher opened after the exec could show
    # only the program's part (the watch then went without it: 105 of 150
    # such launches beside three busy loops read the new .env). The child
    # opens it before its exec; every launch is watched.
    if os.geteuid() != 0:
        return
    probe = os.path.join(os.environ["LANDFENCE_BUILDDIR"], "tests", "escape", "lf-probe")
    os.makedirs(os.path.join(s.proj, "src"), exist_ok=True)
    for i in range(10):
        s.write(".env", "SECRET=1\n")
        proc = subprocess.Popen(
            [landfence(), "run", "-q", "-p", pol, "--", probe, "chroot",
             os.path.join(s.proj, "src"), "sync", "readeq", ".env", "SECRET=2\n"],
            cwd=s.proj, env=s.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        ready = proc.stdout.readline() + proc.stdout.readline()
        tmp = os.path.join(s.proj, ".env.new")
        with open(tmp, "w") as f:
            f.write("SECRET=2\n")
        os.replace(tmp, os.path.join(s.proj, ".env"))
        time.sleep(0.3)
        try:
            proc.stdin.write("\n")
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        out, err = proc.communicate(timeout=60)
        print("chroot %d: %r exit %d\nstdout:\n%s\nstderr:\n%s"
              % (i, ready, proc.returncode, out, err))
        check(ready == "ok\nready\n", "the probe did not change its root")
        check(proc.returncode == 137 and "the mask on %s fell while it ran"
              % os.path.join(s.proj, ".env") in err,
              "a program that changed its root went unwatched")


def orphans_reaped(s):
    """A program that leaves short-lived processes behind (a double fork
    whose grandchild ends at once) while it runs on: each becomes run's
    child (the subreaper) when its parent exits, and run reaps it when
    it ends, instead of keeping 200 zombies until the program is done."""
    import subprocess
    need_enforcement(s)
    proc = subprocess.Popen(
        [landfence(), "run", "-q", "--", "sh", "-c",
         "i=0; while [ $i -lt 200 ]; do (true &); i=$((i+1)); done; touch started; "
         "j=0; while [ ! -e done ] && [ $j -lt 600 ]; do sleep 0.05; j=$((j+1)); done"],
        cwd=s.proj, env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    marker = os.path.join(s.proj, "started")
    for _ in range(600):
        if os.path.exists(marker) or proc.poll() is not None:
            break
        time.sleep(0.05)
    check(os.path.exists(marker), "the program did not start")
    time.sleep(0.5)
    zombies = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == "Z" and int(fields[1]) == proc.pid:
            zombies += 1
    s.write("done", "")
    out, err = proc.communicate(timeout=60)
    print("zombies under run: %d; exit %d\nstderr:\n%s" % (zombies, proc.returncode, err))
    check(proc.returncode == 0, "the program failed")
    check(zombies == 0, "run kept %d ended orphans as zombies while the program ran" % zombies)


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

ESC_NAME = "z\x1b[1A\x1b[2Kpwned"
OSC52 = "\x1b]52;c;ZXZpbA==\x07"
C1_NAME = "c1\u009b31m"


def no_controls(text):
    """Whether text holds no control character but newline and tab."""
    return not any((ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
                   for c in text)


def heap_room(s):
    """A policy of 64 KiB or more gets room in the launcher's heap before
    it is parsed (src/cli/heap.c): the launch runs as any other, and once
    the program has started the launcher gives the room back (its
    resident set falls below its peak), so that a launcher that waits for
    hours does not hold it."""
    need_enforcement(s)
    with open(landfence(), "rb") as f:
        if b"__asan_init" in f.read():
            raise Skip("AddressSanitizer's allocator makes no room")
    rules = [{"effect": "allow", "capability": ("read", "write")[i % 2],
              "paths": ["p%02d/d%05d/**" % (i // 1000, i)]} for i in range(4000)]
    rules.append({"effect": "allow", "capability": "write", "paths": ["**"]})
    text = json.dumps({"version": 1, "fallback": "deny", "rules": rules}, indent=0)
    check(len(text) >= 64 * 1024, "the policy is too small for a room")
    s.write(".landfence/policy.json", text)
    res = s.lf("trust")
    check(res.code == 0, "trust failed")
    # The launcher gives the room back right after the start returns,
    # which the program can beat (the mask watch reads the mount table
    # first): it looks a little later.
    res = s.sh("echo ran > out && sleep 0.5 && grep -E '^Vm(HWM|RSS):' /proc/$PPID/status",
               opts=["-q"])
    check(res.code == 0 and s.read("out") == "ran\n", "the launch under a large policy failed")
    kib = dict((k, int(v.split()[0])) for k, v in
               (line.split(":", 1) for line in res.out.splitlines()))
    check(kib["VmHWM"] - kib["VmRSS"] >= 1024,
          "the launcher held its room while the program ran: %r" % kib)


def escaped_output(s):
    """What comes from the tree, a policy or a payload is printed with its
    control characters escaped: the after-run warning about a hook whose
    name moves the cursor and erases lines, a name that forges a line,
    `trust` of a policy holding an OSC 52 clipboard write, `plan` and
    `check` in text and JSON (still valid JSON that gives the names back
    as they are), `hook claude`. Honest counterpart: plain names and
    UTF-8 print as they are."""
    need_enforcement(s)
    os.makedirs(os.path.join(s.proj, ".git", "hooks"), exist_ok=True)
    plant = '{ printf "#!/bin/sh\\n" > ".git/hooks/$1"; } 2>/dev/null; printf ok'
    for name, shown in ((ESC_NAME, "z\\x1b[1A\\x1b[2Kpwned"),
                        ("n\nlandfence: all clear", "n\\nlandfence: all clear")):
        res = s.lf("run", "--", "sh", "-c", plant, "sh", name,
                   extra={"LANDFENCE_NO_NAMESPACES": "1"})
        check(res.code == 0 and res.out == "ok", "the hook could not be planted")
        check(no_controls(res.err), "a control character reached the terminal: %r" % res.err)
        check("the program changed %s/.git/hooks/%s" % (s.proj, shown) in res.err,
              "the after-run warning does not name the hook escaped: %r" % res.err)
        check(not any(line.startswith("landfence: all clear")
                      for line in res.err.splitlines()), "a file name forged a line")
    # With the masks the hooks are read-only (nothing planted, nothing
    # to report); without, the plant is reported.
    res = s.lf("run", "--", "sh", "-c", plant, "sh", ESC_NAME + "2")
    planted = os.path.exists(os.path.join(s.proj, ".git", "hooks", ESC_NAME + "2"))
    check(no_controls(res.err) and (not planted or "z\\x1b[1A\\x1b[2Kpwned2" in res.err),
          "a hook was planted unreported, or reported raw")
    # trust and plan of a policy with escapes in its strings.
    pol = {"version": 1, "rules": [
        {"effect": "allow", "capability": "read" + OSC52, "paths": ["**"]}]}
    s.write(".landfence/policy.json", json.dumps(pol))
    res = s.lf("trust")
    check(res.code == 2 and no_controls(res.out + res.err) and "52;c;ZXZpbA==" in res.err,
          "trust echoed the policy's escape sequence raw")
    os.unlink(os.path.join(s.proj, ".landfence", "policy.json"))
    pol = {"version": 1, "fallback": "deny", "rules": [
        {"effect": "allow", "capability": "read", "paths": ["**"]},
        {"effect": "deny", "capability": "read", "paths": ["se\x1bXc" + C1_NAME + "/**"]}]}
    p = s.write(os.path.join(s.top, "esc.json"), json.dumps(pol))
    res = s.lf("plan", "-p", p)
    check(res.code == 0 and no_controls(res.out + res.err), "plan printed a control character")
    check("se\\x1bXcc1\\u009b31m" in res.out, "plan does not show the fence escaped")
    res = s.lf("plan", "--json", "-p", p)
    check(res.code == 0 and no_controls(res.out), "plan --json printed a control character")
    check(any(f.get("path", "").endswith("/se\x1bXc" + C1_NAME)
              for f in json.loads(res.out)["fences"]),
          "plan --json does not give the fence back as it is")
    # A bad policy's name in FILE:LINE:COLUMN: one line, escaped.
    bad = s.write(os.path.join(s.top, "bad\nlandfence: all clear.json"),
                  '{"version": 1, "rules": 3}')
    res = s.lf("check", "-p", bad, "read", "x")
    check(res.code == 2 and "bad\\nlandfence: all clear.json:1:" in res.err,
          "a bad policy's name is not escaped: %r" % res.err)
    check(not any(line.startswith("landfence: all clear") for line in res.err.splitlines()),
          "a policy's name forged a line")
    # check, text and JSON.
    res = s.lf("check", "read", ESC_NAME)
    check(no_controls(res.out + res.err) and "z\\x1b[1A" in res.out,
          "check printed the request raw")
    res = s.lf("check", "--json", "read", "f" + C1_NAME)
    check(no_controls(res.out), "check --json printed a control character")
    check(json.loads(res.out)["verdict"] == "allow", "check --json is not valid JSON")
    # hook claude: the answer is JSON Claude Code reads.
    payload = {"session_id": "x", "hook_event_name": "PreToolUse", "cwd": s.proj,
               "tool_name": "Read", "tool_input": {"file_path": "/etc/" + OSC52}}
    res = s.lf("hook", "claude", stdin=json.dumps(payload))
    check(no_controls(res.out + res.err), "hook printed a control character")
    if res.out.strip():
        json.loads(res.out)
    # Honest: plain names and UTF-8 are printed as they are.
    res = s.lf("check", "read", "café/ünïcode.txt")
    check("café/ünïcode.txt" in res.out, "UTF-8 was escaped")


def protected(s, needle):
    """The paths plan --json protects that contain needle."""
    res = s.lf("plan", "--json")
    check(res.code == 0, "plan failed")
    return [p["path"] for p in json.loads(res.out)["protections"] if needle in p["path"]]


def tree_cache_read(path):
    """The magic, the root and the records (raw bytes each) of a cache
    of directory listings (src/fs/treecache.c's format)."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    magic_end = data.index(b"\n") + 1
    pos = magic_end

    def take(n):
        nonlocal pos
        pos += n
        return data[pos - n:pos]

    def string():
        (n,) = struct.unpack("<I", take(4))
        return take(n)

    root = string()
    recs = []
    while pos < len(data):
        start = pos
        string()
        take(8 * 6 + 4 + 1)
        (nsub,) = struct.unpack("<I", take(4))
        for _ in range(nsub):
            string()
        (ndev,) = struct.unpack("<I", take(4))
        for _ in range(ndev):
            string()
            take(9)
        recs.append(data[start:pos])
    return data[:magic_end], root, recs


def tree_cache_write(path, magic, root, recs):
    import struct
    with open(path, "wb") as f:
        f.write(magic + struct.pack("<I", len(root)) + root + b"".join(recs))


def nested_cache(s):
    """The nested-repository search answers from its cache of directory
    listings as the walk would: a repository found the first time is found
    again from the cache; one made later (outside, or by the sandboxed
    program) is found; a cache that does not parse is ignored and
    rewritten; the program cannot write the cache."""
    import glob
    import time
    need_enforcement(s)
    git(s, s.proj, "init", "-q", ".")
    os.makedirs(os.path.join(s.proj, "a/b/c"))
    os.makedirs(os.path.join(s.proj, "d/e"))
    git(s, os.path.join(s.proj, "a/b"), "init", "-q", "inner")
    cacheable(s.proj)
    # Directories changed in the last two seconds are never cached.
    time.sleep(2.2)
    first = protected(s, "/inner/.git/")
    check(first, "the nested repository is not protected")
    caches = glob.glob(s.h(".config/landfence/cache/tree-*"))
    check(len(caches) == 1, "no cache was written: %r" % caches)
    check(protected(s, "/inner/.git/") == first, "the cache lost the nested repository")
    # Made outside, after the cache.
    git(s, os.path.join(s.proj, "d/e"), "init", "-q", "late")
    check(protected(s, "/late/.git/"), "a repository made after the cache is not protected")
    # Made by the sandboxed program, deeper, in a directory the cache knows.
    time.sleep(2.2)
    protected(s, "/inner/.git/")
    res = s.sh("mkdir -p a/b/c/x && git init -q a/b/c/x/planted")
    check(res.code == 0, "git init in the sandbox failed")
    # The search after the program starts from the records the search
    # before it found unchanged, and reads a/b/c again.
    check("the program made the git directory %s" % os.path.join(
        os.path.realpath(s.proj), "a/b/c/x/planted/.git") in res.err,
        "the run did not report the repository the program made: %s" % res.err)
    check(protected(s, "/planted/.git/"),
          "a repository the program made is not protected on the next run")
    res = s.sh("echo x > %s" % caches[0])
    check(res.code != 0 and denied(res), "the program could write the cache")
    # A directory changed in the last two seconds is read at each search
    # and not kept, and the file is not rewritten for it (its time is set
    # an hour ahead, so that this holds however slow the machine is):
    # what it holds is found all the same.
    git(s, os.path.join(s.proj, "d"), "init", "-q", "fresh")
    time.sleep(2.2)
    check(protected(s, "/fresh/.git/"), "the repository in d is not protected")
    before = os.stat(caches[0])
    ahead = time.time() + 3600
    os.utime(os.path.join(s.proj, "d"), (ahead, ahead))
    for _ in range(2):
        check(protected(s, "/fresh/.git/"),
              "the repository below a directory changed just now is not protected")
    after = os.stat(caches[0])
    check((after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns),
          "the cache was rewritten for a directory it cannot keep")
    # A cache that does not parse: ignored, the walk answers, rewritten.
    with open(caches[0], "w") as f:
        f.write("landfence-tree-cache 1\n\xff\xff")
    check(protected(s, "/inner/.git/") == first, "a broken cache lost the nested repository")
    with open(caches[0], "rb") as f:
        check(len(f.read()) > 40, "the broken cache was not rewritten")
    # Records in another order than the search meets them (each is then
    # found by its path), and a directory recorded twice (a file not of
    # ours: looked up by path, none is used): the same protections.
    time.sleep(2.2)
    protected(s, "/inner/.git/")
    magic, root, recs = tree_cache_read(caches[0])
    check(len(recs) >= 6, "the cache holds %d directories" % len(recs))
    tree_cache_write(caches[0], magic, root, list(reversed(recs)))
    check(protected(s, "/inner/.git/") == first, "records out of order lost a repository")
    magic, root, recs = tree_cache_read(caches[0])
    tree_cache_write(caches[0], magic, root, list(reversed(recs)) + recs[:1])
    check(protected(s, "/inner/.git/") == first, "a record twice lost a repository")
    # Cut in the middle of a record (read through a buffer, not whole):
    # not used, the same protections, rewritten.
    time.sleep(2.2)
    protected(s, "/inner/.git/")
    with open(caches[0], "rb") as f:
        whole = f.read()
    with open(caches[0], "wb") as f:
        f.write(whole[:len(whole) - 7])
    check(protected(s, "/inner/.git/") == first, "a cut cache lost a repository")
    with open(caches[0], "rb") as f:
        again = f.read()
    check(again != whole[:len(whole) - 7], "the cut cache was not rewritten")
    check(tree_cache_read(caches[0])[2], "the rewritten cache holds no directory")
    # A record counting more subdirectories (or device nodes) than
    # entries: not used (the reader once freed the list it never made).
    import struct
    time.sleep(2.2)
    protected(s, "/inner/.git/")
    magic, root, recs = tree_cache_read(caches[0])
    for field in (0, 1):
        rec = bytearray(recs[0])
        (rl,) = struct.unpack_from("<I", rec, 0)
        (nent,) = struct.unpack_from("<I", rec, 4 + rl + 48)
        at = 4 + rl + 48 + 4 + 1
        if field == 1:  # ndev: after the subdirectories' names
            (nsub,) = struct.unpack_from("<I", rec, at)
            at += 4
            for _ in range(nsub):
                (n,) = struct.unpack_from("<I", rec, at)
                at += 4 + n
        struct.pack_into("<I", rec, at, nent + 100000)
        tree_cache_write(caches[0], magic, root, [bytes(rec)] + recs[1:])
        res = s.lf("plan", "--json")
        check(res.code == 0, "a record counting too many %s: plan exited %d: %s"
              % (("subdirectories", "device nodes")[field], res.code, res.err))
        check([p["path"] for p in json.loads(res.out)["protections"] if "/inner/.git/" in p["path"]]
              == first, "a record counting too many kids lost a repository")
    # Bounded: with 134 other caches (written days ago, one a minute
    # apart), a new project's first run keeps the 128 most recently
    # used, its own among them. The oldest was read an hour ago (a cache
    # that answers without a change is read, not written): it stays, and
    # the 7 next oldest go.
    cdir = s.h(".config/landfence/cache")

    def caches_now():  # the namespace probe's answer is not one of them
        return {n for n in os.listdir(cdir) if n.startswith(("tree-", "dev-", "list-"))}
    before = caches_now()  # this project's (and, without a
    # namespace, its grants' device caches): all recent
    old = int(time.time()) - 7 * 86400
    nfake, keep = 134, 128
    fakes = ["tree-%016x" % (0xfeed0000 + i) for i in range(nfake)]
    for i, name in enumerate(fakes):
        with open(os.path.join(cdir, name), "w") as f:
            f.write("landfence-tree-cache 2\n")
        os.utime(os.path.join(cdir, name), (old + 60 * i, old + 60 * i))
    os.utime(os.path.join(cdir, fakes[0]), (int(time.time()) - 3600, old))
    other = os.path.join(s.top, "other")
    os.makedirs(os.path.join(other, "sub"))
    cacheable(other)
    git(s, other, "init", "-q", ".")
    time.sleep(2.2)
    res = s.lf("run", "--", "true", cwd=other)
    check(res.code == 0, "run in a second project failed")
    kept = caches_now()
    new = {n for n in kept - before - set(fakes) if n.startswith("tree-")}
    check(len(kept) == keep, "%d caches kept, not %d" % (len(kept), keep))
    check(before <= kept, "a recent cache was removed: %r" % (before - kept))
    check(len(new) == 1, "the new project's cache is missing: %r" % sorted(kept))
    left = [n for n in fakes if n in kept]
    check(fakes[0] in kept, "a cache read an hour ago was removed")
    check(left[1:] == fakes[len(fakes) - len(left) + 1:],
          "not the least recently used caches were removed: %r" % left)


def nested_cache_large(s):
    """A cache of more directories than one search looks at alone
    (src/fs/treecache.c, PRESTAT_MIN: 256; two threads share them out)
    answers as the walk would: repositories at the start, the middle and
    the end of the tree are protected from a warm cache; one the program
    makes deep down is reported by the run and protected by the next; a
    directory removed and one made elsewhere are seen."""
    import time
    need_enforcement(s)
    git(s, s.proj, "init", "-q", ".")
    for i in range(1500):
        os.makedirs(os.path.join(s.proj, "t%02d/d%04d" % (i // 100, i)))
    for rel in ("t00/d0003", "t07/d0750", "t14/d1499"):
        git(s, os.path.join(s.proj, rel), "init", "-q", "repo")
    time.sleep(2.2)
    first = protected(s, "/repo/.git/")
    for rel in ("t00/d0003", "t07/d0750", "t14/d1499"):
        check(any("/%s/repo/.git/" % rel in p for p in first),
              "the repository in %s is not protected" % rel)
    check(protected(s, "/repo/.git/") == first, "the warm cache lost a repository")
    time.sleep(2.2)
    protected(s, "/repo/.git/")
    res = s.sh("git init -q t11/d1111/planted")
    check(res.code == 0, "git init in the sandbox failed: %s" % res.err)
    check("the program made the git directory %s" % os.path.join(
        os.path.realpath(s.proj), "t11/d1111/planted/.git") in res.err,
        "the run did not report the repository the program made: %s" % res.err)
    check(protected(s, "/planted/.git/"),
          "a repository the program made is not protected on the next run")
    time.sleep(2.2)
    protected(s, "/repo/.git/")
    import shutil
    shutil.rmtree(os.path.join(s.proj, "t07/d0750"))
    git(s, os.path.join(s.proj, "t03/d0333"), "init", "-q", "outside")
    now = protected(s, "/.git/")
    check(not any("/t07/d0750/" in p for p in now), "a removed repository is still protected")
    check(any("/t03/d0333/outside/.git/" in p for p in now),
          "a repository made outside after the cache is not protected")


def refused_launch(s, res, what, says, marker, memo, text, forgotten):
    """A launch (RES) whose mount step failed (WHAT) ran nothing: exit
    125, the failure naming the step (each of SAYS in it), no MARKER
    made. The namespace probe's remembered answer (MEMO, which held TEXT)
    is then either forgotten, and said to be, and the next launch runs and
    keeps the probe's answer again; or, when FORGOTTEN is false, kept as
    it was, and not said to be forgotten."""
    check(res.code == 125, "a launch %s did not refuse (%d)" % (what, res.code))
    check(all(w in res.err for w in says), "the failure does not name the step: %r" % res.err)
    if forgotten:
        check("forgotten" in res.err,
              "the failure does not say the answer was forgotten: %r" % res.err)
    else:
        check("forgotten" not in res.err, "the answer was said to be forgotten: %r" % res.err)
    check(not os.path.exists(marker), "the program ran")
    if not forgotten:
        check(os.path.exists(memo) and s.read(memo) == text,
              "the answer was forgotten by a launch %s" % what)
        return
    check(not os.path.exists(memo), "the answer that did not hold was kept")
    res = s.sh("touch %s" % marker)
    check(res.code == 0 and os.path.exists(marker), "the next launch did not run")
    check(s.read(memo) == text, "the next launch did not keep the probe's answer")


def ns_memo(s):
    """The namespace probe's answer is remembered for the host state that
    decides it: the first plan probes and keeps its "yes" in the
    configuration's cache, the next ones say they used it; a key that no
    longer matches, or a file others may write, is not used (the probe
    runs and the file is rewritten); the program cannot write it; an
    answer that does not hold makes the launch run nothing, and is
    forgotten, so that the next launch probes and runs."""
    need_enforcement(s)
    memo = s.h(".config/landfence/cache/ns-probe")
    if os.path.exists(memo):
        os.unlink(memo)  # need_enforcement's plan kept one
    nsline = re.compile(r"^mount namespace: (.*)$", re.M)

    def plan_ns():
        res = s.lf("plan")
        check(res.code == 0, "plan failed")
        m = nsline.search(res.out)
        check(m is not None, "plan printed no mount namespace line")
        return m.group(1)
    first = plan_ns()
    if not first.startswith("yes"):
        check(not os.path.exists(memo), "a \"no\" was kept: %s" % first)
        raise Skip("no mount namespace here: %s" % first)
    remembered = "an earlier launch's probe, remembered"
    check(remembered not in first, "the first plan says it used a remembered answer")
    check(os.path.exists(memo), "the probe's yes was not kept")
    st = os.lstat(memo)
    check(stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600 and
          st.st_uid == os.geteuid(), "the kept answer is not a private file of ours")
    text = s.read(memo)
    check(text.endswith("\nyes others=%d\n" % (1 if os.geteuid() == 0 else 0)),
          "the kept answer is not the probe's: %r" % text[-40:])
    check(remembered in plan_ns(), "the second plan did not use the kept answer")
    res = s.lf("plan", "--json")
    check(res.code == 0 and json.loads(res.out)["namespace"]["remembered"] is True,
          "plan --json does not say the answer was remembered")
    res = s.sh("echo 'yes others=1' >> %s" % memo)
    check(res.code != 0 and denied(res), "the program could write the kept answer")
    check(s.read(memo) == text, "the kept answer changed")
    # Another host state (another boot here): not used, probed, rewritten.
    s.write(memo, text.replace("\nboot ", "\nboot 0"))
    check(remembered not in plan_ns(), "an answer kept for another boot was used")
    check(s.read(memo) == text, "the answer was not rewritten for this boot")
    # A file others may write is nobody's word.
    os.chmod(memo, 0o622)
    check(remembered not in plan_ns(), "an answer others may write was used")
    check(stat.S_IMODE(os.lstat(memo).st_mode) == 0o600, "the answer was not rewritten")
    # Anything after the answer, a NUL byte included; a second name.
    for tail in ("\0junk", "more\n"):
        with open(memo, "a") as f:
            f.write(tail)
        check(remembered not in plan_ns(), "an answer followed by %r was used" % tail)
        check(s.read(memo) == text, "the answer was not rewritten")
    link = os.path.join(s.top, "second-name")
    os.link(memo, link)
    check(remembered not in plan_ns(), "an answer with a second name was used")
    os.unlink(link)
    # A temporary file a killed write left, a minute old, is swept when
    # an answer is kept; a recent one is not (a write under way).
    cdir = os.path.dirname(memo)
    stale, recent = os.path.join(cdir, "ns-probe.AbC123"), os.path.join(cdir, "ns-probe.XyZ789")
    for p in (stale, recent):
        s.write(p, "partial")
    old = int(time.time()) - 120
    os.utime(stale, (old, old))
    os.unlink(memo)
    check(remembered not in plan_ns(), "a removed answer was used")
    check(not os.path.exists(stale), "a stale temporary file was left")
    check(os.path.exists(recent), "a temporary file under way was removed")
    os.unlink(recent)
    # As root, an answer without the id-mapped /etc is not a full yes.
    if os.geteuid() == 0:
        s.write(memo, text.replace("\nyes others=1\n", "\nyes others=0\n"))
        check(remembered not in plan_ns(), "a root answer without /etc as others see it was used")
        check(s.read(memo) == text, "the answer was not rewritten")
        # A mount made, then removed, anywhere: another host state each
        # time (the mount table's digest is in the key, whoever read it).
        import subprocess
        mnt = os.path.join(s.top, "memo-mount")
        os.mkdir(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "lf-memo", mnt],
                          capture_output=True).returncode != 0:
            return  # no mount here (a container without the right)
        try:
            check(remembered not in plan_ns(), "an answer kept before a mount was made was used")
            check(remembered in plan_ns(), "the answer kept with the mount was not used")
        finally:
            check(subprocess.run(["umount", mnt]).returncode == 0, "the test's mount stayed")
        check(remembered not in plan_ns(), "an answer kept before a mount was removed was used")
        check(s.read(memo) == text, "the answer was not rewritten for the table without it")
        return
    # Unprivileged, an answer that does not hold: /etc as others see it
    # needs a user namespace only root can map. Nothing runs, and the
    # answer is forgotten.
    s.write(memo, text.replace("\nyes others=0\n", "\nyes others=1\n"))
    check(remembered in plan_ns(), "the forged answer was not used")
    marker = os.path.join(s.proj, "ran")
    refused_launch(s, s.sh("touch %s" % marker), "on an answer that does not hold",
                   ["nothing was run"], marker, memo, text, forgotten=True)


def ns_memo_build(s):
    """The remembered namespace answer names the build that kept it (its
    GNU build ID), not only the version: another build of the same
    version probes again, and keeps its own answer."""
    need_enforcement(s)
    readelf = shutil.which("readelf")
    if not readelf:
        raise Skip("readelf is not installed")
    memo = s.h(".config/landfence/cache/ns-probe")
    if os.path.exists(memo):
        os.unlink(memo)
    remembered = "an earlier launch's probe, remembered"

    def plan(binary):
        res = s.run([binary, "plan"])
        check(res.code == 0, "plan failed: %s" % res.err)
        return res.out

    def build_id(binary):
        res = s.run([readelf, "-n", binary])
        m = re.search(r"Build ID: ([0-9a-f]+)", res.out)
        check(m is not None, "no build ID in %s" % binary)
        return m.group(1)

    if "mount namespace: yes" not in plan(landfence()):
        raise Skip("no mount namespace here")
    ours = build_id(landfence())
    check("\nbuild %s\n" % ours in s.read(memo), "the kept answer does not name this build")
    check(remembered in plan(landfence()), "the answer was not used by the same build")
    # The same program, another build ID: another build.
    other = os.path.join(s.top, "landfence-other-build")
    with open(landfence(), "rb") as f:
        image = f.read()
    # The note: name size 4, its size, type NT_GNU_BUILD_ID (3), "GNU".
    raw = bytes.fromhex(ours)
    note = struct.pack("=III", 4, len(raw), 3) + b"GNU\0" + raw
    check(image.count(note) == 1, "the build ID note is not found once in the program")
    with open(other, "wb") as f:
        f.write(image.replace(note, note[:-len(raw)] + bytes(b ^ 0xff for b in raw)))
    os.chmod(other, 0o755)
    theirs = build_id(other)
    check(theirs != ours, "the copy kept the build ID")
    check(remembered not in plan(other), "another build used this build's answer")
    check("\nbuild %s\n" % theirs in s.read(memo), "the other build did not keep its own answer")
    check(remembered in plan(other), "the other build did not use its own answer")
    check(remembered not in plan(landfence()), "this build used the other build's answer")


def ns_memo_kept(s):
    """A launch whose mount step fails runs nothing (exit 125) either way;
    the namespace probe's remembered answer is forgotten only when the
    failed step is the namespace's own (creating it, here), not when the
    file system changed since the plan (a target no longer what the facts
    saw, here). Each failure is made by strace's fault injection, in the
    one system call of that step that only the launch's child makes."""
    need_enforcement(s)
    strace = shutil.which("strace")
    if strace is None:
        raise Skip("strace is not installed")
    memo = s.h(".config/landfence/cache/ns-probe")
    res = s.lf("plan")
    check(res.code == 0, "plan failed")
    if not re.search(r"^mount namespace: yes", res.out, re.M):
        raise Skip("no mount namespace here")
    check(os.path.exists(memo), "the probe's yes was not kept")
    text = s.read(memo)
    marker = os.path.join(s.proj, "ran")
    # strace must be able to trace here, and the launcher itself must
    # make no statx call (a glibc whose stat is statx, on 32-bit targets,
    # would get the fault injected in the launcher, not in its child).
    trace = os.path.join(s.top, "statx.trace")
    res = s.run([strace, "-f", "-qq", "-o", trace, "-e", "trace=statx", landfence(), "plan"],
                extra={"ASAN_OPTIONS": "detect_leaks=0"})
    if res.code != 0:
        raise Skip("strace cannot trace here")
    if "statx(" in s.read(trace):
        raise Skip("the launcher itself calls statx here")

    def launch(call, err):
        # strace injects only into the calls it traces. LeakSanitizer
        # cannot run under ptrace (a sanitized build would exit 1).
        return s.run([strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=" + call,
                      "-e", "inject=%s:error=%s" % (call, err), landfence(), "run", "--",
                      "sh", "-c", "touch %s" % marker],
                     extra={"ASAN_OPTIONS": "detect_leaks=0"})
    # The target's type, checked by statx in the child only: the file
    # system's doing. Nothing runs; the answer is kept.
    refused_launch(s, launch("statx", "ENOENT"),
                   "whose target check failed (the file system changed)",
                   ["checking the target is still what it was", "did not run"],
                   marker, memo, text, forgotten=False)
    # Creating the namespace (unshare, in the child only): the answer no
    # longer holds. Nothing runs; the answer is forgotten.
    refused_launch(s, launch("unshare", "EPERM"), "whose namespace failed", ["creating a"],
                   marker, memo, text, forgotten=True)


def cache_dir(s):
    """landfence's caches (the nested-repository search's listings, the
    namespace probe's answer) decide what a launch protects: they are read
    and written only in a cache directory beyond the program's reach. A
    cache directory that is a symbolic link (here into the project, which
    the program writes), that others may write, or that is not the user's
    own is not used: nothing is written there, nothing there is believed,
    and the protections are the same."""
    need_enforcement(s)
    git(s, s.proj, "init", "-q", ".")
    os.makedirs(os.path.join(s.proj, "a/b"))
    git(s, os.path.join(s.proj, "a"), "init", "-q", "inner")
    cacheable(s.proj)
    time.sleep(2.2)  # directories changed in the last two seconds are never cached
    first = protected(s, "/inner/.git/")
    check(first, "the nested repository is not protected")
    real = s.h(".config/landfence/cache")
    check(any(n.startswith("tree-") for n in os.listdir(real)), "no cache was written")
    shutil.rmtree(real)
    # A link into the project.
    target = os.path.join(s.proj, "cachedir")
    os.makedirs(target)
    os.symlink(target, real)
    for _ in range(2):
        check(protected(s, "/inner/.git/") == first, "the protections changed")
    check(os.listdir(target) == [], "landfence wrote through a linked cache directory: %r"
          % os.listdir(target))
    ns = "an earlier launch's probe, remembered"
    check(ns not in s.lf("plan").out, "an answer was taken from a linked cache directory")
    # What the program writes there (it may: the project is writable)
    # is not believed: a forged cache of listings that knows no nested
    # repository, a forged probe answer.
    res = s.sh("printf 'landfence-tree-cache 2\\n' > cachedir/tree-0000000000000000 && "
               "printf 'yes others=1\\n' > cachedir/ns-probe")
    check(res.code == 0, "the program could not write its own project")
    check(protected(s, "/inner/.git/") == first, "the protections changed")
    check(ns not in s.lf("plan").out, "a forged answer was believed")
    os.unlink(real)
    # A real directory others may write, or another user's: the same.
    os.makedirs(real)
    os.chmod(real, 0o777)
    check(protected(s, "/inner/.git/") == first, "the protections changed")
    check(os.listdir(real) == [], "landfence wrote in a cache directory others may write")
    os.chmod(real, 0o700)
    check(protected(s, "/inner/.git/") == first, "the protections changed")
    check(any(n.startswith("tree-") for n in os.listdir(real)),
          "no cache was written in a private cache directory")


def claude_state(s):
    """~/.claude.json, which Claude Code rewrites at every start (counters,
    tips, each project's history and costs), is compared by what can make
    something run: a rewrite of the rest ends without a warning; an MCP
    server added (at the top or for a project), a tool allowed, a project
    trusted, an environment set, the file made invalid JSON or its mode
    changed are each reported."""
    need_enforcement(s)
    state = s.h(".claude.json")
    base = {
        "numStartups": 3,
        "tipsHistory": {"permissions": 1},
        "userID": "u",
        "projects": {s.proj: {"allowedTools": [], "mcpServers": {}, "history": [],
                              "hasTrustDialogAccepted": True, "lastCost": 0.1}},
        "mcpServers": {"files": {"command": "npx", "args": ["fs-server"]}},
    }
    fake_agent(s, "claude", 'python3 edit.py\n')

    def run_edit(edit):
        # The agent rewrites the file as Claude Code does in the sandbox
        # (its temporary file beside it is refused): in place, another
        # size, new times.
        s.write("edit.py",
                "import json, os\n"
                "p = os.path.expanduser('~/.claude.json')\n"
                "d = json.load(open(p))\n" + edit +
                "open(p, 'w').write(json.dumps(d, indent=1))\n")
        with open(state, "w") as f:
            json.dump(base, f)
        os.chmod(state, 0o600)
        res = s.lf("run", "--", "claude")
        check(res.code == 0, "the fake claude failed: %r" % res.err)
        return "the program changed %s" % state in res.err

    proj = "d['projects'][%r]" % s.proj
    check(not run_edit("d['numStartups'] += 1\n"
                       "d['tipsHistory']['permissions'] += 1\n"
                       "d['cachedChangelog'] = 'x' * 5000\n"
                       + proj + "['history'].append({'display': 'fix the bug'})\n"
                       + proj + "['lastCost'] = 2.5\n"
                       "d['projects']['/elsewhere'] = {'allowedTools': [], "
                       "'mcpServers': {}, 'hasTrustDialogAccepted': False}\n"),
          "a rewrite of counters, history and a new empty project was reported")
    check(run_edit("d['mcpServers']['evil'] = {'command': 'sh', 'args': ['-c', 'id']}\n"),
          "an MCP server added at the top was not reported")
    check(run_edit(proj + "['mcpServers']['x'] = {'command': '/tmp/x'}\n"),
          "an MCP server added for the project was not reported")
    check(run_edit("d['mcpServers']['files']['args'] = ['other']\n"),
          "an MCP server's arguments changed were not reported")
    check(run_edit(proj + "['allowedTools'] = ['Bash(*)']\n"),
          "a tool allowed for the project was not reported")
    check(run_edit("d['projects']['/elsewhere'] = {'hasTrustDialogAccepted': True}\n"),
          "a project trusted was not reported")
    check(run_edit("d['bypassPermissionsModeAccepted'] = True\n"),
          "bypass permissions mode accepted was not reported")
    check(run_edit(proj + "['env'] = {'NODE_OPTIONS': '--require /tmp/x'}\n"),
          "an environment added was not reported")
    s.write("edit.py", "import os\n"
            "open(os.path.expanduser('~/.claude.json'), 'w').write('{not json')\n")
    with open(state, "w") as f:
        json.dump(base, f)
    res = s.lf("run", "--", "claude")
    check("the program changed %s" % state in res.err, "invalid JSON was not reported")
    # Replaced by a link (from outside: the sandbox cannot make one in
    # the home directory), between two runs' snapshots is not the
    # program's doing; its mode made group-writable is (writable by
    # others, the filter refuses: EPERM).
    s.write("edit.py", "import os\n"
            "os.chmod(os.path.expanduser('~/.claude.json'), 0o660)\n")
    with open(state, "w") as f:
        json.dump(base, f)
    os.chmod(state, 0o600)
    res = s.lf("run", "--", "claude")
    check("the program changed %s" % state in res.err, "a mode change was not reported")


def config_changed(s):
    """landfence's trust store and user policy changed while the program
    ran are reported after it: the program cannot write them, but it can
    make their directory group-writable and set it back before it ends,
    and another user of that group could move a store or a policy the
    program wrote in meanwhile. Here the test moves them in (the other
    user) while the program waits; a run that changes nothing, and the
    caches landfence itself keeps there, are not news. A cache file
    changed meanwhile is removed, and reported only when it cannot be
    (its directory left group-writable)."""
    import subprocess
    need_enforcement(s)
    cfg = s.h(".config/landfence")
    os.makedirs(cfg, exist_ok=True)
    os.chmod(cfg, 0o700)
    store = s.write(os.path.join(cfg, "trusted"), "0" * 64 + " /elsewhere/.landfence/policy.json\n",
                    0o600)
    cache = os.path.join(cfg, "cache")

    def caches():
        if not os.path.isdir(cache):
            return {}
        return {n: os.lstat(os.path.join(cache, n)).st_ino for n in os.listdir(cache)}

    for _ in range(2):
        res = s.lf("run", "-q", "--", "true")
        check(res.code == 0 and "changed while the program ran" not in res.err,
              "a run that changed nothing was reported: %r" % res.err)
    # What landfence keeps there itself (with a namespace, the probe's
    # answer) stays from run to run.
    kept = caches()
    res = s.lf("run", "-q", "--", "true")
    check(res.code == 0 and caches() == kept,
          "the caches changed in a run that changed nothing: %r, %r" % (kept, caches()))
    for what in ("trusted", "policy.json", "directory", "cache", "cache-stuck"):
        for name in ("ready", "done"):
            if os.path.exists(os.path.join(s.proj, name)):
                os.unlink(os.path.join(s.proj, name))
        if what == "cache":
            # Two cache files there before the run, as landfence keeps
            # them (the user's, 0600).
            os.makedirs(cache, 0o700, exist_ok=True)
            for n in ("dev-00000000000000bb", "dev-00000000000000cc"):
                s.write(os.path.join(cache, n), "landfence-dev-cache 1\n", 0o600)
        proc = subprocess.Popen(
            [landfence(), "run", "-q", "--", "sh", "-c",
             "touch ready; j=0; while [ ! -e done ] && [ $j -lt 600 ]; do sleep 0.05; "
             "j=$((j+1)); done"],
            cwd=s.proj, env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(600):
            if os.path.exists(os.path.join(s.proj, "ready")) or proc.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(os.path.join(s.proj, "ready")):
            proc.kill()
            out, err = proc.communicate(timeout=60)
            check(False, "the program did not start: exit %s, %r" % (proc.returncode, err))
        if what == "trusted":
            # A store of the program's, moved over the user's (naming
            # another project: one naming this one, with no policy
            # there, would stop the next launch).
            new = s.write("forged", "1" * 64 + " /elsewhere/two/.landfence/policy.json\n", 0o600)
            os.rename(new, store)
            want = store
        elif what == "policy.json":
            new = s.write("userpol", '{"version": 1, "fallback": "allow"}', 0o644)
            want = os.path.join(cfg, "policy.json")
            os.rename(new, want)
        elif what == "cache":
            # A cache file of the program's moved in, and one there
            # before rewritten in place: neither is believed later.
            new = s.write("forged-cache", "landfence-tree-cache 2\n", 0o600)
            os.rename(new, os.path.join(cache, "tree-00000000000000aa"))
            with open(os.path.join(cache, "dev-00000000000000bb"), "a") as f:
                f.write("forged\n")
            want = None
        elif what == "cache-stuck":
            # The same, with the directory left group-writable at the
            # end: the file cannot be removed through it, and the next
            # launch does not use the caches until the mode is set back.
            new = s.write("forged-cache", "landfence-tree-cache 2\n", 0o600)
            want = os.path.join(cache, "tree-00000000000000dd")
            os.rename(new, want)
            os.chmod(cache, 0o770)
        else:
            # The whole directory swapped for one of the program's.
            os.rename(cfg, cfg + ".old")
            os.makedirs(cfg, 0o700)
            want = cfg
        s.write("done", "")
        out, err = proc.communicate(timeout=60)
        print("exit %d\nstderr:\n%s" % (proc.returncode, err))
        check(proc.returncode == 0, "the program failed")
        if what == "cache":
            left = caches()
            check("tree-00000000000000aa" not in left and "dev-00000000000000bb" not in left,
                  "a cache file changed during the run was kept: %r" % left)
            check("dev-00000000000000cc" in left, "a cache file left alone was removed")
            check("changed while the program ran" not in err,
                  "a cache file changed was reported (a concurrent launch writes there)")
            continue
        if what == "cache-stuck":
            check(os.path.exists(want), "the test's cache file is gone")
            check(re.search(r"%s changed while the program ran \(landfence's caches\) and "
                            r"could not be removed" % re.escape(want), err),
                  "a cache file changed and left in place was not reported")
            os.chmod(cache, 0o700)
            os.unlink(want)
            continue
        # A directory swapped is named by what it held (as a hook
        # directory's changes are).
        check(re.search(r"%s(/[a-z.]+)? changed while the program ran" % re.escape(want), err),
              "%s changed during the run was not reported" % want)
        if what == "policy.json":
            os.unlink(want)
        elif what == "directory":
            shutil.rmtree(cfg)
            os.rename(cfg + ".old", cfg)


def etc_cache_same(s):
    """The look at /etc from the cache of directory listings (the names
    each directory holds, and without a mount namespace each link's
    target, src/fs/treecache.c) plans what the walk plans: the plan's
    rules and masks from a warm cache, with and without a namespace, are
    those of a launch that cannot use the cache (its configuration
    directory writable by its group: lf_cache_dir refuses it)."""
    need_enforcement(s)
    other = os.path.join(s.top, "home2")
    os.makedirs(os.path.join(other, ".config"), 0o700)
    os.chmod(os.path.join(other, ".config"), 0o770)

    def plan(extra):
        res = s.lf("plan", "--json", extra=extra)
        check(res.code == 0, "plan failed: %r" % res.err)
        d = json.loads(res.out)
        # What /etc gives: the rest names each home.
        return ([json.dumps(r, sort_keys=True) for r in d["rules"] if r["path"].startswith("/etc")],
                sorted(json.dumps(m, sort_keys=True) for m in d["masks"]
                       if m["path"].startswith("/etc")))
    cache = s.h(".config/landfence/cache")
    for extra in ({}, {"LANDFENCE_NO_NAMESPACES": "1"}):
        first = plan(extra)
        warm = plan(extra)
        walked = plan(dict(extra, HOME=other))
        check(sorted(first[0]) == sorted(walked[0]) and first[1] == walked[1],
              "the first look planned otherwise than the walk")
        check(sorted(warm[0]) == sorted(walked[0]) and warm[1] == walked[1],
              "the cached look planned otherwise than the walk")
        names = os.listdir(cache) if os.path.isdir(cache) else []
        if extra:
            check(any(n.startswith("links-") for n in names),
                  "no cache of /etc's listings was kept: %r" % names)
        check(not os.path.exists(os.path.join(other, ".config", "landfence", "cache")),
              "a cache was kept in a configuration directory others may change")


def device_cache(s):
    """Without a mount namespace the device-node scan answers from its
    cache of directory listings as the walk would: a node there at the
    first launch is refused; the cache, once warm, still refuses a node
    made later in a directory it knows, deep down, or inside .git; a
    tree larger than one walk's budget is searched whole (each grant
    root its own budget). Root only: making a device node needs
    CAP_MKNOD."""
    import glob
    import time
    if os.geteuid() != 0:
        raise Skip("making device nodes needs root")
    need_enforcement(s)
    no_ns = {"LANDFENCE_NO_NAMESPACES": "1"}
    git(s, s.proj, "init", "-q", ".")
    for d in ("a/b/c", "d"):
        os.makedirs(os.path.join(s.proj, d))
    cacheable(s.proj)
    node = os.path.join(s.proj, "a/b/c/disk")
    os.mknod(node, 0o666 | stat.S_IFBLK, os.makedev(7, 0))
    time.sleep(2.2)

    def refused(where, kind="block"):
        res = s.lf("run", "--", "true", extra=no_ns)
        return res.code == 125 and ("%s is a %s device node" % (where, kind)) in res.err

    check(refused(node), "a device node there at the first launch was not refused")
    check(glob.glob(s.h(".config/landfence/cache/dev-*")), "no device cache was written")
    check(refused(node), "the warm cache lost the device node")
    os.unlink(node)
    time.sleep(2.2)
    res = s.lf("run", "--", "true", extra=no_ns)
    check(res.code == 0, "the node removed, run still refused: %r" % res.err)
    time.sleep(2.2)
    res = s.lf("run", "--", "true", extra=no_ns)  # all of it cached now
    check(res.code == 0, "run refused from a warm cache: %r" % res.err)
    for rel in ("a/b/c/later", ".git/objects/hidden", "d/chr"):
        path = os.path.join(s.proj, rel)
        os.mknod(path, 0o666 | (stat.S_IFCHR if rel == "d/chr" else stat.S_IFBLK),
                 os.makedev(1, 3))
        check(refused(path, "character" if rel == "d/chr" else "block"),
              "a node made after the cache was warm was not refused: " + rel)
        os.unlink(path)
    # More entries than one walk may see (LANDFENCE_SCAN_MAX_ENTRIES), in
    # a root whose cache answers: the walk alone refused; the cache's own
    # budget counts a known directory as one.
    res = s.lf("run", "--", "true", extra=dict(no_ns, LANDFENCE_SCAN_MAX_ENTRIES="3"))
    check(res.code == 125 and "incomplete" in res.err,
          "a budget of 3 entries did not refuse: %r" % res.err)



def many_rules(s):
    """A policy of more rules than one thread looks at and adds alone
    (src/fs/facts.c, CANDS_SPLIT_MIN, and src/landlock/ruleset.c,
    SPLIT_MIN: 512; two threads each take half): every granted directory
    reads, from either half of the value's rules, and one beside them
    that no rule grants is EACCES."""
    need_enforcement(s)
    top = os.path.join(s.proj, "many")
    n = 600
    for i in range(n + 1):
        os.makedirs(os.path.join(top, "d%04d" % i))
        s.write(os.path.join(top, "d%04d" % i, "f"), "in %d\n" % i)
    # Not the default's: it grants the whole project.
    pol = s.write(os.path.join(s.top, "many.json"), json.dumps(
        {"version": 1, "fallback": "deny",
         "rules": [{"effect": "allow", "capability": "read",
                    "paths": ["many/d%04d/**" % i]} for i in range(n)]}))
    script = "; ".join("cat %s/d%04d/f || echo refused %d" % (top, i, i)
                       for i in (0, 1, n // 2 - 1, n // 2, n - 1, n))
    res = s.lf("run", "-q", "-p", pol, "--", "/bin/sh", "-c", script)
    check(res.code == 0, "the run failed: %r" % res.err)
    check(res.out.splitlines() == ["in 0", "in 1", "in %d" % (n // 2 - 1), "in %d" % (n // 2),
                                   "in %d" % (n - 1), "refused %d" % n],
          "the many rules did not grant what they name, or granted more: %r" % res.out)
    check("Permission denied" in res.err, "the ungranted directory was not EACCES: %r" % res.err)


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
    "git-planted": git_planted,
    "mask-falls": mask_falls,
    "orphans-reaped": orphans_reaped,
    "discovery-planted": discovery_planted,
    "nested-cache": nested_cache,
    "nested-cache-large": nested_cache_large,
    "escaped-output": escaped_output,
    "heap-room": heap_room,
    "ns-memo": ns_memo,
    "ns-memo-kept": ns_memo_kept,
    "ns-memo-build": ns_memo_build,
    "cache-dir": cache_dir,
    "claude-state": claude_state,
    "config-changed": config_changed,
    "etc-cache-same": etc_cache_same,
    "device-cache": device_cache,
    "many-rules": many_rules,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))

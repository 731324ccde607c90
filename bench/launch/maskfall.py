# SPDX-License-Identifier: MIT
"""How long a masked file stays reachable while its mask falls, for two
builds side by side (doc/launch.md, "A mask that falls"). A benchmark, not
a test: nothing here passes or fails.

    python3 bench/launch/maskfall.py BASE_LANDFENCE NEW_LANDFENCE [ROUNDS] [spin|sleep] [mv|rm]

Each round runs both builds, in an order that alternates from round to
round, each in a project of its own and with a HOME of its own: the
project holds `.env` (SECRET=1) and the policy "read and write **, deny
read .env". Under `landfence run`, a Python program reads `.env` in a
loop (spin: without pause; sleep: every 0.5 ms) and logs each read with
its CLOCK_MONOTONIC time. 0.3 s after it starts, this script replaces
`.env` outside the sandbox (mv: SECRET=2 written to .env.new and renamed
over .env; rm: .env unlinked), which takes the mask off, and the watch
kills the program. Printed per build: how many runs ended killed (137),
how many runs read the hidden file (SECRET=1) and how often, how many
read the new one (SECRET=2), and when the program's last read began,
counted from the start of the rename (median and maximum, µs); then the
new build's reads of each file over the base build's. Works as root and
as any user that can run landfence with a mount namespace.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

POLICY = {"version": 1, "fallback": "deny", "rules": [
    {"effect": "allow", "capability": "read", "paths": ["**"]},
    {"effect": "allow", "capability": "write", "paths": ["**"]},
    {"effect": "deny", "capability": "read", "paths": [".env"]}]}

READER = r'''
import sys, time
open('started', 'w').close()
end = time.time() + 1.5
out = open('log.txt', 'a', buffering=1)
spin = sys.argv[1] == 'spin'
while time.time() < end:
    t = time.monotonic()
    try:
        with open('.env') as f:
            s = f.read().strip()
    except OSError:
        s = 'E'
    out.write('%.6f %s\n' % (t, s or '-'))
    if not spin:
        time.sleep(0.0005)
'''


def one(work, name, binary, mode, op):
    home = os.path.join(work, "home-" + name)
    proj = os.path.join(work, "proj-" + name)
    os.makedirs(home, exist_ok=True)
    shutil.rmtree(proj, ignore_errors=True)
    os.makedirs(os.path.join(proj, ".landfence"))
    with open(os.path.join(proj, ".env"), "w") as f:
        f.write("SECRET=1\n")
    with open(os.path.join(proj, ".landfence", "policy.json"), "w") as f:
        json.dump(POLICY, f)
    with open(os.path.join(proj, "reader.py"), "w") as f:
        f.write(READER)
    env = dict(os.environ, HOME=home)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run([binary, "trust"], cwd=proj, env=env, check=True, **quiet)
    p = subprocess.Popen([binary, "run", "-q", "--", sys.executable, "reader.py", mode],
                         cwd=proj, env=env, **quiet)
    started = os.path.join(proj, "started")
    while not os.path.exists(started):
        if p.poll() is not None:
            sys.exit("%s: the reader did not start (exit %d)" % (binary, p.returncode))
        time.sleep(0.005)
    time.sleep(0.3)
    target = os.path.join(proj, ".env")
    if op == "mv":
        with open(target + ".new", "w") as f:
            f.write("SECRET=2\n")
        t0 = time.monotonic()
        os.rename(target + ".new", target)
    else:
        t0 = time.monotonic()
        os.unlink(target)
    rc = p.wait()
    with open(os.path.join(proj, "log.txt")) as f:
        reads = [line.split() for line in f]
    hidden = sum(1 for _, s in reads if s == "SECRET=1")
    new = sum(1 for _, s in reads if s == "SECRET=2")
    last = (float(reads[-1][0]) - t0) * 1e6
    return rc, hidden, new, last


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    builds = {"base": os.path.abspath(sys.argv[1]), "new": os.path.abspath(sys.argv[2])}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    mode = sys.argv[4] if len(sys.argv) > 4 else "spin"
    op = sys.argv[5] if len(sys.argv) > 5 else "mv"
    if mode not in ("spin", "sleep") or op not in ("mv", "rm"):
        sys.exit(__doc__)
    work = tempfile.mkdtemp(prefix="lf-maskfall-")
    res = {name: [] for name in builds}
    try:
        for r in range(rounds):
            order = ("base", "new") if r % 2 == 0 else ("new", "base")
            for name in order:
                res[name].append(one(work, name, builds[name], mode, op))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("maskfall: %d rounds, reader %s, .env %s" % (rounds, mode,
          "renamed over" if op == "mv" else "unlinked"))
    for name in ("base", "new"):
        v = res[name]
        print("%s: killed %d/%d; runs that read the hidden file %d (reads %d); runs that read "
              "the new file %d (reads %d); last read after the rename began: median %.0f us, "
              "max %.0f us" % (
                  name, sum(1 for x in v if x[0] == 137), len(v), sum(1 for x in v if x[1]),
                  sum(x[1] for x in v), sum(1 for x in v if x[2]), sum(x[2] for x in v),
                  statistics.median(x[3] for x in v), max(x[3] for x in v)))
    for i, what in ((1, "hidden"), (2, "new")):
        b = sum(x[i] for x in res["base"])
        n = sum(x[i] for x in res["new"])
        print("ratio_%s_reads_new_over_base: %s" % (what, "%.2f" % (n / b) if b else "n/a (base 0)"))


if __name__ == "__main__":
    main()

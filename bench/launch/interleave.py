# SPDX-License-Identifier: MIT
"""Runs several commands in interleaved rounds and prints their medians.

    python3 interleave.py SPEC.json ROUNDS WARMUP OUT.json

SPEC.json is a list of {"name", "argv", "cwd"?, "env"?}. Each round runs
every command once, in an order that rotates from round to round, so that
a machine whose load changes during the run weighs on every command
alike: ratios between commands of one run are then meaningful even on a
shared machine. Each launch is a posix_spawn and a wait4; its wall time,
its CPU time (user + system of the process and everything it waited for)
and its peak memory (ru_maxrss: the largest resident set among the
process and its waited-for descendants) come from that wait4. Standard
output and error go to /dev/null; a command that fails stops the run.
A benchmark's helper, not a test.
"""
import json
import os
import statistics
import sys
import time


def main():
    spec = json.load(open(sys.argv[1]))
    rounds, warmup = int(sys.argv[2]), int(sys.argv[3])
    null = os.open(os.devnull, os.O_RDWR)
    base_env = dict(os.environ)
    cmds = []
    for c in spec:
        env = dict(base_env)
        env.update(c.get("env", {}))
        cmds.append((c["name"], c["argv"], c.get("cwd"), env))
    res = {c[0]: {"wall": [], "cpu": [], "rss": []} for c in cmds}
    fa = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
          (os.POSIX_SPAWN_DUP2, null, 2)]
    here = os.getcwd()
    for r in range(warmup + rounds):
        k = r % len(cmds)
        for name, argv, cwd, env in cmds[k:] + cmds[:k]:
            if cwd:
                os.chdir(cwd)
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=fa)
            _, status, ru = os.wait4(pid, 0)
            t1 = time.perf_counter()
            if cwd:
                os.chdir(here)
            if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                sys.exit("%s: exit status %d: %s" % (name, status, " ".join(argv)))
            if r >= warmup:
                res[name]["wall"].append(t1 - t0)
                res[name]["cpu"].append(ru.ru_utime + ru.ru_stime)
                res[name]["rss"].append(ru.ru_maxrss)
    out = {}
    for name, v in res.items():
        out[name] = {
            "median_us": statistics.median(v["wall"]) * 1e6,
            "mean_us": statistics.mean(v["wall"]) * 1e6,
            "cpu_us": statistics.median(v["cpu"]) * 1e6,
            "rss_kib": statistics.median(v["rss"]),
            "runs": len(v["wall"]),
        }
    json.dump(out, open(sys.argv[4], "w"), indent=1)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Toolchains as users install them, under the embedded default.

Scratch layouts that mimic each toolchain's real one (shell scripts stand
in for the programs, at the places and with the hops the real ones make:
a pyenv shim that runs libexec/pyenv that runs a version's interpreter
that reads its standard library; a rustup proxy that reads
~/.rustup/settings.toml; an npm user prefix whose package runs a native
binary of a sibling platform package; ...), run with `landfence run` from
a project, with the scratch home empty but for them and a secret:

  pyenv, pyenv-root-var, rustup-cargo, npm-prefix, npm-node-modules-bin,
  nvm, go, pipx-venv, uv-poetry-caches    each toolchain works, what it
      must not change stays read-only, its credential files and the rest
      of the home stay out of reach, plan names every grant and its cause
  switch-off    "toolchains": {"except": [...]} and {"discover": false}
  refused       a variable naming the home, a credential directory or a
      persistence path: not granted, and plan says why
  landfence-inside   `landfence run -- sh -c 'landfence check bash -- ls'`
      with landfence in its build folder
  real-tools    the machine's own pyenv, rustup and cargo (bind-mounted
      into the scratch home, root only) and npm: python3 -c, cargo new
      && cargo build --offline, npm install is-number

Usage: toolchain_test.py [TEST...]
"""

import json
import os
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.dont_write_bytecode = True
from lftest import Fail, Skip, check, denied, main, need_enforcement  # noqa: E402

SECRET = "lf-toolchain-secret"


def exe(s, path, body):
    """An executable shell script at PATH (absolute or below the home)."""
    path = path if os.path.isabs(path) else s.h(path)
    return s.write(path, "#!/bin/sh\n" + body, 0o755)


def home_secret(s):
    s.write(s.h("secret.txt"), SECRET + "\n")


def no_secret(s, res, what):
    check(SECRET not in res.out and SECRET not in res.err,
          "the home's secret was read (%s)" % what)


def plan_has(s, path, origin, why_part, access="read", opts=()):
    res = s.lf("plan", *opts)
    check(res.code == 0, "plan failed")
    for line in res.out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == access and f[1] == origin and f[2] == path:
            check(why_part in line, "plan's line for %s does not say %r: %s"
                  % (path, why_part, line))
            return
    raise Fail("plan does not grant %s %s (%s):\n%s" % (access, path, origin, res.out))


def plan_lacks(s, path, opts=()):
    res = s.lf("plan", *opts)
    check(res.code == 0, "plan failed")
    for line in res.out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[2] == path and f[1] in ("toolchain", "command"):
            raise Fail("plan grants %s: %s" % (path, line))
    return res


# ------------------------------------------------------------------ pyenv

def make_pyenv(s, root):
    """pyenv as its installer lays it out: bin/pyenv, libexec/pyenv,
    shims written with pyenv's absolute path, a global version file and a
    version whose interpreter reads its standard library."""
    exe(s, os.path.join(root, "libexec/pyenv"),
        'root="${PYENV_ROOT:-$HOME/.pyenv}"\n'
        '[ "$1" = exec ] || { echo "pyenv 2.4.0"; exit 0; }\n'
        'shift; v=$(cat "$root/version"); prog=$1; shift\n'
        'exec "$root/versions/$v/bin/$prog" "$@"\n')
    exe(s, os.path.join(root, "bin/pyenv"), 'exec "%s/libexec/pyenv" "$@"\n' % root)
    exe(s, os.path.join(root, "shims/python3"),
        'set -e\nprogram="${0##*/}"\nexport PYENV_ROOT="%s"\n'
        'exec "%s/libexec/pyenv" exec "$program" "$@"\n' % (root, root))
    s.write(os.path.join(root, "version"), "3.12.0\n")
    prefix = os.path.join(root, "versions/3.12.0")
    s.write(os.path.join(prefix, "lib/python3.12/os.py"), "# the standard library\n")
    exe(s, os.path.join(prefix, "bin/python3"),
        'here=$(dirname "$(readlink -f "$0")")\n'
        'cat "$here/../lib/python3.12/os.py" >/dev/null || exit 3\n'
        'echo "python $*"\n')


def pyenv(s):
    """pyenv at its default place, found from the PATH entries of its shims
    and bin: `python3 -c` through the shim works; pyenv's tree stays
    read-only; the home's other files stay out of reach."""
    need_enforcement(s)
    home_secret(s)
    make_pyenv(s, s.h(".pyenv"))
    s.path_dirs[:0] = [s.h(".pyenv/shims"), s.h(".pyenv/bin")]
    res = s.lf("run", "--", "python3", "-c", "print(6*7)")
    check(res.code == 0 and res.out == "python -c print(6*7)\n",
          "python3 through the pyenv shim did not run")
    check("made " not in res.err or ".pyenv" not in res.err, "run made something in pyenv")
    plan_has(s, s.h(".pyenv"), "toolchain", "PATH entry %s" % s.h(".pyenv/shims"))
    res = s.sh("echo x > %s" % s.h(".pyenv/versions/3.12.0/bin/evil"), opts=["-q"])
    check(res.code != 0 and denied(res), "pyenv's tree is writable")
    res = s.sh("cat %s" % s.h("secret.txt"), opts=["-q"])
    check(res.code != 0 and denied(res), "the home's secret is readable")
    no_secret(s, res, "pyenv")


def pyenv_root_var(s):
    """PYENV_ROOT names pyenv elsewhere (outside the home): found from the
    variable, its cause named."""
    need_enforcement(s)
    root = os.path.join(s.top, "opt-pyenv")
    make_pyenv(s, root)
    s.extra["PYENV_ROOT"] = root
    s.path_dirs[:0] = [os.path.join(root, "shims")]
    res = s.lf("run", "-q", "--", "python3", "x.py")
    check(res.code == 0 and res.out == "python x.py\n", "python3 under PYENV_ROOT did not run")
    plan_has(s, root, "toolchain", "PYENV_ROOT=%s" % root)


# ------------------------------------------------------------ rustup, cargo

def make_rustup(s):
    s.write(s.h(".rustup/settings.toml"), 'default_toolchain = "stable-x86_64"\n')
    tc = s.h(".rustup/toolchains/stable-x86_64")
    exe(s, os.path.join(tc, "bin/rustc"), 'echo "rustc 1.0.0"\n')
    exe(s, os.path.join(tc, "bin/cargo"),
        'reg="$HOME/.cargo/registry"\n'
        'case "$1" in\n'
        'fetch) mkdir -p "$reg/cache/index" && echo crate > "$reg/cache/index/c" && echo fetched;;\n'
        'build) rustc --version && cat "$HOME/.cargo/config.toml" && echo built;;\n'
        'token) cat "$HOME/.cargo/credentials.toml";;\n'
        'esac\n')
    # rustup's proxies: the same binary under each tool's name, reading
    # ~/.rustup/settings.toml to pick the toolchain.
    proxy = ('set -e\nsettings="${RUSTUP_HOME:-$HOME/.rustup}/settings.toml"\n'
             'tc=$(sed -n \'s/^default_toolchain = "\\(.*\\)"/\\1/p\' "$settings")\n'
             'exec "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/$tc/bin/${0##*/}" "$@"\n')
    for name in ("cargo", "rustc", "rustup"):
        exe(s, ".cargo/bin/" + name, proxy)
    s.write(s.h(".cargo/config.toml"), "[build]\njobs = 2\n")
    s.write(s.h(".cargo/credentials.toml"), '[registry]\ntoken = "%s"\n' % SECRET, 0o600)
    s.write(s.h(".cargo/env"), 'export PATH="$HOME/.cargo/bin:$PATH"\n')
    s.path_dirs[:0] = [s.h(".cargo/bin")]


def rustup_cargo(s):
    """rustup and cargo at their default places: the proxy reads
    ~/.rustup/settings.toml, the registry cache is made before the first
    run and is writable, the crates.io token in ~/.cargo/credentials.toml
    is not readable, ~/.cargo/bin and ~/.rustup stay read-only."""
    need_enforcement(s)
    make_rustup(s)
    res = s.lf("plan")
    check("%s  (toolchain cargo: the crate registry cache" % s.h(".cargo/registry") in res.out
          and "does not exist yet: `landfence run` makes it" in res.out,
          "plan does not say that run makes the registry cache")
    res = s.lf("run", "--", "cargo", "fetch")
    check(res.code == 0 and "fetched" in res.out, "cargo fetch into the registry failed")
    check("made %s (toolchain cargo: the crate registry cache" % s.h(".cargo/registry")
          in res.err, "run did not say it made the registry cache")
    check(stat.S_IMODE(os.stat(s.h(".cargo/registry")).st_mode) == 0o700,
          "the registry cache is not 0700")
    res = s.lf("run", "-q", "--", "cargo", "build")
    check(res.code == 0 and "rustc 1.0.0" in res.out and "jobs = 2" in res.out,
          "cargo build (rustc through the proxy, config.toml) failed")
    res = s.lf("run", "-q", "--", "cargo", "token")
    check(res.code != 0 and denied(res), "~/.cargo/credentials.toml is readable")
    no_secret(s, res, "cargo credentials")
    res = s.sh("echo x > %s; echo x > %s" % (s.h(".cargo/bin/evil"),
                                            s.h(".rustup/settings.toml")), opts=["-q"])
    check(res.code != 0 and res.err.count("Permission denied") == 2,
          "~/.cargo/bin or ~/.rustup is writable")
    plan_has(s, s.h(".rustup"), "toolchain", "rustup on PATH: %s" % s.h(".cargo/bin/rustup"))
    plan_has(s, s.h(".cargo/bin"), "toolchain", "PATH entry %s" % s.h(".cargo/bin"))
    plan_has(s, s.h(".cargo/registry"), "toolchain", "crate registry", access="read+write")
    res = s.lf("plan")
    check("readable credential files" not in res.out, "plan lists a readable credential")


# --------------------------------------------------------------------- npm

def make_npm_package(s, modules, bindir=None):
    """An npm package as npm installs it: bin/x.js loads a sibling chunk,
    then runs the native binary of its platform sub-package (codex's
    layout), which reads the package's own package.json."""
    pkg = os.path.join(modules, "@acme/agent")
    s.write(os.path.join(pkg, "package.json"), '{"name": "@acme/agent"}\n')
    s.write(os.path.join(pkg, "bundle/chunk-1.js"), "// chunk\n")
    native = exe(s, os.path.join(modules, "@acme/agent-linux-x64/vendor/bin/agent-native"),
                 'cat "$(dirname "$0")/../../../agent/package.json" >/dev/null && '
                 'echo "native ok"\n')
    exe(s, os.path.join(pkg, "bin/agent.js"),
        'here=$(dirname "$(readlink -f "$0")")\n'
        'cat "$here/../bundle/chunk-1.js" >/dev/null || exit 3\n'
        'exec "%s" "$@"\n' % native)
    if bindir:
        os.makedirs(bindir, exist_ok=True)
        os.symlink(os.path.join(pkg, "bin/agent.js"), os.path.join(bindir, "agent"))
    return pkg


def fake_npm(s, bindir):
    """`npm` standing in: writes its cache below ~/.npm, reads ~/.npmrc."""
    exe(s, os.path.join(bindir, "npm"),
        'cache="${npm_config_cache:-$HOME/.npm}"\n'
        'mkdir -p "$cache/_cacache/index-v5" && echo entry > "$cache/_cacache/index-v5/e" '
        '|| exit 4\n'
        'cat "$HOME/.npmrc" 2>/dev/null || echo "no npmrc"\n'
        'echo "npm ok"\n')


def npm_prefix(s):
    """A user prefix set with `npm config set prefix` (in ~/.npmrc, beside
    a registry token): its packages, platform sub-packages included, are
    readable and executable; the cache is made and writable; ~/.npmrc is
    not readable."""
    need_enforcement(s)
    home_secret(s)
    prefix = s.h(".npm-global")
    make_npm_package(s, os.path.join(prefix, "lib/node_modules"), os.path.join(prefix, "bin"))
    s.write(s.h(".npmrc"), "prefix=~/.npm-global\n//registry.npmjs.org/:_authToken=%s\n"
            % SECRET, 0o600)
    npmbin = os.path.join(s.top, "usr-bin")
    fake_npm(s, npmbin)
    s.path_dirs[:0] = [os.path.join(prefix, "bin"), npmbin]
    res = s.lf("run", "--", "npm", "install", "x")
    check(res.code == 0 and "npm ok" in res.out and "no npmrc" in res.out,
          "npm with its cache failed, or read ~/.npmrc")
    check("made %s" % s.h(".npm") in res.err, "run did not make ~/.npm")
    res = s.lf("run", "-q", "--", "agent", "--version")
    check(res.code == 0 and res.out == "native ok\n",
          "the package from the user prefix did not run")
    no_secret(s, res, "~/.npmrc")
    plan_has(s, os.path.join(prefix, "lib/node_modules"), "toolchain",
             "PATH entry %s" % os.path.join(prefix, "bin"))
    plan_has(s, s.h(".npm"), "toolchain", "the package cache", access="read+write")
    res = s.sh("echo x > %s" % os.path.join(prefix, "lib/node_modules/@acme/agent/x"),
               opts=["-q"])
    check(res.code != 0 and denied(res), "the prefix's packages are writable")
    # Its bin off PATH, npm still finds the prefix in ~/.npmrc, so does
    # discovery (that line only: the token stays out of reach).
    s.path_dirs.remove(os.path.join(prefix, "bin"))
    plan_has(s, os.path.join(prefix, "lib/node_modules"), "toolchain",
             "npm_config_prefix=%s" % prefix)


def npm_node_modules_bin(s):
    """An install into a prefix outside the home (`npm install --prefix
    DIR`, DIR/node_modules/.bin on PATH, as CI's agents): the packages
    below DIR/node_modules are readable and executable, nothing else of
    DIR."""
    need_enforcement(s)
    prefix = os.path.join(s.top, "agents")
    make_npm_package(s, os.path.join(prefix, "node_modules"),
                     os.path.join(prefix, "node_modules/.bin"))
    s.write(os.path.join(prefix, "outside.txt"), "not part of the packages\n")
    s.path_dirs[:0] = [os.path.join(prefix, "node_modules/.bin")]
    res = s.lf("run", "-q", "--", "agent")
    check(res.code == 0 and res.out == "native ok\n", "the package did not run")
    res = s.sh("cat %s" % os.path.join(prefix, "outside.txt"), opts=["-q"])
    check(res.code != 0 and denied(res), "more than the prefix's node_modules is readable")
    plan_has(s, os.path.join(prefix, "node_modules"), "toolchain",
             "PATH entry %s" % os.path.join(prefix, "node_modules/.bin"))
    # Run by its path, not from PATH: the command's package tree.
    s.path_dirs.pop(0)
    res = s.lf("run", "--", os.path.join(prefix, "node_modules/.bin/agent"))
    check(res.code == 0 and res.out == "native ok\n", "the package did not run by its path")
    check("granted read+execute on %s (the npm packages the command" %
          os.path.join(prefix, "node_modules") in res.err,
          "run did not say it granted the command's packages")


# --------------------------------------------------------------------- nvm

def nvm(s):
    """nvm: the node of the version on PATH runs its global packages."""
    need_enforcement(s)
    node = s.h(".nvm/versions/node/v20.11.0")
    exe(s, os.path.join(node, "bin/node"),
        'cat "%s/lib/node_modules/npm/package.json" >/dev/null && echo "v20.11.0"\n' % node)
    s.write(os.path.join(node, "lib/node_modules/npm/package.json"), "{}\n")
    s.write(s.h(".nvm/nvm.sh"), "# nvm\n")
    s.extra["NVM_DIR"] = s.h(".nvm")
    s.path_dirs[:0] = [os.path.join(node, "bin")]
    res = s.lf("run", "-q", "--", "node", "--version")
    check(res.code == 0 and res.out == "v20.11.0\n", "node from nvm did not run")
    plan_has(s, s.h(".nvm"), "toolchain", "NVM_DIR=%s" % s.h(".nvm"))


# ---------------------------------------------------------------------- go

def go(s):
    """go from ~/sdk (golang.org/dl), GOPATH at its default: the module
    and build caches are writable (the build cache made, since
    ~/.cache is there), installed commands read-only."""
    need_enforcement(s)
    exe(s, "sdk/go1.22.0/bin/go",
        'mkdir -p "$HOME/go/pkg/mod/cache" "$HOME/.cache/go-build/00" && '
        'echo m > "$HOME/go/pkg/mod/cache/m" && echo b > "$HOME/.cache/go-build/00/b" && '
        'echo "go ok"\n')
    exe(s, "go/bin/gopls", 'echo "gopls ok"\n')
    os.makedirs(s.h("go/pkg"))
    os.makedirs(s.h(".cache"))
    s.path_dirs[:0] = [s.h("sdk/go1.22.0/bin"), s.h("go/bin")]
    res = s.lf("run", "--", "go", "build")
    check(res.code == 0 and res.out == "go ok\n", "go with its caches failed")
    check("made %s" % s.h("go/pkg/mod") in res.err and
          "made %s" % s.h(".cache/go-build") in res.err, "run did not make the go caches")
    res = s.lf("run", "-q", "--", "gopls")
    check(res.code == 0, "an installed go command did not run")
    res = s.sh("echo x > %s" % s.h("go/bin/evil"), opts=["-q"])
    check(res.code != 0 and denied(res), "GOPATH/bin is writable")
    plan_has(s, s.h("sdk"), "toolchain", "PATH entry %s" % s.h("sdk/go1.22.0/bin"))
    plan_has(s, s.h("go/pkg/mod"), "toolchain", "the module cache", access="read+write")


# ------------------------------------------------- pipx, uv, poetry caches

def pipx_venv(s):
    """A pipx application: ~/.local/bin/black links into its virtual
    environment, whose python is a link to a pyenv version: the
    environment and the base installation are readable."""
    need_enforcement(s)
    make_pyenv(s, s.h(".pyenv"))
    venv = s.h(".local/share/pipx/venvs/black")
    s.write(os.path.join(venv, "pyvenv.cfg"),
            "home = %s\ninclude-system-site-packages = false\n"
            % s.h(".pyenv/versions/3.12.0/bin"))
    os.makedirs(os.path.join(venv, "bin"))
    os.symlink(s.h(".pyenv/versions/3.12.0/bin/python3"), os.path.join(venv, "bin/python"))
    s.write(os.path.join(venv, "lib/python3.12/site-packages/black/__init__.py"), "# black\n")
    exe(s, os.path.join(venv, "bin/black"),
        'cat "%s/lib/python3.12/site-packages/black/__init__.py" >/dev/null && '
        'exec "%s/bin/python" -m black "$@"\n' % (venv, venv))
    os.makedirs(s.h(".local/bin"))
    os.symlink(os.path.join(venv, "bin/black"), s.h(".local/bin/black"))
    s.path_dirs[:0] = [s.h(".local/bin")]
    res = s.lf("run", "--", "black", ".")
    check(res.code == 0 and res.out == "python -m black .\n",
          "the pipx application did not run")
    plan_has(s, s.h(".local/share/pipx"), "toolchain", "PATH entry %s" % s.h(".local/bin"))
    plan_has(s, s.h(".local/bin"), "toolchain", "the applications' links")


def uv_poetry_caches(s):
    """uv and poetry found on PATH: their caches are made and writable,
    their configuration is readable, poetry's auth.toml is not."""
    need_enforcement(s)
    os.makedirs(s.h(".cache"))
    bindir = os.path.join(s.top, "tools-bin")
    exe(s, os.path.join(bindir, "uv"),
        'echo u > "$HOME/.cache/uv/u" && cat "$HOME/.config/uv/uv.toml" && echo "uv ok"\n')
    exe(s, os.path.join(bindir, "poetry"),
        'echo p > "$HOME/.cache/pypoetry/p" && cat "$HOME/.config/pypoetry/config.toml" && '
        'cat "$HOME/.config/pypoetry/auth.toml"\n')
    s.write(s.h(".config/uv/uv.toml"), "# uv config\n")
    s.write(s.h(".config/pypoetry/config.toml"), "# poetry config\n")
    s.write(s.h(".config/pypoetry/auth.toml"), 'password = "%s"\n' % SECRET, 0o600)
    s.path_dirs[:0] = [bindir]
    res = s.lf("run", "--", "uv", "pip", "install", "x")
    check(res.code == 0 and "uv ok" in res.out and "made %s" % s.h(".cache/uv") in res.err,
          "uv with its cache failed")
    res = s.lf("run", "-q", "--", "poetry", "install")
    check(res.code != 0 and "# poetry config" in res.out and denied(res),
          "poetry's cache or config failed, or its auth.toml is readable")
    no_secret(s, res, "poetry auth.toml")


# -------------------------------------------------------------- switch off

def switch_off(s):
    """A policy that extends the default switches one toolchain off by
    name, or every one: their places are not granted, plan lists none,
    the program meets the kernel's refusal."""
    need_enforcement(s)
    make_pyenv(s, s.h(".pyenv"))
    make_rustup(s)
    s.path_dirs[:0] = [s.h(".pyenv/shims")]
    pol = s.write(os.path.join(s.top, "except.json"), json.dumps(
        {"version": 1, "extends": "default", "toolchains": {"except": ["pyenv"]}}))
    res = s.lf("run", "-q", "-p", pol, "--", "python3", "-c", "1")
    check(res.code != 0 and denied(res), "pyenv ran although the policy switched it off")
    plan_lacks(s, s.h(".pyenv"), opts=["-p", pol])
    plan_has(s, s.h(".cargo/bin"), "toolchain", "PATH entry", opts=["-p", pol])
    pol = s.write(os.path.join(s.top, "none.json"), json.dumps(
        {"version": 1, "extends": "default", "toolchains": {"discover": False}}))
    res = plan_lacks(s, s.h(".cargo/bin"), opts=["-p", pol])
    check(" toolchain " not in res.out, "plan lists a toolchain although discovery is off")
    res = s.lf("run", "-q", "-p", pol, "--", "cargo", "build")
    check(res.code != 0 and denied(res), "cargo ran although discovery is off")


def refused(s):
    """Variables that would grant too much: PYENV_ROOT at the home
    directory, a cache in ~/.ssh, a cache holding ~/.config/git. Nothing
    of it is granted; plan says why."""
    need_enforcement(s)
    home_secret(s)
    os.makedirs(s.h(".ssh"))
    s.write(s.h(".ssh/id_ed25519"), SECRET + "\n", 0o600)
    os.makedirs(s.h(".config/systemd/user/cache"))
    s.extra.update({"PYENV_ROOT": s.home, "GOMODCACHE": s.h(".ssh"),
                    "YARN_CACHE_FOLDER": s.h(".config/systemd/user/cache")})
    res = s.lf("plan")
    for path, why in ((s.home, "it holds the home directory"),
                      (s.h(".ssh"), "it overlaps a credential file: %s" % s.h(".ssh")),
                      (s.h(".config/systemd/user/cache"),
                       "writable, it would overlap a place where code runs later outside the "
                       "sandbox: %s" % s.h(".config/systemd"))):
        check("not granted: %s (" % path in res.out and why in res.out,
              "plan does not say why %s is not granted" % path)
    plan_lacks(s, s.home)
    plan_lacks(s, s.h(".config/systemd/user/cache"))
    res = s.sh("cat %s %s" % (s.h("secret.txt"), s.h(".ssh/id_ed25519")), opts=["-q"])
    check(res.code != 0 and res.err.count("Permission denied") == 2, "a refused place is readable")
    no_secret(s, res, "refused places")


# ------------------------------------------------------- landfence itself

def landfence_inside(s):
    """landfence from its build folder, inside `landfence run` (what the
    Claude Code hook does): `landfence check bash -- ls` answers allow."""
    need_enforcement(s)
    lf = os.environ["LANDFENCE_BIN"]
    res = s.sh("%s check bash -- ls" % lf)
    check(res.code == 0 and res.out.startswith("allow"),
          "landfence check inside landfence run failed")
    plan_has(s, os.path.realpath(lf), "self", "landfence itself")


# -------------------------------------------------------------- real tools

REAL = {".pyenv": "/root/.pyenv", ".rustup": "/root/.rustup", ".cargo/bin": "/root/.cargo/bin"}


def real_tools(s):
    """The machine's own pyenv, rustup and cargo, at the default places of
    a scratch home (bind mounts of the real installations, so that
    nothing of the real home is written), npm, and the agents' npm user
    prefix on PATH (tools/deps agents), under the embedded default:
    python3 -c, cargo new && cargo build --offline, npm install is-number,
    codex --version, gemini --version, and landfence check run from its
    build folder inside landfence run."""
    need_enforcement(s)
    if os.geteuid() != 0:
        raise Skip("the machine's toolchains are root's (/root): checked in the root pass")
    missing = [src for src in REAL.values() if not os.path.isdir(src)]
    if missing or not shutil.which("unshare") or not shutil.which("npm"):
        raise Skip("this machine has no %s" % (", ".join(missing) or "unshare or npm"))
    mounts = []
    for rel, src in REAL.items():
        os.makedirs(s.h(rel))
        mounts.append("mount --bind %s %s" % (src, s.h(rel)))
    s.path_dirs[:0] = [s.h(".cargo/bin"), s.h(".pyenv/shims"), s.h(".pyenv/bin")]
    prefix = os.environ.get("LANDFENCE_AGENTS_PREFIX", "/var/cache/landfence-agents")
    agents = [a for a in ("codex", "gemini")
              if os.access(os.path.join(prefix, "node_modules/.bin", a), os.X_OK)]
    if agents:
        s.path_dirs.insert(0, os.path.join(prefix, "node_modules/.bin"))
    elif os.environ.get("LANDFENCE_TESTS_AGENTS") == "1":
        raise Fail("the agents are not installed in %s (tools/deps agents)" % prefix)
    lf = os.environ["LANDFENCE_BIN"]
    script = " && ".join(mounts + [
        "echo ==python && %s run -- python3 -c 'print(6*7)'" % lf,
        "echo ==cargo && %s run -q -- sh -c 'cargo new -q --vcs none hello && cd hello && "
        "cargo build -q --offline && ./target/debug/hello'" % lf,
        "echo ==npm && %s run -q -- npm install --no-audit --no-fund --no-update-notifier "
        "is-number && ls node_modules/is-number/package.json" % lf,
        "echo ==secret && { %s run -q -- cat %s; echo \"status $?\"; }" % (
            lf, s.h("secret.txt")),
        "echo ==inside && %s run -q -- sh -c '%s check bash -- ls'" % (lf, lf),
    ] + ["echo ==%s && %s run -q -- %s --version" % (a, lf, a) for a in agents])
    home_secret(s)
    res = s.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                timeout=300)
    check(res.code == 0, "the real toolchains failed under the embedded default")
    out = res.out
    check("==python\n42\n" in out, "python3 -c 'print(6*7)' did not print 42")
    check("Hello, world!" in out, "cargo new && cargo build --offline failed")
    check("node_modules/is-number/package.json" in out, "npm install is-number failed")
    check("status 1" in out and "Permission denied" in res.err, "the home's secret was readable")
    no_secret(s, res, "real tools")
    check("made %s" % s.h(".npm") in res.err, "run did not make ~/.npm for npm")
    check("==inside\nallow" in out, "landfence check inside landfence run failed")
    for a in agents:
        check(out.split("==%s\n" % a, 1)[-1][:1].isdigit() or
              out.split("==%s\n" % a, 1)[-1].startswith("codex-cli"),
              "%s --version printed no version" % a)
    # Nothing was written into the real installations.
    check(not os.path.exists("/root/.cargo/bin/hello"), "cargo wrote into the real ~/.cargo")


TESTS = {
    "pyenv": pyenv,
    "pyenv-root-var": pyenv_root_var,
    "rustup-cargo": rustup_cargo,
    "npm-prefix": npm_prefix,
    "npm-node-modules-bin": npm_node_modules_bin,
    "nvm": nvm,
    "go": go,
    "pipx-venv": pipx_venv,
    "uv-poetry-caches": uv_poetry_caches,
    "switch-off": switch_off,
    "refused": refused,
    "landfence-inside": landfence_inside,
    "real-tools": real_tools,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))

"""The pinned clients' cache: one folder per npm package version under ~/.cache/peerhooks-e2e
(PEERHOOKS_E2E_CACHE moves it), shared by the Claude Code and Codex helpers and by .ci/e2e-setup."""
import os
import shutil
import subprocess
import tempfile
import unittest

CACHE_ROOT = os.environ.get("PEERHOOKS_E2E_CACHE") or os.path.join(
    os.path.expanduser("~"), ".cache", "peerhooks-e2e")
NPM_INSTALL_TIMEOUT_S = 300  # ~250 MB native binary; a few seconds here, slower on a cold cache


SETUP_HINT = "bash .ci/e2e-setup (tmux, and ~1 GB: both Claude Code versions and Codex)"


class Unavailable(Exception):
    """A tool the e2e tests need is missing; the message says which and how to get it."""


def missing_tools():
    """What the e2e tests need and this machine lacks, in words: tmux, and each pinned client not in
    the cache. Checked, never installed: the README's test command downloads nothing."""
    from .claude_cli import VERSIONS, cached_cli
    from .codex_cli import CODEX_VERSION, cached_codex

    missing = [] if shutil.which("tmux") else ["tmux"]
    missing += ["Claude Code %s" % v for v in VERSIONS if cached_cli(v) is None]
    if cached_codex() is None:
        missing.append("Codex %s" % CODEX_VERSION)
    return missing


_told = []  # the one skip line of the run, once printed


def skip_unless_ci(missing):
    """Where a tool is missing: under CI=true, where the e2e tests must run, a failure; elsewhere
    SkipTest, and one line for the whole run saying what is missing and how to get it."""
    if os.environ.get("CI") == "true":
        raise AssertionError("e2e tools missing under CI: %s" % missing)
    reason = "missing %s (clients are looked for in %s); to run them: %s" % (
        ", ".join(missing_tools() or [str(missing)]), CACHE_ROOT, SETUP_HINT)
    if not _told:
        _told.append(reason)
        print("\nskipping the end-to-end tests: %s" % reason, flush=True)
    raise unittest.SkipTest(reason)


def installed_version(path):
    """The version an installed client reports for `--version` (`2.1.332 (Claude Code)`,
    `codex-cli 0.171.0`): its first word made of digits and dots; None when it cannot say.
    Asked in a throwaway home: Codex writes `~/.codex/tmp/arg0-linux/` even for `--version`, which
    put files into the user's own home on every run of the suite."""
    with tempfile.TemporaryDirectory(prefix="peerhooks-version-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEX", "CLAUDE"))}
        env.update(HOME=home)
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired):
            return None
    if out.returncode != 0:
        return None
    return next((w for w in out.stdout.split() if w[:1].isdigit() and w.replace(".", "").isdigit()), None)


def install(package, version, folder, executable):
    """npm-install package@version into folder, atomically: a failed or interrupted install never
    leaves a half folder that later runs would trust. The version the staged executable reports is
    checked before the staged folder replaces the old one."""
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed (needed to install %s@%s)" % (package, version))
    os.makedirs(CACHE_ROOT, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="%s.installing-" % os.path.basename(folder), dir=CACHE_ROOT)
    try:
        result = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", staging, "%s@%s" % (package, version)],
            capture_output=True, text=True, timeout=NPM_INSTALL_TIMEOUT_S)
        staged = os.path.join(staging, "node_modules", ".bin", executable)
        if result.returncode != 0 or installed_version(staged) != version:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            raise Unavailable("npm install %s@%s failed: %s" % (package, version, " | ".join(tail)))
        shutil.rmtree(folder, ignore_errors=True)
        os.rename(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return os.path.join(folder, "node_modules", ".bin", executable)

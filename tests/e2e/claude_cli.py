"""Run the real Claude Code CLI, pinned, in a throwaway home against the stub API.

Unit tests prove what we believe Claude Code writes; these helpers let a test watch Claude Code do it.
The CLI is installed once with npm into a cache folder outside the repository (reused by later runs
and by CI's setup script) and every session runs with HOME pointing at a temporary folder, so the
real ~/.claude is never read or written. Interactive sessions run under a private tmux server; `-p`
sessions run as plain subprocesses.

The facts these helpers rely on were seen on 2.1.197 (see fixtures/samples/README.md): an interactive
session needs `.claude.json` with onboarding done, the folder trusted (hooks run only after trust) and
the API key approved; its registry file appears a moment before the input box is ready; `/clear`
rewrites the registry file with a new session id; `/exit` removes it.
"""
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
import unittest

from .stub_api import StubAPI, body_session_id, current_prompt

CLI_PACKAGE = "@anthropic-ai/claude-code"
CLI_VERSION = "2.1.197"  # the version every fact in claude-code.md and fixtures/samples/ was seen on
CACHE_ROOT = os.environ.get("PEERHOOKS_E2E_CACHE") or os.path.join(
    os.path.expanduser("~"), ".cache", "peerhooks-e2e")
# Any string works against the stub; its last 20 characters go into customApiKeyResponses.approved.
API_KEY = "sk-ant-e2e-0000000000000000000000000000"
# As root, --dangerously-skip-permissions is refused; these are the tools the stub model calls.
ALLOWED_TOOLS = "Bash Write Edit"
QUIET_ENV = {"DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
             "DISABLE_AUTOUPDATER": "1"}
NPM_INSTALL_TIMEOUT_S = 300  # ~245 MB native binary; a few seconds here, slower on a cold cache
PRINT_TIMEOUT_S = 90
TURN_TIMEOUT_S = 60
START_TIMEOUT_S = 30
# The input box ignores keys for a moment after this text first shows; measured ~0.5 s on 2 cores.
READY_TEXT = "for shortcuts"
READY_SETTLE_S = 1.0
POLL_S = 0.1


class Unavailable(Exception):
    """A tool the e2e tests need is missing; the message says which and how to get it."""


def cli_dir(version=CLI_VERSION):
    return os.path.join(CACHE_ROOT, "claude-%s" % version)


def cli_path(version=CLI_VERSION):
    return os.path.join(cli_dir(version), "node_modules", ".bin", "claude")


def _installed_version(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.split()[0] if out.returncode == 0 and out.stdout.split() else None


def ensure_cli(version=CLI_VERSION):
    """The path of the pinned CLI, installing it into the cache when absent (atomic: a failed or
    interrupted install never leaves a half folder that later runs would trust)."""
    path = cli_path(version)
    if os.path.exists(path) and _installed_version(path) == version:
        return path
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed (needed to install %s@%s)" % (CLI_PACKAGE, version))
    os.makedirs(CACHE_ROOT, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="claude-%s.installing-" % version, dir=CACHE_ROOT)
    try:
        result = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", staging,
             "%s@%s" % (CLI_PACKAGE, version)],
            capture_output=True, text=True, timeout=NPM_INSTALL_TIMEOUT_S)
        staged_cli = os.path.join(staging, "node_modules", ".bin", "claude")
        if result.returncode != 0 or _installed_version(staged_cli) != version:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            raise Unavailable("npm install %s@%s failed: %s" % (CLI_PACKAGE, version, " | ".join(tail)))
        shutil.rmtree(cli_dir(version), ignore_errors=True)
        os.rename(staging, cli_dir(version))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return path


def require_e2e_tools():
    """The CLI path, or SkipTest with the reason printed; under CI=true a missing tool is a failure,
    because CI is where these tests must run."""
    try:
        if shutil.which("tmux") is None:
            raise Unavailable("tmux is not installed (apt-get install -y tmux)")
        return ensure_cli()
    except Unavailable as missing:
        if os.environ.get("CI") == "true":
            raise AssertionError("e2e tools missing under CI: %s" % missing)
        print("\nskipping e2e tests: %s" % missing, flush=True)
        raise unittest.SkipTest(str(missing))


def _wait(condition, timeout, what):
    """Poll condition() until it returns something truthy; AssertionError naming `what` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(POLL_S)


class Sandbox:
    """A temporary HOME with a Claude config, a running stub API and a private tmux server.

    Everything a session writes (registry, history, transcripts, memory) lands under
    `claude_home`; the stub's log is in `stub`. close() ends every session it started.
    """

    def __init__(self, cli):
        self.cli = cli
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-e2e-"))
        self.home = os.path.join(self.root, "home")
        self.claude_home = os.path.join(self.home, ".claude")
        os.makedirs(self.claude_home)
        self.stub = StubAPI(os.path.join(self.root, "requests.jsonl")).start()
        self.tmux_socket = "peerhooks-e2e-%d-%s" % (os.getpid(), os.path.basename(self.root))
        self._trusted = []
        self._sessions = []
        self._write_config()

    # -- configuration -------------------------------------------------------------------------
    def _write_config(self):
        config = {
            "hasCompletedOnboarding": True,
            "projects": {path: {"hasTrustDialogAccepted": True} for path in self._trusted},
            "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []},
        }
        with open(os.path.join(self.home, ".claude.json"), "w", encoding="utf-8") as handle:
            json.dump(config, handle)

    def trust(self, path):
        """Accept the trust dialog for a folder (interactive sessions run hooks only after it)."""
        path = os.path.realpath(path)
        if path not in self._trusted:
            self._trusted.append(path)
            self._write_config()

    def env(self, **extra):
        """The environment of a session: the caller's, less anything Claude- or API-related that
        could point it at a real home or service, plus the sandbox's home and stub."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CLAUDE", "ANTHROPIC")) and k not in ("CI",)}
        env.update(QUIET_ENV)
        env.update({"HOME": self.home, "ANTHROPIC_API_KEY": API_KEY,
                    "ANTHROPIC_BASE_URL": self.stub.base_url})
        env.update(extra)
        return env

    # -- what the sessions wrote ---------------------------------------------------------------
    def registry(self):
        """Live registry entries, keyed by pid."""
        entries = {}
        folder = os.path.join(self.claude_home, "sessions")
        for name in os.listdir(folder) if os.path.isdir(folder) else ():
            if not name.endswith(".json"):
                continue
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    entry = json.load(handle)
            except (OSError, ValueError):
                continue  # being replaced this instant
            entries[entry.get("pid")] = entry
        return entries

    def history(self):
        path = os.path.join(self.claude_home, "history.jsonl")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]

    # -- sessions ------------------------------------------------------------------------------
    def print_session(self, cwd, prompt, timeout=PRINT_TIMEOUT_S, **extra_env):
        """Run `claude -p <prompt>` to completion; the CompletedProcess."""
        return subprocess.run([self.cli, "-p", prompt, "--allowedTools", ALLOWED_TOOLS],
                              cwd=cwd, env=self.env(**extra_env), capture_output=True, text=True,
                              timeout=timeout)

    def interactive(self, cwd, **extra_env):
        """Start an interactive session in cwd under tmux and wait until it takes input."""
        self.trust(cwd)
        session = InteractiveSession(self, cwd, "s%d" % (len(self._sessions) + 1), extra_env)
        self._sessions.append(session)
        session.start()
        return session

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.tmux_socket] + list(args), env=self.env(),
                              capture_output=True, text=True, check=check)

    def close(self):
        for session in self._sessions:
            session.stop()
        self.tmux("kill-server", check=False)  # our private server only (-L socket)
        self.stub.stop()
        if os.environ.get("PEERHOOKS_E2E_KEEP") == "1":
            print("\nkept e2e sandbox: %s" % self.root, flush=True)
        else:
            shutil.rmtree(self.root, ignore_errors=True)


class InteractiveSession:
    """One interactive Claude Code session in a tmux window of the sandbox's private server."""

    def __init__(self, sandbox, cwd, window, extra_env):
        self.sandbox = sandbox
        self.cwd = os.path.realpath(cwd)
        self.window = window
        self.extra_env = extra_env
        self.pid = None

    def start(self):
        before = set(self.sandbox.registry())
        env = self.sandbox.env(**self.extra_env)
        command = "env %s %s --allowedTools %s" % (
            " ".join(shlex.quote("%s=%s" % kv) for kv in sorted(env.items())),
            shlex.quote(self.sandbox.cli), shlex.quote(ALLOWED_TOOLS))
        self.sandbox.tmux("new-session", "-d", "-s", self.window, "-x", "200", "-y", "50",
                          "-c", self.cwd, command)

        def registered():
            fresh = [e for pid, e in self.sandbox.registry().items()
                     if pid not in before and e.get("cwd") == self.cwd]
            return fresh[0] if fresh else None

        self.pid = _wait(registered, START_TIMEOUT_S, "the registry file of %s" % self.window)["pid"]
        _wait(lambda: READY_TEXT in self.screen(), START_TIMEOUT_S, "the input box of %s" % self.window)
        time.sleep(READY_SETTLE_S)

    @property
    def entry(self):
        """This session's registry entry now, or None once it is gone."""
        return self.sandbox.registry().get(self.pid)

    @property
    def session_id(self):
        entry = self.entry
        return entry.get("sessionId") if entry else None

    @property
    def name(self):
        entry = self.entry
        return entry.get("name") if entry else None

    def screen(self):
        return self.sandbox.tmux("capture-pane", "-p", "-t", self.window, check=False).stdout

    def _type(self, text):
        self.sandbox.tmux("send-keys", "-t", self.window, "-l", text)
        time.sleep(0.3)
        # The first Enter can land in the input box only (real-client.md); a second on an empty
        # box does nothing.
        self.sandbox.tmux("send-keys", "-t", self.window, "Enter")
        time.sleep(0.5)
        self.sandbox.tmux("send-keys", "-t", self.window, "Enter", check=False)

    def prompt(self, text, timeout=TURN_TIMEOUT_S):
        """Type a prompt and wait until the model's turn has ended and the session is idle again.
        Returns the request bodies this turn sent (the model's view of it)."""
        session_id = self.session_id
        seen = len(self.sandbox.stub.requests)
        self._type(text)

        def finished():
            turn = [r for r in self.sandbox.stub.requests[seen:]
                    if isinstance(r.body, dict) and r.body.get("tools")
                    and body_session_id(r.body) == session_id
                    and text in current_prompt(r.body.get("messages") or [])[0]]
            return turn if turn and turn[-1].reply.tool_call is None else None

        turn = _wait(finished, timeout, "the turn of %r in %s" % (text[:60], self.window))
        _wait(lambda: (self.entry or {}).get("status") == "idle", timeout,
              "%s to be idle" % self.window)
        return [r.body for r in turn]

    def clear(self):
        """Run /clear and wait for the registry to carry the new session id."""
        old = self.session_id
        self._type("/clear")
        _wait(lambda: self.session_id not in (None, old), TURN_TIMEOUT_S,
              "a new session id after /clear in %s" % self.window)
        _wait(lambda: READY_TEXT in self.screen(), TURN_TIMEOUT_S, "the input box after /clear")
        time.sleep(READY_SETTLE_S)

    def exit(self):
        """Run /exit and wait for the registry file to be removed."""
        self._type("/exit")
        _wait(lambda: self.entry is None, TURN_TIMEOUT_S, "%s to leave the registry" % self.window)
        self.pid = None

    def stop(self):
        """End the session however it stands (cleanup; exit() is the polite way)."""
        if self.pid is not None:
            try:
                os.kill(self.pid, 15)
            except OSError:
                pass
            self.pid = None
        self.sandbox.tmux("kill-session", "-t", self.window, check=False)

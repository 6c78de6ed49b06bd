"""Run the real Claude Code CLI, pinned, in a throwaway home against the stub API.

Unit tests prove what we believe Claude Code writes; these helpers let a test watch Claude Code do it.
The CLI is installed once with npm into a cache folder outside the repository (reused by later runs
and by CI's setup script) and every session runs with HOME pointing at a temporary folder, so the
real ~/.claude is never read or written. Interactive sessions run under a private tmux server; `-p`
sessions run as plain subprocesses.

Two versions are driven: the one users run (CURRENT_VERSION) and the oldest supported
(OLDEST_VERSION). Nothing here reads a version's screen text: 2.1.197's footer says `? for
shortcuts`, 2.1.332's `⏵⏵ auto mode on`, and the next build will say something else. A session is
ready when its registry entry says `status: idle`; a turn is over when the stub has answered the
turn's last request without a tool call and the registry says `idle` again.

The facts these helpers rely on were seen on both versions (fixtures/samples/README.md): an
interactive session needs `.claude.json` with onboarding done, the folder trusted (hooks run only
after trust) and the API key approved; its registry file appears, with `status: idle`, a moment
before the input box takes keys; `/clear` rewrites the registry file with a new session id; `/exit`
removes it.
"""
import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from . import npmcache
from .npmcache import CACHE_ROOT, Unavailable  # noqa: F401  (Unavailable: raised and caught by users)
from .stub_api import StubAPI, body_session_id, current_prompt

CLI_PACKAGE = "@anthropic-ai/claude-code"
CURRENT_VERSION = "2.1.332"  # the registry's `latest` on 2026-11-30: what users run
OLDEST_VERSION = "2.1.197"  # the oldest supported; the first facts of claude-code.md were seen on it
VERSIONS = (CURRENT_VERSION, OLDEST_VERSION)
CLI_VERSION = CURRENT_VERSION  # the default where one version is enough
# Any string works against the stub; its last 20 characters go into customApiKeyResponses.approved.
API_KEY = "sk-ant-e2e-0000000000000000000000000000"
# As root, --dangerously-skip-permissions is refused; these are the tools the stub model calls
# (2.1.332 asks before an Agent call that is not listed; SendMessage and ListAgents exist from
# 2.1.332 on, and older versions ignore the names).
ALLOWED_TOOLS = "Bash Read Write Edit Agent SendMessage ListAgents"
# 2.1.332's default, auto mode, sends each risky action to a safety check on Anthropic's server;
# offline the check never answers and the turn stops at "Auto mode can't check actions in this
# session". acceptEdits exists in both versions and runs what --allowedTools allows without asking.
PERMISSION_MODE = "acceptEdits"
QUIET_ENV = {"DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
             "DISABLE_AUTOUPDATER": "1"}
PRINT_TIMEOUT_S = 90
TURN_TIMEOUT_S = 60
START_TIMEOUT_S = 30
# The registry says `idle` ~0.1 s after the input box is drawn, and the box ignores keys for a moment
# more (measured ~0.5 s on 2 cores, both versions): wait this long after `idle` before typing.
READY_SETTLE_S = 1.0
STOP_GRACE_S = 5  # after SIGTERM, how long a CLI gets to exit before SIGKILL
POLL_S = 0.1
SCREEN_TAIL_LINES = 15


def cli_dir(version=CLI_VERSION):
    return os.path.join(CACHE_ROOT, "claude-%s" % version)


def cli_path(version=CLI_VERSION):
    return os.path.join(cli_dir(version), "node_modules", ".bin", "claude")


def ensure_cli(version=CLI_VERSION):
    """The path of the pinned CLI, installing it into the cache when absent (atomic: a failed or
    interrupted install never leaves a half folder that later runs would trust)."""
    path = cli_path(version)
    if os.path.exists(path) and npmcache.installed_version(path) == version:
        return path
    return npmcache.install(CLI_PACKAGE, version, cli_dir(version), "claude")


def cached_cli(version):
    """The CLI's path when that version is already in the cache, else None (never downloads)."""
    path = cli_path(version)
    return path if os.path.exists(path) and npmcache.installed_version(path) == version else None


def require_e2e_tools(version=CLI_VERSION):
    """The path of that version's CLI, or SkipTest (one line for the run says how to get it).

    Outside CI nothing is downloaded (the README's test command must not fetch 250 MB behind the
    user's back): a version not in the cache skips. Under CI=true, where these tests must run, a
    missing version is installed, and anything still missing is a failure."""
    try:
        if shutil.which("tmux") is None:
            raise Unavailable("tmux is not installed (apt-get install -y tmux)")
        path = cached_cli(version)
        if path is None and os.environ.get("CI") == "true":
            path = ensure_cli(version)
        if path is None:
            raise Unavailable("Claude Code %s" % version)
        return path
    except Unavailable as missing:
        npmcache.skip_unless_ci(missing)


def wait_for(condition, timeout, what):
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

    def __init__(self, cli, version=None):
        self.cli = cli
        self.version = version
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-e2e-"))
        self.home = os.path.join(self.root, "home")
        self.claude_home = os.path.join(self.home, ".claude")
        self.tmux_socket = "peerhooks-e2e-%d-%s" % (os.getpid(), os.path.basename(self.root))
        self._trusted = []
        self._sessions = []
        self.stub = None
        try:
            os.makedirs(self.claude_home)
            self.stub = StubAPI(os.path.join(self.root, "requests.jsonl")).start()
            self._write_config()
        except BaseException:
            self.close()
            raise

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
    def print_session(self, cwd, prompt, timeout=PRINT_TIMEOUT_S, args=(), **extra_env):
        """Run `claude -p <prompt> [args]` to completion; the CompletedProcess."""
        return subprocess.run([self.cli, "-p", prompt, "--allowedTools", ALLOWED_TOOLS,
                               "--permission-mode", PERMISSION_MODE] + list(args),
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

    def tmux_socket_path(self):
        """Where tmux puts the private server's socket (its rule for `-L <name>`)."""
        return os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.getuid(), self.tmux_socket)

    def close(self):
        """End every session, the private tmux server and the stub; safe to call at any point of a
        failed set-up, and more than once."""
        for session in self._sessions:
            session.stop()
        self._sessions = []
        self.tmux("kill-server", check=False)  # our private server only (-L socket)
        try:  # tmux 3.3 leaves the killed server's socket file behind
            os.unlink(self.tmux_socket_path())
        except OSError:
            pass
        if self.stub is not None:
            self.stub.stop()
            self.stub = None
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
        self.pane_pid = None

    def start(self):
        before = set(self.sandbox.registry())
        env = self.sandbox.env(**self.extra_env)
        command = "env %s %s --allowedTools %s --permission-mode %s" % (
            " ".join(shlex.quote("%s=%s" % kv) for kv in sorted(env.items())),
            shlex.quote(self.sandbox.cli), shlex.quote(ALLOWED_TOOLS), PERMISSION_MODE)
        # `env` execs the CLI, so the pane's pid is the CLI's: stop() can end it even when the
        # session never registered.
        started = self.sandbox.tmux("new-session", "-d", "-P", "-F", "#{pane_pid}", "-s", self.window,
                                    "-x", "200", "-y", "50", "-c", self.cwd, command)
        self.pane_pid = int(started.stdout.strip() or 0) or None

        def registered():
            fresh = [e for pid, e in self.sandbox.registry().items()
                     if pid not in before and e.get("cwd") == self.cwd]
            return fresh[0] if fresh else None

        self.pid = wait_for(registered, START_TIMEOUT_S, "the registry file of %s" % self.window)["pid"]
        self._wait_idle(START_TIMEOUT_S, "the first idle status of %s" % self.window)

    def _wait_idle(self, timeout, what):
        """Until the registry says idle, then the moment the input box needs before it takes keys."""
        wait_for(lambda: (self.entry or {}).get("status") == "idle", timeout, what)
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

        try:
            turn = wait_for(finished, timeout, "the turn of %r in %s" % (text[:60], self.window))
            wait_for(lambda: (self.entry or {}).get("status") == "idle", timeout,
                  "%s to be idle" % self.window)
        except AssertionError as timed_out:
            raise AssertionError("%s; its screen ends:\n%s" % (timed_out, self.screen_tail()))
        return [r.body for r in turn]

    def screen_tail(self, lines=SCREEN_TAIL_LINES):
        """The last non-blank lines of the session's screen (for a failure message only: what a
        version shows is never a signal here)."""
        return "\n".join([line for line in self.screen().splitlines() if line.strip()][-lines:])

    def clear(self):
        """Run /clear and wait for the registry to carry the new session id."""
        old = self.session_id
        self._type("/clear")
        wait_for(lambda: self.session_id not in (None, old), TURN_TIMEOUT_S,
              "a new session id after /clear in %s" % self.window)
        self._wait_idle(TURN_TIMEOUT_S, "%s to be idle after /clear" % self.window)

    def exit(self):
        """Run /exit and wait for the registry file to be removed."""
        self._type("/exit")
        wait_for(lambda: self.entry is None, TURN_TIMEOUT_S, "%s to leave the registry" % self.window)
        self.pid = None

    def stop(self):
        """End the session however it stands (cleanup; exit() is the polite way): SIGTERM to the
        CLI, SIGKILL if it has not gone after STOP_GRACE_S, then its tmux window."""
        pids = {p for p in (self.pid, self.pane_pid) if p}
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(POLL_S)
        for pid in pids:
            if _running(pid):
                _signal(pid, signal.SIGKILL)
        self.pid = self.pane_pid = None
        self.sandbox.tmux("kill-session", "-t", self.window, check=False)


def _signal(pid, signum):
    try:
        os.kill(pid, signum)
    except OSError:
        pass


def _running(pid):
    """Whether pid still runs (a zombie counts as gone: tmux reaps its pane's process)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
        return state not in (b"Z", b"X")
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True

"""Run the real Codex CLI, pinned, in a throwaway CODEX_HOME against the Responses API stub.

Facts this relies on, seen with Codex 0.171.0 (docs/codex.md, fixtures/samples/codex-0.171/):
`codex exec` runs one prompt and exits; a `config.toml` whose model provider points at the stub runs
it offline; hooks come from `$CODEX_HOME/hooks.json` and run only when trusted, or for one run with
`--dangerously-bypass-hook-trust` (an untrusted hook is skipped without a word). Everything a run
writes lands under the sandbox's HOME; the real ~/.codex and ~/.claude are never read.

The client is not installed by the unit-test run: outside CI the tests skip with one line saying how
to install it; under CI=true it is installed into the cache (or the tests fail).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from . import npmcache
from .codex_stub import CodexStub
from .npmcache import CACHE_ROOT, Unavailable

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO not in sys.path:
    sys.path.insert(0, REPO)
from installer import codextrust  # noqa: E402  (the trust-hash recipe lives with --check)

CODEX_PACKAGE = "@openai/codex"
CODEX_VERSION = "0.171.0"  # the version every fact in docs/codex.md was seen on
KEY_VARIABLE = "PEERHOOKS_STUB_KEY"  # config.toml's env_key: Codex wants a key, the stub takes any
EXEC_TIMEOUT_S = 120
APP_SERVER_TIMEOUT_S = 60  # hooks/list answers in well under a second here  # one `codex exec` takes ~1 s here; generous for a loaded 2-core machine
# Variables of the caller's that could point a run at a real home, service or agent key.
FOREIGN_PREFIXES = ("CODEX", "CLAUDE", "OPENAI", "ANTHROPIC", "LI_PLUS", "PEERHOOKS")


def codex_dir(version=CODEX_VERSION):
    return os.path.join(CACHE_ROOT, "codex-%s" % version)


def codex_path(version=CODEX_VERSION):
    return os.path.join(codex_dir(version), "node_modules", ".bin", "codex")


def install(version=CODEX_VERSION):
    """npm-install the pinned client into the cache, atomically (a failed install leaves nothing)."""
    return npmcache.install(CODEX_PACKAGE, version, codex_dir(version), "codex")


def cached_codex():
    """The client's path when the pinned version is already in the cache, else None (never downloads)."""
    path = codex_path()
    return path if os.path.exists(path) and npmcache.installed_version(path) == CODEX_VERSION else None


def require_codex():
    """The pinned client's path. Outside CI a client that is not cached skips the tests (one line
    for the run says how to get it); under CI=true it is installed, and missing is a failure."""
    path = cached_codex()
    if path is None and os.environ.get("CI") == "true":
        try:
            path = install()
        except Unavailable as missing:
            raise AssertionError("Codex e2e under CI: %s" % missing)
    if path is None:
        npmcache.skip_unless_ci("Codex %s" % CODEX_VERSION)
    return path


CONFIG_TOML = """\
model = "stub-model"
model_provider = "stub"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.stub]
name = "stub"
base_url = "{base_url}"
env_key = "{key_variable}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
"""


def event_label(event):
    """`PreToolUse` -> `pre_tool_use`: how Codex names an event in trust keys and hashes."""
    return codextrust.snake_case(event)


trust_hash = codextrust.trust_hash  # one recipe, shared with install.py --check


def trust_entries(hooks_file):
    """{trust key: trusted_hash} for every command handler in a hooks.json, keyed as Codex keys
    them: `<hooks.json path>:<event label>:<group index>:<handler index>`."""
    with open(hooks_file, encoding="utf-8") as handle:
        events = json.load(handle)["hooks"]
    entries = {}
    for event, groups in events.items():
        for group_index, group in enumerate(groups):
            for handler_index, handler in enumerate(group["hooks"]):
                key = "%s:%s:%d:%d" % (hooks_file, event_label(event), group_index, handler_index)
                entries[key] = trust_hash(event, group.get("matcher"), handler)
    return entries


class CodexRun:
    """One finished `codex exec`: the process result and the request bodies the stub received."""

    def __init__(self, completed, bodies, seconds):
        self.returncode = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.bodies = bodies
        self.seconds = seconds

    def hook_context(self):
        """The developer messages after Codex's own context (its instructions come first, then its
        user-role environment and AGENTS.md messages): where hook stdout lands, joined."""
        items = [i for i in (self.bodies[-1]["input"] if self.bodies else [])
                 if isinstance(i, dict) and i.get("type") == "message"]
        first_user = next((n for n, i in enumerate(items) if i.get("role") == "user"), len(items))
        return "\n".join(_item_text(i) for i in items[first_user:] if i.get("role") == "developer")

    def tool_outputs(self):
        """(command, output) for every exec_command call, from the run's last request."""
        items = self.bodies[-1]["input"] if self.bodies else []
        commands = {}
        for item in items:
            if isinstance(item, dict) and item.get("type") == "function_call":
                try:
                    commands[item["call_id"]] = json.loads(item["arguments"])["cmd"]
                except (KeyError, ValueError, TypeError):
                    continue
        return [(commands[i["call_id"]], i.get("output"))
                for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
                and i.get("call_id") in commands]


def _item_text(item):
    content = item.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, dict))


class CodexSandbox:
    """A temporary HOME holding CODEX_HOME (config.toml aimed at a running stub) and a Claude home
    for live Claude Code peers. `home` shares an existing HOME instead (a real Claude Code session's
    sandbox), so both clients see one Claude registry. close() stops the stub and removes the folder."""

    def __init__(self, codex, home=None):
        self.codex = codex
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-codex-e2e-"))
        self.home = os.path.realpath(home) if home else os.path.join(self.root, "home")
        self.codex_home = os.path.join(self.home, ".codex")
        self.claude_home = os.path.join(self.home, ".claude")
        os.makedirs(self.codex_home, exist_ok=True)
        os.makedirs(self.claude_home, exist_ok=True)
        self.stub = CodexStub(os.path.join(self.root, "requests.jsonl")).start()
        self.untrust_hooks()

    @property
    def hooks_file(self):
        return os.path.join(self.codex_home, "hooks.json")

    def env(self, **extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith(FOREIGN_PREFIXES) and k != "CI"}
        env.update({"HOME": self.home, "CODEX_HOME": self.codex_home, KEY_VARIABLE: "sk-stub"})
        env.update(extra)
        return env

    def install_peerhooks(self, repo_root):
        """`install.py --codex --scope user` into this CODEX_HOME; the CompletedProcess."""
        return subprocess.run([sys.executable, os.path.join(repo_root, "install.py"), "--codex",
                               "--scope", "user"],
                              cwd=self.root, env=self.env(), capture_output=True, text=True)

    @property
    def config_file(self):
        return os.path.join(self.codex_home, "config.toml")

    def trust_hooks(self):
        """Record every hook of hooks.json as trusted in config.toml, as `t` in /hooks does."""
        lines = []
        for key, digest in sorted(trust_entries(self.hooks_file).items()):
            lines += ["", "[hooks.state.%s]" % json.dumps(key), "trusted_hash = %s" % json.dumps(digest)]
        with open(self.config_file, "a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")

    def untrust_hooks(self):
        """config.toml as the sandbox wrote it: no hook trusted."""
        with open(self.config_file, "w", encoding="utf-8") as handle:
            handle.write(CONFIG_TOML.format(base_url=self.stub.base_url, key_variable=KEY_VARIABLE))

    def exec(self, cwd, prompt, trust_hooks=True, exec_args=(), timeout=EXEC_TIMEOUT_S, **extra_env):
        """Run `codex exec [exec_args] <prompt>` in cwd to completion (exec_args: e.g. `resume
        --last`). trust_hooks passes --dangerously-bypass-hook-trust (what trusting them in /hooks
        does for a TUI user)."""
        args = [self.codex, "exec"]
        if trust_hooks:
            args.append("--dangerously-bypass-hook-trust")
        args += list(exec_args)
        seen = len(self.stub.requests)
        started = time.monotonic()
        completed = subprocess.run(args + [prompt], cwd=cwd, env=self.env(**extra_env),
                                   stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                   timeout=timeout)
        bodies = [r.body for r in self.stub.requests[seen:] if r.reply is not None]
        return CodexRun(completed, bodies, time.monotonic() - started)

    def hooks_list(self, cwd):
        """What `codex app-server` reports for the hooks of cwd (its JSON-RPC `hooks/list`): one
        dict per handler with `key`, `currentHash`, `trustStatus`, `command`, ..."""
        requests = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"clientInfo": {"name": "peerhooks-e2e", "title": None, "version": "1"}}},
            {"jsonrpc": "2.0", "method": "initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}},
        ]
        server = subprocess.Popen([self.codex, "app-server"], cwd=cwd, env=self.env(),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        watchdog = threading.Timer(APP_SERVER_TIMEOUT_S, server.kill)  # a hung server ends the wait
        watchdog.start()
        try:
            server.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
            server.stdin.flush()
            for line in server.stdout:  # it answers while its stdin is still open
                message = json.loads(line)
                if message.get("id") == 2:
                    return [h for entry in message["result"]["data"] for h in entry["hooks"]]
            raise AssertionError("codex app-server gave no hooks/list answer")
        finally:
            watchdog.cancel()
            server.stdin.close()
            server.stdout.close()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    def close(self):
        self.stub.stop()
        if os.environ.get("PEERHOOKS_E2E_KEEP") == "1":
            print("\nkept Codex e2e sandbox: %s" % self.root, flush=True)
        else:
            shutil.rmtree(self.root, ignore_errors=True)

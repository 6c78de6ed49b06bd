"""install.py end to end with the real clients: what install.py, the plugin and install.py --codex
wire (`<python> -S <script>`), Claude Code 2.1.197 and 2.1.332 and Codex 0.171 run. Skipped, with one
line saying why, where a client is not cached (outside CI)."""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

from test_install import REPO, commands  # puts the repository on sys.path

from installer import wiring  # noqa: E402

from .claude_cli import CURRENT_VERSION, OLDEST_VERSION, require_e2e_tools
from .codex_cli import require_codex


class RealClientTest(unittest.TestCase):
    """The pinned Claude Code CLI (oldest supported) in a throwaway home against the stub API: what
    install.py and the plugin wire (`<python> -S <script>`), the real client runs. Skipped when the CLI
    or tmux is not available."""

    version = OLDEST_VERSION

    @classmethod
    def setUpClass(cls):
        cls.cli = require_e2e_tools(cls.version)  # cached only: outside CI nothing is downloaded

    def setUp(self):
        from e2e.claude_cli import Sandbox
        self.box = Sandbox(self.cli)
        self.addCleanup(self.box.close)
        self.repo = os.path.join(self.box.root, "repo")
        os.makedirs(self.repo)
        subprocess.run(["git", "init", "-q", self.repo], check=True)

    def session_start_output(self):
        from e2e.stub_api import request_text
        done = self.box.print_session(self.repo, "hello there, please say hi")
        self.assertEqual(done.returncode, 0, done.stderr)
        return "\n".join(request_text(body) for body in self.box.stub.message_bodies())

    def test_settings_install_runs_in_a_real_session(self):
        completed = subprocess.run([sys.executable, os.path.join(REPO, "install.py")], env=self.box.env(),
                                   cwd=self.repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=60)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        with open(os.path.join(self.box.claude_home, "settings.json"), encoding="utf-8") as handle:
            wired = [command for command in commands(json.load(handle)) if wiring.script_of(command)]
        self.assertEqual(len(wired), len(wiring.CLAUDE_HOOKS))
        self.assertTrue(all(" -S " in command for command in wired), wired)
        seen = self.session_start_output()
        self.assertIn("SessionStart:startup hook success:", seen)
        self.assertNotIn("hook error", seen)

    def test_exec_form_as_written_on_windows_runs_in_a_real_session(self):
        # install.py writes Claude Code's hooks on Windows as a program and its args, spawned with no
        # shell (issue 22); the client's exec form is the same code on Linux, where it runs here.
        entries = wiring.build_entries(wiring.CLAUDE_HOOKS, sys.executable, os.path.join(REPO, "scripts"),
                                       exec_form=True)
        os.makedirs(self.box.claude_home, exist_ok=True)
        with open(os.path.join(self.box.claude_home, "settings.json"), "w", encoding="utf-8") as handle:
            json.dump(wiring.merge({}, entries), handle)
        seen = self.session_start_output()
        self.assertIn("SessionStart:startup hook success: Cold start: full orientation", seen)
        self.assertNotIn("hook error", seen)

    def test_plugin_install_runs_in_a_real_session_and_check_sees_it(self):
        """The README's plugin route on a copy of the repository (in a folder with a space): `claude
        plugin marketplace add <checkout>`, `claude plugin install peerhooks@peerhooks`. The cache holds
        only what runs, and the hooks run the interpreter the launcher remembered, not a shim."""
        market = os.path.join(self.box.root, "market place")
        shutil.copytree(os.path.join(REPO, ".claude-plugin"), os.path.join(market, ".claude-plugin"))
        shutil.copytree(os.path.join(REPO, "plugin"), os.path.join(market, "plugin"), symlinks=True)
        for part in ("scripts", "tests"):  # tests: what the cache must not carry
            shutil.copytree(os.path.join(REPO, part), os.path.join(market, part),
                            ignore=shutil.ignore_patterns("__pycache__", "e2e"))
        for args in (["plugin", "marketplace", "add", market], ["plugin", "install", "peerhooks@peerhooks"]):
            done = subprocess.run([self.cli] + args, env=self.box.env(), cwd=self.repo, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        cached = os.path.join(self.box.claude_home, "plugins", "cache", "peerhooks", "peerhooks", "0.1.0")
        self.assertEqual(sorted(os.listdir(cached)), [".claude-plugin", "hooks", "scripts"])
        self.assertFalse(os.path.islink(os.path.join(cached, "scripts")))  # copied, the link followed
        self.assertTrue(os.path.isfile(os.path.join(cached, "scripts", "peers.py")))
        with open(os.path.join(cached, "hooks", "hooks.json"), encoding="utf-8") as handle:
            wired = commands(json.load(handle))
        self.assertTrue(wired and all(command.startswith('sh "${CLAUDE_PLUGIN_ROOT}/hooks/python.sh" ')
                                      for command in wired), wired)
        seen = self.session_start_output()
        self.assertIn("SessionStart:startup hook success:", seen)
        self.assertNotIn("hook error", seen)
        remembered = os.path.join(self.box.claude_home, "plugins", "data", "peerhooks-peerhooks", "python")
        with open(remembered, encoding="utf-8") as handle:
            python = handle.read().strip()
        with open(python, "rb") as handle:
            self.assertNotEqual(handle.read(2), b"#!", "%s is a script (a shim), not an interpreter" % python)
        check = subprocess.run([sys.executable, os.path.join(REPO, "install.py"), "--check"], env=self.box.env(),
                               cwd=self.repo, stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertIn("peers.py for SessionStart in plugin peerhooks@peerhooks at " + cached, check.stdout)
        self.assertIn("All well", check.stdout)


class RealClientLatestTest(RealClientTest):
    """The same on the Claude Code version users run now."""

    version = CURRENT_VERSION


class ResponsesStub:
    """A stand-in for the OpenAI Responses API on loopback: every request is logged and answered with
    one streamed assistant message "hi" (the events Codex 0.171 needs to finish a turn)."""

    def __init__(self):
        self.bodies = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                stub.bodies.append(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0)))))
                reply = stub.stream(len(stub.bodies))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def stream(number):
        item = {"type": "message", "id": "msg_%d" % number, "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
        response = {"id": "resp_%d" % number, "object": "response", "status": "completed", "output": [item],
                    "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                              "input_tokens_details": {"cached_tokens": 0},
                              "output_tokens_details": {"reasoning_tokens": 0}}}
        events = [
            ("response.created", {"response": dict(response, status="in_progress", output=[])}),
            ("response.output_item.added", {"output_index": 0, "item": dict(item, status="in_progress", content=[])}),
            ("response.output_text.delta", {"item_id": item["id"], "output_index": 0, "content_index": 0,
                                            "delta": "hi"}),
            ("response.output_item.done", {"output_index": 0, "item": item}),
            ("response.completed", {"response": response}),
        ]
        return b"".join(("event: %s\ndata: %s\n\n" % (name, json.dumps(dict(data, type=name)))).encode()
                        for name, data in events)

    def developer_texts(self):
        return [part.get("text", "") for body in self.bodies for item in body.get("input", [])
                if isinstance(item, dict) and item.get("role") == "developer"
                for part in item.get("content", []) if isinstance(part, dict)]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class RealCodexTest(unittest.TestCase):
    """Codex 0.171 (`codex exec`, offline against ResponsesStub): what `install.py --codex` wires runs
    with --host codex once trusted, is skipped silently while untrusted, and --check says which."""

    @classmethod
    def setUpClass(cls):
        cls.codex = require_codex()

    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-codex-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        self.stub = ResponsesStub()
        self.addCleanup(self.stub.close)
        self.codex_home = os.path.join(self.root, "home", ".codex")
        os.makedirs(self.codex_home)
        with open(os.path.join(self.codex_home, "config.toml"), "w", encoding="utf-8") as handle:
            handle.write('model = "stub-model"\nmodel_provider = "stub"\napproval_policy = "never"\n'
                         'sandbox_mode = "danger-full-access"\n\n[model_providers.stub]\nname = "stub"\n'
                         'base_url = "http://127.0.0.1:%d/v1"\nenv_key = "STUB_KEY"\nwire_api = "responses"\n'
                         'request_max_retries = 0\nstream_max_retries = 0\n' % self.stub.port)
        self.repo = os.path.join(self.root, "repo")
        os.makedirs(self.repo)
        for command in (["git", "init", "-q"], ["git", "-c", "user.name=t", "-c", "user.email=t@t",
                                                 "commit", "-q", "--allow-empty", "-m", "start"]):
            subprocess.run(command, cwd=self.repo, check=True)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "CODEX", "OPENAI"))}
        self.env.update(HOME=os.path.join(self.root, "home"), CODEX_HOME=self.codex_home, STUB_KEY="x",
                        CLAUDE_CONFIG_DIR=os.path.join(self.root, "home", ".claude"))

    def run_here(self, command):
        return subprocess.run(command, cwd=self.repo, env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=180)

    def test_codex_runs_the_installed_hooks_only_once_trusted_and_check_says_so(self):
        self.assertEqual(self.run_here([sys.executable, os.path.join(REPO, "install.py"), "--codex"]).returncode, 0)
        check = self.run_here([sys.executable, os.path.join(REPO, "install.py"), "--check"])
        self.assertIn("%d Codex hooks are not trusted" % len(wiring.CODEX_HOOKS), check.stdout)

        untrusted = self.run_here([self.codex, "exec", "say hi"])
        self.assertEqual(untrusted.returncode, 0, untrusted.stderr[-2000:])
        self.assertFalse(any("Cold start" in text for text in self.stub.developer_texts()))  # skipped, silently

        trusted_for_one_run = self.run_here([self.codex, "exec", "--dangerously-bypass-hook-trust", "say hi"])
        self.assertEqual(trusted_for_one_run.returncode, 0, trusted_for_one_run.stderr[-2000:])
        self.assertTrue(any("Cold start" in text for text in self.stub.developer_texts()), self.stub.developer_texts())
        self.assertTrue(os.path.isdir(os.path.join(self.repo, ".codex", "state")))  # ran with --host codex

    def test_codex_runs_project_hooks_only_in_a_trusted_folder(self):
        self.assertEqual(self.run_here([sys.executable, os.path.join(REPO, "install.py"), "--codex", "--scope",
                                        "project"]).returncode, 0)
        untrusted_folder = self.run_here([self.codex, "exec", "--dangerously-bypass-hook-trust", "say hi"])
        self.assertEqual(untrusted_folder.returncode, 0, untrusted_folder.stderr[-2000:])
        self.assertFalse(any("Cold start" in text for text in self.stub.developer_texts()))
        with open(os.path.join(self.codex_home, "config.toml"), "a", encoding="utf-8") as handle:
            handle.write('\n[projects."%s"]\ntrust_level = "trusted"\n' % self.repo)
        trusted_folder = self.run_here([self.codex, "exec", "--dangerously-bypass-hook-trust", "say hi"])
        self.assertEqual(trusted_folder.returncode, 0, trusted_folder.stderr[-2000:])
        self.assertTrue(any("Cold start" in text for text in self.stub.developer_texts()))


if __name__ == "__main__":
    unittest.main()

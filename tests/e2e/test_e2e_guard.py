"""The git guard against the real Claude Code CLI, on every version the helpers can drive.

What a user sees is decided by the client, not the hook, so each decision is checked where it lands:
- a `deny` reaches the model as a failed tool call carrying the reason, without the interpreter and
  script path an exit-2 refusal shows (`PreToolUse:Bash hook error: [<python> <script>]: …`);
- an `ask` shows the human "Hook PreToolUse:Bash requires confirmation for this command: <reason>",
  naming the live peer, even though --allowedTools allows Bash; answering No leaves the checkout alone;
- in print mode (`claude -p`) nobody can answer, and nothing harmful runs.

The live peer is a registry entry with a real process (fixtures.claudehome), in the same checkout.
The hook is registered as install.py registers it: `<python> -S scripts/git_index_guard.py`.
"""
import json
import os
import subprocess
import sys
import time
import unittest

from . import claude_cli
from .claude_cli import Sandbox, require_e2e_tools

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from fixtures.claudehome import ClaudeHome  # noqa: E402
GUARD = os.path.join(REPO, "scripts", "git_index_guard.py")
# The versions to run: the helpers' list where they drive several, else the two this guard was
# verified on (docs/guard.md).
VERSIONS = getattr(claude_cli, "VERSIONS", ("2.1.332", "2.1.197"))
PEER_NAME = "parser-peer"
CONFIRMATION_TEXT = "requires confirmation"
DIALOG_TIMEOUT_S = 60


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


def tool_results(sandbox):
    """(command, is_error, text) of every Bash tool call whose result the model was sent."""
    commands, results = {}, []
    for request in sandbox.stub.requests:
        body = request.body if isinstance(request.body, dict) else {}
        for message in body.get("messages") or ():
            for block in message.get("content") if isinstance(message.get("content"), list) else ():
                if block.get("type") == "tool_use" and block.get("name") == "Bash":
                    commands[block["id"]] = block["input"]["command"]
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in commands:
                    content = block.get("content")
                    text = content if isinstance(content, str) else json.dumps(content)
                    entry = (commands[block["tool_use_id"]], bool(block.get("is_error")), text)
                    if entry not in results:
                        results.append(entry)
    return results


class GuardOnTheRealClient:
    """Template: one TestCase per version is made from it below."""
    VERSION = None

    @classmethod
    def setUpClass(cls):
        # Class cleanups run even when setUpClass fails half-way (tearDownClass would not).
        cls.sandbox = Sandbox(require_e2e_tools(cls.VERSION))
        cls.addClassCleanup(cls.sandbox.close)
        cls.peers = ClaudeHome(cls.sandbox.home)
        cls.addClassCleanup(cls.peers.close)
        cls.repo = os.path.join(cls.sandbox.root, "work", "shared")
        os.makedirs(cls.repo)
        git(cls.repo, "init", "-q", "-b", "main")
        git(cls.repo, "-c", "user.name=a", "-c", "user.email=a@example.invalid", "commit", "-q",
            "--allow-empty", "-m", "start")
        with open(os.path.join(cls.repo, "peer.py"), "w") as handle:
            handle.write("PEER = 1\n")  # the peer's unfinished work
        settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "%s -S %s" % (sys.executable, GUARD)}]}]}}
        with open(os.path.join(cls.sandbox.claude_home, "settings.json"), "w") as handle:
            json.dump(settings, handle)
        process = cls.peers.spawn()
        peer_id = "0eec0eec-0000-4000-8000-000000000001"
        cls.peers.write_session_files(peer_id, cls.repo, prompts=["write the parser module"],
                                      edits=[os.path.join(cls.repo, "peer.py")], edit_tool="Write")
        cls.peers.registry_entry(process.pid, peer_id, cls.repo, name=PEER_NAME)

    def test_a_deny_reaches_the_model_with_its_reason_and_no_interpreter_path(self):
        self.sandbox.print_session(self.repo, "stage it all [[bash: git add -A]]")
        [(command, is_error, text)] = [r for r in tool_results(self.sandbox) if r[0] == "git add -A"]
        self.assertTrue(is_error, text)
        self.assertIn("peerhooks git guard: ", text)
        self.assertIn("peer.py untracked; `git add -A` would stage it", text)
        self.assertIn(PEER_NAME, text)
        self.assertNotIn(GUARD, text)
        self.assertNotIn(sys.executable, text)
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "")

    def test_a_shell_write_onto_the_peers_uncommitted_file_is_refused(self):
        self.sandbox.print_session(self.repo, "overwrite it [[bash: echo x > peer.py]]")
        [(command, is_error, text)] = [r for r in tool_results(self.sandbox) if r[0] == "echo x > peer.py"]
        self.assertTrue(is_error, text)
        self.assertIn("%s has peer.py untracked; `echo x > peer.py` would write over or delete it" % PEER_NAME, text)
        self.assertNotIn("staging it would take", text)  # a write is no staging: the Edit tool's advice alone
        with open(os.path.join(self.repo, "peer.py")) as handle:
            self.assertEqual(handle.read(), "PEER = 1\n")

    def test_print_mode_runs_nothing_a_human_would_have_been_asked_about(self):
        self.sandbox.print_session(self.repo, "branch off [[bash: git checkout -b print-branch]]")
        [(command, is_error, text)] = [r for r in tool_results(self.sandbox) if "print-branch" in r[0]]
        self.assertTrue(is_error, text)
        self.assertIn(PEER_NAME, text)
        self.assertNotIn("print-branch", git(self.repo, "branch", "--list"))

    def test_an_ask_shows_the_human_a_prompt_naming_the_peer_and_no_leaves_the_checkout_alone(self):
        if not hasattr(claude_cli, "VERSIONS") and self.VERSION != claude_cli.CLI_VERSION:
            self.skipTest("these e2e helpers drive only %s interactively" % claude_cli.CLI_VERSION)
        session = self.sandbox.interactive(self.repo)
        prompt = "switch branches [[bash: git checkout -b asked-branch]]"
        screen = self.submit_and_wait_for_the_dialog(session, prompt)
        self.assertIn("Hook PreToolUse:Bash requires confirmation", " ".join(screen.split()))
        self.assertIn(PEER_NAME, screen)
        self.sandbox.tmux("send-keys", "-t", session.window, "Escape")  # No
        time.sleep(2)
        self.assertEqual(git(self.repo, "branch", "--show-current"), "main")
        self.assertNotIn("asked-branch", git(self.repo, "branch", "--list"))
        session.stop()

    def submit_and_wait_for_the_dialog(self, session, prompt):
        """Type the prompt and press Enter until the turn starts, never once the dialog may be up:
        a stray Enter on the dialog answers Yes (real-client.md)."""
        tmux = self.sandbox.tmux
        tmux("send-keys", "-t", session.window, "-l", prompt)
        time.sleep(0.3)
        deadline = time.monotonic() + DIALOG_TIMEOUT_S
        entered_at = 0.0
        while time.monotonic() < deadline:
            screen = session.screen()
            if CONFIRMATION_TEXT in screen:
                return screen
            started = any(prompt in json.dumps(r.body) for r in self.sandbox.stub.requests)
            if not started and time.monotonic() - entered_at > 2:
                tmux("send-keys", "-t", session.window, "Enter")
                entered_at = time.monotonic()
            time.sleep(0.2)
        raise AssertionError("no permission prompt; the screen was:\n" + session.screen())


for _version in VERSIONS:
    _name = "GuardOnTheRealClient_" + _version.replace(".", "_")
    globals()[_name] = type(_name, (GuardOnTheRealClient, unittest.TestCase), {"VERSION": _version})
del _version, _name

if __name__ == "__main__":
    unittest.main()

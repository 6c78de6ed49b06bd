"""The git guard following a wrapper, on the real Claude Code CLI (issue 19): the stub model runs
`make commit` through the Bash tool while a live peer has staged work in the same checkout, and the
refusal reaches the model naming the Makefile target, what it runs and the peer's file; the target
that only runs `git status` runs.

The live peer is a registry entry with a real process (fixtures.claudehome); the hook is registered
as install.py registers it: `<python> -S scripts/git_index_guard.py`.
"""
import json
import os
import sys
import unittest

from . import claude_cli
from .claude_cli import Sandbox, require_e2e_tools
from .test_e2e_guard import git, tool_results

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from fixtures.claudehome import ClaudeHome  # noqa: E402

GUARD = os.path.join(REPO, "scripts", "git_index_guard.py")
PEER_NAME = "stager-peer"
MAKEFILE = ".PHONY: commit status\ncommit:\n\t@git add -A && git commit -q -m save\nstatus:\n\t@git status --short\n"


class WrapperOnTheRealClient:
    """Template: one TestCase per version below (2.1.332 is the one the issue asks for)."""
    VERSION = None

    @classmethod
    def setUpClass(cls):
        cls.sandbox = Sandbox(require_e2e_tools(cls.VERSION), cls.VERSION)
        try:
            cls.repo = os.path.join(cls.sandbox.root, "work", "shared")
            os.makedirs(cls.repo)
            git(cls.repo, "init", "-q", "-b", "main")
            with open(os.path.join(cls.repo, "Makefile"), "w") as handle:
                handle.write(MAKEFILE)
            git(cls.repo, "add", "Makefile")
            git(cls.repo, "-c", "user.name=a", "-c", "user.email=a@example.invalid", "commit", "-q", "-m", "start")
            with open(os.path.join(cls.repo, "peer.py"), "w") as handle:
                handle.write("PEER = 1\n")
            git(cls.repo, "add", "peer.py")  # the peer's staged, uncommitted work
            settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "%s -S %s" % (sys.executable, GUARD)}]}]}}
            with open(os.path.join(cls.sandbox.claude_home, "settings.json"), "w") as handle:
                json.dump(settings, handle)
            cls.peers = ClaudeHome(cls.sandbox.home)
            process = cls.peers.spawn()
            peer_id = "0eec0eec-0000-4000-8000-000000000019"
            cls.peers.write_session_files(peer_id, cls.repo, edits=[os.path.join(cls.repo, "peer.py")])
            cls.peers.registry_entry(process.pid, peer_id, cls.repo, name=PEER_NAME)
        except BaseException:
            cls.sandbox.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.peers.close()
        cls.sandbox.close()

    def test_make_commit_is_refused_naming_the_target_and_the_peers_file(self):
        head = git(self.repo, "rev-parse", "HEAD")
        self.sandbox.print_session(self.repo, "commit it all [[bash: make commit]]")
        [(command, is_error, text)] = [r for r in tool_results(self.sandbox) if r[0] == "make commit"]
        self.assertTrue(is_error, text)
        self.assertIn("peerhooks git guard: %s has peer.py staged; `git commit -q -m save` (run by `make commit`) "
                      "would commit it as this session's." % PEER_NAME, text)
        self.assertIn("peerhooks git guard did not run `make commit`", text)
        self.assertIn("which `make commit` runs (`git add -A && git commit -q -m save`)", text)
        self.assertEqual(git(self.repo, "rev-parse", "HEAD"), head)  # nothing was committed
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "peer.py")

    def test_a_target_that_runs_only_git_status_runs(self):
        self.sandbox.print_session(self.repo, "look [[bash: make status]]")
        [(command, is_error, text)] = [r for r in tool_results(self.sandbox) if r[0] == "make status"]
        self.assertFalse(is_error, text)
        self.assertIn("A  peer.py", text)  # git status --short ran and printed the peer's staged file


for _version in (claude_cli.CURRENT_VERSION,):
    _name = "WrapperOnTheRealClient_" + _version.replace(".", "_")
    globals()[_name] = type(_name, (WrapperOnTheRealClient, unittest.TestCase), {"VERSION": _version})
del _version, _name

if __name__ == "__main__":
    unittest.main()

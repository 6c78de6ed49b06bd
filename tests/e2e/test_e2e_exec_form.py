"""The hooks in exec form (`"command": <python>, "args": ["-S", <script>, …]`), as install.py writes them
on Windows, run in the real Claude Code 2.1.197 and 2.1.332 (on Linux: no Windows machine is here, but
the form is the client's own, spawned without a shell on every platform; issue 22). Skipped, with one
line saying why, where a client is not cached (outside CI)."""
import json
import os
import subprocess
import sys
import unittest

from test_install import REPO  # puts the repository on sys.path

from installer import wiring  # noqa: E402

from .claude_cli import CURRENT_VERSION, OLDEST_VERSION
from .test_e2e_install import require_cli


class ExecFormTest(unittest.TestCase):
    version = OLDEST_VERSION

    @classmethod
    def setUpClass(cls):
        cls.cli = require_cli(cls.version)

    def setUp(self):
        from e2e.claude_cli import Sandbox
        self.box = Sandbox(self.cli)
        self.addCleanup(self.box.close)
        self.repo = os.path.join(self.box.root, "repo with space")
        os.makedirs(self.repo)
        subprocess.run(["git", "init", "-q", self.repo], check=True)

    def test_exec_form_hooks_run_in_a_real_session(self):
        entries = wiring.build_entries(wiring.CLAUDE_HOOKS, sys.executable, os.path.join(REPO, "scripts"),
                                       exec_form=True)
        settings = wiring.merge({}, entries)
        self.assertTrue(all("args" in group["hooks"][0] for groups in settings["hooks"].values()
                            for group in groups))
        os.makedirs(self.box.claude_home, exist_ok=True)
        with open(os.path.join(self.box.claude_home, "settings.json"), "w", encoding="utf-8") as handle:
            json.dump(settings, handle)
        from e2e.stub_api import request_text
        done = self.box.print_session(self.repo, "hello there, please say hi")
        self.assertEqual(done.returncode, 0, done.stderr)
        seen = "\n".join(request_text(body) for body in self.box.stub.message_bodies())
        self.assertIn("SessionStart:startup hook success: Cold start: full orientation", seen)
        self.assertNotIn("hook error", seen)


class ExecFormLatestTest(ExecFormTest):
    version = CURRENT_VERSION


if __name__ == "__main__":
    unittest.main()

"""What every hook script promises Claude Code, whatever goes wrong: never exit 2 by accident."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import support

HOOKS = {
    "peers.py": ["--hook"],
    "memory_delta.py": [],
    "cold_start.py": [],
    "git_index_guard.py": [],
}
PAYLOAD = (b'{"session_id": "s", "cwd": "/", "hook_event_name": "PreToolUse", "source": "startup", '
           b'"tool_name": "Bash", "tool_input": {"command": "git add -A"}, "prompt": "hi"}\n')


class BrokenInstall(unittest.TestCase):
    def test_a_missing_library_exits_zero_with_one_line_on_stderr(self):
        folder = tempfile.mkdtemp(prefix="peerhooks-broken-")
        self.addCleanup(shutil.rmtree, folder, True)
        for script, args in HOOKS.items():
            shutil.copy(os.path.join(support.SCRIPTS, script), folder)
            completed = subprocess.run([sys.executable, os.path.join(folder, script)] + args,
                                       input=PAYLOAD, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), timeout=60)
            self.assertEqual(completed.returncode, 0, script)
            self.assertEqual(completed.stdout, b"", script)
            self.assertEqual(len(completed.stderr.decode().splitlines()), 1, (script, completed.stderr))
            self.assertIn("peerhooks: cannot load its library", completed.stderr.decode(), script)


class GarbageEverywhere(support.HomeTestCase):
    def test_no_hook_exits_two_or_writes_stdout_on_garbage(self):
        for script, args in HOOKS.items():
            for payload in (b"", b"\xff\xfe\x00", b"[]", b"{}", b'{"cwd": 7, "tool_input": "x"}'):
                completed = self.run_hook(script, payload, args=args)
                self.assertEqual((completed.returncode, completed.stdout), (0, ""), (script, payload))


if __name__ == "__main__":
    unittest.main()

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


class QuietCallsEndTheirProcessAtOnce(support.HomeTestCase):
    """A call answered from the payload's bytes ends its process without the interpreter's teardown
    (~0.3 ms of the guard's quiet path), as a hook that has written does: an exit handler never runs."""

    PROBE = ("import atexit, runpy, sys; atexit.register(lambda: sys.stdout.write('teardown')); "
             "sys.argv = [sys.argv[1]]; runpy.run_path(sys.argv[0], run_name='__main__')")

    def ended_at_once(self, script, payload):
        completed = subprocess.run([sys.executable, "-S", "-c", self.PROBE, os.path.join(support.SCRIPTS, script)],
                                   input=support.payload_bytes(payload), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=self.claude.env(), cwd=self.tmp, timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return completed.stdout == b""

    def test_the_guards_quiet_lines_and_an_edit_made_alone_end_at_once(self):
        for command in ("ls -la && pytest -q", "git status", "git log --oneline -5"):
            self.assertTrue(self.ended_at_once("git_index_guard.py", {
                "session_id": "s", "cwd": self.tmp, "tool_name": "Bash", "tool_input": {"command": command}}), command)
        self.assertTrue(self.ended_at_once("edit_notice.py", {
            "session_id": "s", "cwd": self.tmp, "tool_name": "Write",
            "tool_input": {"file_path": os.path.join(self.tmp, "a.py"), "content": "x"}}))


if __name__ == "__main__":
    unittest.main()

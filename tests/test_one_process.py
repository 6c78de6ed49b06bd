"""A hook is one process: after it exits, nothing of peerhooks runs and the temporary folder holds
nothing of ours (issue 32). Each hook runs as Claude Code starts it, with a temporary folder of its
own (TMPDIR, TEMP, TMP), beside a live peer so that its slow path runs: the guard judges and
refuses, the edit notice speaks, memory_delta reports, peers.py lists, cold start prints."""
import os
import subprocess
import tempfile
import unittest

import support
from fixtures import claudehome
from fixtures.claudehome import now_ms
from support import HomeTestCase

def processes_started_from(scratch):
    """Every process of this machine that inherited the temporary folder `scratch` (Linux's /proc),
    wherever it was reparented to: a hook's leftover, not another test run's hooks."""
    mark = ("TMPDIR=" + scratch).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join("/proc", entry, "environ"), "rb") as handle:
                environment = handle.read().split(b"\0")
            with open(os.path.join("/proc", entry, "cmdline"), "rb") as handle:
                words = handle.read().decode("utf-8", "replace").split("\0")
        except OSError:
            continue  # ended while we looked, or not ours to read
        if mark in environment:
            found.append((int(entry), " ".join(words)))
    return found


@unittest.skipUnless(os.path.isdir("/proc/self"), "reads /proc to see what runs")
class NothingOutlivesAHookTest(HomeTestCase):
    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n", "src/app.py": "x = 1\n"})
        path = claudehome.leave_changed(self.main, ["src/export.py"])[0]
        peer = self.claude.live_session(self.main, name="main-peer", prompts=["refactor the app module"])
        self.claude.append_records(peer.session_id, self.main,
                                   [claudehome.edit_record(peer.session_id, self.main, path, now_ms() - 60000)])
        self.scratch = tempfile.mkdtemp(prefix="peerhooks-tmpdir-", dir=self.tmp)

    def run_as_client(self, script, payload, args=()):
        environment = self.claude.env(TMPDIR=self.scratch, TEMP=self.scratch, TMP=self.scratch)
        return support.run_script(script, payload, environment, cwd=self.main, args=args, process=True)

    def assert_nothing_left(self, script):
        self.assertEqual(processes_started_from(self.scratch), [], "%s left a process running" % script)
        self.assertEqual(os.listdir(self.scratch), [], "%s left files in the temporary folder" % script)

    def test_the_guard_refusing_a_line_leaves_nothing(self):
        payload = {"session_id": "this-session-0000", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "git add -A && git commit -m wip"}, "cwd": self.main}
        result = self.run_as_client("git_index_guard.py", payload)
        self.assertIn('"permissionDecision"', result.stdout)  # it judged, and refused
        self.assert_nothing_left("git_index_guard.py")

    def test_the_edit_notice_telling_of_a_peer_leaves_nothing(self):
        path = os.path.join(self.main, "src", "export.py")
        payload = {"session_id": "this-session-0000", "hook_event_name": "PreToolUse", "tool_name": "Edit",
                   "tool_input": {"file_path": path, "old_string": "x", "new_string": "y"}, "cwd": self.main}
        result = self.run_as_client("edit_notice.py", payload)
        self.assertIn("main-peer", result.stdout)
        self.assert_nothing_left("edit_notice.py")

    def test_peers_memory_delta_and_cold_start_leave_nothing(self):
        start = {"session_id": "this-session-0000", "hook_event_name": "SessionStart", "source": "startup",
                 "cwd": self.main}
        prompt = {"session_id": "this-session-0000", "hook_event_name": "UserPromptSubmit", "prompt": "go",
                  "cwd": self.main}
        listed = self.run_as_client("peers.py", start, args=["--hook"])
        self.assertIn("main-peer", listed.stdout)
        self.run_as_client("memory_delta.py", prompt)
        self.run_as_client("cold_start.py", start)
        self.assert_nothing_left("peers.py, memory_delta.py and cold_start.py")

    def test_the_check_itself_sees_a_process_that_lingers(self):
        environment = dict(os.environ, TMPDIR=self.scratch)
        lingering = subprocess.Popen([support.sys.executable, "-c", "import time; time.sleep(60)"], env=environment)
        self.addCleanup(lingering.wait)
        self.addCleanup(lingering.kill)
        self.assertIn(lingering.pid, [pid for pid, _ in processes_started_from(self.scratch)])

if __name__ == "__main__":
    unittest.main()

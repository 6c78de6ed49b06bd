"""The hooks wired under Codex, fed the literal payloads Codex 0.171 sent (fixtures/samples/codex-0.171/):
one JSON object with no trailing newline, no CLAUDE_* variables, and a session no registry knows."""
import json
import os
import unittest

import support
from support import REPO, HomeTestCase

SAMPLES = os.path.join(REPO, "fixtures", "samples", "codex-0.171")
SAMPLE_CWD = "/home/me/work/repo"


def sample_stdin(name, cwd, command=None):
    """The payload bytes of a sample, moved to cwd (and given another command when asked)."""
    with open(os.path.join(SAMPLES, name), encoding="utf-8") as handle:
        raw = json.load(handle)["stdin"]
    if command is not None:
        payload = json.loads(raw)
        payload["tool_input"]["command"] = command
        raw = json.dumps(payload, separators=(",", ":"))
    return raw.replace(SAMPLE_CWD, cwd).encode("utf-8")


@unittest.skipUnless(support.SIMULATED == "linux", "Codex's payloads were recorded on Linux only")
class LiteralCodexPayloadsTest(HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo("repo", {"AGENTS.md": "Run the tests.\n", "README.md": "hi\n"})

    def test_samples_end_without_a_newline_as_codex_sends_them(self):
        for name in sorted(os.listdir(SAMPLES)):
            if name.startswith("hook-"):
                self.assertFalse(sample_stdin(name, self.repo_path).endswith(b"\n"), name)

    def test_cold_start_orients_a_codex_startup_and_keeps_state_under_dot_codex(self):
        result = self.run_hook("cold_start.py", sample_stdin("hook-SessionStart-startup.json", self.repo_path),
                               args=("--host", "codex"))
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        self.assertTrue(result.stdout.startswith("Cold start: full orientation"), result.stdout)
        self.assertIn(os.path.join(self.repo_path, "AGENTS.md"), result.stdout)
        self.assertTrue(os.path.isdir(os.path.join(self.repo_path, ".codex", "state")))

    def test_cold_start_answers_a_codex_resume_with_one_line(self):
        result = self.run_hook("cold_start.py", sample_stdin("hook-SessionStart-resume.json", self.repo_path),
                               args=("--host", "codex"))
        self.assertEqual(result.returncode, 0)
        self.assertEqual(result.stdout.count("\n"), 1)
        self.assertIn("Session continues (resume)", result.stdout)

    def test_guard_lets_a_codex_git_status_run_beside_a_live_peer(self):
        self.claude.live_session(self.repo_path, name="repo-5e")
        result = self.run_hook("git_index_guard.py",
                               sample_stdin("hook-PreToolUse-allowed.json", self.repo_path))
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))

    def test_guard_refuses_a_codex_sweep_beside_a_live_peer_with_exit_2(self):
        unfinished = os.path.join(self.repo_path, "peer_notes.md")
        with open(unfinished, "w") as handle:
            handle.write("the peer's unfinished file\n")
        self.claude.live_session(self.repo_path, name="repo-5e", edits=[unfinished])
        result = self.run_hook("git_index_guard.py",
                               sample_stdin("hook-PreToolUse-allowed.json", self.repo_path, "git add -A"),
                               args=["--host", "codex"])  # as install.py --codex registers it
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertIn("repo-5e", result.stderr)
        self.assertNotIn("SendMessage", result.stderr)


if __name__ == "__main__":
    unittest.main()

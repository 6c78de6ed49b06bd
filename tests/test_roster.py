"""The roster stays true for the whole session: memory_delta.py tells each prompt who joined this
checkout and who ended since the session last heard (peers.py at SessionStart, or an earlier prompt),
each once; and the quiet path when nobody did. End to end through the front doors, real processes
and git, and roster's pure parts."""
import os
import subprocess
import time
import unittest

import support
from fixtures import claudehome
from fixtures.claudehome import MINUTE_MS, edit_record, exit_records, now_ms
from peerhooks import platform
from peerhooks.peers import roster
from peerhooks.memory_delta import roster_report

from test_peers import CLOCK

HEADER = roster_report.HEADER


def git(repo, *args):
    subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class RosterOnEachPrompt(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()
        self.me = self.claude.live_session(self.repo_path, name="me-session")
        self.a = self.claude.live_session(self.repo_path, name="shop-a1", prompts=["port the exporter to the queue"])
        self.start()

    def start(self, source="startup"):
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": source, "transcript_path": self.me.transcript}
        self.assertEqual(self.run_hook("peers.py", payload, args=["--hook"]).returncode, 0)

    def prompt(self, **env):
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "UserPromptSubmit",
                   "prompt": "carry on with the next step please"}
        result = self.run_hook("memory_delta.py", payload, **env)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        return result.stdout

    def joins(self, name, prompts=("fix the flaky login test on CI",), edits=(), **options):
        peer = self.claude.live_session(self.repo_path, name=name, prompts=list(prompts), edits=list(edits), **options)
        claudehome.leave_changed(self.repo_path, list(edits))
        return peer

    def test_nothing_said_while_the_roster_is_as_peers_py_told_it(self):
        self.assertEqual(self.prompt(), "")
        self.assertEqual(self.prompt(), "")

    def test_a_peer_that_joins_is_told_once_with_its_intent_and_files(self):
        self.joins("shop-c1", edits=["tests/test_login.py"])
        told = self.prompt()
        self.assertEqual(told.splitlines()[0], HEADER)
        self.assertRegex(told, r"- joined: shop-c1 \(busy, up 30m\); working on: fix the flaky login test on CI; "
                               r"editing: tests/test_login.py \(%s, \d+s ago\)\n" % CLOCK)
        self.assertIn("coordinate with shop-c1 through the user", told)  # this session has no socket
        self.assertNotIn("shop-a1", told)
        self.assertEqual(self.prompt(), "")

    def test_a_joined_peers_prompt_is_redacted(self):
        key = "sk-ant-api03-" + "Q" * 40
        self.joins("shop-c1", prompts=["deploy with ANTHROPIC_API_KEY=%s to staging now" % key])
        told = self.prompt()
        self.assertIn("- joined: shop-c1", told)
        self.assertNotIn(key, told)
        self.assertNotIn("QQQQQQQQ", told)

    def test_a_peer_that_exits_is_told_once_with_when_and_what_it_left_uncommitted(self):
        path = claudehome.leave_changed(self.repo_path, ["src/export.py"])[0]
        self.claude.append_records(self.a.session_id, self.repo_path, [
            edit_record(self.a.session_id, self.repo_path, path, now_ms())] + exit_records(
            self.a.session_id, self.repo_path, now_ms() - 30 * MINUTE_MS, now_ms()))
        self.a.stop()
        os.unlink(self.a.registry_file)  # /exit removes the entry
        told = self.prompt()
        self.assertRegex(told, r"- ended: shop-a1 \(%s, \d+s ago, after 30m\); left uncommitted: src/export.py\n"
                         % CLOCK)
        self.assertEqual(self.prompt(), "")

    def test_a_peer_killed_is_told_stopped_without_exiting_with_when_it_was_last_seen(self):
        home = claudehome.ClaudeHome(os.path.join(self.tmp, "home332"), version=claudehome.CURRENT_VERSION)
        self.addCleanup(home.close)
        self.claude = home  # a client that records every exit: a transcript without one was killed
        self.me = home.live_session(self.repo_path, name="me-session")
        killed = home.live_session(self.repo_path, name="shop-k9", prompts=["port the exporter to the queue"])
        self.start()
        killed.stop()  # kill -9: the entry stays, the process is gone, the transcript says nothing more
        told = self.crashed()
        self.assertRegex(told, r"- stopped without exiting: shop-k9 \(last seen %s, \d+s ago, after at least 30m\)"
                         % CLOCK)

    def crashed(self):
        """The ended peer's lines once it is seen: at once where the platform has a file standing
        for a process (Linux's /proc), else when the registry listing next changes."""
        if platform.current().processes.exists_marker(os.getpid()) is None:
            self.assertEqual(self.prompt(), "")  # macOS, Windows: the quiet path cannot tell yet
            self.joins("shop-c1")
        return self.prompt()

    def test_a_peer_that_crashed_leaving_its_entry_is_told_as_ended(self):
        self.a.stop()  # the entry stays, the process is gone
        self.assertIn("- ended: shop-a1", self.crashed())
        self.assertEqual(self.prompt(), "")

    def test_an_ended_peer_whose_work_is_committed_left_nothing_uncommitted(self):
        path = claudehome.leave_changed(self.repo_path, ["src/done.py"])[0]
        self.claude.append_records(self.a.session_id, self.repo_path, [
            edit_record(self.a.session_id, self.repo_path, path, now_ms())])
        git(self.repo_path, "add", "src/done.py")
        git(self.repo_path, "commit", "-qm", "done")
        self.a.stop()
        self.assertIn("- ended: shop-a1", self.crashed())
        self.assertEqual(self.prompt(), "")

    def test_joined_and_ended_on_one_prompt_are_both_told(self):
        self.a.stop()
        self.joins("shop-c1")
        lines = self.prompt().splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertTrue(lines[1].startswith("- joined: shop-c1"), lines)
        self.assertTrue(lines[2].startswith("- ended: shop-a1"), lines)

    def test_many_peers_joining_at_once_are_described_up_to_a_bound_and_counted(self):
        for n in range(roster_report.MAX_EACH + 3):
            self.claude.live_session(self.repo_path, name="wave-%02d" % n)
        lines = self.prompt().splitlines()
        self.assertEqual(sum(1 for line in lines if line.startswith("- joined: wave-")), roster_report.MAX_EACH)
        self.assertIn("- and 3 more that joined or ended", lines)

    def test_a_clear_in_a_peer_is_neither_an_end_nor_a_join(self):
        self.claude.registry_entry(self.a.pid, "a-after-its-clear-0000", self.repo_path, name="shop-a1")
        self.assertEqual(self.prompt(), "")

    def test_sessions_in_other_checkouts_are_not_told(self):
        self.claude.live_session(self.repo("other"), name="elsewhere")
        self.assertEqual(self.prompt(), "")
        self.assertEqual(self.prompt(), "")

    def test_memory_and_roster_changes_are_told_together(self):
        memory = self.claude.memory_dir(self.repo_path)
        self.prompt()
        self.claude.append_records(self.a.session_id, self.repo_path, [
            edit_record(self.a.session_id, self.repo_path, os.path.join(memory, "db.md"), now_ms(), tool="Write")])
        self.claude.write_memory(self.repo_path, "db.md", "Tests hit a real database", self.a.session_id)
        self.joins("shop-c1")
        told = self.prompt()
        self.assertIn("db.md", told)
        self.assertIn("- joined: shop-c1", told)
        self.assertEqual(self.prompt(), "")

    def test_without_a_start_to_go_by_the_first_prompt_only_sets_the_roster(self):
        os.unlink(roster.path_of(os.path.join(self.claude.home, "peerhooks"), self.me.session_id))
        self.joins("shop-c1")
        self.assertNotIn(HEADER, self.prompt())
        self.joins("shop-d2")
        told = self.prompt()
        self.assertIn("- joined: shop-d2", told)
        self.assertNotIn("shop-c1", told)

    def test_a_roster_that_is_not_one_is_set_aside_and_rebuilt_silently(self):
        path = roster.path_of(os.path.join(self.claude.home, "peerhooks"), self.me.session_id)
        with open(path, "w") as handle:
            handle.write("{torn")
        self.assertEqual(self.prompt(), "")
        self.assertTrue(any(name.startswith(os.path.basename(path) + ".corrupt-")
                            for name in os.listdir(os.path.dirname(path))))
        self.joins("shop-c1")
        self.assertIn("- joined: shop-c1", self.prompt())

    def test_a_symlink_in_the_rosters_place_is_never_followed(self):
        path = roster.path_of(os.path.join(self.claude.home, "peerhooks"), self.me.session_id)
        target = os.path.join(self.tmp, "elsewhere.json")
        with open(target, "w") as handle:
            handle.write("{}")
        os.unlink(path)
        os.symlink(target, path)
        self.prompt()
        with open(target) as handle:
            self.assertEqual(handle.read(), "{}")


class RosterPure(unittest.TestCase):
    def session(self, pid, session_id, name, start="100"):
        from peerhooks.claude.registry import Session

        return Session(pid, session_id, "/r", name, "busy", 1000, 1000, "interactive", "cli", "2.1.332", start)

    def test_a_peer_is_its_process_so_a_new_id_is_no_change(self):
        before = roster.Roster(("1.json",), roster.heard_of([self.session(1, "old-id", "a")]))
        self.assertEqual(roster.changes(before, [self.session(1, "new-id", "a")]), ([], []))

    def test_a_reused_pid_is_another_process(self):
        before = roster.Roster(("1.json",), roster.heard_of([self.session(1, "x", "a", start="100")]))
        joined, ended = roster.changes(before, [self.session(1, "y", "b", start="999")])
        self.assertEqual(([s.name for s in joined], [h.name for _k, h in ended]), (["b"], ["a"]))

    def test_the_file_round_trips_and_foreign_bytes_are_not_a_roster(self):
        kept = roster.Roster(("1.json", "2.json"), roster.heard_of([self.session(1, "x", "a")]))
        self.assertEqual(roster.decode(roster.encode(kept)), kept)
        for raw in (b"", b"[]", b'{"version": 9}', b"\xff", b'{"version": 1, "registry": 5, "peers": {}}'):
            self.assertIsNone(roster.decode(raw), raw)

    def test_an_ended_peer_says_how_long_it_ran_and_what_it_left(self):
        from peerhooks.claude.editscan import Edit

        ended = roster_report.Ended("shop-3a", 0, 3 * 3600 * 1000 + 600000, [Edit("/r/a.py", 5)], [Edit("/r/b.py", 6)],
                                    exited=True)
        self.assertEqual(roster_report.ended_line(ended, "/r", 3 * 3600 * 1000 + 720000, zone=time.gmtime),
                         "- ended: shop-3a (03:10, 2m ago, after 3h 10m); left uncommitted: a.py; "
                         "committed or stashed: b.py")

    def test_a_peer_killed_or_whose_end_is_unknown_is_told_when_it_was_last_seen(self):
        from peerhooks.claude.editscan import Edit

        ended = roster_report.Ended("shop-3a", 0, 3 * 3600 * 1000 + 600000, [Edit("/r/a.py", 5)], [], exited=False)
        now = 3 * 3600 * 1000 + 720000
        self.assertEqual(roster_report.ended_line(ended, "/r", now, zone=time.gmtime),
                         "- stopped without exiting: shop-3a (last seen 03:10, 2m ago, after at least 3h 10m); "
                         "left uncommitted: a.py")
        self.assertTrue(roster_report.ended_line(ended._replace(exited=None), "/r", now, zone=time.gmtime).startswith(
            "- ended: shop-3a (last seen 03:10, 2m ago, after at least 3h 10m)"))


@unittest.skipUnless(support.SIMULATED == "linux", "what a Linux hook imports; a simulation's launcher is no hook")
class QuietPath(support.HomeTestCase):
    def test_the_quiet_roster_check_imports_nothing_heavy(self):
        from test_quiet_paths import HEAVY, imported_modules

        repo = self.repo()
        me = self.claude.live_session(repo, name="me")
        for n in range(3):
            self.claude.live_session(repo, name="peer-%d" % n)
        payload = {"session_id": me.session_id, "cwd": repo, "prompt": "carry on please with it"}
        self.run_hook("memory_delta.py", payload)  # records the roster and the stamp
        completed, names = imported_modules("memory_delta.py", payload, self.claude.env(), repo)
        self.assertEqual((completed.returncode, completed.stdout), (0, b""))
        self.assertEqual(sorted(names.intersection(HEAVY)), [])
        self.assertIn("peerhooks.peers.roster", names)
        self.assertNotIn("peerhooks.memory_delta.roster_report", names)


if __name__ == "__main__":
    unittest.main()

"""peers.py end to end: run as Claude Code runs it, payload on stdin, against a temporary home."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

import support
from fixtures import claudehome

DAY_MS = 86400 * 1000
CLOCK = r"(\d{4}-\d\d-\d\d )?\d\d:\d\d"  # a moment on the local clock, dated when not today


def local_clock(ms, zone=time.localtime):
    """A moment as a hook shows it: on the local clock (the hook runs in this process, or in one
    with TZ set), dated when it is not today's."""
    then, today = zone(ms // 1000), zone(time.time())
    return time.strftime("%H:%M" if then[:3] == today[:3] else "%Y-%m-%d %H:%M", then)


class PeersHook(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()
        self.me = self.claude.live_session(self.repo_path, name="me-session")

    def hook(self, cwd=None, session_id=None, process=False, **env):
        payload = {"session_id": session_id or self.me.session_id, "cwd": cwd or self.repo_path,
                   "hook_event_name": "SessionStart", "source": "startup",
                   "transcript_path": self.me.transcript}
        result = self.run_hook("peers.py", payload, args=["--hook"], process=process, **env)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result

    def test_alone_with_no_recent_session_prints_nothing(self):
        result = self.hook()
        self.assertEqual((result.stdout, result.stderr), ("", ""))

    def test_a_live_peer_is_shown_with_its_intent_and_edits(self):
        self.claude.live_session(self.repo_path, name="repo-1f", status="busy", prompts=[
            "migrate the billing jobs to the new queue", "ok", "now port the retry logic as well",
            "yes", "and add tests for the retry backoff please"], edits=["src/a.py", "src/b.py"])
        claudehome.leave_changed(self.repo_path, ["src/a.py", "src/b.py"])
        out = self.hook().stdout
        self.assertIn("Live sessions in this checkout (1):", out)
        self.assertRegex(out, r"repo-1f  busy · up \d+m · 5 prompts · last %s \(\d+s ago\)" % CLOCK)
        self.assertIn("  opened: migrate the billing jobs to the new queue", out)
        self.assertIn("  before: now port the retry logic as well", out)
        self.assertIn("  now: and add tests for the retry backoff please", out)
        self.assertRegex(out, r"  editing: src/b.py, src/a.py \(%s, \d+s ago\)" % CLOCK)
        self.assertIn("coordinate with it through the user", out)  # this session has no messaging socket
        self.assertNotIn("me-session", out)

    def test_a_later_short_change_of_direction_is_shown_beside_the_latest_intent(self):
        self.claude.live_session(self.repo_path, name="turned", prompts=[
            "port the exporter to the new queue library", "ok", "stop, revert that"])
        out = self.hook().stdout
        self.assertIn("  now: port the exporter to the new queue library\n  then: stop, revert that", out)

    def test_a_change_of_direction_is_dropped_once_a_new_intent_follows_it(self):
        self.claude.live_session(self.repo_path, name="turned", prompts=[
            "port the exporter to the new queue library", "undo", "write the importer for the queue instead"])
        out = self.hook().stdout
        self.assertIn("  now: write the importer for the queue instead", out)
        self.assertNotIn("then:", out)

    def test_an_acknowledgement_is_not_a_change_of_direction(self):
        self.claude.live_session(self.repo_path, name="acked", prompts=[
            "port the exporter to the new queue library", "yes go on"])
        self.assertNotIn("then:", self.hook().stdout)

    def test_files_whose_change_was_committed_or_stashed_since_are_told_apart(self):
        self.claude.live_session(self.repo_path, name="p", edits=["src/open.py", "src/done.py", "src/shelved.py"])
        claudehome.leave_changed(self.repo_path, ["src/open.py", "src/done.py", "src/shelved.py"])
        git = ["git", "-C", self.repo_path]
        subprocess.run(git + ["add", "src/done.py", "src/shelved.py"], check=True)
        subprocess.run(git + ["commit", "-qm", "done", "--", "src/done.py"], check=True)
        subprocess.run(git + ["stash", "push", "-q", "--", "src/shelved.py"], check=True)
        out = self.hook().stdout
        self.assertRegex(out, r"  editing: src/open.py \(%s, \d+\w+ ago\); committed or stashed since: " % CLOCK +
                              r"src/(shelved|done).py, src/(done|shelved).py\n")

    def test_a_peer_whose_every_change_is_committed_is_shown_with_nothing_uncommitted(self):
        self.claude.live_session(self.repo_path, name="p", edits=["src/done.py"])
        claudehome.leave_changed(self.repo_path, ["src/done.py"])
        subprocess.run(["git", "-C", self.repo_path, "add", "src/done.py"], check=True)
        subprocess.run(["git", "-C", self.repo_path, "commit", "-qm", "done"], check=True)
        self.assertRegex(self.hook().stdout, r"  editing: nothing uncommitted now; committed or stashed since: "
                                             r"src/done.py \(%s, \d+s ago\)" % CLOCK)

    def test_an_acknowledgement_flood_does_not_hide_the_intent(self):
        prompts = ["rewrite the session registry reader to be defensive"] + ["ok", "yes", "go on", "continue"] * 50
        self.claude.live_session(self.repo_path, name="flood", prompts=prompts)
        out = self.hook().stdout
        self.assertIn("now: rewrite the session registry reader to be defensive", out)
        self.assertIn("201 prompts", out)
        self.assertNotIn(": ok", out)

    def test_opening_prompt_comes_from_the_transcript_head_when_history_lacks_it(self):
        self.claude.live_session(self.repo_path, name="print-mode", print_mode=True,
                                 prompts=["summarise the open pull requests for the team"])
        out = self.hook().stdout
        self.assertRegex(out, r"print-mode · up \d+m\n")  # no status, and no history: no prompt count
        self.assertIn("summarise the open pull requests for the team", out)

    def test_scratch_edits_are_skipped_and_outside_files_shown_whole(self):
        self.claude.live_session(self.repo_path, name="p", edits=[
            os.path.join(tempfile.gettempdir(), "scratch-123.txt"), os.path.join(self.claude.root, ".claude", "scratchpad", "x.md"),
            "src/kept.py"])
        claudehome.leave_changed(self.repo_path, ["src/kept.py"])
        out = self.hook().stdout
        self.assertIn("editing: src/kept.py", out)
        self.assertNotIn("scratch", out)

    def test_at_most_five_files_newest_first(self):
        self.claude.live_session(self.repo_path, name="p", edits=["f%d.py" % i for i in range(8)])
        claudehome.leave_changed(self.repo_path, ["f%d.py" % i for i in range(8)])
        out = self.hook().stdout
        self.assertIn("editing: f7.py, f6.py, f5.py, f4.py, f3.py +3", out)

    def test_a_peer_in_a_subfolder_counts(self):
        sub = os.path.join(self.repo_path, "pkg", "sub")
        os.makedirs(sub)
        self.claude.live_session(sub, name="in-sub")
        self.assertIn("in-sub", self.hook().stdout)

    def test_a_linked_worktree_inside_the_repo_does_not_count(self):
        worktree = os.path.join(self.repo_path, ".claude", "worktrees", "w1")
        subprocess.run(["git", "-C", self.repo_path, "worktree", "add", "-q", worktree], check=True)
        self.claude.live_session(worktree, name="in-worktree")
        self.assertEqual(self.hook().stdout, "")

    def test_another_repository_does_not_count(self):
        self.claude.live_session(self.repo("other"), name="elsewhere")
        self.assertEqual(self.hook().stdout, "")

    def test_dead_and_reused_pids_are_not_peers(self):
        dead = self.claude.live_session(self.repo_path, name="dead-one")
        dead.stop()
        if os.path.isdir("/proc"):
            process = self.claude.spawn()
            self.claude.registry_entry(process.pid, "reused", self.repo_path, name="ghost", proc_start_value="7")
        out = self.hook().stdout
        self.assertNotIn("dead-one", out)
        self.assertNotIn("ghost", out)

    def test_after_clear_a_stale_registry_id_is_still_recognised_as_self(self):
        # This test process is the hook's parent, as Claude Code is in production: a real process.
        self.claude.registry_entry(os.getpid(), "pre-clear-id", self.repo_path, name="myself",
                                   proc_start_value=claudehome.proc_start(os.getpid()))
        out = self.hook(session_id="post-clear-id", process=True).stdout
        self.assertNotIn("myself", out)

    def test_claude_config_dir_elsewhere_than_home_is_read(self):
        other = claudehome.ClaudeHome(os.path.join(self.tmp, "other-root"),
                                      config_dir=os.path.join(self.tmp, "custom-config"))
        self.addCleanup(other.close)
        other.live_session(self.repo_path, name="custom-home-peer")
        result = support.run_script("peers.py", {"session_id": "x", "cwd": self.repo_path}, other.env(),
                                    args=["--hook"])
        self.assertIn("custom-home-peer", result.stdout)

    def test_a_checkout_path_over_200_slug_characters_is_found(self):
        deep = self.repo(os.path.join("d" * 90, "e" * 90, "long-repo"))
        self.assertGreater(len(claudehome.slug(deep)), 200)
        self.claude.live_session(deep, name="long-path-peer", edits=["src/deep.py"])
        out = self.hook(cwd=deep).stdout
        self.assertIn("long-path-peer", out)
        self.assertIn("src/deep.py", out)

    def test_twelve_peers_fit_in_4000_characters(self):
        for n in range(12):
            self.claude.live_session(self.repo_path, name="peer-%02d" % n, prompts=[
                ("a fairly long prompt describing task %d " % n) * 6, "second substantive prompt " * 8,
                "third substantive prompt goes here " * 6], edits=["src/module_%d_%d.py" % (n, i) for i in range(7)])
        self.claude.ended_session(self.repo_path, prompts=["finished work on the exporter module today"])
        out = self.hook().stdout
        self.assertLess(len(out), 4000)
        self.assertIn("Last session in this checkout", out)
        self.assertEqual(out.count("peer-"), 12, out)

    def test_the_last_finished_session_is_described(self):
        started = claudehome.now_ms() - 3 * 3600 * 1000
        self.claude.ended_session(self.repo_path, started_ms=started, ended_ms=started + 5400 * 1000,
                                  prompts=["build the csv exporter for the reports page", "ok",
                                           "now handle unicode in the csv exporter"],
                                  edits=["export.py", "tests/test_export.py"])
        claudehome.leave_changed(self.repo_path, ["export.py", "tests/test_export.py"])
        out = self.hook().stdout
        self.assertRegex(out, r"Last session in this checkout: \w+ ended %s \(1h ago\), ran 1h 30m, 3 prompts"
                         % local_clock(started + 5400 * 1000))
        self.assertIn("  opened: build the csv exporter for the reports page", out)
        self.assertIn("  latest: now handle unicode in the csv exporter", out)
        self.assertIn("  edited: tests/test_export.py, export.py", out)

    def test_a_session_that_exited_is_told_when_on_the_local_clock_and_how_long_ago(self):
        ended = claudehome.now_ms() - 2 * 60 * 1000
        self.claude.ended_session(self.repo_path, started_ms=ended - 5400 * 1000, ended_ms=ended,
                                  prompts=["build the csv exporter for the reports page"])
        for zone, tz in ((time.gmtime, "UTC"), (lambda s: time.gmtime(s + 5 * 3600), "XYZ-5")):
            out = self.hook(process=True, TZ=tz).stdout  # the hook's own process, in that time zone
            self.assertIn(" ended %s (2m ago), ran 1h 30m, 1 prompt\n" % local_clock(ended, zone), out)

    def test_an_idle_session_ended_at_its_exit_not_at_its_last_prompt(self):
        home = self.home_recording_every_exit()
        last_prompt, exited = claudehome.now_ms() - 20 * 60 * 1000, claudehome.now_ms() - 2 * 60 * 1000
        session_id, path = home.ended_session(self.repo_path, started_ms=last_prompt - 3600 * 1000,
                                              ended_ms=last_prompt, prompts=["review the export module"], exited=False)
        home.append_records(session_id, self.repo_path, claudehome.exit_records(
            session_id, self.repo_path, last_prompt - 3600 * 1000, exited))  # idle for 18 minutes, then /exit
        os.utime(path, (exited / 1000.0, exited / 1000.0))
        out = self.hook().stdout
        self.assertIn(" ended %s (2m ago), ran 1h 18m, 1 prompt\n" % local_clock(exited), out)

    def test_a_killed_session_stopped_without_exiting_and_no_exit_time_is_claimed(self):
        home = self.home_recording_every_exit()
        last = claudehome.now_ms() - 30 * 60 * 1000  # its last prompt (the fixture's half a minute before its end)
        home.ended_session(self.repo_path, started_ms=last - 3600 * 1000, ended_ms=last + 30 * 1000,
                           prompts=["review the export module"], exited=False)  # kill -9: nothing more written
        out = self.hook().stdout
        self.assertIn(" stopped without exiting, last seen %s (30m ago), ran at least 1h 00m, 1 prompt\n"
                      % local_clock(last), out)
        self.assertNotIn(" ended", out)

    def test_a_killed_session_was_last_seen_when_peerhooks_last_saw_it_live(self):
        home = self.home_recording_every_exit()
        idle = home.live_session(self.repo_path, name="idle-k9", prompts=["review the export module"])
        last_record = claudehome.now_ms() - 40 * 60 * 1000
        with open(idle.transcript, "rb") as handle:  # its prompts 40 minutes ago: idle since
            records = [json.loads(line) for line in handle]
        with open(idle.transcript, "w") as handle:
            for record in records:
                record["timestamp"] = claudehome.iso(last_record) if "timestamp" in record else None
                handle.write(json.dumps({k: v for k, v in record.items() if v is not None}) + "\n")
        seen = claudehome.now_ms()
        self.assertIn("idle-k9", self.hook().stdout)  # seen live at this start
        idle.stop()  # then killed: its registry entry stays, its process is gone
        out = self.hook().stdout
        self.assertRegex(out, r"Last session in this checkout: idle-k9 stopped without exiting, last seen %s "
                              r"\(\d+s ago\)" % local_clock(seen))

    def test_a_session_whose_client_records_no_exit_but_a_typed_one_is_not_called_killed(self):
        last = claudehome.now_ms() - 30 * 60 * 1000  # its last prompt (the fixture's half a minute before its end)
        self.claude.ended_session(self.repo_path, started_ms=last - 3600 * 1000, ended_ms=last + 30 * 1000,
                                  prompts=["review the export module"], exited=False)  # 2.1.197 records a
        # typed /exit only: without one, how it ended cannot be told
        self.assertIn(" ended, last seen %s (30m ago), ran at least 1h 00m, 1 prompt\n" % local_clock(last),
                      self.hook().stdout)

    def home_recording_every_exit(self):
        """This checkout's sessions as 2.1.332 writes them (an end record at every clean end)."""
        home = claudehome.ClaudeHome(os.path.join(self.tmp, "home332"), version=claudehome.CURRENT_VERSION)
        self.addCleanup(home.close)
        self.claude, self.me = home, home.live_session(self.repo_path, name="me-session")
        return home

    def test_a_finished_session_keeps_the_name_its_peers_knew(self):
        peer = self.claude.live_session(self.repo_path, name="repo-7c", prompts=["write the exporter docs today"])
        self.assertIn("repo-7c", self.hook().stdout)  # seen live once: its name is remembered
        peer.stop()
        os.unlink(peer.registry_file)
        os.utime(peer.transcript, None)
        self.assertIn("Last session in this checkout: repo-7c ended", self.hook().stdout)

    def test_print_mode_runs_are_not_the_last_session(self):
        self.claude.ended_session(self.repo_path, ended_ms=claudehome.now_ms() - 3600 * 1000,
                                  prompts=["the interactive work somebody did here"])
        self.claude.ended_session(self.repo_path, entrypoint="sdk-cli", in_history=False,
                                  prompts=["a scripted one-shot run from a tool"])
        out = self.hook().stdout
        self.assertIn("the interactive work somebody did here", out)
        self.assertNotIn("scripted", out)

    def test_sessions_older_than_seven_days_are_not_described(self):
        old = claudehome.now_ms() - 8 * DAY_MS
        self.claude.ended_session(self.repo_path, started_ms=old - 3600 * 1000, ended_ms=old,
                                  prompts=["an old piece of work nobody remembers now"])
        self.assertEqual(self.hook().stdout, "")
        recent = claudehome.now_ms() - 6 * DAY_MS
        self.claude.ended_session(self.repo_path, started_ms=recent - 3600 * 1000, ended_ms=recent,
                                  prompts=["a recent piece of work within the week"])
        self.assertIn("a recent piece of work within the week", self.hook().stdout)

    def test_handoff_older_than_the_session_is_marked_stale(self):
        ended = claudehome.now_ms() - 600 * 1000
        self.claude.ended_session(self.repo_path, started_ms=ended - 3600 * 1000, ended_ms=ended,
                                  prompts=["work that happened after the handoff was written"])
        handoff = os.path.join(self.repo_path, "HANDOFF.md")
        with open(handoff, "w") as handle:
            handle.write("# Handoff\n")
        old = (ended - 7200 * 1000) / 1000.0
        os.utime(handoff, (old, old))
        self.assertIn("handoff: HANDOFF.md, written", self.hook().stdout)
        self.assertIn("(stale: that session worked on after it was written)", self.hook().stdout)
        os.utime(handoff, None)
        self.assertNotIn("stale", self.hook().stdout)

    def test_handoff_written_early_in_a_long_session_is_stale_and_one_written_last_is_current(self):
        ended = claudehome.now_ms() - 600 * 1000
        started = ended - 5 * 3600 * 1000
        self.claude.ended_session(self.repo_path, started_ms=started, ended_ms=ended,
                                  prompts=["plan the exporter and hand it off", ("then build all of the exporter",
                                                                                   ended - 60 * 1000)])
        handoff = os.path.join(self.repo_path, "HANDOFF.md")
        with open(handoff, "w") as handle:
            handle.write("# Handoff\n")
        early = (started + 1800 * 1000) / 1000.0  # after the start, hours before its last prompt
        os.utime(handoff, (early, early))
        self.assertIn("(stale: that session worked on after it was written)", self.hook().stdout)
        last = (ended - 30 * 1000) / 1000.0  # after its last prompt, before its last record
        os.utime(handoff, (last, last))
        out = self.hook().stdout
        self.assertIn("handoff: HANDOFF.md, written", out)
        self.assertNotIn("stale", out)

    def test_output_is_utf8_whatever_the_locale(self):
        self.claude.live_session(self.repo_path, name="p", prompts=["réécrire le module de paiement — vite"])
        result = self.run_hook("peers.py", {"session_id": self.me.session_id, "cwd": self.repo_path},
                               args=["--hook"], LC_ALL="C", LANG="C", PYTHONIOENCODING="ascii")
        self.assertIn("réécrire le module de paiement — vite", result.stdout)


class BadInput(support.HomeTestCase):
    def test_bad_files_everywhere_still_exit_zero(self):
        repo = self.repo()
        sessions = os.path.join(self.claude.home, "sessions")
        with open(os.path.join(sessions, "123.json"), "w") as handle:
            handle.write("{corrupt")
        peer = self.claude.live_session(repo, name="garbage-transcript")
        with open(peer.transcript, "wb") as handle:
            handle.write(b"\x00\xff" * 5000 + b"\n{\"type\":\"tool_use\"\n")
        with open(os.path.join(self.claude.home, "history.jsonl"), "ab") as handle:
            handle.write(b"\xff\xfe\x00\n{\"display\": \"trunc")
        unreadable = self.claude.live_session(repo, name="unreadable")
        os.chmod(unreadable.transcript, 0)
        result = self.run_hook("peers.py", {"session_id": "me", "cwd": repo}, args=["--hook"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("garbage-transcript", result.stdout)

    def test_garbage_stdin_missing_folders_and_odd_cwds_exit_zero(self):
        import shutil
        shutil.rmtree(self.claude.home)
        for payload in (b"", b"\x00\xff garbage", b"[]", b'{"cwd": 5}', b'{"cwd": "/does/not/exist"}'):
            result = self.run_hook("peers.py", payload, args=["--hook"])
            self.assertEqual((result.returncode, result.stdout), (0, ""), payload)

    def test_a_payload_without_eof_is_read_as_one_line(self):
        process = subprocess.Popen([sys.executable, os.path.join(support.SCRIPTS, "peers.py"), "--hook"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=self.claude.env(), cwd=self.tmp)
        process.stdin.write(b'{"session_id": "x", "cwd": "/"}\n')
        process.stdin.flush()
        try:
            self.assertEqual(process.wait(timeout=20), 0)
        finally:
            process.stdin.close()
            process.stdout.close()
            process.stderr.close()


class ByHand(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo(os.path.join("work", "project"))

    def cli(self, *args, cwd=None):
        return support.run_script("peers.py", None, self.claude.env(), cwd=cwd or self.repo_path, args=args)

    def test_help_and_bad_flags_never_exit_two(self):
        self.assertEqual(self.cli("--help").returncode, 0)
        self.assertIn("--here", self.cli("--help").stdout)
        bad = self.cli("--bogus")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("unknown option: --bogus", bad.stderr)
        self.assertEqual(self.cli("--days", "x", "--stats").returncode, 1)

    def test_default_lists_sessions_under_the_parent_folder(self):
        sibling = self.repo(os.path.join("work", "sibling"))
        self.claude.live_session(sibling, name="sibling-peer")
        elsewhere = self.repo(os.path.join("far", "away"))
        self.claude.live_session(elsewhere, name="far-peer")
        out = self.cli().stdout
        self.assertIn("sibling-peer", out)
        self.assertNotIn("far-peer", out)
        self.assertNotIn("sibling-peer", self.cli("--here").stdout)
        self.assertIn("far-peer", self.cli("--all").stdout)

    def test_json_has_the_same_facts(self):
        self.claude.live_session(self.repo_path, name="json-peer", edits=["x.py", "README.md"],
                                 prompts=["make the json output stable for scripts"])
        claudehome.leave_changed(self.repo_path, ["x.py", "README.md"])
        subprocess.run(["git", "-C", self.repo_path, "commit", "-qam", "the peer's README"], check=True)
        (checkout,) = json.loads(self.cli("--here", "--json").stdout)["checkouts"]
        self.assertEqual(checkout["top"], self.repo_path)
        (peer,) = checkout["peers"]
        self.assertEqual(peer["name"], "json-peer")
        self.assertEqual(peer["latest"], "make the json output stable for scripts")
        self.assertEqual([e["path"] for e in peer["edits"]], [os.path.join(self.repo_path, "x.py")])
        self.assertEqual([e["path"] for e in peer["settled"]], [os.path.join(self.repo_path, "README.md")])

    def test_stats_on_an_empty_home_says_so(self):
        result = self.cli("--stats", "--days", "9")
        self.assertEqual((result.returncode, result.stdout), (0, "no sessions in the last 9 days\n"))

    def test_stats_counts_the_sessions_of_this_home(self):
        self.claude.ended_session(self.repo_path, prompts=["measure whether sessions talk to each other"])
        report = json.loads(self.cli("--stats", "--json").stdout)
        self.assertEqual(report["sessions"], 1)

    def test_last_shows_only_the_finished_session(self):
        self.claude.live_session(self.repo_path, name="still-live")
        self.claude.ended_session(self.repo_path, prompts=["the work that already finished today"])
        out = self.cli("--last").stdout
        self.assertIn("the work that already finished today", out)
        self.assertNotIn("still-live", out)

    def test_last_never_reports_a_live_session_as_ended(self):
        self.claude.ended_session(self.repo_path, prompts=["the work that already finished today"])
        self.claude.live_session(self.repo_path, name="still-live",
                                 prompts=["a live session that is still working on it"])
        out = self.cli("--last").stdout
        self.assertIn("the work that already finished today", out)
        self.assertNotIn("still working on it", out)

    def test_days_without_stats_is_a_usage_error(self):
        result = self.cli("--days", "3")
        self.assertEqual(result.returncode, 1)
        self.assertIn("--days only applies to --stats", result.stderr)

    def test_json_is_one_object_in_every_mode(self):
        for args in (("--json",), ("--here", "--json"), ("--last", "--json"), ("--all", "--json"),
                     ("--stats", "--json")):
            self.assertIsInstance(json.loads(self.cli(*args).stdout), dict, args)


class Issue14(support.HomeTestCase):
    """What a session is told: itself after /clear, the real last session, counts, secrets."""

    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()

    def hook(self, session_id, cwd=None, process=False):
        payload = {"session_id": session_id, "cwd": cwd or self.repo_path,
                   "hook_event_name": "SessionStart", "source": "startup"}
        result = self.run_hook("peers.py", payload, args=["--hook"], process=process)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def cleared(self, name):
        """A live session that ran /clear: its old id has a transcript, the registry the new id
        (2.1.197 rewrites it), and peers.py saw the old id at its start."""
        session = self.claude.live_session(self.repo_path, name=name,
                                           prompts=["the work before the clear command ran"])
        self.hook(session.session_id)  # its own SessionStart: the name and process are remembered
        new_id = "c1ea2000-0000-4000-8000-000000000000"
        self.claude.registry_entry(session.pid, new_id, self.repo_path, name=name)
        self.claude.write_session_files(new_id, self.repo_path, ["after the clear, new work here"])
        return session, new_id

    def test_after_clear_a_session_is_not_shown_itself_as_the_last_session(self):
        session, new_id = self.cleared("cleared-one")
        out = self.hook(new_id)
        self.assertNotIn("Last session", out)
        self.assertNotIn("the work before the clear command ran", out)

    def test_after_clear_peers_see_the_session_live_and_never_as_ended(self):
        self.cleared("cleared-two")
        out = self.hook("0b5e7e00-0000-4000-8000-000000000000")
        self.assertIn("cleared-two", out)
        self.assertNotIn("Last session", out)

    def test_once_the_cleared_session_exits_it_is_one_ended_session(self):
        session, new_id = self.cleared("cleared-three")
        session.stop()
        os.remove(os.path.join(self.claude.home, "sessions", "%d.json" % session.pid))
        out = self.cli_last()
        self.assertEqual(out.count("Last session"), 1)
        self.assertIn("after the clear, new work here", out)

    def test_after_clear_a_session_that_started_before_its_registry_entry_is_not_its_own_last_session(self):
        # 2.1.332 at times writes the registry entry only after SessionStart:startup has run. This
        # test process is the session's (the hook's ancestor), as Claude Code is in production.
        old_id, new_id = "01d00000-0000-4000-8000-000000000000", "c1ea2000-0000-4000-8000-000000000001"
        self.claude.write_session_files(old_id, self.repo_path, ["the work before the clear command ran"])
        self.hook(old_id, process=True)  # startup: no registry entry yet
        self.claude.registry_entry(os.getpid(), new_id, self.repo_path, name="myself",
                                   proc_start_value=claudehome.proc_start(os.getpid()))
        out = self.hook(new_id, process=True)  # after /clear: the registry has this process under the new id
        self.assertNotIn("Last session", out)
        self.assertNotIn("the work before the clear command ran", out)

    def cli_last(self):
        return support.run_script("peers.py", None, self.claude.env(), cwd=self.repo_path,
                                  args=["--last"]).stdout

    def test_the_last_session_is_the_one_whose_last_record_is_newest(self):
        now = claudehome.now_ms()
        self.claude.ended_session(self.repo_path, prompts=["the session that really ended last"],
                                  ended_ms=now - 10 * 60 * 1000)
        _, touched = self.claude.ended_session(self.repo_path, ended_ms=now - 3 * 3600 * 1000,
                                               prompts=["an older session whose file was copied"])
        os.utime(touched, None)  # synced or copied: mtime now, records three hours old
        out = self.hook("0b5e7e00-0000-4000-8000-000000000001")
        self.assertIn("latest: the session that really ended last", out)

    def test_exit_and_clear_are_not_counted_as_prompts(self):
        self.claude.ended_session(self.repo_path, prompts=["write the release notes for today", "/clear",
                                                           "/exit"])
        self.assertIn("1 prompt", self.hook("0b5e7e00-0000-4000-8000-000000000002"))

    def test_secrets_in_peers_prompts_are_redacted_everywhere_they_are_shown(self):
        token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
        self.claude.live_session(self.repo_path, name="leaky", prompts=[
            "push with https://bob:hunter2secret@example.com/repo.git and token %s now" % token])
        out = self.hook("0b5e7e00-0000-4000-8000-000000000003")
        for secret in (token, "hunter2secret"):
            self.assertNotIn(secret, out)
        self.assertIn("https://bob:[redacted]@example.com", out)
        listing = support.run_script("peers.py", None, self.claude.env(), cwd=self.repo_path,
                                     args=["--here", "--json"]).stdout
        self.assertNotIn(token, listing)
        with open(os.path.join(self.claude.home, "peerhooks", "history-index.json")) as handle:
            self.assertNotIn(token[:10], handle.read())  # not even kept in peerhooks' own index

    def test_a_secret_cut_at_the_kept_length_leaves_no_part_behind(self):
        token = "sk-ant-api03-" + "Zx9" * 20
        prompt = "please look at this " + "word " * 50 + token  # the 300-character cut falls in it
        self.claude.live_session(self.repo_path, name="long", prompts=[prompt])
        self.hook("0b5e7e00-0000-4000-8000-000000000005")
        with open(os.path.join(self.claude.home, "peerhooks", "history-index.json")) as handle:
            self.assertNotIn("sk-ant-api03", handle.read())

    def test_stats_counts_idle_live_sessions_as_alive_together(self):
        for n in range(4):
            session = self.claude.live_session(self.repo_path, name="idle-%d" % n,
                                               prompts=["an idle session number %d here" % n])
            old = (claudehome.now_ms() - (n + 1) * 3600 * 1000) / 1000.0
            with open(session.transcript, "r+", encoding="utf-8") as handle:
                records = [json.loads(line) for line in handle]
                for record in records:  # each went quiet an hour apart, hours ago
                    record["timestamp"] = claudehome.iso(int(old * 1000))
                handle.seek(0)
                handle.truncate()
                handle.write("".join(json.dumps(r) + "\n" for r in records))
        report = json.loads(support.run_script("peers.py", None, self.claude.env(), cwd=self.repo_path,
                                               args=["--stats", "--json"]).stdout)
        self.assertEqual(report["alive_at_once"]["max"], 4)

    def test_stats_counts_sessions_seen_alive_together_after_they_went_idle_and_were_killed(self):
        sessions = []
        for n in range(6):
            session = self.claude.live_session(self.repo_path, name="idle-%d" % n,
                                               prompts=["an idle session number %d here" % n])
            quiet_since = claudehome.now_ms() - (n + 2) * 3600 * 1000
            with open(session.transcript, "r+", encoding="utf-8") as handle:
                records = [json.loads(line) for line in handle]
                for record in records:  # each went quiet an hour apart, hours ago: no two overlap
                    record["timestamp"] = claudehome.iso(quiet_since)
                handle.seek(0)
                handle.truncate()
                handle.write("".join(json.dumps(r) + "\n" for r in records))
            sessions.append(session)
        self.hook(sessions[0].session_id)  # a start sees all six live (and remembers it)
        for session in sessions:
            session.stop()  # killed: gone, nothing more written
        report = json.loads(support.run_script("peers.py", None, self.claude.env(), cwd=self.repo_path,
                                               args=["--stats", "--json"]).stdout)
        self.assertEqual(report["alive_at_once"]["max"], 6)
        self.assertGreaterEqual(report["lifetime_ms"]["median"], 2 * 3600 * 1000)  # each until it was seen

    @unittest.skipIf(os.name == "nt", "FIFOs and symlinks")
    def test_hostile_state_files_never_block_break_or_get_written_through(self):
        folder = os.path.join(self.claude.home, "peerhooks")
        os.makedirs(folder)
        with open(os.path.join(folder, "history-index.json"), "wb") as handle:
            handle.write(b"[" * 100000 + b"]" * 100000)
        os.mkfifo(os.path.join(folder, "session-names.json"))
        outside = os.path.join(self.tmp, "outside.json")
        with open(outside, "w") as handle:
            handle.write("keep me")
        os.symlink(outside, os.path.join(folder, "edit-index.json"))
        self.claude.live_session(self.repo_path, name="busy-peer", edits=["a.py"],
                                 prompts=["a peer editing files in this checkout"])
        out = self.hook("0b5e7e00-0000-4000-8000-000000000004", process=True)  # a FIFO: bounded by a timeout
        self.assertIn("busy-peer", out)
        with open(outside) as handle:
            self.assertEqual(handle.read(), "keep me")
        aside = [n for n in os.listdir(folder) if ".corrupt-" in n]
        self.assertEqual(len(aside), 3, aside)
        self.assertIn("busy-peer", self.hook("0b5e7e00-0000-4000-8000-000000000004"))


if __name__ == "__main__":
    unittest.main()

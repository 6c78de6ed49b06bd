"""Issue 21: every hook's work is bounded whatever the home holds, what a run's budget does not reach is
said in one line and read by the next runs, and secrets are taken out on every surface.

Driven as the client drives the hooks (payload on stdin, a temporary Claude home, real git, real
processes for live peers). No timings here: the bench (bench/cases_*.py) measures them; these tests
pin the behaviour that keeps the work bounded (what is read, what is remembered, what is said).
"""
import json
import os
import unittest

import support
from fixtures import claudehome
from peerhooks.claude import activity, history
from peerhooks.memory_delta import watch

MINUTE_MS = 60 * 1000
HOUR_MS = 60 * MINUTE_MS


def _ms(iso):
    from peerhooks.text.timeutil import iso_to_ms

    return iso_to_ms(iso)


class Base(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()

    def start(self, session_id="5e1f0000-0000-4000-8000-000000000001", process=False):
        payload = {"session_id": session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": "startup"}
        result = self.run_hook("peers.py", payload, args=["--hook"], process=process)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        return result.stdout

    def index(self, name):
        with open(os.path.join(self.claude.home, "peerhooks", name), encoding="utf-8") as handle:
            return json.load(handle)


class HistoryInSlices(Base):
    def big_history(self, megabytes):
        """Old sessions' pasted prompts of 100 KB each, within the window, then a live peer's."""
        now = claudehome.now_ms()
        lines = int(megabytes * 10)
        with open(os.path.join(self.claude.home, "history.jsonl"), "a", encoding="utf-8") as handle:
            for n in range(lines):
                handle.write(json.dumps({"display": "pasted log %d: " % n + "w " * 50000, "timestamp": now - 3 * HOUR_MS + n,
                                         "project": self.repo_path, "sessionId": "old-%d" % (n % 5)}) + "\n")
        return self.claude.live_session(self.repo_path, name="lexer", prompts=["rewrite the lexer for heredocs now"])

    def test_a_first_start_over_budget_shows_the_newest_prompts_and_says_what_it_did_not_read(self):
        self.big_history(history.SLICE_BYTES / (1024 * 1024) * 1.5)  # one and a half slices
        out = self.start()
        self.assertIn("now: rewrite the lexer for heredocs now", out)
        self.assertIn("Not read within this start's budget", out)
        self.assertIn("of history.jsonl, so prompt counts may be low", out)
        self.assertEqual(out.count("Not read within"), 1)
        first = self.index(history.INDEX_NAME)
        self.assertEqual(len(first["ranges"]), 1)
        self.assertGreater(first["ranges"][0][0], 0)  # the newest part was read and kept
        again = self.start()
        self.assertNotIn("Not read within", again)
        self.assertEqual(self.index(history.INDEX_NAME)["ranges"], [[0, first["high"]]])

    def test_the_index_holds_no_prompt_and_a_shown_one_is_redacted(self):
        self.claude.live_session(self.repo_path, name="leaky", prompts=[
            'deploy it with {"password": "hunter2hunter2"} and AWS key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'])
        out = self.start()
        self.assertIn('"password": "[redacted]"', out)
        self.assertNotIn("wJalrXUtnFEMI", out)
        with open(os.path.join(self.claude.home, "peerhooks", history.INDEX_NAME)) as handle:
            self.assertNotIn("hunter2", handle.read())


class EndedSessionsRemembered(Base):
    def touched_ended_sessions(self, count):
        """Sessions that ended an hour apart, their transcripts all touched now (synced), so that
        their mtimes say nothing; the newest ended is listed last by mtime."""
        now = claudehome.now_ms()
        paths = []
        for n in range(count):
            _, path = self.claude.ended_session(self.repo_path, prompts=["work item number %d of the backlog" % n],
                                                ended_ms=now - (count - n) * HOUR_MS)
            paths.append(path)
        for n, path in enumerate(paths):
            stamp = now / 1000.0 - n  # the real last one has the oldest mtime: read last
            os.utime(path, (stamp, stamp))
        return paths

    def test_ended_transcripts_over_the_budget_are_said_and_read_by_the_next_start(self):
        count = activity.TRANSCRIPT_READS + 6
        self.touched_ended_sessions(count)
        first = self.start()
        self.assertIn("6 transcripts that may hold a later finished session", first)
        second = self.start()
        self.assertNotIn("Not read within", second)
        self.assertIn("latest: work item number %d of the backlog" % (count - 1), second)

    def test_an_unchanged_transcript_is_not_read_again(self):
        paths = self.touched_ended_sessions(3)
        self.assertIn("work item number 2 of the backlog", self.start())
        self.assertEqual(sorted(self.index("transcript-index.json")["transcripts"]), sorted(paths))
        # The last one's records moved 5 hours back, at the same size and mtime: read again, it
        # would no longer be the last session; remembered, it still is.
        info = os.stat(paths[2])
        with open(paths[2], encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle]
        for record in records:
            record["timestamp"] = claudehome.iso(_ms(record["timestamp"]) - 5 * HOUR_MS)
        with open(paths[2], "w", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        os.utime(paths[2], ns=(info.st_atime_ns, info.st_mtime_ns))
        self.assertEqual(os.path.getsize(paths[2]), info.st_size)
        self.assertIn("latest: work item number 2 of the backlog", self.start())
        os.utime(paths[2], None)  # now it changed: read again, and another session ended last
        self.assertIn("latest: work item number 1 of the backlog", self.start())

    def test_transcript_only_and_last_session_prompts_are_redacted(self):
        self.claude.live_session(self.repo_path, name="printer", print_mode=True, prompts=[
            "run the export job with --password s3cretpass and curl -u bob:pa55word"])
        self.claude.ended_session(self.repo_path, in_history=False, prompts=[
            "the deploy used DB_PASS=topsecret99 and STRIPE_KEY=rk_live_51Habcdef123456"])
        out = self.start()
        for secret in ("s3cretpass", "pa55word", "topsecret99", "rk_live_51H"):
            self.assertNotIn(secret, out)
        self.assertIn("--password [redacted]", out)
        self.assertIn("DB_PASS=[redacted]", out)
        listing = self.run_hook("peers.py", None, args=["--here", "--json"], cwd=self.repo_path).stdout
        for secret in ("s3cretpass", "pa55word", "topsecret99", "rk_live_51H"):
            self.assertNotIn(secret, listing)
        stats = self.run_hook("peers.py", None, args=["--stats", "--json"], cwd=self.repo_path).stdout
        self.assertNotIn("s3cretpass", stats)


class PastedPrompts(Base):
    def test_a_pasted_16_kb_prompt_is_shown_cut_and_redacted(self):
        pasted = "why does it crash? log: " + "-".join("a" * 3 for _ in range(3000)) + " token=ghp_" + "A1b2" * 10
        self.claude.live_session(self.repo_path, name="paster", prompts=[pasted])
        self.claude.live_session(self.repo_path, name="printer", print_mode=True, prompts=[pasted])
        out = self.start()
        lines = [line for line in out.splitlines() if "why does it crash" in line]
        self.assertEqual(len(lines), 2)
        self.assertTrue(all(len(line) < 200 for line in lines))


class MemoryNotesBounded(Base):
    def test_a_folder_with_more_notes_than_are_watched_is_told_once_and_stays_quiet(self):
        me = self.claude.live_session(self.repo_path, name="me", started_ms=claudehome.now_ms() - HOUR_MS)
        memory = self.claude.memory_dir(self.repo_path)
        for n in range(watch.WATCHED_NOTES + 40):
            with open(os.path.join(memory, "note_%04d.md" % n), "w", encoding="utf-8") as handle:
                handle.write("---\ndescription: note %d with token=abc123def456ghi\n---\n" % n)
        payload = {"session_id": me.session_id, "cwd": self.repo_path, "prompt": "carry on with the parser"}
        first = self.run_hook("memory_delta.py", payload)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertIn("holds more than %d notes" % watch.WATCHED_NOTES, first.stdout)
        self.assertIn("more in", first.stdout)
        self.assertIn("token=[redacted]", first.stdout)
        self.assertNotIn("abc123def456ghi", first.stdout)
        self.assertLessEqual(len(first.stdout.splitlines()), 1 + 5 + 2)  # header, 5 notes, +N more, the overflow
        second = self.run_hook("memory_delta.py", payload)
        self.assertEqual((second.returncode, second.stdout), (0, ""))


class ColdStartRedacted(Base):
    def cold_start(self, session_id):
        payload = {"session_id": session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": "startup"}
        result = self.run_hook("cold_start.py", payload, cwd=self.repo_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def test_a_key_deleted_from_claude_md_does_not_come_back_in_the_rule_diff(self):
        rules = os.path.join(self.repo_path, "CLAUDE.md")
        with open(rules, "w", encoding="utf-8") as handle:
            handle.write("Keep functions small.\nAPI_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345\n")
        self.cold_start("c01d0000-0000-4000-8000-000000000001")
        with open(rules, "w", encoding="utf-8") as handle:
            handle.write("Keep functions small.\n")
        out = self.cold_start("c01d0000-0000-4000-8000-000000000002")
        self.assertIn("-API_KEY=[redacted]", out)
        self.assertNotIn("abcdefghijklmnop", out)

    def test_a_handoff_holding_a_secret_is_shown_redacted(self):
        with open(os.path.join(self.repo_path, "HANDOFF.md"), "w", encoding="utf-8") as handle:
            handle.write("# Handoff\nThe staging db is postgres://app:Sup3r-Secret@db.internal/app\n")
        out = self.cold_start("c01d0000-0000-4000-8000-000000000003")
        self.assertIn("postgres://app:[redacted]@db.internal/app", out)


if __name__ == "__main__":
    unittest.main()

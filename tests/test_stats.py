"""`peers.py --stats`: the arithmetic on plain numbers, and the scan on fixture homes with known answers.

The fixture transcripts are written in the shapes Claude Code 2.1.x writes (compact JSON, one content
block per record, `timestamp` ISO-8601 Z, tool results with the output again in `toolUseResult`).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import uuid
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
sys.path.insert(0, HERE)

from peerhooks.claude import home as homes  # noqa: E402
from peerhooks.peers import stats
from peerhooks.peers.stats import figures, records as stats_records, render, scan as stats_scan  # noqa: E402
from peerhooks.text.timeutil import iso_to_ms  # noqa: E402
from support import make_repo  # noqa: E402

MINUTE = 60 * 1000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
UTC = timezone.utc


def at(text):
    """Epoch ms of `2026-11-29 10:00` (UTC)."""
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def iso(ms):
    return datetime.fromtimestamp(ms / 1000.0, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


class Transcript:
    """Writes one session's transcript record by record, as Claude Code does."""

    def __init__(self, path, session_id, cwd):
        self.path, self.session_id, self.cwd = path, session_id, cwd
        self.parent = None
        self.last_ms = None
        os.makedirs(os.path.dirname(path), exist_ok=True)

    def record(self, kind, message, when, **extra):
        uid = str(uuid.uuid4())
        record = {
            "parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.cwd,
            "sessionId": self.session_id, "version": "2.1.197", "gitBranch": "main", "type": kind,
            "message": message, "uuid": uid, "timestamp": iso(when),
        }
        record.update(extra)
        self.parent = uid
        self.raw(json.dumps(record, separators=(",", ":")) + "\n")
        self.last_ms = when
        return self

    def raw(self, text):
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(text)
        if self.last_ms is not None:
            os.utime(self.path, (self.last_ms / 1000.0 + 1, self.last_ms / 1000.0 + 1))

    def prompt(self, when, text="Fix the flaky registry test and tell me what broke"):
        return self.record("user", {"role": "user", "content": text}, when)

    def say(self, when, text="Looking at it."):
        return self.record("assistant", {"role": "assistant", "type": "message", "model": "claude-opus-4-7",
                                         "content": [{"type": "text", "text": text}]}, when)

    def tool(self, when, name, tool_input, use_id=None):
        block = {"type": "tool_use", "id": use_id or "toolu_" + uuid.uuid4().hex, "name": name,
                 "input": tool_input}
        return self.record("assistant", {"model": "claude-opus-4-7", "id": "msg_" + uuid.uuid4().hex,
                                         "type": "message", "role": "assistant", "content": [block],
                                         "stop_reason": None}, when)

    def result(self, when, text, is_error=False, use_id=None):
        block = {"tool_use_id": use_id or "toolu_" + uuid.uuid4().hex, "type": "tool_result",
                 "content": text, "is_error": is_error}
        return self.record("user", {"role": "user", "content": [block]}, when,
                           toolUseResult=("Error: " + text) if is_error else {"stdout": text, "stderr": ""})

    def send(self, when, tool_input, delivered=True):
        """A SendMessage call and its answer, as 2.1.332 (delivered) or 2.1.197 (not addressable)
        write them; the answer a second later."""
        use_id = "toolu_" + uuid.uuid4().hex
        self.tool(when, "SendMessage", tool_input, use_id)
        if delivered:
            answer = [{"type": "text", "text": json.dumps({
                "success": True, "message": "\u201cgo\u201d \u2192 %s (another Claude session on this "
                "machine)" % tool_input.get("to"), "msg_id": str(uuid.uuid4())})}]
            block = {"tool_use_id": use_id, "type": "tool_result", "content": answer}
        else:
            block = {"type": "tool_result", "content": "<tool_use_error>No agent named '%s' is currently "
                     "addressable</tool_use_error>" % tool_input.get("to"), "is_error": True,
                     "tool_use_id": use_id}
        return self.record("user", {"role": "user", "content": [block]}, when + 1000)

    def received(self, when, sender="repo-b-3", text="please leave src/a.py to me"):
        """A message from another session (2.1.332): the queue-operation, then the user record."""
        wrapped = ('<cross-session-message from="uds:/tmp/cc-socks/4242.sock" from-name="%s" '
                   'from-mode="prompting">\n%s\n</cross-session-message>' % (sender, text))
        self.raw(json.dumps({"type": "queue-operation", "operation": "enqueue", "timestamp": iso(when),
                             "sessionId": self.session_id, "content": wrapped}, separators=(",", ":")) + "\n")
        return self.record("user", {"role": "user", "content": "Another Claude session sent a message:\n"
                                    + wrapped}, when, origin={"kind": "peer"})

    def blob(self, message):
        """A 2.1.332 `api-request-blob`: a request's message written again, tool blocks included."""
        self.raw(json.dumps({"type": "api-request-blob", "sessionId": self.session_id,
                             "hash": uuid.uuid4().hex * 2, "message": message}, separators=(",", ":")) + "\n")
        return self

    def last_record(self, back=1):
        """The record `back` lines from the end (1: the last)."""
        with open(self.path, encoding="utf-8") as handle:
            return json.loads(handle.read().splitlines()[-back])


class FixtureHome:
    def __init__(self, root):
        self.root = root
        self.home = os.path.join(root, ".claude")
        os.makedirs(os.path.join(self.home, "projects"), exist_ok=True)

    def session(self, cwd, session_id=None):
        session_id = session_id or str(uuid.uuid4())
        path = os.path.join(self.home, "projects", homes.slug(cwd), session_id + ".jsonl")
        return Transcript(path, session_id, cwd)

    def subagent(self, parent, agent_id):
        path = os.path.join(os.path.dirname(parent.path), parent.session_id, "subagents",
                            "agent-%s.jsonl" % agent_id)
        return Transcript(path, parent.session_id, parent.cwd)


SAMPLES = os.path.join(os.path.dirname(HERE), "fixtures", "samples")


def refusal_text(command):
    """What the model sees when the guard exits 2: the bracket holds the hook's own command line."""
    return ("PreToolUse:Bash hook error: [python3 /home/me/peerhooks/scripts/git_index_guard.py]: "
            "peerhooks git guard: refused `%s` while repo-2 (busy) works in this checkout; "
            "stage your own files by path\n" % command)


def decode_everything(path):
    """The slow oracle: decode every record and ask note_record about each."""
    session = stats_records.SessionScan("oracle", "-p", None, 0, 0)
    names, times, cwd = set(), [], None
    with open(path, "rb") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            when = iso_to_ms(record.get("timestamp"))
            if when is not None:
                times.append(when)
            if cwd is None and isinstance(record.get("cwd"), str):
                cwd = record["cwd"]
            stats_records.note_record(record, when, session, names)
    return session, names, times, cwd


class ArithmeticTest(unittest.TestCase):
    def test_overlapping_intervals_peak_at_their_overlap(self):
        self.assertEqual(figures.peak_concurrency([(0, 10), (5, 15), (12, 20), (30, 40)]), 2)

    def test_touching_intervals_count_as_alive_together(self):
        self.assertEqual(figures.peak_concurrency([(0, 10), (10, 20)]), 2)

    def test_no_intervals_peak_at_zero(self):
        self.assertEqual(figures.peak_concurrency([]), 0)

    def test_interval_spanning_midnight_counts_on_both_days(self):
        days = [(0, DAY), (DAY, 2 * DAY)]
        spans = [(DAY - HOUR, DAY + HOUR), (DAY - 2 * HOUR, DAY - 90 * MINUTE), (DAY + 2 * HOUR, DAY + 3 * HOUR)]
        self.assertEqual(figures.daily_peaks(spans, days), [1, 1])

    def test_day_peak_ignores_sessions_of_other_days(self):
        self.assertEqual(figures.daily_peaks([(0, HOUR), (0, HOUR)], [(DAY, 2 * DAY)]), [0])

    def test_percentile_is_nearest_rank(self):
        values = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        self.assertEqual(figures.percentile(values, 0.9), 90)
        self.assertEqual(figures.percentile([5, 1, 3], 0.9), 5)
        self.assertEqual(figures.percentile([], 0.9), 0)

    def test_a_session_seen_alive_later_than_its_last_record_lived_until_then(self):
        sessions = [stats_records.SessionScan(name, "-p", None, 0, HOUR) for name in ("seen", "not-seen", "earlier")]
        figures.alive_at_least(sessions, {"seen": 3 * HOUR, "earlier": 30 * MINUTE, "elsewhere": 5 * HOUR})
        self.assertEqual([s.last_ms for s in sessions], [3 * HOUR, HOUR, HOUR])

    def test_median_of_even_count_is_the_mean_of_the_middle_two(self):
        self.assertEqual(figures.median([4, 1]), 2.5)
        self.assertEqual(figures.median([]), 0)

    def test_window_is_calendar_days_ending_today(self):
        win = figures.window(at("2026-11-30 12:00"), 3, UTC)
        self.assertEqual(win.labels, ("2026-11-28", "2026-11-29", "2026-11-30"))
        self.assertEqual(win.start_ms, at("2026-11-28 00:00"))
        self.assertEqual(win.day_bounds()[-1][1:], (at("2026-11-30 00:00"), at("2026-11-30 12:00")))

    def test_window_needs_at_least_one_day(self):
        with self.assertRaises(ValueError):
            figures.window(at("2026-11-30 12:00"), 0, UTC)

    def test_message_to_a_name_or_id_the_session_spawned_is_to_its_own_subagent(self):
        own = frozenset({"helper", "a1b2c3"})
        self.assertTrue(figures.is_own_subagent("helper", own))
        self.assertTrue(figures.is_own_subagent("a1b2c3", own))
        self.assertTrue(figures.is_own_subagent("*", own))
        self.assertFalse(figures.is_own_subagent("repo-1f", own))
        self.assertFalse(figures.is_own_subagent(None, own))


class RecordRulesTest(unittest.TestCase):
    def test_recipient_is_read_from_to_or_from_the_older_recipient_field(self):
        self.assertEqual(stats_records.recipient_of({"to": "repo-1f", "message": "hi"}), "repo-1f")
        self.assertEqual(stats_records.recipient_of({"type": "message", "recipient": "researcher"}), "researcher")
        self.assertIsNone(stats_records.recipient_of({"message": "hi"}))

    def test_claude_agents_counts_as_listing_only_as_a_command(self):
        self.assertTrue(stats_records.lists_sessions("Bash", {"command": "claude agents"}))
        self.assertTrue(stats_records.lists_sessions("Bash", {"command": "cd /repo && claude  agents --json"}))
        self.assertFalse(stats_records.lists_sessions("Bash", {"command": "grep -r 'claude agentsmith' ."}))
        self.assertFalse(stats_records.lists_sessions("Read", {"command": "claude agents"}))
        self.assertTrue(stats_records.lists_sessions("ListAgents", {}))

    def test_refusal_needs_an_error_result_from_a_hook_with_the_guard_phrase(self):
        self.assertTrue(stats_records.is_guard_refusal(True, refusal_text("git add -A")))
        self.assertFalse(stats_records.is_guard_refusal(False, refusal_text("git add -A")))
        self.assertFalse(stats_records.is_guard_refusal(True, "grep: peerhooks git guard: no such file"))

    def test_handoff_is_matched_by_file_name_on_any_platform(self):
        self.assertTrue(stats_records.is_handoff_path("/home/me/repo/HANDOFF.md"))
        self.assertTrue(stats_records.is_handoff_path("C:\\work\\repo\\handoff.md"))
        self.assertFalse(stats_records.is_handoff_path("/home/me/repo/HANDOFF.md.bak"))

    def test_checkout_is_looked_up_once_per_cwd(self):
        calls = []

        def toplevel(path):
            calls.append(path)
            return "/top"

        sessions = [stats_records.SessionScan("s%d" % i, "-p", HERE, 0, 1) for i in range(3)]
        sessions.append(stats_records.SessionScan("gone", "-p", "/no/such/dir/anymore", 0, 1))
        sessions.append(stats_records.SessionScan("nocwd", "-proj", None, 0, 1))
        keys = stats.checkout_keys(sessions, toplevel)
        self.assertEqual(calls, [HERE])
        self.assertEqual(keys["s0"], "/top")
        self.assertEqual(keys["gone"], "/no/such/dir/anymore")
        self.assertEqual(keys["nocwd"], "project:-proj")


class SummaryTest(unittest.TestCase):
    def setUp(self):
        self.win = figures.window(at("2026-11-30 12:00"), 3, UTC)

    def test_sessions_outside_the_window_do_not_count(self):
        old = stats_records.SessionScan("old", "-p", "/r", at("2026-11-20 10:00"), at("2026-11-20 11:00"))
        rep = figures.summarize([old], {}, self.win)
        self.assertEqual(rep.sessions, 0)
        self.assertIn("no sessions in the last 3 days", render.render_text(rep))

    def test_session_started_before_the_window_counts_but_its_old_messages_do_not(self):
        long = stats_records.SessionScan("long", "-p", "/r", at("2026-11-20 10:00"), at("2026-11-28 11:00"))
        long.sends.extend([stats_records.Send(at("2026-11-21 10:00"), "peer"), stats_records.Send(at("2026-11-28 10:00"), "peer")])
        rep = figures.summarize([long], {}, self.win)
        self.assertEqual((rep.sessions, rep.peer_messages, rep.messaging_sessions), (1, 1, 1))

    def test_same_checkout_peak_counts_only_sessions_of_one_checkout(self):
        spans = [("a1", "/a"), ("a2", "/a"), ("b1", "/b")]
        sessions = [stats_records.SessionScan(sid, "-p", None, at("2026-11-29 10:00"), at("2026-11-29 11:00"))
                    for sid, _ in spans]
        rep = figures.summarize(sessions, dict(spans), self.win)
        self.assertEqual((rep.peak_max, rep.checkout_peak_max, rep.checkouts), (3, 2, 2))


class ScanTest(unittest.TestCase):
    """One fixture home with every case the issue names, and the answers worked out by hand."""

    NOW = at("2026-11-30 12:00")

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="peerhooks-stats-")
        root = cls.root
        repo_a = make_repo(os.path.join(root, "repo-a"))
        repo_b = make_repo(os.path.join(root, "repo-b"))
        worktree = os.path.join(root, "repo-a-wt")
        subprocess.run(["git", "-C", repo_a, "worktree", "add", "-q", "-b", "side", worktree], check=True)
        worktree = os.path.realpath(worktree)
        os.makedirs(os.path.join(repo_a, "sub"))
        fx = FixtureHome(root)
        cls.fx = fx

        # A1 in repo-a: lists peers, spawns a subagent and messages it, then messages a peer.
        a1 = fx.session(repo_a)
        a1.prompt(at("2026-11-29 09:00"))
        a1.tool(at("2026-11-29 09:10"), "Agent", {"description": "scan", "prompt": "look around",
                                                 "subagent_type": "general-purpose", "name": "helper"})
        a1.send(at("2026-11-29 09:20"), {"to": "helper", "summary": "go", "message": "start"})
        a1.tool(at("2026-11-29 09:30"), "ListAgents", {})
        # 2.1.332 writes each request's messages again as api-request-blob records: never counted
        a1.blob(a1.last_record()["message"])
        a1.send(at("2026-11-29 10:00"), {"to": "repo-a-2", "summary": "hi",
                                         "message": "I am taking src/registry.py" + "." * 100000})
        a1.blob(a1.last_record(2)["message"]).blob(a1.last_record()["message"])
        # a message a 2.1.197 peer could not receive: not counted as sent
        a1.send(at("2026-11-29 10:10"), {"to": "repo-a-3", "summary": "hi", "message": "me too"}, delivered=False)
        a1.say(at("2026-11-29 11:00"))
        cls.a1 = a1

        # A2 in a subfolder of repo-a (same checkout): `claude agents` through Bash, one refusal,
        # a tool result that quotes the guard without being refused, and a record cut short at the end.
        a2 = fx.session(os.path.join(repo_a, "sub"))
        a2.prompt(at("2026-11-29 10:00"))
        a2.tool(at("2026-11-29 10:30"), "Bash", {"command": "cd .. && claude agents", "description": "peers"})
        a2.tool(at("2026-11-29 10:44"), "Bash", {"command": "git add -A"})
        a2.result(at("2026-11-29 10:45"), refusal_text("git add -A"), is_error=True)
        a2.result(at("2026-11-29 10:50"), "GUARD = 'peerhooks git guard'  # PreToolUse refusal marker")
        a2.say(at("2026-11-29 13:00"))
        a2.raw('{"parentUuid":"x","type":"assistant","message":{"content":[{"type":"tool_use","na')

        # B1 in repo-b, W1 in a linked worktree of repo-a: both overlap A1 and A2 at 10:35-10:40.
        b1 = fx.session(repo_b)
        b1.prompt(at("2026-11-29 10:30")).received(at("2026-11-29 10:35"))
        b1.blob(b1.last_record()["message"]).say(at("2026-11-29 10:40"))
        w1 = fx.session(worktree)
        w1.prompt(at("2026-11-29 10:35")).say(at("2026-11-29 10:50"))

        # M1 in repo-b spans midnight; messages its own subagent by id, writes a big HANDOFF.md,
        # and writes a file whose content mentions SendMessage and `claude agents`.
        m1 = fx.session(repo_b)
        m1.prompt(at("2026-11-29 23:00"))
        m1.tool(at("2026-11-30 00:10"), "Agent", {"description": "tests", "prompt": "run the tests"})
        m1.send(at("2026-11-30 00:30"), {"to": "a7f3c9d2e1b0", "message": "also lint"})
        m1.tool(at("2026-11-30 00:40"), "Write", {"file_path": repo_b + "/notes.md",
                                                  "content": '"SendMessage" and claude agents\n' * 100})
        m1.tool(at("2026-11-30 00:50"), "Write", {"file_path": repo_b + "/HANDOFF.md",
                                                  "content": "x" * (2 * stats_scan.PARSE_LINE_LIMIT)})
        m1.say(at("2026-11-30 01:00"))
        # Its subagent's transcript: not a session, and its tool calls are not the session's.
        sub = fx.subagent(m1, "a7f3c9d2e1b0")
        sub.prompt(at("2026-11-30 00:11"))
        sub.tool(at("2026-11-30 00:20"), "ListAgents", {})
        sub.tool(at("2026-11-30 00:21"), "SendMessage", {"to": "repo-b-9", "message": "hello"})
        sub.say(at("2026-11-30 03:00"))

        # An old session (untouched since), and a transcript that is nothing but garbage.
        old = fx.session(repo_b)
        old.prompt(at("2026-11-20 09:00")).say(at("2026-11-20 10:00"))
        corrupt = os.path.join(fx.home, "projects", homes.slug(repo_b), str(uuid.uuid4()) + ".jsonl")
        with open(corrupt, "wb") as handle:
            handle.write(b"\x00\xffnot json at all\n{\"timestamp\": broken\n")

        cls.report = stats.report(fx.home, cls.NOW, 3, UTC)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def test_counts_top_level_sessions_in_the_window_only(self):
        self.assertEqual(self.report.sessions, 5)

    def test_worktree_is_a_checkout_of_its_own_and_a_subfolder_is_not(self):
        self.assertEqual(self.report.checkouts, 3)

    def test_daily_peaks_overall_and_within_one_checkout(self):
        rows = [(r.day, r.peak, r.checkout_peak) for r in self.report.per_day]
        self.assertEqual(rows, [("2026-11-29", 4, 2), ("2026-11-30", 1, 1)])
        rep = self.report
        self.assertEqual((rep.active_days, rep.peak_median, rep.peak_max), (2, 2.5, 4))
        self.assertEqual((rep.checkout_peak_median, rep.checkout_peak_max), (1.5, 2))

    def test_lifetimes_run_from_first_to_last_record(self):
        # 10m (B1), 15m (W1), 2h (A1), 2h (M1, across midnight), 3h (A2, up to its last whole record)
        rep = self.report
        self.assertEqual((rep.lifetime_median_ms, rep.lifetime_p90_ms, rep.lifetime_max_ms),
                         (2 * HOUR, 3 * HOUR, 3 * HOUR))

    def test_listing_by_tool_and_by_bash_both_count(self):
        self.assertEqual((self.report.listing_sessions, self.report.listing_calls), (2, 2))

    def test_messages_to_own_subagents_are_counted_apart_from_messages_to_peers(self):
        rep = self.report
        self.assertEqual((rep.messaging_sessions, rep.peer_messages), (1, 1))
        self.assertEqual((rep.subagent_messaging_sessions, rep.subagent_messages), (2, 2))

    def test_message_repeated_in_api_request_blobs_is_counted_once(self):
        self.assertEqual(len(stats_scan.scan_transcript(self.a1.path, "a1", "-p")[0].sends), 2)

    def test_message_the_client_could_not_deliver_is_not_counted_as_sent(self):
        recipients = [s.recipient for s in stats_scan.scan_transcript(self.a1.path, "a1", "-p")[0].sends]
        self.assertNotIn("repo-a-3", recipients)

    def test_message_from_another_session_is_counted_once_as_received(self):
        self.assertEqual((self.report.receiving_sessions, self.report.received_messages), (1, 1))

    def test_refusals_and_handoffs(self):
        self.assertEqual((self.report.refusals, self.report.handoff_sessions), (1, 1))

    def test_per_day_table_puts_messages_and_refusals_on_their_day(self):
        rows = [(r.day, r.messages, r.refusals) for r in self.report.per_day]
        self.assertEqual(rows, [("2026-11-29", 1, 1), ("2026-11-30", 0, 0)])

    def test_malformed_records_are_skipped_and_counted(self):
        # two garbage lines in the corrupt file, and A2's record cut short at the end
        self.assertEqual(self.report.malformed, 3)
        self.assertTrue(render.render_text(self.report).rstrip().endswith("skipped 3 malformed records"))

    def test_transcript_untouched_since_the_window_began_is_not_read(self):
        late = self.fx.session("/somewhere/else")
        late.prompt(at("2026-11-30 09:00")).say(at("2026-11-30 10:00"))
        stamp = at("2026-11-01 00:00") / 1000.0
        os.utime(late.path, (stamp, stamp))
        scan = stats_scan.scan_home(self.fx.home, at("2026-11-28 00:00"))
        self.assertNotIn(late.session_id, [s.session_id for s in scan.sessions])
        os.remove(late.path)

    def test_head_only_scan_finds_what_decoding_every_record_finds(self):
        paths = [p for p, _, _, _ in stats_scan.transcripts(self.fx.home)]
        checked = 0
        for path in paths:
            with open(path, "rb") as handle:
                start = handle.read(64)
            if start and b"not json" not in start:
                with self.subTest(path):
                    fast, _, _ = stats_scan.scan_transcript(path, "oracle", "-p")
                    slow, names, _, _ = decode_everything(path)
                    self.assertEqual((fast.listings, fast.sends, fast.refusals, fast.handoffs, fast.received),
                                     (slow.listings, slow.sends, slow.refusals, slow.handoffs, slow.received))
                    checked += 1
        self.assertGreaterEqual(checked, 5)

    def test_answers_do_not_depend_on_the_read_buffer_size(self):
        # with a buffer smaller than most records, every record takes the long-line path
        since = at("2026-11-28 00:00")
        whole = stats_scan.scan_home(self.fx.home, since)
        saved = stats_scan.BUFFER_BYTES
        try:
            for size in (4096, 64 * 1024):
                stats_scan.BUFFER_BYTES = size
                with self.subTest(buffer=size):
                    self.assertEqual(stats_scan.scan_home(self.fx.home, since), whole)
                    self.assertEqual(stats.report(self.fx.home, self.NOW, 3, UTC), self.report)
        finally:
            stats_scan.BUFFER_BYTES = saved

    def test_text_report_names_every_figure(self):
        text = render.render_text(self.report)
        for expected in (
            "Sessions in the last 3 days: 5, in 3 checkouts",
            "daily peak over the 2 days with sessions: median 2.5, max 4",
            "within one checkout: median 1.5, max 2",
            "Session lifetime: median 2h 00m, p90 3h 00m, max 3h 00m",
            "Listed other sessions (ListAgents or `claude agents`): 2 sessions, 2 calls",
            "Messaged another session (SendMessage, delivered): 1 session, 1 message",
            "Received a message from another session: 1 session, 1 message",
            "to their own subagents: 2 messages from 2 sessions",
            "Git commands refused by the peerhooks guard: 1",
            "Wrote a HANDOFF.md: 1 session",
            "2026-11-29     4              2         1         1",
        ):
            self.assertIn(expected, text)

    def test_json_report_holds_the_same_figures(self):
        data = json.loads(render.render_json(self.report))
        self.assertEqual(data["sessions"], 5)
        self.assertEqual(data["alive_at_once"], {"median": 2.5, "max": 4})
        self.assertEqual(data["peer_messages"], 1)
        self.assertEqual((data["received_messages"], data["listing_calls"]), (1, 2))
        self.assertEqual(data["per_day"][0], {"day": "2026-11-29", "peak": 4, "checkout_peak": 2,
                                              "messages": 1, "refusals": 1})
        self.assertEqual(data["malformed_records"], 3)

    def test_samples_in_the_doc_are_what_the_code_prints(self):
        with open(os.path.join(os.path.dirname(HERE), "docs", "stats.md"), encoding="utf-8") as handle:
            doc = handle.read()
        self.assertIn("<!-- sample: stats-text -->\n```\n%s```" % render.render_text(self.report), doc)
        shown = json.loads(doc.split("<!-- sample: stats-json -->\n```\n", 1)[1].split("```", 1)[0])
        printed = json.loads(render.render_json(self.report))
        for data in (shown, printed):
            data.pop("bytes_read")  # the fixture's size depends on the temporary folder's path
        self.assertEqual(shown, printed)


class ForkTest(unittest.TestCase):
    """A fork (2.1.332 `--fork-session`) begins with its parent's records copied, uuids kept."""

    def test_records_a_fork_copied_from_its_parent_are_counted_once(self):
        root = tempfile.mkdtemp(prefix="peerhooks-stats-fork-")
        self.addCleanup(shutil.rmtree, root, True)
        fx = FixtureHome(root)
        parent = fx.session("/r")
        parent.prompt(at("2026-11-29 09:00")).tool(at("2026-11-29 09:05"), "ListAgents", {})
        parent.send(at("2026-11-29 09:10"), {"to": "r-2", "summary": "hi", "message": "mine: src/a.py"})
        parent.tool(at("2026-11-29 09:20"), "Write", {"file_path": "/r/HANDOFF.md", "content": "next"})
        parent.received(at("2026-11-29 09:30"))
        fork = fx.session("/r")
        with open(parent.path, encoding="utf-8") as handle:
            copied = [dict(json.loads(line), sessionId=fork.session_id) for line in handle]
        fork.raw(json.dumps({"type": "queue-operation", "operation": "enqueue",
                             "timestamp": iso(at("2026-11-29 10:00")), "sessionId": fork.session_id}) + "\n")
        fork.raw("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in copied))
        fork.prompt(at("2026-11-29 10:01")).tool(at("2026-11-29 10:02"), "ListAgents", {})
        rep = stats.report(fx.home, at("2026-11-29 12:00"), 1, UTC)
        self.assertEqual(rep.sessions, 2)
        self.assertEqual((rep.messaging_sessions, rep.peer_messages), (1, 1))
        self.assertEqual((rep.receiving_sessions, rep.received_messages), (1, 1))
        self.assertEqual((rep.listing_sessions, rep.listing_calls), (2, 2))
        self.assertEqual(rep.handoff_sessions, 1)


class FastPathTest(unittest.TestCase):
    """The scan looks only at the head of each line; it must find what decoding every record finds."""

    def assert_agrees_with_full_decode(self, path):
        fast, malformed, _ = stats_scan.scan_transcript(path, "oracle", "-p")
        slow, names, times, cwd = decode_everything(path)
        self.assertEqual(malformed, 0)
        self.assertEqual((fast.first_ms, fast.last_ms, fast.cwd), (times[0], times[-1], cwd))
        self.assertEqual(fast.listings, slow.listings)
        self.assertEqual(fast.sends, slow.sends)
        self.assertEqual(fast.refusals, slow.refusals)
        self.assertEqual(fast.handoffs, slow.handoffs)
        self.assertEqual(fast.received, slow.received)
        self.assertEqual(fast.own_agents, frozenset(names))
        return fast

    def test_agrees_on_transcripts_written_by_the_real_cli(self):
        names = [n for n in os.listdir(SAMPLES) if n.startswith("transcript-") and n.endswith(".jsonl")]
        self.assertGreaterEqual(len(names), 3)
        for name in names:
            with self.subTest(name):
                self.assert_agrees_with_full_decode(os.path.join(SAMPLES, name))

    def test_finds_a_guard_refusal_in_the_shape_the_real_cli_writes(self):
        # transcript-print.jsonl holds a real exit-2 refusal by a sample hook; give it the guard's words
        with open(os.path.join(SAMPLES, "transcript-print.jsonl"), encoding="utf-8") as handle:
            text = handle.read()
        self.assertIn("SAMPLE-REFUSAL-STDERR", text)
        root = tempfile.mkdtemp(prefix="peerhooks-stats-real-")
        try:
            path = os.path.join(root, "s.jsonl")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text.replace("SAMPLE-REFUSAL-STDERR", "peerhooks git guard: refused git add -A"))
            self.assertEqual(len(self.assert_agrees_with_full_decode(path).refusals), 1)
        finally:
            shutil.rmtree(root, ignore_errors=True)

    def test_edit_whose_file_path_comes_after_a_long_old_string_is_still_seen(self):
        root = tempfile.mkdtemp(prefix="peerhooks-stats-edit-")
        try:
            t = FixtureHome(root).session("/r")
            t.prompt(at("2026-11-29 10:00"))
            t.tool(at("2026-11-29 10:05"), "Edit", {"old_string": "y" * 20000, "new_string": "z",
                                                    "file_path": "/r/HANDOFF.md"})
            fast = self.assert_agrees_with_full_decode(t.path)
            self.assertEqual(fast.handoffs, [at("2026-11-29 10:05")])
        finally:
            shutil.rmtree(root, ignore_errors=True)


class HeadAndTailTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="peerhooks-stats-ends-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.saved = stats_scan.BUFFER_BYTES
        self.addCleanup(setattr, stats, "BUFFER_BYTES", self.saved)

    def test_first_time_is_found_past_many_records_without_one(self):
        t = FixtureHome(self.root).session("/r")
        snapshot = {"type": "file-history-snapshot", "messageId": "m", "isSnapshotUpdate": False,
                    "snapshot": {"messageId": "m", "trackedFileBackups": {}, "timestamp": iso(at("2026-11-01 00:00"))}}
        t.raw((json.dumps(snapshot, separators=(",", ":")) + "\n") * (stats_scan.HEAD_RECORDS + 30))
        t.prompt(at("2026-11-29 10:00")).say(at("2026-11-29 11:00"))
        for size in (self.saved, 4096):
            stats_scan.BUFFER_BYTES = size
            session, malformed, _ = stats_scan.scan_transcript(t.path, "s", "-r")
            self.assertEqual((session.first_ms, session.last_ms, malformed),
                             (at("2026-11-29 10:00"), at("2026-11-29 11:00"), 0))

    def test_last_time_comes_from_before_a_closing_record_without_one(self):
        t = FixtureHome(self.root).session("/r")
        t.prompt(at("2026-11-29 10:00")).say(at("2026-11-29 11:00"))
        t.raw('{"type":"last-prompt","lastPrompt":"done for today","leafUuid":"u","sessionId":"s"}\n')
        session, _, _ = stats_scan.scan_transcript(t.path, "s", "-r")
        self.assertEqual(session.last_ms, at("2026-11-29 11:00"))

    def test_an_idle_session_lived_until_its_recorded_exit_not_its_last_turn(self):
        t = FixtureHome(self.root).session("/r")
        t.prompt(at("2026-11-29 10:00")).say(at("2026-11-29 10:13"))
        end = {"type": "cost-state", "sessionId": "s", "totalDuration": 19 * MINUTE, "startTime": at("2026-11-29 10:00")}
        t.raw(json.dumps(end) + "\n" + '{"type":"last-prompt","lastPrompt":"x","sessionId":"s"}\n')  # /exit at 10:19
        session, _, _ = stats_scan.scan_transcript(t.path, "s", "-r")
        self.assertEqual(session.last_ms - session.first_ms, 19 * MINUTE)

    def test_last_record_bigger_than_the_tail_read_is_timed_not_counted_malformed(self):
        t = FixtureHome(self.root).session("/r")
        t.prompt(at("2026-11-29 10:00")).say(at("2026-11-29 11:00"), "z" * (stats_scan.TAIL_BYTES + 1000))
        session, malformed, _ = stats_scan.scan_transcript(t.path, "s", "-r")
        self.assertEqual((session.last_ms, malformed), (at("2026-11-29 11:00"), 0))

    def test_first_and_last_records_bigger_than_the_buffer_give_the_times(self):
        stats_scan.BUFFER_BYTES = 4096
        t = FixtureHome(self.root).session("/r")
        t.prompt(at("2026-11-29 10:00"), "please " + "x" * 20000)
        t.tool(at("2026-11-29 10:30"), "Write", {"file_path": "/r/HANDOFF.md", "content": "y" * 20000})
        t.say(at("2026-11-29 11:00"), "z" * 20000)
        session, _, _ = stats_scan.scan_transcript(t.path, "s", "-r")
        self.assertEqual((session.first_ms, session.last_ms, session.cwd, session.handoffs),
                         (at("2026-11-29 10:00"), at("2026-11-29 11:00"), "/r", [at("2026-11-29 10:30")]))


class SightingsTest(unittest.TestCase):
    def test_peerhooks_records_tell_when_each_session_was_last_seen_live_and_are_only_read(self):
        from peerhooks.peers import roster

        home = os.path.join(tempfile.mkdtemp(prefix="peerhooks-stats-seen-"), ".claude")
        self.addCleanup(shutil.rmtree, os.path.dirname(home), True)
        folder = roster.folder_of(homes.state_dir(home))
        os.makedirs(folder)
        with open(os.path.join(homes.state_dir(home), "session-names.json"), "w") as handle:
            json.dump({"a": ["repo-a", at("2026-11-29 10:00"), 10, "100"], "b": ["repo-b", at("2026-11-29 09:00"), 11, "110"]},
                      handle)  # peers.py at a start: a and b live then
        heard = roster.Roster(("10.json",), {"10:100": roster.Heard("a", "repo-a", "/r", None)})
        written = os.path.join(folder, "b.json")  # memory_delta.py told b its roster: b and a live then
        with open(written, "wb") as handle:
            handle.write(roster.encode(heard))
        os.utime(written, (at("2026-11-29 11:00") / 1000.0,) * 2)
        torn = os.path.join(folder, "c.json")
        with open(torn, "wb") as handle:
            handle.write(b"{torn")
        self.assertEqual(stats.sightings(home), {"a": at("2026-11-29 11:00"), "b": at("2026-11-29 11:00")})
        self.assertTrue(os.path.exists(torn))  # --stats changes nothing, not even a file that is not ours


class EmptyHomeTest(unittest.TestCase):
    def test_home_without_transcripts_says_so(self):
        root = tempfile.mkdtemp(prefix="peerhooks-stats-empty-")
        try:
            now = at("2026-11-30 12:00")
            self.assertEqual(stats.run(os.path.join(root, ".claude"), now, 30, tz=UTC),
                             "no sessions in the last 30 days\n")
            data = json.loads(stats.run(os.path.join(root, ".claude"), now, 30, as_json=True, tz=UTC))
            self.assertEqual((data["sessions"], data["per_day"]), (0, []))
        finally:
            shutil.rmtree(root, ignore_errors=True)

    def test_empty_transcript_file_is_neither_a_session_nor_malformed(self):
        root = tempfile.mkdtemp(prefix="peerhooks-stats-empty-")
        try:
            fx = FixtureHome(root)
            path = fx.session("/r").path
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "wb").close()
            scan = stats_scan.scan_home(fx.home, 0)
            self.assertEqual((scan.sessions, scan.malformed), ([], 0))
        finally:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()

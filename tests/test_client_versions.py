"""Both Claude Code versions peerhooks supports (2.1.197, the oldest; 2.1.332, current), read from
the literal samples of each (fixtures/samples/ and fixtures/samples/2.1.332/) and from fixture homes
in each version's shape: every reader gives the same answers on both, nothing a record repeats is
counted twice, advice to message a peer follows its messaging socket, and a pid from another pid
namespace is not trusted.
"""
import json
import os
import shutil
import socket
import tempfile
import time
import unittest

import support
from fixtures import claudehome
from peerhooks.claude import history, registry, transcripts
from peerhooks.memory_delta import report as memory_report
from peerhooks.peers import report as peers_report, stats
from peerhooks.peers.stats import scan as stats_scan
from peerhooks.text import timeutil

SAMPLES = {claudehome.CLI_VERSION: os.path.join(support.REPO, "fixtures", "samples"),
           claudehome.CURRENT_VERSION: os.path.join(support.REPO, "fixtures", "samples", "2.1.332")}


def sample(version, name):
    return os.path.join(SAMPLES[version], name)


def sample_json(version, name):
    with open(sample(version, name), encoding="utf-8") as handle:
        return json.load(handle)


def assistant_tool_uses(path):
    """(name, input) of every tool_use of the transcript's assistant records: the oracle."""
    found = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("type") != "assistant":
                continue
            for block in record["message"].get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    found.append((block["name"], block["input"]))
    return found


def sample_home(version, root):
    """A Claude home holding that version's sample transcripts where the CLI wrote them."""
    home = os.path.join(root, ".claude")
    for name in os.listdir(SAMPLES[version]):
        if name.startswith("transcript-") and name.endswith(".jsonl") and "subagent" not in name:
            with open(sample(version, name + ".path"), encoding="utf-8") as handle:
                target = os.path.join(home, "projects", handle.read().strip())
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy(sample(version, name), target)
    return home


@unittest.skipUnless(support.SIMULATED == "linux", "the samples are Linux entries; the darwin and win32 "
                                                   "builds' shapes: test_platform")
class RegistryShapesTest(unittest.TestCase):
    def test_current_entry_says_where_to_message_it_and_in_which_pid_namespace_its_pid_lives(self):
        entry = registry.parse_entry(sample_json(claudehome.CURRENT_VERSION, "registry-interactive.json"))
        self.assertTrue(entry.can_message)
        self.assertRegex(entry.messaging_socket, r"/cc-socks/\d+\.sock$")
        self.assertRegex(entry.pid_domain, r"^linux:[0-9a-f]{32}:pid:\[\d+\]$")

    def test_oldest_entry_cannot_be_messaged_and_has_no_pid_domain(self):
        entry = registry.parse_entry(sample_json(claudehome.CLI_VERSION, "registry-interactive.json"))
        self.assertFalse(entry.can_message)
        self.assertIsNone(entry.pid_domain)

    def test_print_mode_session_of_the_current_version_can_be_messaged_too(self):
        entry = registry.parse_entry(sample_json(claudehome.CURRENT_VERSION, "registry-print.json"))
        self.assertTrue(entry.can_message)

    def current_home_with_a_peer(self):
        """A 2.1.332 home with one live session; (home, that session)."""
        root = tempfile.mkdtemp(prefix="peerhooks-versions-")
        self.addCleanup(shutil.rmtree, root, True)
        home = claudehome.ClaudeHome(root, version=claudehome.CURRENT_VERSION)
        self.addCleanup(home.close)
        return home, home.live_session(os.path.join(root, "repo"))

    def test_fixture_entry_has_the_shape_of_the_sample(self):
        _, peer = self.current_home_with_a_peer()
        with open(peer.registry_file, encoding="utf-8") as handle:
            written = json.load(handle)
        real = sample_json(claudehome.CURRENT_VERSION, "registry-interactive.json")
        self.assertLessEqual(set(real) - {"status", "updatedAt", "statusUpdatedAt"}, set(written))

    def test_key_files_beside_the_entries_are_not_sessions(self):
        home, peer = self.current_home_with_a_peer()
        keys = [n for n in os.listdir(os.path.join(home.home, "sessions")) if n.endswith(".key")]
        self.assertEqual(len(keys), 1)
        self.assertEqual(os.stat(os.path.join(home.home, "sessions", keys[0])).st_mode & 0o777, 0o600)
        self.assertEqual([s.pid for s in registry.read_sessions(home.home)], [peer.pid])


class TranscriptShapesTest(unittest.TestCase):
    """The transcript readers on the samples of both versions: each tool call once."""

    def test_tool_calls_are_read_once_each_though_the_current_version_repeats_them(self):
        for version in SAMPLES:
            for name in ("transcript-interactive.jsonl", "transcript-print.jsonl"):
                with self.subTest(version=version, sample=name):
                    path = sample(version, name)
                    calls = transcripts.tool_calls_since(path, 0).calls
                    expected = assistant_tool_uses(path)
                    self.assertEqual([c.name for c in reversed(calls)], [n for n, _ in expected])

    def test_edits_are_the_files_the_session_wrote_on_both_versions(self):
        for version in SAMPLES:
            with self.subTest(version=version):
                scan = transcripts.recent_edits(sample(version, "transcript-interactive.jsonl"))
                self.assertEqual([os.path.basename(e.path) for e in scan.edits], ["s.py", "sample_fact.md"])
                self.assertTrue(all(e.at_ms for e in scan.edits))

    def test_opening_prompt_and_last_prompt_are_read_on_both_versions(self):
        for version in SAMPLES:
            with self.subTest(version=version):
                path = sample(version, "transcript-interactive.jsonl")
                self.assertTrue(transcripts.read_head(path).opening.startswith("remember the sample fact"))
                self.assertIsNotNone(transcripts.read_tail(path).ended_at_ms)

    def test_fork_own_tool_calls_start_after_the_records_it_copied_from_its_parent(self):
        fork = sample(claudehome.CURRENT_VERSION, "transcript-print-fork.jsonl")
        started = transcripts.read_head(fork).started_at_ms
        copied = assistant_tool_uses(sample(claudehome.CURRENT_VERSION, "transcript-print.jsonl"))
        self.assertEqual([n for n, _ in assistant_tool_uses(fork)], [n for n, _ in copied])
        self.assertEqual(transcripts.tool_calls_since(fork, started).calls, [])

    def test_messages_from_other_sessions_and_task_notifications_are_not_taken_for_prompts(self):
        path = sample(claudehome.CURRENT_VERSION, "transcript-interactive.jsonl")
        with open(path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle]
        received = [r for r in records if r.get("type") == "user" and (r.get("origin") or {}).get("kind") == "peer"]
        self.assertEqual(len(received), 1)
        self.assertIsNone(transcripts.prompt_text(received[0]))
        typed = [transcripts.prompt_text(r) for r in records if transcripts.prompt_text(r)]
        self.assertEqual([t.split()[0] for t in typed], ["remember", "delegate"])

    def test_big_repeated_write_is_neither_an_edit_nor_a_tool_call(self):
        root = tempfile.mkdtemp(prefix="peerhooks-versions-")
        self.addCleanup(shutil.rmtree, root, True)
        home = claudehome.ClaudeHome(root, version=claudehome.CURRENT_VERSION)
        cwd = os.path.join(root, "repo")
        big = "x" * (2 * transcripts.PARSE_LINE_LIMIT)
        write = claudehome.edit_record("s1", cwd, cwd + "/big.py", claudehome.now_ms(), tool="Write", content=big)
        path = home.append_records("s1", cwd, [write])
        with open(path, encoding="utf-8") as handle:
            kinds = [json.loads(line)["type"] for line in handle]
        self.assertEqual(kinds, ["assistant", "api-request-blob"])
        self.assertEqual([e.path for e in transcripts.recent_edits(path).edits], [cwd + "/big.py"])
        self.assertEqual(len(transcripts.tool_calls_since(path, 0).calls), 1)


class MemoryShapesTest(unittest.TestCase):
    def test_memory_file_the_cli_rewrote_gives_its_description_and_origin_on_both_versions(self):
        # 2.1.197 writes `metadata: ` (a trailing space); 2.1.332 `metadata:` and adds `modified:`
        for version in SAMPLES:
            with self.subTest(version=version):
                path = sample(version, "memory-sample_fact.md")
                summary = memory_report.read_summary(path, (os.path.dirname(path),))
                self.assertEqual(summary.description, "samples are captured from the real CLI")
                self.assertRegex(summary.origin_session_id or "", r"^[0-9a-f-]{36}$")


class HistoryShapesTest(unittest.TestCase):
    def test_history_lines_of_both_versions_parse(self):
        for version in SAMPLES:
            with self.subTest(version=version):
                with open(sample(version, "history.jsonl"), "rb") as handle:
                    lines = [line for line in handle if line.strip()]
                parsed = [history.parse_line(line) for line in lines]
                self.assertTrue(lines)
                self.assertTrue(all(p is not None for p in parsed), parsed)


class StatsOnBothVersionsTest(unittest.TestCase):
    """`peers.py --stats` on the samples: known answers per version."""

    def stats_of(self, version):
        root = tempfile.mkdtemp(prefix="peerhooks-versions-")
        self.addCleanup(shutil.rmtree, root, True)
        home = sample_home(version, root)
        return stats.report(home, int(time.time() * 1000), 3650)

    def test_one_delivered_message_is_one_message_sent_and_one_received_on_the_current_version(self):
        rep = self.stats_of(claudehome.CURRENT_VERSION)
        self.assertEqual((rep.messaging_sessions, rep.peer_messages), (1, 1))
        self.assertEqual((rep.receiving_sessions, rep.received_messages), (1, 1))
        self.assertEqual((rep.listing_sessions, rep.listing_calls), (1, 1))
        self.assertEqual(rep.malformed, 0)

    def test_fork_and_its_parent_are_two_sessions_each_starting_when_it_was_made(self):
        root = tempfile.mkdtemp(prefix="peerhooks-versions-")
        self.addCleanup(shutil.rmtree, root, True)
        scan = stats_scan.scan_home(sample_home(claudehome.CURRENT_VERSION, root), 0)
        starts = sorted(s.first_ms for s in scan.sessions)
        self.assertEqual(len(starts), 5)
        self.assertEqual(len(set(starts)), 5)  # the fork starts when it was made, not with its parent

    def test_oldest_version_samples_hold_no_messages(self):
        rep = self.stats_of(claudehome.CLI_VERSION)
        self.assertEqual((rep.peer_messages, rep.received_messages, rep.listing_calls), (0, 0, 0))
        self.assertEqual(rep.sessions, 3)

    def test_fast_scan_agrees_with_decoding_every_record_on_current_samples(self):
        for name in os.listdir(SAMPLES[claudehome.CURRENT_VERSION]):
            if name.startswith("transcript-") and name.endswith(".jsonl"):
                with self.subTest(name):
                    path = sample(claudehome.CURRENT_VERSION, name)
                    fast, malformed, _ = stats_scan.scan_transcript(path, "x", "-p")
                    slow = stats_scan.SessionScan("x", "-p", None, 0, 0)
                    with open(path, "rb") as handle:
                        for line in handle:
                            record = json.loads(line)
                            stats_scan.note_record(record, timeutil.iso_to_ms(record.get("timestamp")), slow, set())
                    self.assertEqual(malformed, 0)
                    self.assertEqual((fast.sends, fast.received, fast.listings),
                                     (slow.sends, slow.received, slow.listings))


class AdviceFollowsTheMessagingSocketTest(unittest.TestCase):
    def test_all_peers_reachable_are_told_to_be_messaged_by_name(self):
        self.assertIn("SendMessage", peers_report.message_advice(["a-1", "b-2"], {"a-1", "b-2"}))

    def test_no_peer_reachable_sends_the_model_to_its_user_and_never_to_send_message(self):
        advice = peers_report.message_advice(["a-1"], set())
        self.assertNotIn("SendMessage", advice)
        self.assertIn("It has no messaging socket in its registry entry: coordinate through the user", advice)
        self.assertNotIn("older", advice)  # messaging exists from 2.1.224 and is off for some providers

    def test_session_whose_client_cannot_send_is_sent_to_its_user_whoever_its_peers_are(self):
        # measured: 2.1.197 -> 2.1.332 answers `No agent named '…' is currently addressable`, and
        # 2.1.332 -> 2.1.197 `No agent named '…' is reachable`
        advice = peers_report.message_advice(["a-1"], {"a-1"}, can_send=False)
        self.assertNotIn("SendMessage", advice)
        self.assertIn("This session has no messaging socket", advice)
        self.assertNotIn("older", advice)

    def test_mixed_peers_name_the_reachable_ones(self):
        advice = peers_report.message_advice(["a-1", "b-2"], {"b-2"})
        self.assertIn("Message b-2 with SendMessage", advice)
        self.assertIn("a-1 has no messaging socket in its registry entry", advice)


class PeersHookPerVersionTest(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()
        self.me = self.claude.live_session(self.repo_path, name="me-session",
                                           version=claudehome.CURRENT_VERSION)

    def hook(self, source="startup"):
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "source": source,
                   "hook_event_name": "SessionStart", "transcript_path": self.me.transcript}
        result = self.run_hook("peers.py", payload, args=["--hook"])
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def test_current_version_peer_is_to_be_messaged_by_name(self):
        self.claude.live_session(self.repo_path, name="repo-9a", prompts=["port the exporter to v2"],
                                 version=claudehome.CURRENT_VERSION)
        out = self.hook()
        self.assertIn("repo-9a", out)
        self.assertIn("Message it by name with SendMessage", out)

    def test_oldest_version_peer_is_not_to_be_messaged(self):
        self.claude.live_session(self.repo_path, name="repo-1f", prompts=["port the exporter to v2"],
                                 version=claudehome.CLI_VERSION)
        out = self.hook()
        self.assertIn("repo-1f", out)
        self.assertNotIn("SendMessage", out)
        self.assertIn("It has no messaging socket in its registry entry", out)

    def test_session_of_the_oldest_version_is_not_told_to_message_a_current_peer(self):
        old_me = self.claude.live_session(self.repo_path, name="old-me", version=claudehome.CLI_VERSION)
        self.claude.live_session(self.repo_path, name="repo-9a", prompts=["port the exporter to v2"],
                                 version=claudehome.CURRENT_VERSION)
        payload = {"session_id": old_me.session_id, "cwd": self.repo_path, "source": "startup",
                   "hook_event_name": "SessionStart", "transcript_path": old_me.transcript}
        out = self.run_hook("peers.py", payload, args=["--hook"]).stdout
        self.assertIn("repo-9a", out)
        self.assertNotIn("SendMessage", out)
        self.assertIn("This session has no messaging socket", out)

    def test_before_its_registry_entry_a_session_can_send_only_if_its_client_set_the_socket_variable(self):
        # Both versions at times write the registry entry after SessionStart has run; 2.1.332 sets
        # CLAUDE_CODE_MESSAGING_SOCKET in every hook's environment, 2.1.197 does not.
        self.claude.live_session(self.repo_path, name="repo-9a", prompts=["port the exporter to v2"],
                                 version=claudehome.CURRENT_VERSION)
        payload = {"session_id": "not-registered-yet", "cwd": self.repo_path, "source": "startup",
                   "hook_event_name": "SessionStart"}
        oldest = self.run_hook("peers.py", payload, args=["--hook"]).stdout
        self.assertIn("repo-9a", oldest)
        self.assertNotIn("SendMessage", oldest)
        self.assertIn("This session has no messaging socket", oldest)
        current = self.run_hook("peers.py", payload, args=["--hook"],
                                CLAUDE_CODE_MESSAGING_SOCKET="/tmp/cc-socks/1.sock").stdout
        self.assertIn("with SendMessage to coordinate", current)

    def test_fork_is_told_of_live_peers_like_a_new_session(self):
        self.claude.live_session(self.repo_path, name="repo-9a", prompts=["port the exporter to v2"],
                                 version=claudehome.CURRENT_VERSION)
        self.assertEqual(self.hook("fork"), self.hook("startup"))
        self.assertIn("repo-9a", self.hook("fork"))


@unittest.skipUnless(registry.own_pid_domain(), "needs /etc/machine-id and /proc (Linux)")
class LivenessAcrossPidNamespacesTest(unittest.TestCase):
    """An entry from another pid namespace (a container sharing ~/.claude): its pid is not ours."""

    FOREIGN = "linux:00000000000000000000000000000000:pid:[4026530000]"
    NOW = 1796090000000

    def entry(self, **fields):
        data = {"pid": os.getpid(), "sessionId": "s-1", "cwd": claudehome.client_path("/r"), "pidDomain": self.FOREIGN,
                "updatedAt": self.NOW - 60 * 60 * 1000}
        data.update(fields)
        return registry.parse_entry(data)

    def test_foreign_entry_whose_pid_runs_here_is_not_alive_for_that(self):
        self.assertFalse(registry.is_alive(self.entry(), self.NOW))

    def test_foreign_entry_written_recently_is_alive(self):
        self.assertTrue(registry.is_alive(self.entry(updatedAt=self.NOW - 60 * 1000), self.NOW))

    def test_foreign_entry_whose_socket_listens_is_alive_however_old(self):
        folder = tempfile.mkdtemp(prefix="peerhooks-sock-")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "1.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(server.close)
        server.bind(path)
        server.listen(1)
        self.assertTrue(registry.is_alive(self.entry(messagingSocketPath=path, pid=999999999), self.NOW))
        server.close()  # the file stays, as after a crash: refused, so not alive
        self.assertFalse(registry.is_alive(self.entry(messagingSocketPath=path, pid=999999999), self.NOW))

    def test_foreign_entry_whose_pid_is_one_of_our_ancestors_is_not_us(self):
        foreign = self.entry(pid=os.getppid(), sessionId="other")
        self.assertFalse(registry.is_self(foreign, "mine", frozenset([os.getppid()])))
        self.assertIsNone(registry.own_entry([foreign], "mine", frozenset([os.getppid()])))
        self.assertEqual(registry.own_ids([foreign], "mine", frozenset([os.getppid()])), {"mine"})

    def test_entry_from_this_namespace_is_judged_by_its_pid(self):
        own = registry.own_pid_domain()
        self.assertTrue(registry.is_alive(self.entry(pidDomain=own), self.NOW))
        self.assertFalse(registry.is_alive(self.entry(pidDomain=own, pid=999999999,
                                                      updatedAt=self.NOW), self.NOW))

    @unittest.skipUnless(support.SIMULATED == "linux", "Linux's shape; macOS's and Windows': test_platform")
    def test_own_domain_has_the_shape_the_client_writes(self):
        real = sample_json(claudehome.CURRENT_VERSION, "registry-interactive.json")["pidDomain"]
        self.assertEqual(registry.own_pid_domain().split(":")[0::2], real.split(":")[0::2])



class ClientsDocTest(unittest.TestCase):
    """docs/clients.md quotes the code: the advice texts and the freshness window."""

    def test_doc_quotes_the_advice_and_the_window_the_code_uses(self):
        with open(os.path.join(support.REPO, "docs", "clients.md"), encoding="utf-8") as handle:
            doc = handle.read()
        for advice in (peers_report.message_advice(["a-1"], {"a-1"}), peers_report.message_advice(["a-1"], set()),
                       peers_report.message_advice(["a-1", "b-2"], {"a-1"}),
                       peers_report.message_advice(["a-1"], {"a-1"}, can_send=False)):
            self.assertIn("> " + advice + "\n", doc)
        self.assertIn("at most `FOREIGN_FRESH_MINUTES` minutes", doc)
        self.assertIn("(%d min)" % registry.FOREIGN_FRESH_MINUTES, doc)


if __name__ == "__main__":
    unittest.main()

"""The partitioned cold-start state file: keys, shape, lock, atomic replace, quarantine, pruning."""
import json
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import unittest
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "scripts"))

from peerhooks.cold_start import quiet as cold_start_quiet, state as cold_start_state  # noqa: E402

NOW = datetime(2026, 6, 11, 21, 53, 36, tzinfo=timezone.utc)


class AgentKeyTest(unittest.TestCase):
    def test_unset_or_blank_variable_is_the_default_partition(self):
        for raw in (None, "", "   ", "\t\n"):
            self.assertEqual(cold_start_quiet.agent_key(raw), cold_start_quiet.AgentKey("default", None))

    def test_surrounding_whitespace_is_removed(self):
        self.assertEqual(cold_start_quiet.agent_key("lin ").key, "lin")
        self.assertEqual(cold_start_quiet.agent_key("  lin\n").key, "lin")

    def test_keys_are_case_sensitive(self):
        self.assertEqual(cold_start_quiet.agent_key("Lin").key, "Lin")
        self.assertNotEqual(cold_start_quiet.agent_key("Lin").key, cold_start_quiet.agent_key("lin").key)

    def test_key_over_128_characters_gets_a_partition_of_its_own_named_by_its_hash(self):
        long_a, long_b = cold_start_quiet.agent_key("k" * 200), cold_start_quiet.agent_key("k" * 199 + "j")
        self.assertTrue(long_a.key.startswith(cold_start_quiet.DERIVED_KEY_PREFIX))
        self.assertNotEqual(long_a.key, long_b.key)
        self.assertEqual(long_a.key, cold_start_quiet.agent_key("k" * 200).key)  # stable
        self.assertIn("128", long_a.warning)
        self.assertIn(long_a.key, long_a.warning)
        self.assertEqual(cold_start_quiet.agent_key("k" * 128).key, "k" * 128)

    def test_key_with_control_characters_gets_a_partition_of_its_own(self):
        keys = set()
        for raw in ("a\tb", "a\x00b", "a\x1bb", "a\x85b"):
            refused = cold_start_quiet.agent_key(raw)
            self.assertTrue(refused.key.startswith(cold_start_quiet.DERIVED_KEY_PREFIX), repr(raw))
            self.assertIn("control", refused.warning)
            keys.add(refused.key)
        self.assertEqual(len(keys), 4)

    def test_key_that_is_not_utf8_gets_a_partition_of_its_own(self):
        a = cold_start_quiet.agent_key(b"caf\xe9".decode("utf-8", "surrogateescape"))
        b = cold_start_quiet.agent_key(b"caf\xe8".decode("utf-8", "surrogateescape"))
        self.assertIn("UTF-8", a.warning)
        self.assertNotEqual(a.key, b.key)
        a.key.encode("ascii")

    def test_prototype_like_key_is_an_ordinary_key(self):
        self.assertEqual(cold_start_quiet.agent_key("__proto__"), cold_start_quiet.AgentKey("__proto__", None))


class PathTest(unittest.TestCase):
    def test_stamps_round_trip_and_anything_else_is_none(self):
        self.assertEqual(cold_start_state.parse_stamp(cold_start_state.format_stamp(NOW)), NOW)
        for text in (None, 5, "", "2026-06-11 21:53:36Z", "2026-13-11T21:53:36Z",
                     "2026-06-11T21:53:36Z\n"):
            self.assertIsNone(cold_start_state.parse_stamp(text), text)

    def test_state_path_per_host(self):
        self.assertEqual(cold_start_quiet.state_path("/w"),
                         os.path.join("/w", ".claude", "state", "last-cold-start-emit.json"))
        self.assertEqual(cold_start_quiet.state_path("/w", "codex"),
                         os.path.join("/w", ".codex", "state", "last-cold-start-emit.json"))


class DocumentTest(unittest.TestCase):
    def test_absent_legacy_corrupt_and_unknown_shapes_are_told_apart(self):
        self.assertEqual(cold_start_state.parse_document(None).problem, "absent")
        self.assertEqual(cold_start_state.parse_document(b'{"sections": {}, "last_emit_at": "x"}').problem,
                         "legacy")
        for raw in (b"{", b"", b"\xff\xfe", b"[]", b'{"agents": []}', b'{"other": 1}'):
            self.assertEqual(cold_start_state.parse_document(raw).problem, "corrupt", raw)
        self.assertIsNone(cold_start_state.parse_document(b'{"agents": {}}').problem)

    def test_malformed_own_partition_means_no_partition(self):
        document = cold_start_state.parse_document(b'{"agents": {"a": {"sections": [], "last_emit_at": 1}}}')
        baseline = cold_start_state.baseline_for(document, "a")
        self.assertIsNone(baseline.partition)
        self.assertIn("'a'", baseline.full_reason)

    def merged(self, agents, key, sections):
        document = cold_start_state.parse_document(json.dumps({"agents": agents}, indent=2).encode())
        return json.loads(cold_start_state.render_document(document, key, sections, NOW))["agents"]

    def test_merge_replaces_own_partition_and_keeps_others_untouched(self):
        odd = {"sections": "not ours to judge"}
        agents = {"a": {"sections": {"x": "1"}, "last_emit_at": "2026-06-10T00:00:00Z"},
                  "b": odd}
        merged = self.merged(agents, "a", {"y": "2"})
        self.assertEqual(list(merged), ["a", "b"])
        self.assertEqual(merged["a"], {"sections": {"y": "2"}, "last_emit_at": "2026-06-11T21:53:36Z"})
        self.assertEqual(merged["b"], odd)

    def test_partitions_not_written_for_90_days_are_pruned(self):
        def stamp(days):
            return cold_start_state.format_stamp(NOW - timedelta(days=days))
        agents = {"old": {"sections": {}, "last_emit_at": stamp(91)},
                  "recent": {"sections": {}, "last_emit_at": stamp(89)},
                  "garbled": {"sections": {}, "last_emit_at": "yesterday"}}
        merged = self.merged(agents, "me", {})
        self.assertEqual(sorted(merged), ["garbled", "me", "recent"])

    def test_our_own_writes_look_like_json_dumps_with_indent_2(self):
        agents = {"a": {"sections": {"x": "1"}, "last_emit_at": "2026-06-11T21:53:36Z"}}
        written = cold_start_state.render_document(cold_start_state.parse_document(None), "a", {"x": "1"}, NOW)
        self.assertEqual(written.decode(), json.dumps({"agents": agents}, indent=2) + "\n")

    def test_unchanged_partition_is_not_rewritten_until_it_nears_pruning(self):
        recent = cold_start_state.Partition({"rules": "1"}, cold_start_state.format_stamp(NOW - timedelta(days=29)))
        old = cold_start_state.Partition({"rules": "1"}, cold_start_state.format_stamp(NOW - timedelta(days=30)))
        self.assertFalse(cold_start_state.needs_record(recent, {"rules": "1"}, NOW))
        self.assertTrue(cold_start_state.needs_record(recent, {"rules": "2"}, NOW))
        self.assertTrue(cold_start_state.needs_record(recent, {}, NOW))
        self.assertTrue(cold_start_state.needs_record(old, {"rules": "1"}, NOW))
        self.assertTrue(cold_start_state.needs_record(None, {}, NOW))


class LedgerTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="state-test-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.path = cold_start_quiet.state_path(self.root)

    def write_raw(self, data):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, "wb") as handle:
            handle.write(data)

    def record(self, key, sections, now=NOW):
        with cold_start_state.Ledger.open(self.path, now) as ledger:
            ledger.record(key, sections)

    def baseline(self, key):
        with cold_start_state.Ledger.open(self.path, NOW) as ledger:
            return ledger.baseline(key)

    def test_absent_file_gives_full_emit_reason(self):
        self.assertEqual(self.baseline("default").full_reason, cold_start_state.REASON_ABSENT)

    def test_written_file_has_exactly_the_documented_shape(self):
        self.record("default", {"rules": "ab" * 32})
        with open(self.path, encoding="utf-8") as handle:
            document = json.load(handle)
        self.assertEqual(document, {"agents": {"default": {
            "sections": {"rules": "ab" * 32}, "last_emit_at": "2026-06-11T21:53:36Z"}}})
        self.assertEqual(self.baseline("default").partition,
                         cold_start_state.Partition({"rules": "ab" * 32}, "2026-06-11T21:53:36Z"))

    def test_state_folder_gets_a_gitignore_that_ignores_everything(self):
        self.record("default", {})
        with open(os.path.join(os.path.dirname(self.path), ".gitignore"), encoding="utf-8") as handle:
            lines = [line.strip() for line in handle if not line.startswith("#")]
        self.assertEqual(lines, ["*"])

    def test_existing_gitignore_is_left_alone(self):
        os.makedirs(os.path.dirname(self.path))
        gitignore = os.path.join(os.path.dirname(self.path), ".gitignore")
        with open(gitignore, "w") as handle:
            handle.write("mine\n")
        self.record("default", {})
        with open(gitignore) as handle:
            self.assertEqual(handle.read(), "mine\n")

    def test_sibling_partition_survives_another_keys_write(self):
        self.record("alice", {"rules": "1"})
        self.record("bob", {"rules": "2"})
        self.record("alice", {"rules": "3"})
        self.assertEqual(self.baseline("bob").partition.sections, {"rules": "2"})
        self.assertEqual(self.baseline("alice").partition.sections, {"rules": "3"})

    def test_legacy_shape_gives_full_emit_and_is_rebuilt_without_its_data(self):
        self.write_raw(b'{"sections": {"rules": "old"}, "last_emit_at": "2026-01-01T00:00:00Z"}')
        with cold_start_state.Ledger.open(self.path, NOW) as ledger:
            self.assertEqual(ledger.baseline("default").full_reason, cold_start_state.REASON_LEGACY)
            ledger.record("default", {"rules": "new"})
        with open(self.path, encoding="utf-8") as handle:
            self.assertEqual(json.load(handle), {"agents": {"default": {
                "sections": {"rules": "new"}, "last_emit_at": "2026-06-11T21:53:36Z"}}})

    def test_corrupt_file_is_quarantined_with_a_utc_stamp_and_reported(self):
        self.write_raw(b'{"agents": {"a": ')
        with cold_start_state.Ledger.open(self.path, NOW) as ledger:
            reason = ledger.baseline("a").full_reason
            ledger.record("a", {"rules": "1"})
        quarantined = self.path + ".corrupt-20260611T215336Z"
        self.assertIn(os.path.basename(quarantined), reason)
        with open(quarantined, "rb") as handle:
            self.assertEqual(handle.read(), b'{"agents": {"a": ')
        self.assertEqual(self.baseline("a").partition.sections, {"rules": "1"})

    def test_second_quarantine_in_the_same_second_does_not_overwrite_the_first(self):
        for body in (b"first", b"second"):
            self.write_raw(body)
            cold_start_state.Ledger.open(self.path, NOW).close()
        folder = os.path.dirname(self.path)
        kept = sorted(n for n in os.listdir(folder) if ".corrupt-" in n)
        self.assertEqual(len(kept), 2)

    def test_lock_held_by_another_start_times_out_with_state_error(self):
        with cold_start_state.Ledger.open(self.path, NOW):
            with self.assertRaises(cold_start_state.StateError):  # not a wait for the holder to finish
                cold_start_state.Ledger.open(self.path, NOW, timeout=0.05)
        cold_start_state.Ledger.open(self.path, NOW, timeout=0.05).close()  # released on exit

    def test_temp_file_left_by_a_killed_writer_is_removed_by_the_next_write(self):
        os.makedirs(os.path.dirname(self.path))
        orphan = os.path.join(os.path.dirname(self.path), ".last-cold-start-emit.json.99999.tmp")
        with open(orphan, "w") as handle:
            handle.write('{"agents": {')
        self.record("default", {})
        self.assertFalse(os.path.exists(orphan))

    def test_unopenable_folder_raises_for_the_caller_to_fall_back(self):
        os.makedirs(os.path.join(self.root, ".claude"))
        with open(os.path.join(self.root, ".claude", "state"), "w") as handle:
            handle.write("a file where the folder should be")
        with self.assertRaises(OSError):
            cold_start_state.Ledger.open(self.path, NOW)
        self.assertEqual(cold_start_state.read_baseline(self.path, "default").full_reason,
                         cold_start_state.REASON_CORRUPT_KEPT)


class VersionedObjectTest(unittest.TestCase):
    """A state file is used only when it is a JSON object of this release's version."""

    def test_only_an_object_of_the_version(self):
        from peerhooks.state.statefiles import versioned_object
        self.assertEqual(versioned_object(b'{"version": 2, "a": 1}', 2), {"version": 2, "a": 1})
        for raw in (b'{"version": 1}', b'[2]', b'{"version": 2', b"\xff", b'{"version": NaN}',
                    b"[" * 100000 + b"]" * 100000):
            self.assertIsNone(versioned_object(raw, 2), raw[:20])


class OtherStateFilesTest(unittest.TestCase):
    """The same rules for every state file the hooks keep (history index, edit index, names,
    memory stamps): no write through a symlink, no blocking read, no RecursionError, a corrupt
    file set aside."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="state-files-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.path = os.path.join(self.folder, "history-index.json")

    def aside(self):
        return [n for n in os.listdir(self.folder) if ".corrupt-" in n]

    def readers(self):
        from peerhooks.memory_delta import watch
        from peerhooks.state import statefiles

        return (statefiles.read_json_object, watch.read_stamp)

    def test_deep_nesting_reads_as_nothing_and_is_set_aside(self):
        for read in self.readers():
            with open(self.path, "wb") as handle:
                handle.write(b"[" * 100000 + b"]" * 100000)
            self.assertIsNone(read(self.path))
            self.assertFalse(os.path.exists(self.path))
        self.assertEqual(len(self.aside()), 2)

    @unittest.skipIf(os.name == "nt", "FIFOs")
    def test_a_fifo_is_never_waited_on_and_is_set_aside(self):
        for read in self.readers():
            os.mkfifo(self.path)
            self.assertIsNone(read(self.path))  # returns at all: a blocking open would wait for a writer
            self.assertFalse(os.path.exists(self.path))

    def test_a_symlink_is_not_followed_for_reading_or_writing(self):
        from peerhooks.state import statefiles

        target = os.path.join(self.folder, "elsewhere.json")
        with open(target, "w") as handle:
            handle.write('{"mine": true}')
        os.symlink(target, self.path)
        self.assertIsNone(statefiles.read_json_object(self.path))
        os.symlink(target, self.path)
        statefiles.write_json(self.path, {"ours": 1})
        self.assertFalse(os.path.islink(self.path))
        with open(target) as handle:
            self.assertEqual(handle.read(), '{"mine": true}')

    def test_nan_and_huge_numbers_are_unusable(self):
        from peerhooks.state import statefiles

        for raw in (b'{"a": NaN}', b'{"a": ' + b"9" * 5000 + b"}", b'{"a": "\xff"}'):
            with open(self.path, "wb") as handle:
                handle.write(raw)
            self.assertIsNone(statefiles.read_json_object(self.path), raw)

    def test_a_bom_is_accepted(self):
        from peerhooks.state import statefiles

        with open(self.path, "wb") as handle:
            handle.write(b'\xef\xbb\xbf{"a": 1}')
        self.assertEqual(statefiles.read_json_object(self.path), {"a": 1})


# ---- writers killed mid-write ----------------------------------------------------------------

def _crash_writer(path, seed):
    """Write ever-changing partitions until killed."""
    os.chdir(os.path.dirname(path))  # marks a forked writer as this run's (tests/leftovers.py)
    rng = random.Random(seed)
    while True:
        sections = {"s%d" % i: "%064x" % rng.getrandbits(256) for i in range(rng.randint(1, 400))}
        with cold_start_state.Ledger.open(path, NOW) as ledger:
            ledger.record("writer", sections)


class CrashTest(unittest.TestCase):
    def test_writer_killed_at_random_points_never_leaves_a_torn_or_empty_file(self):
        root = tempfile.mkdtemp(prefix="state-crash-")
        self.addCleanup(shutil.rmtree, root, True)
        path = cold_start_quiet.state_path(root)
        with cold_start_state.Ledger.open(path, NOW) as ledger:
            ledger.record("survivor", {"rules": "1"})
        context = multiprocessing.get_context("fork")
        rng = random.Random(7)
        for attempt in range(20):
            writer = context.Process(target=_crash_writer, args=(path, attempt))
            writer.start()
            time.sleep(rng.uniform(0.005, 0.06))
            os.kill(writer.pid, signal.SIGKILL)
            writer.join()
            with open(path, "rb") as handle:
                raw = handle.read()
            self.assertTrue(raw, "empty after kill %d" % attempt)
            agents = json.loads(raw.decode("utf-8"))["agents"]
            self.assertEqual(agents["survivor"]["sections"], {"rules": "1"})
        with cold_start_state.Ledger.open(path, NOW, timeout=0.5) as ledger:  # the dead writer's lock is gone
            self.assertIsNotNone(ledger.baseline("survivor").partition)


if __name__ == "__main__":
    unittest.main()

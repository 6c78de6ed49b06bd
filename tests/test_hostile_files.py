"""Files made to break the hooks (issue 21): links out of the workspace or the Claude home, FIFOs
where the client writes files, documents nested past the decoder's depth, a linked state folder.

Every hook here runs as the process Claude Code starts (payload on stdin), so that a read that
blocks ends at the subprocess timeout and fails the test instead of hanging it; the timeout is a
bound on a hang, far above any run, not a timing threshold.
"""
import json
import os
import shutil
import tempfile
import unittest

import support
from fixtures import claudehome
from peerhooks.cold_start import sections
from peerhooks.state import safefiles

SECRET = "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"
# Asserted absent instead of the key itself: redaction would hide the key on some surfaces, and a
# file out of bounds must not be read at all, whatever its text looks like.
MARKER = "words from a file outside the folder"
DEEP_ARRAY = "[" * 100000 + "]" * 100000  # past every interpreter's limit (3.13 decodes 5,000)
GUARD_TIMEOUT = 30  # seconds: a FIFO read would block forever; a run takes a fraction of one


def deep_entry(pid, cwd, depth=1200):
    """A registry entry with the fields a live session needs, and one nested `depth` deep."""
    entry = json.dumps({"pid": pid, "sessionId": "deep-%d" % pid, "cwd": cwd, "name": "deep-%d" % pid})
    return entry[:-1] + ', "nested": ' + "[" * depth + "]" * depth + "}"


@unittest.skipIf(os.name == "nt", "FIFOs and symlinks")
class HostileCase(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo("repo", {"README.md": "hello\n", "CLAUDE.md": "Be kind.\n"})
        self.secret = os.path.join(self.claude.root, ".aws", "credentials")
        os.makedirs(os.path.dirname(self.secret))
        with open(self.secret, "w") as handle:
            handle.write("[default]\n%s\n# %s\n" % (SECRET, MARKER))
        self.sessions = os.path.join(self.claude.home, "sessions")

    def peer(self, **kwargs):
        with open(os.path.join(self.repo_path, "shared.py"), "w") as handle:
            handle.write("x = 1\n")  # a change in the checkout, so `git add -A` has a peer's work to sweep
        return self.claude.live_session(self.repo_path, name="busy-peer", edits=["shared.py"],
                                        prompts=["refactor the shared parser module"], **kwargs)

    def guard(self, command="git add -A"):
        payload = {"session_id": "this-session-0000", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": command}, "cwd": self.repo_path}
        result = support.run_script("git_index_guard.py", payload, self.claude.env(), cwd=self.repo_path,
                                    process=True, timeout=GUARD_TIMEOUT)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        return json.loads(result.stdout)["hookSpecificOutput"] if result.stdout else None

    def assertGuardRefusesBesideThePeer(self):
        decision = self.guard()
        self.assertIsNotNone(decision, "git add -A ran beside a live peer")
        self.assertEqual(decision["permissionDecision"], "deny")
        self.assertIn("busy-peer", decision["permissionDecisionReason"])

    def run_peers(self, session_id="me-0000-4000-8000-000000000000"):
        payload = {"session_id": session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": "startup"}
        result = support.run_script("peers.py", payload, self.claude.env(), cwd=self.repo_path,
                                    args=["--hook"], process=True, timeout=GUARD_TIMEOUT)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        return result.stdout

    def cold_start(self, session_id="me-0000-4000-8000-000000000000"):
        payload = {"session_id": session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": "startup"}
        result = support.run_script("cold_start.py", payload, self.claude.env(), cwd=self.repo_path,
                                    process=True, timeout=GUARD_TIMEOUT)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result

    def link(self, target, *where):
        path = os.path.join(*where)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.lexists(path):
            os.remove(path)
        os.symlink(target, path)
        return path


class TheRegistryCostsOnlyTheBadEntry(HostileCase):
    def test_a_fifo_named_like_an_entry_neither_hangs_the_guard_nor_lets_add_all_run(self):
        self.peer()
        os.mkfifo(os.path.join(self.sessions, "4194301.json"))
        self.assertGuardRefusesBesideThePeer()

    def test_a_fifo_named_like_an_entry_does_not_hang_peers_and_the_peer_is_shown(self):
        self.peer()
        os.mkfifo(os.path.join(self.sessions, "4194301.json"))
        out = self.run_peers()
        self.assertIn("busy-peer", out)
        self.assertIn("refactor the shared parser module", out)

    def test_a_deeply_nested_entry_is_skipped_and_the_guard_still_refuses_beside_the_live_peer(self):
        self.peer()
        for pid, text in ((4194301, DEEP_ARRAY), (4194302, deep_entry(4194302, self.repo_path)),
                          (4194303, deep_entry(4194303, self.repo_path, depth=100000))):
            with open(os.path.join(self.sessions, "%d.json" % pid), "w") as handle:
                handle.write(text)
        self.assertGuardRefusesBesideThePeer()
        self.assertIn("busy-peer", self.run_peers())

    def test_a_deeply_nested_entry_of_the_live_peer_itself_costs_that_peer_only(self):
        peer = self.peer()
        other = self.claude.live_session(self.repo_path, name="other-peer", prompts=["write the docs"])
        with open(peer.registry_file, "w") as handle:
            handle.write(deep_entry(peer.pid, self.repo_path, depth=100000))
        out = self.run_peers()
        self.assertIn(other.name, out)
        self.assertNotIn("busy-peer", out)
        self.assertIn(other.name, self.guard()["permissionDecisionReason"])

    def test_a_symlink_named_like_an_entry_is_not_followed(self):
        elsewhere = os.path.join(self.tmp, "elsewhere.json")
        process = self.claude.spawn()
        with open(elsewhere, "w") as handle:
            json.dump({"pid": process.pid, "sessionId": "linked-0000", "cwd": self.repo_path,
                       "name": "linked-peer", "procStart": claudehome.proc_start(process.pid)}, handle)
        self.link(elsewhere, self.sessions, "%d.json" % process.pid)
        self.assertNotIn("linked-peer", self.run_peers())
        self.assertIsNone(self.guard())


class DeepLinesInHistoryAndTranscripts(HostileCase):
    def test_a_deep_history_line_and_a_deep_transcript_tail_cost_only_those_lines(self):
        peer = self.peer()
        with open(os.path.join(self.claude.home, "history.jsonl"), "a") as handle:
            handle.write(DEEP_ARRAY + "\n" + "[" * 1200 + "]" * 1200 + "\n")
        with open(peer.transcript, "a") as handle:
            handle.write(DEEP_ARRAY + "\n")
        out = self.run_peers()
        self.assertIn("busy-peer", out)
        self.assertIn("refactor the shared parser module", out)
        self.assertIn("shared.py", out)
        self.assertGuardRefusesBesideThePeer()

    def test_fifos_in_place_of_history_and_a_transcript_never_block(self):
        peer = self.peer()
        os.remove(os.path.join(self.claude.home, "history.jsonl"))
        os.mkfifo(os.path.join(self.claude.home, "history.jsonl"))
        os.mkfifo(os.path.join(os.path.dirname(peer.transcript), "0b5e7e00-0000-4000-8000-0000000000ff.jsonl"))
        self.assertIn("busy-peer", self.run_peers())
        self.assertGuardRefusesBesideThePeer()

    def test_a_transcript_that_is_a_link_out_of_the_home_is_not_read(self):
        peer = self.claude.live_session(self.repo_path, name="print-peer", print_mode=True)  # no history
        outside = os.path.join(self.tmp, "outside.jsonl")
        with open(outside, "w") as handle:
            handle.write(json.dumps(claudehome.user_prompt(peer.session_id, peer.cwd, MARKER,
                                                           claudehome.now_ms())) + "\n")
        self.assertIn("print-peer", self.run_peers())
        os.remove(peer.transcript)
        self.link(outside, peer.transcript)
        out = self.run_peers()
        self.assertIn("print-peer", out)
        self.assertNotIn(MARKER, out)


class ContextFilesStayInTheirFolder(HostileCase):
    def test_a_committed_handoff_linked_to_credentials_is_never_printed(self):
        self.link(self.secret, self.repo_path, "HANDOFF.md")
        result = self.cold_start()
        self.assertNotIn(MARKER, result.stdout)
        self.assertNotIn("━━━ Handoff ━━━", result.stdout)
        self.claude.ended_session(self.repo_path, prompts=["finish the parser rewrite today"])
        self.assertNotIn("handoff:", self.run_peers())

    def test_a_linked_handoff_does_not_hide_the_memory_folders_own(self):
        self.link(self.secret, self.repo_path, "HANDOFF.md")
        memory = self.claude.memory_dir(self.repo_path)
        with open(os.path.join(memory, "HANDOFF.md"), "w") as handle:
            handle.write("Next: wire the parser into the CLI.\n")
        os.utime(self.secret)  # the link's target is the newer file
        out = self.cold_start().stdout
        self.assertIn("Next: wire the parser into the CLI.", out)
        self.assertNotIn(MARKER, out)

    def test_a_handoff_linked_inside_the_workspace_is_read(self):
        os.makedirs(os.path.join(self.repo_path, "docs"))
        with open(os.path.join(self.repo_path, "docs", "handoff.md"), "w") as handle:
            handle.write("Next: ship the release notes.\n")
        self.link(os.path.join("docs", "handoff.md"), self.repo_path, "HANDOFF.md")
        self.assertIn("Next: ship the release notes.", self.cold_start().stdout)

    def test_a_rule_file_linked_out_of_the_workspace_is_neither_listed_nor_diffed(self):
        self.link(self.secret, self.repo_path, ".claude", "CLAUDE.md")
        self.link(self.secret, self.repo_path, ".claude", "rules", "keys.md")
        first = self.cold_start().stdout
        self.assertIn("CLAUDE.md", first)  # the workspace's own rule file is listed
        self.assertNotIn(os.path.join(".claude", "CLAUDE.md"), first)
        self.assertNotIn("keys.md", first)
        with open(self.secret, "a") as handle:
            handle.write("aws_session_token = FwoGZXIvYXdzEXAMPLETOKEN\n")
        second = self.cold_start().stdout
        self.assertNotIn("EXAMPLETOKEN", second)
        self.assertNotIn(MARKER, second)

    def test_a_rule_file_linked_to_another_inside_the_workspace_is_diffed(self):
        with open(os.path.join(self.repo_path, "AGENTS.md"), "w") as handle:
            handle.write("Run the tests.\n")
        os.remove(os.path.join(self.repo_path, "CLAUDE.md"))
        self.link("AGENTS.md", self.repo_path, "CLAUDE.md")
        self.cold_start()
        with open(os.path.join(self.repo_path, "AGENTS.md"), "a") as handle:
            handle.write("Never sweep the index.\n")
        self.assertIn("+Never sweep the index.", self.cold_start().stdout)

    def test_a_memory_index_linked_out_of_the_memory_folder_is_not_read(self):
        memory = self.claude.memory_dir(self.repo_path)
        self.link(self.secret, memory, "MEMORY.md")
        out = self.cold_start().stdout
        self.assertNotIn(MARKER, out)
        self.assertNotIn("━━━ Memory", out)

    def test_a_memory_note_linked_out_of_the_memory_folder_is_not_read_for_its_notice(self):
        me = self.claude.live_session(self.repo_path, name="me-session",
                                      started_ms=claudehome.now_ms() - 3600 * 1000)
        peer = self.peer()
        memory = self.claude.memory_dir(self.repo_path)
        payload = {"session_id": me.session_id, "cwd": self.repo_path, "hook_event_name": "UserPromptSubmit",
                   "prompt": "carry on with the parser please"}

        def prompt():
            result = support.run_script("memory_delta.py", payload, self.claude.env(), cwd=self.repo_path,
                                        process=True, timeout=GUARD_TIMEOUT)
            self.assertEqual((result.returncode, result.stderr), (0, ""))
            return result.stdout

        prompt()
        with open(self.secret, "w") as handle:
            handle.write("---\nname: keys\ndescription: %s\n---\n%s\n" % (MARKER, SECRET))
        for name in ("keys.md", "plain.md"):
            self.claude.append_records(peer.session_id, peer.cwd, [claudehome.edit_record(
                peer.session_id, peer.cwd, os.path.join(memory, name), claudehome.now_ms(), tool="Write")])
        self.link(self.secret, memory, "keys.md")
        self.claude.write_memory(self.repo_path, "plain.md", "Tests hit a real database", peer.session_id)
        out = prompt()
        self.assertIn("Tests hit a real database", out)  # the notice itself still comes
        self.assertNotIn(MARKER, out)
        self.assertNotIn("keys.md", out)


class TheStateFolderIsNeverALink(HostileCase):
    def test_a_linked_state_folder_is_neither_written_nor_read_through(self):
        target = os.path.join(self.tmp, "elsewhere")
        os.makedirs(os.path.join(target, "memory-delta"))
        planted = {"cold-start-commits.json": json.dumps({"format": 1, "checkouts": {}}),
                   "session-names.json": "{not json", os.path.join("memory-delta", "x.json"): "old"}
        for name, text in planted.items():
            with open(os.path.join(target, name), "w") as handle:
                handle.write(text)
        old = 40 * 86400
        os.utime(os.path.join(target, "memory-delta", "x.json"), (old, old))
        self.link(target, self.claude.home, "peerhooks")
        before = {name: os.path.getmtime(os.path.join(target, name)) for name in planted}
        peer = self.peer()
        self.assertIn("busy-peer", self.run_peers())
        self.assertIn(sections.CLIENT_LOADED_NOTE, self.cold_start().stdout)  # the commits were read
        result = support.run_script("memory_delta.py", {"session_id": peer.session_id, "cwd": self.repo_path,
                                                        "prompt": "go on with it"},
                                    self.claude.env(), cwd=self.repo_path, process=True, timeout=GUARD_TIMEOUT)
        self.assertEqual(result.returncode, 0)
        self.assertGuardRefusesBesideThePeer()
        self.assertEqual(sorted(os.listdir(target)), ["cold-start-commits.json", "memory-delta",
                                                      "session-names.json"])
        self.assertEqual(os.listdir(os.path.join(target, "memory-delta")), ["x.json"])
        self.assertEqual({name: os.path.getmtime(os.path.join(target, name)) for name in planted}, before)

    def test_a_state_folder_is_never_created_through_a_dangling_link(self):
        target = os.path.join(self.tmp, "not-yet")
        self.link(target, self.claude.home, "peerhooks")
        self.peer()
        self.assertIn("busy-peer", self.run_peers())
        self.cold_start()
        self.assertFalse(os.path.lexists(target))


class Confinement(unittest.TestCase):
    """safefiles.confined, the one decision every context read goes through."""

    def setUp(self):
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.root = os.path.join(self.tmp, "root")
        os.makedirs(os.path.join(self.root, "docs"))
        self.outside = os.path.join(self.tmp, "outside.txt")
        for path in (self.outside, os.path.join(self.root, "docs", "a.md")):
            with open(path, "w") as handle:
                handle.write("text\n")

    def test_a_plain_path_is_opened_as_named(self):
        path = os.path.join(self.root, "docs", "a.md")
        self.assertEqual(safefiles.confined(path, (self.root,)), path)

    def test_a_link_that_stays_inside_resolves_and_one_that_leaves_is_refused(self):
        os.symlink(os.path.join("docs", "a.md"), os.path.join(self.root, "in.md"))
        os.symlink(self.outside, os.path.join(self.root, "out.md"))
        os.symlink(self.tmp, os.path.join(self.root, "up"))
        self.assertEqual(safefiles.confined(os.path.join(self.root, "in.md"), (self.root,)),
                         os.path.join(self.root, "docs", "a.md"))
        for name in ("out.md", os.path.join("up", "outside.txt")):
            with self.assertRaises(safefiles.OutsideRoot):
                safefiles.read_regular(os.path.join(self.root, name), inside=(self.root,))

    def test_dot_dot_is_resolved_before_it_is_judged(self):
        with self.assertRaises(safefiles.OutsideRoot):
            safefiles.confined(os.path.join(self.root, "..", "outside.txt"), (self.root,))

    def test_the_root_itself_may_be_a_link(self):
        linked_root = os.path.join(self.tmp, "linked-root")
        os.symlink(self.root, linked_root)
        self.assertEqual(safefiles.read_regular(os.path.join(linked_root, "docs", "a.md"), inside=(linked_root,)),
                         b"text\n")

    def test_a_path_under_no_root_is_refused_and_the_deepest_root_is_its_own(self):
        with self.assertRaises(safefiles.OutsideRoot):
            safefiles.confined(self.outside, (self.root,))
        inner = os.path.join(self.root, "docs")
        os.symlink(os.path.join(self.root, "docs", "a.md"), os.path.join(self.root, "docs", "b.md"))
        self.assertTrue(safefiles.confined(os.path.join(inner, "b.md"), (self.root, inner)))
        os.symlink(self.outside, os.path.join(inner, "c.md"))
        with self.assertRaises(safefiles.OutsideRoot):
            safefiles.confined(os.path.join(inner, "c.md"), (self.root, inner))


if __name__ == "__main__":
    unittest.main()

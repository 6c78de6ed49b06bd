"""edit_notice.py end to end (payload on stdin, real git, real live peer processes) and its pure parts:
which files a call writes, when a party's change is at stake, what the session was told already."""
import json
import os
import subprocess
import time
import unittest
from unittest import mock

import support
from fixtures import claudehome
from fixtures.claudehome import bash_record, edit_record, now_ms
from installer import wiring
from peerhooks.claude import formats, identity
from peerhooks.edit_notice import notice as edit_notice, targets as edit_targets, told as notice_state
from peerhooks.git import gitrepo, gitstate
from peerhooks.platform import posix, windows

SCRIPT = "edit_notice.py"
SAMPLES = os.path.join(support.REPO, "fixtures", "samples", "codex-0.171")
ME = "me-session-0000-0000"


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True).stdout


def write_call(path, session_id=ME, tool="Write", cwd=None, **extra):
    tool_input = {"file_path": path, "content": "x = 2\n"}
    if tool == "Edit":
        tool_input = {"file_path": path, "old_string": "x", "new_string": "y", "replace_all": False}
    elif tool == "MultiEdit":
        tool_input = {"file_path": path, "edits": [{"old_string": "x", "new_string": "y"}]}
    elif tool == "NotebookEdit":
        tool_input = {"notebook_path": path, "new_source": "x = 2"}
    payload = {"session_id": session_id, "hook_event_name": "PreToolUse", "tool_name": tool,
               "tool_input": tool_input, "tool_use_id": "toolu_1", "cwd": cwd or os.path.dirname(path)}
    payload.update(extra)
    return payload


POSIX = posix.Posix()  # the paths below are POSIX ones, whatever platform the suite plays


class EditTargets(unittest.TestCase):
    def test_each_claude_edit_tool_names_its_file(self):
        for tool in formats.EDIT_TOOLS:
            payload = write_call("/r/src/a.py", tool=tool)
            self.assertEqual(edit_targets.targets(tool, payload["tool_input"], "/r", POSIX), ["/r/src/a.py"], tool)

    def test_on_windows_the_clients_spelling_is_read_as_local_paths(self):
        paths = windows.Windows()
        self.assertEqual(edit_targets.targets("Write", {"file_path": "C:\\r\\src\\a.py"}, "C:/r", paths),
                         ["C:/r/src/a.py"])
        patch = "*** Begin Patch\n*** Update File: src\\old.py\n*** Add File: src/new.py\n*** End Patch\n"
        self.assertEqual(edit_targets.targets("apply_patch", {"command": patch}, "C:/r", paths),
                         ["C:/r/src/old.py", "C:/r/src/new.py"])

    def test_other_tools_name_nothing(self):
        self.assertEqual(edit_targets.targets("Read", {"file_path": "/r/a.py"}, "/r", POSIX), [])
        self.assertEqual(edit_targets.targets("Bash", {"command": "echo x > a.py"}, "/r", POSIX), [])
        self.assertEqual(edit_targets.targets("Write", "not an object", "/r", POSIX), [])

    def test_codex_patch_names_every_file_it_adds_updates_deletes_or_moves_to(self):
        patch = ("*** Begin Patch\n*** Add File: src/new.py\n+*** Update File: not/a/header.py\n"
                 "*** Update File: src/old.py\n*** Move to: src/renamed.py\n@@\n-a\n+b\n"
                 "*** Delete File: /abs/gone.py\n*** End of File\n*** End Patch\n")
        self.assertEqual(edit_targets.targets("apply_patch", {"command": patch}, "/r", POSIX),
                         ["/r/src/new.py", "/r/src/old.py", "/r/src/renamed.py", "/abs/gone.py"])

    def test_the_recorded_codex_payload_names_the_files_its_patch_touches(self):
        with open(os.path.join(SAMPLES, "hook-PreToolUse-apply_patch.json"), encoding="utf-8") as handle:
            sample = json.load(handle)
        payload = json.loads(sample["stdin"])
        self.assertEqual(edit_targets.targets(payload["tool_name"], payload["tool_input"], payload["cwd"], POSIX),
                         [payload["cwd"] + "/src/new.py", payload["cwd"] + "/README.md"])

    def test_a_relative_path_without_a_folder_names_nothing(self):
        self.assertEqual(edit_targets.targets("apply_patch", {"command": "*** Add File: a.py\n"}, None, POSIX), [])

    def test_installed_matcher_is_the_edit_tools_list(self):
        self.assertEqual(sorted(wiring.EDIT_TOOLS_MATCHER.split("|")), sorted(formats.EDIT_TOOLS))
        self.assertEqual(wiring.CODEX_EDIT_MATCHER, edit_targets.APPLY_PATCH_TOOL)


def party(name="peer-1", kind="session", can_message=True, key=None):
    return identity.Party(key or name, name, name, None, (), True, can_message, kind)


class Judging(unittest.TestCase):
    CHANGE_MS = 1796032800123

    def candidate(self, at_ms=CHANGE_MS):
        return edit_notice.Candidate("/r/a.py", "/r", party(), at_ms)

    def test_a_file_git_holds_changed_is_noticed(self):
        state = gitstate.PathState("a.py", ".", "M")
        self.assertEqual(edit_notice.judge(self.candidate(), state, None), edit_notice.NOTICE)
        self.assertEqual(edit_notice.judge(self.candidate(), state, self.CHANGE_MS // 1000 - 1), edit_notice.NOTICE)

    def test_a_file_git_holds_unchanged_is_settled(self):
        self.assertEqual(edit_notice.judge(self.candidate(), None, None), edit_notice.SETTLED)

    def test_a_commit_after_the_change_settles_it_whatever_the_file_holds_now(self):
        state = gitstate.PathState("a.py", ".", "M")
        self.assertEqual(edit_notice.judge(self.candidate(), state, self.CHANGE_MS // 1000), edit_notice.SETTLED)

    def test_only_parties_working_in_the_files_checkout_are_candidates(self):
        here, there = party("here"), party("there")
        found = edit_notice.candidates([("/r/a.py", "/r")], [(here, "/r"), (there, "/other")],
                                       {"here": {"/r/a.py": 5}, "there": {"/r/a.py": 6}})
        self.assertEqual([c.party.name for c in found], ["here"])

    def test_the_words_say_who_when_what_git_shows_and_how_to_reach_it(self):
        notice = edit_notice.Notice(self.candidate(self.CHANGE_MS - 240000), gitstate.PathState("a.py", ".", "M"),
                                    "busy", "add CSV export to the orders page", "stop, revert that")
        text = edit_notice.render([notice], self.CHANGE_MS, can_send=True)
        self.assertEqual(text, 'peerhooks: a.py holds uncommitted work of peer-1, a live session in this checkout '
                               '(busy; it changed the file 4m ago; git shows it unstaged now). Its latest prompt: '
                               '"add CSV export to the orders page", then: "stop, revert that".\n'
                               'Message peer-1 with SendMessage to coordinate.')

    def test_the_words_name_the_missing_socket_and_never_a_version(self):
        notice = edit_notice.Notice(edit_notice.Candidate("/r/a.py", "/r", party(can_message=False), None),
                                    gitstate.PathState("a.py", "A", "."))
        text = edit_notice.render([notice], self.CHANGE_MS, can_send=True)
        self.assertIn("peer-1 has no messaging socket in its registry entry: coordinate through the user.", text)
        self.assertIn("git shows it staged now", text)
        cannot = edit_notice.render([notice], self.CHANGE_MS, can_send=False)
        self.assertIn("This session has no messaging socket", cannot)
        self.assertNotIn("2.1", text + cannot)
        self.assertIn("through the user", edit_notice.render([notice], self.CHANGE_MS, True, host="codex"))

    def test_many_files_are_counted_after_five_lines(self):
        notices = [edit_notice.Notice(edit_notice.Candidate("/r/f%d.py" % n, "/r", party(), None),
                                      gitstate.PathState("f%d.py" % n, ".", "M")) for n in range(8)]
        lines = edit_notice.render(notices, self.CHANGE_MS, True).splitlines()
        self.assertEqual(len(lines), 7)
        self.assertEqual(lines[5], "peerhooks: uncommitted work of peer-1 also in f5.py, f6.py, f7.py.")

    def test_many_parties_of_one_file_are_named_after_five_lines(self):
        notices = [edit_notice.Notice(edit_notice.Candidate("/r/f.py", "/r", party(name="peer-%d" % n), None),
                                      gitstate.PathState("f.py", ".", "M")) for n in range(12)]
        lines = edit_notice.render(notices, self.CHANGE_MS, True).splitlines()
        self.assertEqual(lines[5], "peerhooks: uncommitted work of peer-5, peer-6, peer-7, peer-8 and 3 more "
                                   "also in f.py.")


class GitStateOfFiles(support.HomeTestCase):
    def test_the_newest_commit_touching_each_file_since_a_time_in_one_log(self):
        repo = self.repo("r", {"a.py": "1\n", "b c.py": "1\n", "*.py": "1\n"})
        claudehome.leave_changed(repo, ["a.py"], "2\n")
        git(repo, "commit", "-qam", "a again")
        found = gitstate.committed_since(repo, ["a.py", "b c.py", "*.py", "never.py"], None, 5)
        self.assertEqual(sorted(found), ["*.py", "a.py", "b c.py"])  # a pathspec of `*.py` is taken literally
        self.assertGreaterEqual(found["a.py"], found["b c.py"])
        self.assertEqual(gitstate.committed_since(repo, ["a.py", "b c.py"], int(time.time()) - 3600, 5).keys(),
                         {"a.py", "b c.py"})
        self.assertEqual(gitstate.committed_since(repo, ["a.py"], int(time.time()) + 3600, 5), {})

    def test_a_status_of_named_files_only_and_when_refs_last_moved(self):
        repo = self.repo("r", {"a.py": "1\n"})
        claudehome.leave_changed(repo, ["a.py", "new.py", "other.py"])
        states = gitstate.read(repo, 5, paths=["a.py", "new.py"])
        self.assertEqual(sorted(states), ["a.py", "new.py"])
        before = gitrepo.refs_moved_ms(repo)
        time.sleep(0.05)
        git(repo, "commit", "-qam", "moves HEAD")
        self.assertGreater(gitrepo.refs_moved_ms(repo), before)


class NoticeRecord(support.HomeTestCase):
    def record(self, session_id="s1"):
        return notice_state.Record(os.path.join(self.claude.home, "peerhooks"), session_id)

    def test_what_was_told_or_settled_is_remembered_and_bounded(self):
        with self.record() as record:
            record.save(["told"], ["settled"], 1000)
        with self.record() as record:
            self.assertEqual(record.keys, {"told": [1000, "told"], "settled": [1000, "settled"]})
            record.save(["k%d" % n for n in range(notice_state.MAX_KEYS + 10)], [], 2000)
        with self.record() as record:
            self.assertEqual(len(record.keys), notice_state.MAX_KEYS)

    def test_a_symlink_in_the_records_place_is_set_aside_never_followed(self):
        folder = os.path.join(self.claude.home, "peerhooks", notice_state.FOLDER)
        os.makedirs(folder)
        target = os.path.join(self.tmp, "elsewhere.json")
        with open(target, "w") as handle:
            handle.write('{"version": 1, "keys": {"planted": [1, "told"]}}')
        os.symlink(target, os.path.join(folder, "s1.json"))
        with self.record() as record:
            self.assertEqual(record.keys, {})
            record.save(["new"], [], 5)
        with open(target) as handle:
            self.assertIn("planted", handle.read())  # the link's target was never written
        self.assertFalse(os.path.islink(os.path.join(folder, "s1.json")))

    def test_a_symlinked_folder_is_never_written_through(self):
        os.makedirs(os.path.join(self.claude.home, "peerhooks"))
        elsewhere = os.path.join(self.tmp, "elsewhere")
        os.makedirs(elsewhere)
        os.symlink(elsewhere, os.path.join(self.claude.home, "peerhooks", notice_state.FOLDER))
        with self.assertRaises(OSError):
            with self.record():
                pass
        self.assertEqual(os.listdir(elsewhere), [])

    def test_records_of_sessions_gone_for_a_month_are_swept_on_a_first_record(self):
        with self.record("old") as record:
            record.save(["k"], [], 1)
        old = os.path.join(self.claude.home, "peerhooks", notice_state.FOLDER, "old.json")
        month_ago = (now_ms() - notice_state.MAX_AGE_MS - 60000) / 1000.0
        os.utime(old, (month_ago, month_ago))
        with self.record("new") as record:
            record.save(["k"], [], now_ms())
        self.assertFalse(os.path.exists(old))


class NoticeTestCase(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n", "src/app.py": "x = 1\n"})

    def peer_wrote(self, rel, name="shop-3a", prompts=("add CSV export to the orders page please",),
                   version=None, tool="Write", at_ms=None):
        """A live peer whose transcript shows it changed rel, which is left changed in the tree."""
        path = claudehome.leave_changed(self.main, [rel])[0]
        peer = self.claude.live_session(self.main, name=name, prompts=list(prompts), version=version)
        self.claude.append_records(peer.session_id, self.main, [
            edit_record(peer.session_id, self.main, path, at_ms or now_ms() - 60000, tool=tool)], version)
        return peer, path

    def notice(self, result):
        """The additionalContext of a PreToolUse answer, or None for silence."""
        self.assertEqual(result.returncode, 0, result.stderr)
        if not result.stdout:
            self.assertEqual(result.stderr, "")
            return None
        output = json.loads(result.stdout)["hookSpecificOutput"]
        self.assertEqual(output["hookEventName"], "PreToolUse")
        self.assertNotIn("permissionDecision", output)  # never blocks
        return output["additionalContext"]

    def call(self, path, **kwargs):
        return self.notice(self.run_hook(SCRIPT, write_call(path, cwd=self.main, **kwargs)))


@unittest.skipIf(support.SIMULATED == "win32", "Windows has no posix module: the full judgement always runs")
class AloneShortcut(NoticeTestCase):
    """edit_alone answers "alone" only where the full judgement is silent for want of anyone else."""

    def alone(self, payload):
        from peerhooks.edit_notice import alone as edit_alone

        raw = json.dumps(payload).encode() if isinstance(payload, dict) else payload
        with mock.patch.dict(os.environ, self.claude.env(), clear=True):
            return edit_alone.alone(raw)

    def test_no_registry_or_only_this_sessions_entry_is_alone(self):
        path = os.path.join(self.main, "src", "app.py")
        self.assertTrue(self.alone(write_call(path)))
        me = self.claude.live_session(self.main, name="me", session_id=ME)
        self.assertTrue(self.alone(write_call(path, transcript_path=me.transcript)))
        compact = json.dumps(write_call(path), separators=(",", ":")).encode()
        self.assertTrue(self.alone(compact))

    def test_anyone_else_or_anything_unclear_is_not_alone(self):
        path = os.path.join(self.main, "src", "app.py")
        me = self.claude.live_session(self.main, name="me", session_id=ME)
        self.assertFalse(self.alone(dict(write_call(path), agent_id="a1", agent_type="general-purpose")))
        os.makedirs(os.path.join(me.transcript[:-len(".jsonl")], "subagents"))
        self.assertFalse(self.alone(write_call(path, transcript_path=me.transcript)))
        self.assertFalse(self.alone(write_call(path, session_id="someone-else")))
        self.assertFalse(self.alone(b'{"session_id": "me-\\u0073ession-0000-0000"}'))  # escaped: not read here
        self.claude.live_session(self.repo("other"), name="elsewhere")
        self.assertFalse(self.alone(write_call(path)))  # another entry: the full judgement decides

    def test_a_relative_config_dir_is_left_to_the_full_judgement(self):
        from peerhooks.edit_notice import alone as edit_alone

        self.assertIsNone(edit_alone.claude_home({b"CLAUDE_CONFIG_DIR": b"rel/.claude"}))
        self.assertIsNone(edit_alone.claude_home({b"CLAUDE_CONFIG_DIR": b"~/.claude"}))
        self.assertEqual(edit_alone.claude_home({b"HOME": b"/h/"}), b"/h/.claude")

    def test_an_escaped_copy_of_the_key_in_a_files_content_is_not_the_session_id(self):
        from peerhooks.edit_notice import alone as edit_alone

        raw = json.dumps({"tool_input": {"content": '"session_id":"fake"'}, "session_id": "real"}).encode()
        self.assertEqual(edit_alone.field(raw, b"session_id"), b"real")


class NoticeEndToEnd(NoticeTestCase):
    def test_a_write_to_a_file_a_live_peer_left_uncommitted_names_the_peer_and_the_file(self):
        self.peer_wrote("src/export.py")
        text = self.call(os.path.join(self.main, "src", "export.py"))
        self.assertRegex(text, r"^peerhooks: src/export.py holds uncommitted work of shop-3a, a live session in "
                               r"this checkout \(busy; it changed the file 1m ago; git shows it untracked now\)\. "
                               r'Its latest prompt: "add CSV export to the orders page please"\.')

    def test_ten_edits_bring_one_notice_and_a_new_change_by_the_peer_a_new_one(self):
        peer, path = self.peer_wrote("src/export.py")
        self.assertIsNotNone(self.call(path, tool="Edit"))
        for _ in range(9):
            self.assertIsNone(self.call(path, tool="Edit"))
        self.claude.append_records(peer.session_id, self.main, [edit_record(peer.session_id, self.main, path,
                                                                            now_ms())])
        self.assertIn("shop-3a", self.call(path, tool="Edit"))

    def test_a_file_only_this_session_changed_brings_none(self):
        self.claude.live_session(self.main, name="shop-3a")
        mine = self.claude.live_session(self.main, name="me", session_id=ME)
        path = claudehome.leave_changed(self.main, ["src/mine.py"])[0]
        self.claude.append_records(mine.session_id, self.main, [edit_record(ME, self.main, path, now_ms())])
        self.assertIsNone(self.call(path, transcript_path=mine.transcript))

    def test_a_file_the_peer_only_read_brings_none(self):
        peer = self.claude.live_session(self.main, name="shop-3a")
        path = claudehome.leave_changed(self.main, ["src/read.py"])[0]
        self.claude.append_records(peer.session_id, self.main, [edit_record(peer.session_id, self.main, path,
                                                                            now_ms(), tool="Read")])
        self.assertIsNone(self.call(path))

    def test_a_file_the_peer_committed_brings_none_even_once_it_holds_other_changes(self):
        _peer, path = self.peer_wrote("src/app.py")
        git(self.main, "commit", "-qam", "the peer's change")
        self.assertIsNone(self.call(path))
        claudehome.leave_changed(self.main, ["src/app.py"], "x = 3  # this session's own change\n")
        self.assertIsNone(self.call(path))

    def test_a_commit_since_the_change_settles_it_though_this_session_never_saw_the_file_clean(self):
        _peer, path = self.peer_wrote("src/app.py", at_ms=now_ms() - 120000)
        git(self.main, "commit", "-qam", "the peer's change")
        claudehome.leave_changed(self.main, ["src/app.py"], "x = 3  # a later change nobody's transcript shows\n")
        self.assertIsNone(self.call(path))

    def test_a_file_the_peer_stashed_brings_none_even_once_it_holds_other_changes(self):
        _peer, path = self.peer_wrote("src/app.py")
        git(self.main, "stash", "push", "-q", "--", "src/app.py")
        self.assertIsNone(self.call(path))
        claudehome.leave_changed(self.main, ["src/app.py"], "x = 3  # this session's own change\n")
        self.assertIsNone(self.call(path))

    def test_a_file_the_peer_wrote_with_bash_counts(self):
        peer = self.claude.live_session(self.main, name="shop-3a")
        claudehome.leave_changed(self.main, ["src/gen.py"])
        self.claude.append_records(peer.session_id, self.main, [
            bash_record(peer.session_id, self.main, "printf 'x = 1\\n' > src/gen.py", now_ms())])
        self.assertIn("src/gen.py holds uncommitted work of shop-3a", self.call(os.path.join(self.main, "src/gen.py")))

    def test_alone_a_write_is_silent(self):
        path = claudehome.leave_changed(self.main, ["src/alone.py"])[0]
        self.assertIsNone(self.call(path))

    def test_the_off_switch_silences_it(self):
        _peer, path = self.peer_wrote("src/export.py")
        self.assertIsNone(self.notice(self.run_hook(SCRIPT, write_call(path, cwd=self.main), PEERHOOKS_GUARD="off")))

    def test_a_peer_in_another_checkout_does_not_count(self):
        other = self.repo("other")
        peer = self.claude.live_session(other, name="elsewhere")
        path = claudehome.leave_changed(self.main, ["src/x.py"])[0]
        self.claude.append_records(peer.session_id, other, [edit_record(peer.session_id, other, path, now_ms())])
        self.assertIsNone(self.call(path))

    def test_messaging_advice_follows_the_sockets(self):
        _peer, path = self.peer_wrote("src/export.py", version=claudehome.CURRENT_VERSION)
        payload = write_call(path, cwd=self.main)
        text = self.notice(self.run_hook(SCRIPT, payload, CLAUDE_CODE_MESSAGING_SOCKET="/tmp/cc-socks/1.sock"))
        self.assertIn("Message shop-3a with SendMessage to coordinate.", text)
        old_peer, old_path = self.peer_wrote("src/old.py", name="old-peer")
        text = self.notice(self.run_hook(SCRIPT, write_call(old_path, cwd=self.main),
                                         CLAUDE_CODE_MESSAGING_SOCKET="/tmp/cc-socks/1.sock"))
        self.assertIn("old-peer has no messaging socket in its registry entry: coordinate through the user.", text)

    def test_bad_payloads_and_homes_are_silent(self):
        _peer, path = self.peer_wrote("src/export.py")
        for payload in (b"", b"\xff garbage", b"[]", b'{"tool_name": "Write"}',
                        write_call(path, session_id="../escape", cwd=self.main),
                        dict(write_call(path, cwd=self.main), tool_input={"file_path": 5}),
                        dict(write_call("src/export.py", cwd=self.main), cwd="relative")):
            result = self.run_hook(SCRIPT, payload)
            self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""), payload)

    def test_a_state_folder_that_cannot_be_used_means_silence(self):
        _peer, path = self.peer_wrote("src/export.py")
        os.makedirs(os.path.join(self.claude.home, "peerhooks"))
        with open(os.path.join(self.claude.home, "peerhooks", notice_state.FOLDER), "w") as handle:
            handle.write("a file where the folder would be\n")
        result = self.run_hook(SCRIPT, write_call(path, cwd=self.main))
        self.assertEqual((result.returncode, result.stdout), (0, ""))

    def test_the_peers_prompt_is_redacted(self):
        _peer, path = self.peer_wrote("src/export.py", prompts=["deploy the exporter with token=ghp_abcdefghijklmnopqrstuvwxyz0123 today"])
        text = self.call(path)
        self.assertNotIn("ghp_abcdefghijklmnopqrstuvwxyz0123", text)
        self.assertIn("[redacted]", text)


class CodexCalls(NoticeTestCase):
    def codex_call(self, patch):
        with open(os.path.join(SAMPLES, "hook-PreToolUse-apply_patch.json"), encoding="utf-8") as handle:
            payload = json.loads(json.load(handle)["stdin"])
        payload.update(cwd=self.main, tool_input={"command": patch})
        raw = json.dumps(support.client_payload(payload)).encode()  # Codex sends no newline and closes stdin
        return self.notice(self.run_hook(SCRIPT, raw, args=["--host", "codex"]))

    def test_a_patch_updating_a_claude_peers_uncommitted_file_names_the_peer(self):
        self.peer_wrote("src/export.py")
        text = self.codex_call("*** Begin Patch\n*** Add File: src/new.py\n+N = 1\n"
                               "*** Update File: src/export.py\n@@\n-a\n+b\n*** End Patch\n")
        self.assertIn("src/export.py holds uncommitted work of shop-3a", text)
        self.assertNotIn("src/new.py", text)
        self.assertIn("Coordinate with shop-3a through the user.", text)
        self.assertNotIn("SendMessage", text)

    def test_a_patch_of_files_no_peer_changed_is_silent(self):
        self.peer_wrote("src/export.py")
        self.assertIsNone(self.codex_call("*** Begin Patch\n*** Add File: src/new.py\n+N = 1\n*** End Patch\n"))


class WithinOneSession(NoticeTestCase):
    """A subagent's call is judged against its main thread and running siblings; the main
    thread's against its running subagents (identity.parties, as the guard judges them)."""

    SESSION = "s-main-session-0000"

    def setUp(self):
        super().setUp()
        self.transcript = self.claude.transcript_path(self.SESSION, self.main)
        self.main_file = claudehome.leave_changed(self.main, ["src/main_work.py"])[0]
        self.claude.write_session_files(self.SESSION, self.main, prompts=["split the work between two agents"],
                                        edits=[self.main_file])
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, self.SESSION, self.main, name="shop-7a")

    def subagent(self, agent_id, rel, meta):
        folder = os.path.join(self.transcript[:-len(".jsonl")], "subagents")
        os.makedirs(folder, exist_ok=True)
        path = claudehome.leave_changed(self.main, [rel])[0]
        record = edit_record(self.SESSION, self.main, path, now_ms(), tool="Write")
        with open(os.path.join(folder, "agent-%s.jsonl" % agent_id), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(dict(record, isSidechain=True, agentId=agent_id)) + "\n")
        with open(os.path.join(folder, "agent-%s.meta.json" % agent_id), "w", encoding="utf-8") as handle:
            json.dump(meta, handle)
        return path

    def own_call(self, path, agent_id=None):
        extra = {"transcript_path": self.transcript}
        if agent_id:
            extra.update(agent_id=agent_id, agent_type="general-purpose")
        return self.call(path, session_id=self.SESSION, **extra)

    def test_a_subagent_is_told_of_its_running_siblings_and_its_main_threads_files_not_its_own(self):
        mine = self.subagent("a1111111111111111", "src/first.py", {"toolUseId": "toolu_1", "description": "first"})
        sibling = self.subagent("b2222222222222222", "src/second.py", {"toolUseId": "toolu_2", "description": "second"})
        self.assertIsNone(self.own_call(mine, "a1111111111111111"))
        text = self.own_call(sibling, "a1111111111111111")
        self.assertIn("src/second.py holds uncommitted work of shop-7a/subagent-b2222222 (second), a subagent of "
                      "this session that still runs", text)
        self.assertIn("part of this same session", text)
        self.assertNotIn("SendMessage", text)
        self.assertIn("this session's main thread", self.own_call(self.main_file, "a1111111111111111"))

    def test_the_main_thread_is_told_of_a_running_subagents_file_only(self):
        running = self.subagent("c3333333333333333", "src/running.py", {"finished": False, "toolUseId": "toolu_3"})
        done = self.subagent("d4444444444444444", "src/done.py", {"finished": True, "toolUseId": "toolu_4"})
        self.assertIn("shop-7a/subagent-c3333333", self.own_call(running))
        self.assertIsNone(self.own_call(done))
        self.assertIsNone(self.own_call(self.main_file))


class AcrossClear(NoticeTestCase):
    """A session is the chain of ids its process had across /clear: a peer's change made before its
    /clear is still its, and this session's own before its /clear is still its own."""

    def start_session(self, session_id, source):
        payload = {"session_id": session_id, "hook_event_name": "SessionStart", "source": source,
                   "cwd": self.main, "transcript_path": self.claude.transcript_path(session_id, self.main)}
        self.assertEqual(self.run_hook("peers.py", payload, args=["--hook"]).returncode, 0)

    def cleared(self, name, before, after, edits):
        process = self.claude.spawn()
        self.claude.write_session_files(before, self.main, prompts=["add the CSV export to orders"], edits=edits)
        self.claude.registry_entry(process.pid, before, self.main, name=name)
        self.start_session(before, "startup")
        self.claude.write_session_files(after, self.main, prompts=[])
        self.claude.registry_entry(process.pid, after, self.main, name=name)
        self.start_session(after, "clear")

    def test_a_peers_change_from_before_its_clear_is_still_noticed(self):
        path = claudehome.leave_changed(self.main, ["src/export.py"])[0]
        self.cleared("shop-2c", "peer-before-clear-00", "peer-after-clear-000", [path])
        self.assertIn("holds uncommitted work of shop-2c", self.call(path))

    def test_this_sessions_own_change_from_before_its_clear_is_its_own(self):
        self.claude.live_session(self.main, name="shop-9z")
        path = claudehome.leave_changed(self.main, ["src/mine.py"])[0]
        self.cleared("me", "me-before-clear-0000", "me-after-clear-00000", [path])
        self.assertIsNone(self.call(path, session_id="me-after-clear-00000",
                                    transcript_path=self.claude.transcript_path("me-after-clear-00000", self.main)))


if __name__ == "__main__":
    unittest.main()

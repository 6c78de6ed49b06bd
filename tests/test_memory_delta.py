"""memory_delta.py end to end (payload on stdin, temporary home, real repos and live processes), and
the pure parts of peerhooks.memory_delta.watch: what changed, who wrote it, what a Bash line writes, the notice."""
import json
import os
import subprocess
import time
import unittest

import support
from fixtures import claudehome
from peerhooks.memory_delta import report, watch

HOUR_MS = 3600 * 1000
DAY_MS = 24 * HOUR_MS
HEADER = report.HEADER


def read_record(session_id, cwd, path, at_ms):
    """An assistant record that only reads a file."""
    record = claudehome.edit_record(session_id, cwd, path, at_ms)
    record["message"]["content"][0].update(name="Read", input={"file_path": path})
    return record


class MemoryDeltaHook(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()
        self.me = self.claude.live_session(self.repo_path, name="me-session",
                                           started_ms=claudehome.now_ms() - HOUR_MS)
        self.peer = self.claude.live_session(self.repo_path, name="peer-billing")
        self.memory = self.claude.memory_dir(self.repo_path)

    # -- helpers ---------------------------------------------------------------------------
    def hook(self, session_id=None, cwd=None, payload=None, process=False):
        payload = payload if payload is not None else {
            "session_id": session_id or self.me.session_id, "cwd": cwd or self.repo_path,
            "hook_event_name": "UserPromptSubmit", "prompt": "carry on with the migration please"}
        result = self.run_hook("memory_delta.py", payload, process=process)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        return result.stdout

    def record(self, session, records):
        self.claude.append_records(session.session_id, session.cwd, records)

    def peer_writes(self, filename, description, peer=None, layout="top", at_ms=None):
        """A memory note written by a peer: its transcript shows the Write, then the file exists."""
        peer = peer or self.peer
        path = os.path.join(self.memory, filename)
        self.record(peer, [claudehome.edit_record(peer.session_id, peer.cwd, path,
                                                  at_ms or claudehome.now_ms(), tool="Write")])
        return self.claude.write_memory(self.repo_path, filename, description,
                                        origin_session_id=peer.session_id, layout=layout)

    def i_write(self, filename, description, tool="Write"):
        path = os.path.join(self.memory, filename)
        self.record(self.me, [claudehome.edit_record(self.me.session_id, self.me.cwd, path,
                                                     claudehome.now_ms(), tool=tool)])
        return self.claude.write_memory(self.repo_path, filename, description,
                                        origin_session_id=self.me.session_id)

    def write_file(self, path, text, mtime_s=None):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        if mtime_s is not None:
            os.utime(path, (mtime_s, mtime_s))
        return path

    def lines(self, out):
        return out.splitlines()[1:]

    # -- the cases -------------------------------------------------------------------
    def test_first_run_lists_peer_writes_and_not_own_writes(self):
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.i_write("project_queue.md", "The billing queue moves to SQS in March")
        out = self.hook()
        self.assertEqual(out.splitlines()[0], HEADER)
        self.assertRegex(out, r"- feedback_db\.md \(\d\d:\d\d, peer-billing\): Integration tests must hit a real database\n")
        self.assertNotIn("project_queue", out)

    def test_second_run_is_silent(self):
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.assertIn("feedback_db.md", self.hook())
        self.assertEqual(self.hook(), "")

    def test_a_file_written_after_the_stamp_shows_once(self):
        self.assertEqual(self.hook(), "")
        self.peer_writes("feedback_style.md", "Prefer small pull requests")
        self.assertIn("feedback_style.md", self.hook())
        self.assertEqual(self.hook(), "")

    def test_a_file_changed_again_after_being_shown_shows_again(self):
        path = self.peer_writes("feedback_style.md", "Prefer small pull requests")
        self.assertIn("feedback_style.md", self.hook())
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("And squash them.\n")
        self.assertIn("feedback_style.md", self.hook())

    def test_eight_files_give_five_lines_and_three_more(self):
        for index in range(8):
            self.peer_writes("note_%d.md" % index, "note number %d" % index)
        lines = self.lines(self.hook())
        self.assertEqual(len(lines), 6)
        self.assertTrue(all(line.startswith("- note_") for line in lines[:5]))
        self.assertEqual(lines[5], "- +3 more in ~/.claude/projects/%s/memory" % claudehome.slug(self.repo_path))

    def test_a_file_named_like_one_this_session_wrote_elsewhere_is_still_shown(self):
        self.record(self.me, [claudehome.edit_record(self.me.session_id, self.repo_path,
                                                     os.path.join(self.repo_path, "docs", "feedback_db.md"),
                                                     claudehome.now_ms(), tool="Write")])
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.assertIn("feedback_db.md (", self.hook())

    def test_a_file_this_session_only_read_is_shown(self):
        path = self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.record(self.me, [read_record(self.me.session_id, self.repo_path, path, claudehome.now_ms())])
        self.assertIn("feedback_db.md (", self.hook())

    def test_a_file_this_session_created_and_a_peer_then_edited_is_shown_as_the_peers(self):
        path = os.path.join(self.memory, "project_queue.md")
        self.record(self.me, [claudehome.edit_record(self.me.session_id, self.repo_path, path,
                                                     claudehome.now_ms() - 120000, tool="Write")])
        self.record(self.peer, [claudehome.edit_record(self.peer.session_id, self.repo_path, path,
                                                       claudehome.now_ms() - 60000)])
        self.claude.write_memory(self.repo_path, "project_queue.md", "The queue moves to SQS",
                                 origin_session_id=self.me.session_id)
        self.assertRegex(self.hook(), r"- project_queue\.md \(\d\d:\d\d, peer-billing\): The queue moves to SQS")

    def test_own_edit_after_a_peer_write_hides_the_file(self):
        path = os.path.join(self.memory, "project_queue.md")
        self.record(self.peer, [claudehome.edit_record(self.peer.session_id, self.repo_path, path,
                                                       claudehome.now_ms() - 120000, tool="Write")])
        self.record(self.me, [claudehome.edit_record(self.me.session_id, self.repo_path, path,
                                                     claudehome.now_ms() - 60000)])
        self.claude.write_memory(self.repo_path, "project_queue.md", "The queue moves to SQS")
        self.assertEqual(self.hook(), "")

    def test_own_bash_writes_to_the_exact_path_are_not_shown(self):
        redirected = os.path.join(self.memory, "a_redirect.md")
        heredoc = os.path.join(self.memory, "b_heredoc.md")
        in_place = os.path.join(self.memory, "c_sed.md")
        relative = os.path.join(self.memory, "d_tee.md")
        now = claudehome.now_ms()
        self.record(self.me, [
            claudehome.bash_record(self.me.session_id, self.repo_path, "echo '- more' >> %s" % redirected, now),
            claudehome.bash_record(self.me.session_id, self.repo_path,
                                   "cat > '%s' <<'EOF'\n# Heredoc note\nEOF" % heredoc, now),
            claudehome.bash_record(self.me.session_id, self.repo_path, "sed -i 's/a/b/' %s" % in_place, now),
            claudehome.bash_record(self.me.session_id, self.repo_path,
                                   "cd %s && echo hi | tee d_tee.md" % self.memory, now),
        ])
        for path in (redirected, heredoc, in_place, relative):
            self.write_file(path, "# A note written from the shell\n")
        self.peer_writes("z_peer.md", "Written by the peer")
        out = self.hook()
        self.assertEqual(self.lines(out), [l for l in self.lines(out) if "z_peer.md" in l])
        self.assertEqual(len(self.lines(out)), 1)

    def test_a_rule_file_a_peer_creates_is_shown(self):
        self.hook()  # the listing this session started from
        rule = self.write_file(os.path.join(self.repo_path, ".claude", "rules", "testing.md"),
                               "# Run the whole suite before pushing\n")
        home_rule = self.write_file(os.path.join(self.claude.home, "CLAUDE.md"), "# My global rules\n")
        self.record(self.peer, [claudehome.edit_record(self.peer.session_id, self.repo_path, p,
                                                       claudehome.now_ms()) for p in (rule, home_rule)])
        out = self.hook()
        self.assertRegex(out, r"- \.claude/rules/testing\.md \(\d\d:\d\d, peer-billing\): Run the whole suite before pushing")
        self.assertRegex(out, r"- ~/\.claude/CLAUDE\.md \(\d\d:\d\d, peer-billing\): My global rules")

    def test_a_loaded_rule_file_edited_by_a_peer_is_left_to_the_client_which_shows_the_diff(self):
        claude_md = self.write_file(os.path.join(self.repo_path, "CLAUDE.md"), "# House rules\n")
        self.hook()
        time.sleep(0.01)
        self.write_file(claude_md, "# House rules\nBe brief.\n")
        self.record(self.peer, [claudehome.edit_record(self.peer.session_id, self.repo_path, claude_md,
                                                       claudehome.now_ms())])
        self.assertEqual(self.hook(), "")
        self.assertIn("peer-fact.md", self.lines(self.hook_after_peer_note())[0])

    def hook_after_peer_note(self):
        self.peer_writes("peer-fact.md", "A memory note is still ours to tell")
        return self.hook()

    def test_a_deleted_memory_file_is_reported_with_when(self):
        path = self.peer_writes("feedback_old.md", "An old rule")
        self.hook()
        os.unlink(path)
        self.assertRegex("\n".join(self.lines(self.hook())), r"^- removed: feedback_old\.md \(\d\d:\d\d, another session\)$")
        self.assertEqual(self.hook(), "")

    def test_a_memory_file_a_peer_removed_says_by_whom(self):
        path = self.peer_writes("feedback_old.md", "An old rule")
        self.hook()
        os.unlink(path)
        self.record(self.peer, [claudehome.bash_record(self.peer.session_id, self.peer.cwd, "rm %s" % path,
                                                       claudehome.now_ms())])
        self.assertRegex("\n".join(self.lines(self.hook())), r"^- removed: feedback_old\.md \(\d\d:\d\d, peer-billing\)$")

    def test_a_memory_file_this_session_deleted_is_not_reported(self):
        path = self.peer_writes("feedback_old.md", "An old rule")
        self.hook()
        self.record(self.me, [claudehome.bash_record(self.me.session_id, self.repo_path, "rm -f %s" % path,
                                                     claudehome.now_ms())])
        os.unlink(path)
        self.assertEqual(self.hook(), "")

    def test_a_session_started_in_a_subfolder_of_the_repo_gets_notices(self):
        sub = os.path.join(self.repo_path, "services", "billing")
        os.makedirs(sub)
        in_sub = self.claude.live_session(sub, name="in-sub", started_ms=claudehome.now_ms() - HOUR_MS)
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.assertIn("feedback_db.md (", self.hook(session_id=in_sub.session_id, cwd=sub))

    def test_a_session_in_a_linked_worktree_gets_the_main_trees_memory_notices(self):
        worktree = os.path.join(self.tmp, "repo-wt")
        subprocess.run(["git", "-C", self.repo_path, "worktree", "add", "-q", "-b", "wt", worktree], check=True)
        in_worktree = self.claude.live_session(worktree, name="in-wt", started_ms=claudehome.now_ms() - HOUR_MS)
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.assertIn("feedback_db.md (", self.hook(session_id=in_worktree.session_id, cwd=worktree))

    def test_frontmatter_in_both_layouts_names_the_origin_session(self):
        top_writer = self.claude.live_session(self.repo_path, name="top-writer")
        nested_writer = self.claude.live_session(self.repo_path, name="nested-writer")
        self.claude.write_memory(self.repo_path, "a_top.md", "Top-level origin", top_writer.session_id, layout="top")
        self.claude.write_memory(self.repo_path, "b_nested.md", "Nested origin", nested_writer.session_id,
                                 layout="metadata")
        out = self.hook()
        self.assertRegex(out, r"- a_top\.md \(\d\d:\d\d, top-writer\): Top-level origin")
        self.assertRegex(out, r"- b_nested\.md \(\d\d:\d\d, nested-writer\): Nested origin")

    def test_a_writer_nobody_knows_is_another_session(self):
        self.claude.write_memory(self.repo_path, "a.md", "Unknown origin", "0000dead-0000-0000-0000-000000000000")
        self.assertRegex(self.hook(), r"- a\.md \(\d\d:\d\d, another session\): Unknown origin")

    def test_an_ended_session_in_this_checkout_is_named_by_its_transcript(self):
        path = os.path.join(self.memory, "feedback_db.md")
        ended_id, _ = self.claude.ended_session(self.repo_path, edits=[path], ended_ms=claudehome.now_ms())
        self.claude.write_memory(self.repo_path, "feedback_db.md", "Use a real database")
        self.assertRegex(self.hook(), r"- feedback_db\.md \(\d\d:\d\d, session %s\): Use a real database" % ended_id[:8])

    def test_an_unknown_session_id_starts_at_its_transcripts_first_record(self):
        stranger = "5a5a5a5a-0000-4000-8000-000000000001"
        first_ms = claudehome.now_ms() - 10 * 60000
        self.claude.append_records(stranger, self.repo_path, [
            claudehome.user_prompt(stranger, self.repo_path, "look at the failing build", first_ms)])
        before = self.claude.write_memory(self.repo_path, "before.md", "Written before this session")
        os.utime(before, ((first_ms - 60000) / 1000.0,) * 2)
        self.claude.write_memory(self.repo_path, "after.md", "Written after it started")
        out = self.hook(session_id=stranger)
        self.assertIn("after.md", out)
        self.assertNotIn("before.md", out)

    def test_a_memory_file_older_than_the_session_is_not_shown(self):
        old = self.claude.write_memory(self.repo_path, "old.md", "Loaded at start")
        two_hours_ago = (claudehome.now_ms() - 2 * HOUR_MS) / 1000.0
        os.utime(old, (two_hours_ago, two_hours_ago))
        self.assertEqual(self.hook(), "")

    def test_the_memory_index_is_not_watched(self):
        self.write_file(os.path.join(self.memory, "MEMORY.md"), "- [a](a.md)\n")
        self.assertEqual(self.hook(), "")

    def test_auto_memory_directory_setting_moves_the_watched_folder(self):
        folder = os.path.join(self.tmp, "shared-memory")
        with open(os.path.join(self.claude.home, "settings.json"), "w") as handle:
            json.dump({"autoMemoryDirectory": folder}, handle)
        self.write_file(os.path.join(folder, "team.md"), "---\ndescription: Shared team memory\n---\n")
        self.assertRegex(self.hook(), r"- team\.md \(\d\d:\d\d, another session\): Shared team memory")

    # -- never break a prompt ------------------------------------------------------------------
    def test_garbage_stdin_exits_0_silently(self):
        for payload in (b"not json\n", b"", b"[1, 2]\n", b"\xff\xfe\n",
                        {"session_id": "../../etc/passwd", "cwd": self.repo_path}, {"session_id": 7}):
            self.assertEqual(self.hook(payload=payload), "", payload)

    def test_missing_memory_folder_exits_0_silently(self):
        os.rmdir(self.memory)
        self.assertEqual(self.hook(), "")
        self.assertEqual(self.hook(cwd=os.path.join(self.tmp, "nowhere")), "")

    def test_unreadable_entries_exit_0_silently(self):
        os.symlink(os.path.join(self.tmp, "missing"), os.path.join(self.memory, "dangling.md"))
        os.mkdir(os.path.join(self.memory, "folder.md"))
        os.mkfifo(os.path.join(self.memory, "pipe.md"))
        if os.geteuid() != 0:  # root reads anything
            locked = self.write_file(os.path.join(self.memory, "locked.md"), "# secret\n")
            os.chmod(locked, 0)
        self.assertEqual(self.hook(process=True), "")  # a process: a blocked read ends at its timeout

    def test_binary_file_exits_0_silently(self):
        with open(os.path.join(self.memory, "blob.md"), "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)))
        self.assertEqual(self.hook(), "")

    def test_an_unwritable_state_folder_still_prints_and_exits_0(self):
        os.makedirs(os.path.join(self.claude.home, "peerhooks"))
        with open(os.path.join(self.claude.home, "peerhooks", "memory-delta"), "w") as handle:
            handle.write("not a folder")
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        result = self.run_hook("memory_delta.py", {"session_id": self.me.session_id, "cwd": self.repo_path})
        self.assertEqual(result.returncode, 0)
        self.assertIn("feedback_db.md", result.stdout)
        self.assertEqual(len(result.stderr.splitlines()), 1)

    def test_a_symlink_in_place_of_the_stamp_is_neither_read_nor_written_through(self):
        folder = os.path.join(self.claude.home, "peerhooks", "memory-delta")
        os.makedirs(folder)
        outside = self.write_file(os.path.join(self.tmp, "outside.json"), "keep me")
        os.symlink(outside, os.path.join(folder, self.me.session_id + ".json"))
        self.peer_writes("feedback_db.md", "Integration tests must hit a real database")
        self.assertIn("feedback_db.md", self.hook())  # the link is no stamp: the first run's listing
        self.assertEqual(self.hook(), "")  # and the stamp this run recorded is a file of its own
        with open(outside) as handle:
            self.assertEqual(handle.read(), "keep me")
        self.assertFalse(os.path.islink(os.path.join(folder, self.me.session_id + ".json")))

    def test_stamps_of_sessions_gone_for_thirty_days_are_swept_on_a_first_run(self):
        folder = os.path.join(self.claude.home, "peerhooks", "memory-delta")
        os.makedirs(folder)
        old = (time.time() - 31 * 86400,) * 2
        gone = self.write_file(os.path.join(folder, "gone-session.json"), "{}")
        live = self.write_file(os.path.join(folder, self.peer.session_id + ".json"), "{}")
        for path in (gone, live):
            os.utime(path, old)
        self.hook()
        self.assertFalse(os.path.exists(gone))
        self.assertTrue(os.path.exists(live))
        self.assertTrue(os.path.exists(os.path.join(folder, self.me.session_id + ".json")))


class Changes(unittest.TestCase):
    def test_first_run_takes_files_modified_after_the_start(self):
        listing = {"/m/a.md": (5_000_000_000, 1), "/m/b.md": (1_000_000_000, 1)}
        changed, removed = watch.changes(listing, None, 2000, gone=lambda p: True)
        self.assertEqual([c.path for c in changed], ["/m/a.md"])
        self.assertEqual(changed[0].previous_ms, 2000)
        self.assertEqual(removed, [])

    def test_a_file_written_during_the_last_run_differs_from_what_was_recorded(self):
        previous = watch.Stamp(10_000, {"/m/a.md": (9_000_000_000, 10)})
        changed, _ = watch.changes({"/m/a.md": (9_000_000_000, 12)}, previous, None, gone=lambda p: True)
        self.assertEqual([(c.path, c.previous_ms) for c in changed], [("/m/a.md", 9000)])

    def test_a_new_file_stamped_by_a_lagging_clock_just_before_the_listing_is_not_lost(self):
        previous = watch.Stamp(10_000, {})
        changed, _ = watch.changes({"/m/new.md": (9_990_000_000, 3)}, previous, None, gone=lambda p: True)
        self.assertEqual([c.path for c in changed], ["/m/new.md"])

    def test_a_path_no_longer_watched_but_still_on_disk_is_not_removed(self):
        previous = watch.Stamp(10_000, {"/other/a.md": (1, 1), "/m/b.md": (1, 1)})
        _, removed = watch.changes({}, previous, None, gone=lambda p: p.startswith("/m/"))
        self.assertEqual([r.path for r in removed], ["/m/b.md"])

    def test_stamps_round_trip_and_foreign_bytes_are_no_stamp(self):
        stamp = watch.Stamp(123, {"/m/ä.md": (1, 2)})
        self.assertEqual(watch.decode_stamp(watch.encode_stamp(stamp)), stamp)
        for raw in (b"", b"{", b"[]", b'{"version": 9}', b"\xff"):
            self.assertIsNone(watch.decode_stamp(raw))

    def test_expired_stamps_spare_live_sessions(self):
        now = 100 * DAY_MS
        entries = [("/s/a.json", "a", now - 31 * DAY_MS), ("/s/b.json", "b", now - 31 * DAY_MS),
                   ("/s/c.json", "c", now - DAY_MS)]
        self.assertEqual(watch.expired_stamps(entries, now, {"b"}), ["/s/a.json"])


class Writer(unittest.TestCase):
    W = report.Write

    def test_own_write_after_the_previous_change_is_own(self):
        self.assertIsNone(report.writer({"/m/a.md"}, 100, [self.W("/m/a.md", 150, False)], [], None))

    def test_own_write_before_the_previous_change_does_not_count(self):
        self.assertEqual(report.writer({"/m/a.md"}, 100, [self.W("/m/a.md", 50, False)], [], None),
                         report.ANOTHER_SESSION)

    def test_the_later_writer_wins(self):
        own = [self.W("/m/a.md", 150, False)]
        peers = [("early", [self.W("/m/a.md", 120, False)]), ("late", [self.W("/m/a.md", 170, False)])]
        self.assertEqual(report.writer({"/m/a.md"}, 100, own, peers, None), "late")
        self.assertIsNone(report.writer({"/m/a.md"}, 100, own, peers[:1], None))

    def test_origin_name_when_no_transcript_shows_a_write(self):
        self.assertEqual(report.writer({"/m/a.md"}, 100, [], [("p", [])], "origin-name"), "origin-name")

    def test_a_glob_matches_by_pattern(self):
        self.assertIsNone(report.writer({"/m/a.md"}, 100, [self.W("/m/*.md", 150, True)], [], None))


class BashTargets(unittest.TestCase):
    def targets(self, command, cwd="/repo"):
        return report.bash_write_targets(command, cwd, "/home/me")

    def test_redirections_write_their_target(self):
        self.assertEqual(self.targets("echo a > x.md; echo b >> /m/y.md 2>&1"),
                         [("/repo/x.md", False), ("/m/y.md", False)])

    def test_reading_and_quoting_write_nothing(self):
        self.assertEqual(self.targets("cat /m/a.md; grep -r 'x > /m/b.md' .; echo \"> /m/c.md\""), [])

    def test_tee_touch_rm_sed_in_place_and_dd(self):
        self.assertEqual(self.targets("tee -a /m/a.md"), [("/m/a.md", False)])
        self.assertEqual(self.targets("touch b.md && rm -f -- c.md"), [("/repo/b.md", False), ("/repo/c.md", False)])
        self.assertEqual(self.targets("sed -i.bak -e 's/a/b/' /m/d.md"), [("/m/d.md", False), ("/m/d.md.bak", False)])
        self.assertEqual(self.targets("sed 's/a/b/' /m/d.md"), [])
        self.assertEqual(self.targets("perl -pi -e 's/a/b/' /m/e.md"), [("/m/e.md", False)])
        self.assertEqual(self.targets("dd if=/dev/zero of=/m/f.md"), [("/m/f.md", False)])

    def test_copy_and_move_write_the_destination_and_move_removes_the_source(self):
        self.assertEqual(self.targets("cp /tmp/a.md /m/b.md"), [("/m/b.md", False)])
        self.assertEqual(self.targets("mv /m/a.md /m/b.md"), [("/m/a.md", False), ("/m/b.md", False)])
        self.assertEqual(self.targets("cp /tmp/a.md /tmp/b.md /m/"), [("/m/a.md", False), ("/m/b.md", False)])
        self.assertEqual(self.targets("cp -t /m /tmp/a.md"), [("/m/a.md", False)])

    def test_cd_tilde_and_home_are_followed_and_other_variables_skipped(self):
        self.assertEqual(self.targets("cd ~/notes && echo x > a.md"), [("/home/me/notes/a.md", False)])
        self.assertEqual(self.targets("echo x > $HOME/b.md; echo y > $OUT/c.md"), [("/home/me/b.md", False)])
        self.assertEqual(self.targets("FOO=1 sudo tee /m/a.md"), [("/m/a.md", False)])

    def test_globs_are_patterns(self):
        self.assertEqual(self.targets("rm /m/old_*.md"), [("/m/old_*.md", True)])


class Summaries(unittest.TestCase):
    def test_description_from_frontmatter_and_origin_in_both_layouts(self):
        top = "---\nname: a\ndescription: 'Quoted: text'\noriginSessionId: abc\n---\n\n# Heading\n"
        nested = "---\ndescription: Nested\nmetadata:\n  originSessionId: def\n---\nbody\n"
        self.assertEqual(report.summarize(top), report.Summary("Quoted: text", "abc"))
        self.assertEqual(report.summarize(nested), report.Summary("Nested", "def"))

    def test_block_scalar_description(self):
        text = "---\ndescription: >\n  Folded over\n  two lines\ntype: x\n---\n"
        self.assertEqual(report.summarize(text).description, "Folded over two lines")

    def test_first_heading_or_line_without_frontmatter(self):
        self.assertEqual(report.summarize("\n\n## Build rules\ntext\n").description, "text")
        self.assertEqual(report.summarize("# House rules\n\nKeep functions small.\n").description,
                         "Keep functions small.")
        self.assertEqual(report.summarize("# Only a title\n").description, "Only a title")
        self.assertEqual(report.summarize("plain first line\n").description, "plain first line")
        self.assertEqual(report.summarize("---\nno end\n").description, "---")

    def test_binary_and_cut_heads(self):
        self.assertIsNone(report.decode_head(b"a\0b", complete=True))
        self.assertIsNone(report.decode_head(b"\xff\xfe", complete=True))
        self.assertEqual(report.decode_head("é".encode() * 3 + b"\xc3", complete=False), "ééé")


class Render(unittest.TestCase):
    def notice(self, label, at_ms, folder="/m"):
        return report.Notice(label, folder, at_ms, "12:00", "peer", "x" * 200)

    def test_description_cut_to_160_characters_and_newest_first(self):
        out = report.render([self.notice("old.md", 1), self.notice("new.md", 2)], [], {})
        lines = out.splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertTrue(lines[1].startswith("- new.md (12:00, peer): "))
        self.assertEqual(len(lines[1].split(": ", 1)[1]), 160)

    def test_overflow_is_counted_per_folder(self):
        notices = [self.notice("m%d.md" % i, 10 + i) for i in range(5)] + [self.notice("r.md", 1, "/repo")]
        out = report.render(notices, [report.Removed("gone.md", "/m", "12:00", "peer")], {"/m": "~/mem"})
        self.assertEqual(out.splitlines()[-2:], ["- +1 more in /repo", "- +1 more in ~/mem"])

    def test_nothing_to_say_is_empty(self):
        self.assertEqual(report.render([], [], {}), "")


if __name__ == "__main__":
    unittest.main()

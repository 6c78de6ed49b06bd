"""guardverdict: whether to let git operations run while live peers are at stake, and the reason.
Pure: operations from gitops, peers and the index given."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks import gitops, guard_verdict  # noqa: E402
from peerhooks.guard_verdict import Judged, Peer  # noqa: E402

CWD = TOP = "/r"
EDITOR = Peer("editor-7f", ("/r/src/app.py", "/r/docs/guide.md"))


def judge(command, peers=(EDITOR,), cwd=CWD, staged=None, own=frozenset()):
    judged = [Judged(op, TOP, tuple(peers)) for op in gitops.parse(command, cwd) if op.kind != gitops.SAFE
              and op.cwd]
    return guard_verdict.verdict(judged, own, {TOP: staged} if staged is not None else {TOP: ()})


class WholeTree(unittest.TestCase):
    def test_whole_tree_forms_are_denied_with_a_peer_and_pass_alone(self):
        for command in ("git add -A", "git commit -am x", "git stash", "git clean -fd", "git checkout .",
                        "git rm -r --cached .", "git commit -m x .", "git reset", "git commit -a -C HEAD"):
            with self.subTest(command=command):
                refusals = judge(command, peers=[Peer("p")])
                self.assertEqual(len(refusals), 1)
                self.assertFalse(refusals[0].ask)
                self.assertEqual(judge(command, peers=()), [])

    def test_forms_without_a_narrow_one_ask_the_human(self):
        for command in ("git checkout main", "git pull --rebase", "git reset --hard", "git stash pop", "git rebase main",
                        "git bisect good HEAD~1", "git update-ref refs/heads/main HEAD~1", "git commit --amend"):
            with self.subTest(command=command):
                refusals = judge(command, peers=[Peer("p")])
                self.assertTrue(guard_verdict.is_ask(refusals))

    def test_dot_in_a_subfolder_is_judged_against_the_peers_changes_inside_it(self):
        self.assertEqual(judge("cd lib && git add .", peers=[EDITOR]), [])
        self.assertEqual(judge("cd lib && git clean -fd", peers=[EDITOR]), [])
        self.assertEqual(len(judge("cd src && git add .", peers=[EDITOR])), 1)

    def test_popping_what_the_same_line_pushed_passes(self):
        self.assertEqual(judge("git stash push -- lib/x.py && make && git stash pop", peers=[EDITOR]), [])
        self.assertEqual(len(judge("git stash pop", peers=[EDITOR])), 1)


class StashApply(unittest.TestCase):
    def apply(self, files, staged):
        op = gitops.parse("git stash apply", CWD)[0]._replace(entries=None if files is None else frozenset(files))
        return guard_verdict.verdict([Judged(op, TOP, (EDITOR,))], frozenset(), {TOP: staged})

    def test_an_entry_touching_no_staged_file_applies(self):
        # git refuses to apply over unstaged changes and untracked files in the way, keeps the entry
        self.assertEqual(self.apply(["src/models.py"], ["/r/src/util.py"]), [])

    def test_an_entry_holding_a_staged_file_asks_naming_it(self):
        refusal, = self.apply(["src/util.py", "src/models.py"], ["/r/src/util.py"])
        self.assertTrue(refusal.ask)
        self.assertEqual(refusal.files, ("src/util.py",))

    def test_unknown_files_or_an_unreadable_index_ask(self):
        self.assertTrue(guard_verdict.is_ask(self.apply(None, [])))
        self.assertTrue(guard_verdict.is_ask(self.apply(["src/models.py"], None)))


class Paths(unittest.TestCase):
    def test_a_folder_holding_a_peers_change_is_refused_naming_peer_and_file(self):
        refusal, = judge("git add src")
        self.assertEqual([p.name for p in refusal.peers], ["editor-7f"])
        self.assertEqual(refusal.files, ("src/app.py",))

    def test_naming_a_peers_file_itself_is_refused_unless_this_session_changed_it_too(self):
        self.assertEqual(len(judge("git add src/app.py")), 1)
        self.assertEqual(judge("git add src/app.py", own=frozenset(["/r/src/app.py"])), [])

    def test_other_paths_pass(self):
        for command in ("git add lib", "git add src/other.py", "git add srcx", "git add README.md",
                        "git commit -m x -- lib/a.py", "git reset -- lib"):
            with self.subTest(command=command):
                self.assertEqual(judge(command), [])

    def test_path_carrying_commit_stash_reset_and_restore_staged_are_judged_like_add(self):
        for command in ("git commit -m x src/", "git stash push -- src", "git reset -- src",
                        "git restore --staged src", "git rm -rf src", "git checkout -- docs"):
            with self.subTest(command=command):
                self.assertEqual(len(judge(command)), 1)

    def test_git_rm_is_judged_on_the_index_entries_it_matches(self):
        peer = Peer("p", ("/r/config/peer.yaml", "/r/config/base.yaml"))
        op, = gitops.parse("git rm --cached -r config", CWD)
        untracked_only = op._replace(entries=frozenset(["config/app.yaml"]))
        self.assertEqual(guard_verdict.verdict([Judged(untracked_only, TOP, (peer,))]), [])
        tracked = op._replace(entries=frozenset(["config/app.yaml", "config/base.yaml"]))
        refusal, = guard_verdict.verdict([Judged(tracked, TOP, (peer,))])
        self.assertEqual(refusal.files, ("config/base.yaml",))
        self.assertEqual(len(guard_verdict.verdict([Judged(op, TOP, (peer,))])), 1)  # entries unknown

    def test_relative_paths_follow_cd_and_top_pathspecs(self):
        self.assertEqual(len(judge("cd lib && git add ../src")), 1)
        self.assertEqual(len(judge("git add :/src", cwd="/r/lib")), 1)
        self.assertEqual(judge("cd src && git add lib"), [])

    def test_git_patterns_cross_folders_and_shell_globs_do_not(self):
        self.assertEqual(len(judge("git add '*.py'")), 1)
        self.assertEqual(judge("git add *.py"), [])
        self.assertEqual(len(judge("git add 'src/*'")), 1)

    def test_the_toplevel_path_is_the_whole_tree(self):
        for command in ("git add /r", "git add ..", "git -C /r/src add ../"):
            with self.subTest(command=command):
                refusal, = judge(command, peers=[Peer("idle-peer")], cwd="/r/lib")
                self.assertIn("every change", refusal.effect)

    def test_paths_computed_at_run_time_are_refused_with_a_live_peer(self):
        for command in ("git add $(git ls-files -m)", "git diff --name-only | xargs git add",
                        'git add "$FILES"', "git diff | git apply -R",
                        "git status --porcelain | while read s f; do git add \"$f\"; done"):
            with self.subTest(command=command):
                self.assertEqual(len(judge(command)), 1)
                self.assertEqual(judge(command, peers=()), [])


class PlainCommit(unittest.TestCase):
    STAGER = Peer("stager-3c", ("/r/a.py",), busy=False)

    def test_an_index_holding_a_peers_change_is_refused_naming_it_with_the_real_message(self):
        refusal, = judge("git commit -m 'fix it'", [self.STAGER], staged=("/r/a.py", "/r/b.py"),
                         own=frozenset(["/r/b.py"]))
        self.assertEqual(refusal.files, ("a.py",))
        reason = guard_verdict.reason([refusal], "git commit -m 'fix it'", ["b.py"])
        self.assertIn("git commit -m 'fix it' -- b.py", reason)

    def test_a_file_both_sessions_changed_does_not_block(self):
        self.assertEqual(judge("git commit -m x", [self.STAGER], staged=("/r/a.py",), own=frozenset(["/r/a.py"])), [])

    def test_files_nobody_claims_block_only_while_a_peer_is_busy(self):
        self.assertEqual(judge("git commit -m x", [self.STAGER], staged=("/r/c.py",)), [])
        self.assertEqual(len(judge("git commit -m x", [self.STAGER._replace(busy=True)], staged=("/r/c.py",))), 1)

    def test_paths_the_same_line_stages_are_this_sessions(self):
        busy = self.STAGER._replace(busy=True)
        self.assertEqual(judge("git add c.py && git commit -m x", [busy], staged=("/r/c.py",)), [])

    def test_an_unreadable_index_asks(self):
        refusal, = judge("git commit -m x", [self.STAGER], staged=None) or [None]
        self.assertTrue(refusal is None or refusal.ask)


class Reason(unittest.TestCase):
    def test_every_refusal_in_the_line_at_once_and_the_command_cut_to_200_characters(self):
        command = "git add -A && git stash && " + "echo " + "x" * 400
        refusals = judge(command, peers=[Peer("repo-2a"), Peer("repo-9f")])
        reason = guard_verdict.reason(refusals, command, [])
        self.assertEqual(len(refusals), 2)
        self.assertIn("stages every change", reason)
        self.assertIn("stashes every change", reason)
        self.assertLess(len(reason.splitlines()[0]), 240)

    def test_send_message_only_for_peers_that_can_receive_it_and_never_under_codex(self):
        refusals = judge("git add -A", peers=[Peer("sock", can_message=True), Peer("old")])
        claude = guard_verdict.reason(refusals, "git add -A", ["a.py"])
        self.assertIn("Message sock with SendMessage", claude)
        self.assertIn("old cannot receive messages: coordinate through the user", claude)
        self.assertIn("git add -- a.py", claude)
        self.assertNotIn("SendMessage", guard_verdict.reason(refusals, "git add -A", [], host="codex"))

    def test_a_session_that_cannot_send_is_sent_to_its_user_whoever_can_receive(self):
        refusals = judge("git add -A", peers=[Peer("sock", can_message=True)])
        reason = guard_verdict.reason(refusals, "git add -A", ["a.py"], can_send=False)
        self.assertNotIn("SendMessage", reason)
        self.assertIn("This session's Claude Code cannot send messages: coordinate with them through the user",
                      reason)

    def test_a_branch_switch_suggests_a_new_branch_in_a_linked_worktree(self):
        reason = guard_verdict.reason(judge("git checkout main", peers=[Peer("p")]), "git checkout main", [])
        self.assertIn("git worktree add -b <new-branch> ../<dir>", reason)

    def test_an_unknown_directory_is_not_judged(self):
        self.assertEqual(judge("cd $X && git add -A", peers=[Peer("p")]), [])


if __name__ == "__main__":
    unittest.main()

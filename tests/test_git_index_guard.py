"""git_index_guard.py end to end: payload on stdin, real git repositories, real live peer processes."""
import json
import os
import random
import subprocess
import unittest

from support import HomeTestCase, shell_path
from fixtures import claudehome
from fixtures.claudehome import bash_record, edit_record, now_ms

SCRIPT = "git_index_guard.py"


def bash(command, cwd, session_id="this-session-0000"):
    return {"session_id": session_id, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "x"}, "tool_use_id": "t1", "cwd": cwd}


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def git(repo, *args):
    subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


class GuardTestCase(HomeTestCase):
    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n", "src/app.py": "x = 1\n"})

    def guard(self, command, cwd=None, session_id="this-session-0000", process=False):
        return self.run_hook(SCRIPT, bash(command, cwd or self.main, session_id), process=process)

    def decision(self, result):
        """(permissionDecision, reason) of a JSON decision on stdout."""
        self.assertEqual(result.returncode, 0, result.stderr)
        output = json.loads(result.stdout)["hookSpecificOutput"]
        self.assertEqual(output["hookEventName"], "PreToolUse")
        return output.get("permissionDecision"), output.get("permissionDecisionReason")

    def assertRefused(self, result, *names):
        decision, reason = self.decision(result)
        self.assertIn(decision, ("deny", "ask"))
        for name in names:
            self.assertIn(name, reason)

    def assertAllowed(self, result):
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))

    def working_peer(self, name="main-peer", cwd=None, modified=("src/app.py",), new=("src/peer_new.py",),
                     staged=(), **options):
        """A live peer with uncommitted work in the checkout, as git holds it and its transcript shows:
        tracked files it modified, files it created, and files it staged (changed, then `git add`)."""
        edits = []
        for rel in tuple(modified) + tuple(new) + tuple(staged):
            path = os.path.join(self.main, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "a") as handle:
                handle.write("# %s's change\n" % name)
            edits.append(path)
        for rel in staged:
            git(self.main, "add", rel)
        return self.claude.live_session(cwd or self.main, name=name, edits=edits, **options)

    def own_change(self, rel, session_id="this-session-0000"):
        """A file this session changed, as git holds it and its transcript shows."""
        path = os.path.join(self.main, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a") as handle:
            handle.write("# this session's change\n")
        self.claude.append_records(session_id, self.main, [edit_record(session_id, self.main, path, now_ms())])

    def suggestion(self, reason):
        """The runnable block after `Instead, run:`, or None."""
        lines = reason.splitlines()
        if "Instead, run:" not in lines:
            return None
        start = lines.index("Instead, run:") + 2
        return "\n".join(lines[start:lines.index("```", start)])


class PeersInTheCheckout(GuardTestCase):
    def test_sendmessage_is_advised_only_when_this_sessions_client_can_send(self):
        self.working_peer(version=claudehome.CURRENT_VERSION)
        payload = bash("git add -A", self.main)
        _, oldest = self.decision(self.run_hook(SCRIPT, payload))  # no socket variable, no entry
        self.assertNotIn("SendMessage", oldest)
        self.assertIn("no messaging socket (no CLAUDE_CODE_MESSAGING_SOCKET): coordinate with main-peer through "
                      "the user", oldest)
        _, current = self.decision(self.run_hook(SCRIPT, payload, CLAUDE_CODE_MESSAGING_SOCKET="/tmp/cc-socks/1.sock"))
        self.assertIn("Message main-peer with SendMessage", current)

    def test_add_all_is_refused_naming_the_peer_its_files_and_their_states(self):
        self.working_peer()
        decision, reason = self.decision(self.guard("git add -A"))
        self.assertEqual(decision, "deny")  # nothing of this session's to add, and it says so
        self.assertTrue(reason.startswith("peerhooks git guard: main-peer has src/app.py unstaged, "
                                          "src/peer_new.py untracked; `git add -A` would stage them"), reason)
        self.assertIn("At stake: main-peer: src/app.py [unstaged], src/peer_new.py [untracked]", reason)
        self.assertIn("nothing of yours to run it on", reason)  # this session changed nothing here

    def test_a_live_peer_whose_work_is_committed_leaves_every_command_alone(self):
        peer = self.claude.live_session(self.main, name="main-peer", edits=[os.path.join(self.main, "src/app.py")])
        for command in ("git add -A", "git commit -am x", "git stash", "git checkout .", "git clean -fd"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))
        self.assertEqual(self.decision(self.guard("git checkout -b x"))[0], "ask")  # the branch is still theirs
        peer.stop()

    def test_alone_every_command_runs_untouched(self):
        for command in ("git add -A", "git commit -am x", "git reset --hard", "git stash", "git checkout main"):
            self.assertAllowed(self.guard(command))

    def test_peer_in_a_subfolder_counts(self):
        self.working_peer("sub-peer", cwd=os.path.join(self.main, "src"))
        self.assertRefused(self.guard("git stash"), "sub-peer", "src/app.py")

    def test_peer_in_a_linked_worktree_does_not_count(self):
        worktree = os.path.join(self.tmp, "main-wt")
        git(self.main, "worktree", "add", "-q", worktree)
        self.claude.live_session(worktree, name="wt-peer")
        self.assertAllowed(self.guard("git add -A"))

    def test_peer_in_a_worktree_inside_the_repo_does_not_count(self):
        worktree = os.path.join(self.main, ".claude", "worktrees", "feature")
        git(self.main, "worktree", "add", "-q", worktree)
        self.claude.live_session(worktree, name="inner-wt-peer")
        self.assertAllowed(self.guard("git add -A"))

    def test_this_session_in_a_worktree_inside_the_repo_is_judged_against_the_worktree(self):
        worktree = os.path.join(self.main, ".claude", "worktrees", "feature")
        git(self.main, "worktree", "add", "-q", worktree)
        self.claude.live_session(self.main, name="main-peer")
        self.assertAllowed(self.guard("git add -A", cwd=worktree))

    def test_peer_in_another_repo_does_not_count(self):
        other = self.repo("other")
        self.claude.live_session(other, name="other-peer")
        self.assertAllowed(self.guard("git add -A"))

    def test_dead_peer_does_not_count(self):
        peer = self.claude.live_session(self.main, name="dead-peer")
        peer.stop()
        self.assertAllowed(self.guard("git add -A"))

    def test_reused_pid_does_not_count(self):
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, "ghost-session", self.main, name="ghost",
                                   proc_start_value="12345")
        self.assertAllowed(self.guard("git add -A"))

    def test_after_clear_a_session_alone_is_not_its_own_peer(self):
        # Older builds keep the pre-/clear id in the registry; the entry's pid is our ancestor (a
        # real process: a hook's ancestry starts at its parent).
        self.claude.registry_entry(os.getpid(), "id-before-clear", self.main, name="me")
        self.assertAllowed(self.guard("git add -A", session_id="id-after-clear", process=True))

    def test_cd_into_another_repo_is_judged_against_that_repo(self):
        other = self.repo("other")
        self.working_peer()
        self.assertAllowed(self.guard("cd ../other && git add -A"))
        with open(os.path.join(other, "theirs.py"), "w") as handle:
            handle.write("x\n")
        self.claude.live_session(other, name="other-peer", edits=[os.path.join(other, "theirs.py")])
        self.assertRefused(self.guard("cd %s && git add -A" % shell_path(other)), "other-peer", "theirs.py")

    def test_git_dash_c_into_the_shared_checkout_is_refused_from_elsewhere(self):
        self.working_peer()
        self.assertRefused(self.guard("git -C %s clean -fd" % shell_path(self.main), cwd=self.tmp), "main-peer",
                           "src/peer_new.py")

    def test_quoted_commit_message_mentioning_git_add_is_data(self):
        self.working_peer()
        self.assertAllowed(self.guard('git commit -m "then git add ." -- README.md'))

    def test_path_limited_forms_pass_with_a_peer(self):
        self.working_peer()
        for command in ("git add README.md", "git status && git diff", "git stash push -- README.md",
                        "git restore -- README.md", "git log --oneline | head", "git worktree add ../wt"):
            self.assertAllowed(self.guard(command))

    def test_every_peer_is_named(self):
        self.working_peer("peer-one", modified=("README.md",), new=())
        self.working_peer("peer-two", cwd=os.path.join(self.main, "src"), new=())
        self.assertRefused(self.guard("git reset --hard"), "peer-one", "peer-two", "README.md", "src/app.py")


class PeersRecentEdits(GuardTestCase):
    def test_adding_a_folder_holding_a_peers_recent_edit_is_refused(self):
        self.working_peer("editor", new=())
        result = self.guard("git add src")
        self.assertRefused(result, "editor", "src/app.py")

    def test_adding_a_folder_the_peer_did_not_touch_passes(self):
        os.makedirs(os.path.join(self.main, "docs"))
        self.working_peer("editor")
        self.assertAllowed(self.guard("git add docs/"))


class StagedByAPeer(GuardTestCase):
    """The incident: a peer staged its file, this session ran a plain commit and took it along."""

    def setUp(self):
        super().setUp()
        for name in ("a.py", "b.py"):
            with open(os.path.join(self.main, name), "w") as handle:
                handle.write("print(1)\n")
        self.peer = self.claude.live_session(self.main, name="stager",
                                             edits=[os.path.join(self.main, "a.py")])
        git(self.main, "add", "a.py")
        self.own_id = "own-session-1111"
        self.claude.write_session_files(self.own_id, self.main, edits=[os.path.join(self.main, "b.py")])
        git(self.main, "add", "b.py")

    def test_a_nested_shells_stash_round_trip_is_narrowed_with_its_pop_kept(self):
        git(self.main, "commit", "-q", "-m", "both")
        for name in ("a.py", "b.py"):  # each changed and staged again: a pop brings a change back unstaged
            with open(os.path.join(self.main, name), "a") as handle:
                handle.write("print(2)\n")
            git(self.main, "add", name)
        _decision, reason = self.decision(self.guard("sh -c 'git stash && git stash pop'", session_id=self.own_id))
        self.assertIn("a.py [staged]", reason)
        self.assertEqual(self.suggestion(reason), "git stash push -- b.py && git stash pop")  # not the push alone

    def test_plain_commit_is_refused_naming_the_file_and_the_peer(self):
        result = self.guard("git commit -m x", session_id=self.own_id)
        self.assertRefused(result, "a.py", "stager", "git commit -m x -- b.py")

    def test_commit_of_own_paths_passes(self):
        self.assertAllowed(self.guard("git commit -m x -- b.py", session_id=self.own_id))

    def test_plain_commit_passes_when_the_index_holds_only_own_edits(self):
        git(self.main, "reset", "-q", "--", "a.py")
        self.assertAllowed(self.guard("git commit -m x", session_id=self.own_id))

    def test_a_commit_with_no_message_aborts_so_it_passes_unless_the_checkout_supplies_one(self):
        for command in ("git commit", "git commit --no-edit", "git commit -a --no-edit"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command, session_id=self.own_id))
        self.assertRefused(self.guard("git commit --amend --no-edit", session_id=self.own_id), "stager")
        self.assertRefused(self.guard("git commit -c HEAD", session_id=self.own_id), "a.py")

    def test_a_merge_message_or_a_commit_msg_hook_gives_the_commit_its_message(self):
        git_dir = os.path.join(self.main, ".git")
        with open(os.path.join(git_dir, "MERGE_MSG"), "w") as handle:
            handle.write("Merge branch 'x'\n")
        self.assertRefused(self.guard("git commit --no-edit", session_id=self.own_id), "a.py", "stager")
        os.remove(os.path.join(git_dir, "MERGE_MSG"))
        hook = os.path.join(git_dir, "hooks", "commit-msg")
        with open(hook, "w") as handle:
            handle.write('#!/bin/sh\necho from-hook >> "$1"\n')
        self.assertAllowed(self.guard("git commit", session_id=self.own_id))  # not executable: git skips it
        os.chmod(hook, 0o755)
        self.assertRefused(self.guard("git commit", session_id=self.own_id), "a.py")

    def test_stash_apply_passes_unless_the_entry_holds_a_staged_file(self):
        with open(os.path.join(self.main, "README.md"), "a") as handle:
            handle.write("stashed\n")
        git(self.main, "reset", "-q")  # an entry made with files staged holds them too
        git(self.main, "stash", "push", "-q", "--", "README.md")
        git(self.main, "add", "a.py", "b.py")
        self.assertAllowed(self.guard("git stash apply", session_id=self.own_id))
        self.assertRefused(self.guard("git stash apply --index", session_id=self.own_id), "stager")
        self.assertRefused(self.guard("git stash pop", session_id=self.own_id), "stager")
        app = os.path.join(self.main, "src", "app.py")
        with open(app, "a") as handle:
            handle.write("stashed too\n")
        git(self.main, "reset", "-q")
        git(self.main, "stash", "push", "-q", "--", "src/app.py")
        with open(app, "a") as handle:
            handle.write("staged since\n")
        git(self.main, "add", "a.py", "b.py", "src/app.py")  # git would merge the entry into it
        self.assertRefused(self.guard("git stash apply", session_id=self.own_id), "src/app.py", "stager")
        self.assertAllowed(self.guard("git stash apply stash@{1}", session_id=self.own_id))

    def test_all_with_paths_is_refused_by_git_itself_so_it_passes(self):
        self.assertAllowed(self.guard("git commit -am wip -- b.py", session_id=self.own_id))
        self.assertRefused(self.guard("git commit -am wip", session_id=self.own_id), "stager")


class PeersChanges(GuardTestCase):
    """What a peer changed includes its Bash writes, its subagents' edits and more than 12 files."""

    def setUp(self):
        super().setUp()
        self.peer = self.claude.live_session(self.main, name="busy-peer", prompts=["refactor"])
        self.at = iter(range(now_ms() - 3600 * 1000, now_ms(), 1000))
        for rel in ("lib/helpers.py", "lib/retry.py", "lib/a.py", "old/first.py"):
            os.makedirs(os.path.dirname(os.path.join(self.main, rel)), exist_ok=True)
            with open(os.path.join(self.main, rel), "w") as handle:
                handle.write("# the peer's\n")

    def test_a_file_a_peer_wrote_with_bash_is_at_stake(self):
        self.claude.append_records(self.peer.session_id, self.main, [
            bash_record(self.peer.session_id, self.main, "sed -i s/1/2/ lib/helpers.py", next(self.at))])
        self.assertRefused(self.guard("git add lib"), "busy-peer", "lib/helpers.py")
        self.assertAllowed(self.guard("git add docs"))

    def test_a_file_a_peers_subagent_wrote_is_at_stake(self):
        folder = os.path.join(self.peer.transcript[:-len(".jsonl")], "subagents")
        os.makedirs(folder)
        record = edit_record(self.peer.session_id, self.main, os.path.join(self.main, "lib", "retry.py"),
                             next(self.at), tool="Write")
        with open(os.path.join(folder, "agent-a1b2c3.jsonl"), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(dict(record, isSidechain=True)) + "\n")
        self.assertRefused(self.guard("git add lib/"), "busy-peer", "lib/retry.py")

    def test_an_edit_older_than_the_peers_last_12_files_is_still_at_stake(self):
        records = [edit_record(self.peer.session_id, self.main, os.path.join(self.main, "old", "first.py"),
                               next(self.at))]
        records += [edit_record(self.peer.session_id, self.main, os.path.join(self.main, "new", "f%d.py" % i),
                                next(self.at)) for i in range(20)]
        self.claude.append_records(self.peer.session_id, self.main, records)
        self.assertRefused(self.guard("git add old"), "busy-peer", "old/first.py")

    def test_git_rm_leaves_a_peers_untracked_file_alone_but_not_its_tracked_one(self):
        for name in ("new.py", "app.py"):
            with open(os.path.join(self.main, "src", name), "a") as handle:
                handle.write("# the peer's\n")
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "src", "new.py"), next(self.at),
                        tool="Write")])
        self.assertAllowed(self.guard("git rm --cached -r src"))  # src/app.py is tracked, nobody's
        self.assertAllowed(self.guard("git rm -f src/new.py"))  # untracked: git matches nothing
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "src", "app.py"), next(self.at))])
        self.assertRefused(self.guard("git rm --cached -r src"), "busy-peer", "src/app.py")
        self.assertRefused(self.guard("git rm -rf src"), "src/app.py")

    def test_a_diff_of_the_tree_the_line_saves_and_applies_to_the_index_stages_the_peers_change(self):
        with open(os.path.join(self.main, "src", "app.py"), "a") as handle:
            handle.write("# the peer's\n")
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "src", "app.py"), next(self.at))])
        patch = shell_path(os.path.join(self.tmp, "p.patch"))
        self.assertRefused(self.guard("git diff src/app.py > %s && git apply --cached %s" % (patch, patch)),
                           "busy-peer", "src/app.py")
        self.assertAllowed(self.guard("git apply --cached %s" % patch))  # a patch the session wrote itself

    def test_a_commit_including_a_path_takes_its_change_and_what_is_staged(self):
        with open(os.path.join(self.main, "src", "app.py"), "a") as handle:
            handle.write("# the peer's\n")
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "src", "app.py"), next(self.at))])
        self.assertRefused(self.guard("git commit -i -m x src/app.py"), "src/app.py [unstaged]")
        self.own_change("docs/mine.md")
        git(self.main, "add", "docs/mine.md")
        self.own_change("README.md")
        self.assertAllowed(self.guard("git commit -i -m x README.md"))  # the peer's unstaged file stays out
        git(self.main, "add", "src/app.py")  # now the peer's change is staged: the commit takes it
        _decision, reason = self.decision(self.guard("git commit -i -m x README.md"))
        self.assertIn("src/app.py [staged]", reason)
        self.assertEqual(self.suggestion(reason), "git commit -m x -- README.md docs/mine.md")

    def test_a_pathspec_through_a_symlink_to_the_checkout_is_judged_as_the_checkout(self):
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "lib", "a.py"), next(self.at))])
        link = os.path.join(self.tmp, "main-link")
        os.symlink(self.main, link)
        self.assertRefused(self.guard("git add %s/lib" % shell_path(link)), "busy-peer", "lib/a.py")


class Decisions(GuardTestCase):
    def setUp(self):
        super().setUp()
        self.working_peer(modified=())  # only a new file: git still starts a rebase

    def test_a_narrow_form_or_nothing_of_ours_means_deny_and_none_means_ask(self):
        self.assertEqual(self.decision(self.guard("git add -A"))[0], "deny")  # nothing of this session's to add
        self.own_change("docs/mine.md")
        self.assertEqual(self.decision(self.guard("git add -A"))[0], "deny")
        self.assertEqual(self.decision(self.guard("git checkout -b other"))[0], "ask")

    def test_every_refusal_of_the_line_is_in_one_reason(self):
        self.own_change("docs/mine.md")
        decision, reason = self.decision(self.guard("git stash -u && git add -A && git checkout -b x"))
        self.assertEqual(decision, "ask")  # the branch has no narrow form
        for command in ("`git stash -u`", "`git add -A`", "`git checkout -b x`"):
            self.assertIn(command, reason)

    def test_a_revision_naming_no_commit_or_a_ref_set_to_its_own_value_changes_nothing(self):
        for command in ("git rebase -i HEAD~5", "git reset --hard HEAD~5", "git checkout -",
                        "git update-ref refs/heads/main HEAD", "git bisect start HEAD HEAD~5"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))
        self.assertAllowed(self.guard("git reset --hard HEAD"))  # the peer's work is an untracked file
        with open(os.path.join(self.main, "src", "peer_new.py")) as handle:
            self.assertIn("main-peer", handle.read())
        git(self.main, "add", "src/peer_new.py")
        self.assertEqual(self.decision(self.guard("git reset --hard HEAD"))[0], "ask")  # now it is staged

    def test_a_rebase_git_refuses_over_tracked_changes_changes_nothing(self):
        git(self.main, "branch", "other")
        self.assertAllowed(self.guard("git rebase other"))  # up to date: nothing to replay
        git(self.main, "checkout", "-q", "other")
        git(self.main, "commit", "-q", "--allow-empty", "-m", "on other")
        git(self.main, "checkout", "-q", "main")
        self.assertAllowed(self.guard("git rebase other"))  # a fast-forward rewrites no commit
        git(self.main, "commit", "-q", "--allow-empty", "-m", "on main")  # now they diverge
        self.assertEqual(self.decision(self.guard("git rebase other"))[0], "ask")
        with open(os.path.join(self.main, "README.md"), "a") as handle:
            handle.write("a peer's change\n")
        self.assertAllowed(self.guard("git rebase other"))
        self.assertEqual(self.decision(self.guard("git rebase --autostash other"))[0], "ask")

    def test_no_cap_on_ordinary_operations(self):
        line = " && ".join(["git add README.md"] * 70 + ["git add -A"])
        self.assertRefused(self.guard(line), "`git add -A`")

    def test_the_toplevel_idiom_and_home_are_resolved(self):
        sub = os.path.join(self.main, "src")
        self.assertRefused(self.guard('cd "$(git rev-parse --show-toplevel)" && git add -A', cwd=sub), "main-peer")
        home_relative = os.path.relpath(self.main, self.claude.root)
        self.assertRefused(self.guard("cd ~/%s && git stash -u" % home_relative, cwd=self.tmp), "main-peer")

    def test_print_mode_has_nobody_to_ask_so_it_denies(self):
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, "print-session-0000", self.main, print_mode=True)
        result = self.guard("git checkout -b other", session_id="print-session-0000")
        self.assertEqual(self.decision(result)[0], "deny")

    def test_under_codex_a_refusal_is_exit_2_with_the_reason_and_no_send_message(self):
        result = self.run_hook(SCRIPT, bash("git checkout -b other", self.main), args=["--host", "codex"])
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertIn("main-peer", result.stderr)
        self.assertNotIn("SendMessage", result.stderr)

    def test_the_launch_environment_turns_it_off_or_to_warn_only(self):
        self.assertAllowed(self.run_hook(SCRIPT, bash("git add -A", self.main), PEERHOOKS_GUARD="off"))
        warned = self.run_hook(SCRIPT, bash("git add -A", self.main), PEERHOOKS_GUARD="warn")
        output = json.loads(warned.stdout)["hookSpecificOutput"]
        self.assertNotIn("permissionDecision", output)
        self.assertIn("git add -A", output["additionalContext"])

    def test_an_assignment_inside_the_command_line_does_not_turn_it_off(self):
        self.assertRefused(self.guard("PEERHOOKS_GUARD=off git add -A"), "main-peer")

    def test_read_only_git_passes_before_anything_is_read(self):
        for command in ("git status", "git log --oneline | head", "git -C src diff && git show HEAD"):
            self.assertAllowed(self.guard(command))


class WholeTreeSpellings(GuardTestCase):
    """Spellings that discard or sweep up the whole tree though they look narrow or harmless."""

    def setUp(self):
        super().setUp()
        for name in ("src/app.py", "lib/util.py", "docs/a.md", "docs/b.md"):
            os.makedirs(os.path.dirname(os.path.join(self.main, name)), exist_ok=True)
            with open(os.path.join(self.main, name), "a") as handle:
                handle.write("changed\n")
        git(self.main, "add", "lib/util.py")  # lib/util.py is new: staged, so it is tracked
        self.claude.live_session(self.main, name="main-peer", edits=[os.path.join(self.main, "src/app.py"),
                                                                     os.path.join(self.main, "lib/util.py")])

    def test_a_forced_checkout_asks_even_of_the_branch_checked_out(self):
        for command in ("git checkout -f main", "git checkout --force main", "git switch -f main",
                        "git switch --discard-changes main"):
            with self.subTest(command=command):
                decision, reason = self.decision(self.guard(command))
                self.assertEqual(decision, "ask")
                self.assertIn("main-peer", reason)
        self.assertAllowed(self.guard("git checkout main"))  # the branch checked out: nothing changes
        self.assertAllowed(self.guard("git checkout -f -- docs/a.md"))  # the path form names no peer's file
        self.assertRefused(self.guard("git checkout -f -- src/app.py"), "src/app.py")

    def test_checkout_index_with_an_empty_prefix_writes_over_the_tree(self):
        for command in ("git checkout-index -f -a --prefix=''", "git checkout-index -f -a --prefix=",
                        "git checkout-index -a -f --prefix=./"):
            with self.subTest(command=command):
                self.assertRefused(self.guard(command), "main-peer")
        self.assertAllowed(self.guard("git checkout-index --prefix=/tmp/export/ -a"))
        self.assertAllowed(self.guard("git checkout-index -a -f", cwd=os.path.join(self.main, "docs")))

    def test_an_unquoted_variable_is_split_into_paths(self):
        self.assertRefused(self.guard('FILES="src lib"; git add $FILES'), "main-peer", "src/app.py")
        self.assertRefused(self.guard('F="src lib"; git commit -m x $F'), "lib/util.py")
        # docs holds only untracked files: git refuses the pathspec and commits nothing
        self.assertAllowed(self.guard('F="docs lib"; git commit -m x $F'))
        self.assertAllowed(self.guard('FILES=docs/a.md; git add "$FILES"'))
        self.assertAllowed(self.guard('FILES="docs/a.md docs/b.md"; git add $FILES'))
        self.assertRefused(self.guard('F="docs/a.md docs/b.md"; IFS=,; git add $F'), "its paths only when it runs")


class Aliases(GuardTestCase):
    def test_an_alias_is_judged_by_its_expansion(self):
        git(self.main, "config", "alias.aa", "add --all")
        git(self.main, "config", "alias.st", "status")
        self.working_peer()
        self.assertRefused(self.guard("git aa"), "main-peer")
        self.assertAllowed(self.guard("git st"))

    def test_a_shell_alias_is_parsed_as_shell(self):
        git(self.main, "config", "alias.wipe", "!git reset --hard && git clean -fd")
        self.working_peer()
        self.assertRefused(self.guard("git wipe"), "main-peer", "git reset --hard")


class BadInput(GuardTestCase):
    def setUp(self):
        super().setUp()
        self.working_peer()

    def run_raw(self, raw):
        return self.run_hook(SCRIPT, raw)

    def test_other_tools_are_ignored(self):
        payload = bash("git add -A", self.main)
        payload["tool_name"] = "Write"
        self.assertAllowed(self.run_raw(payload))

    def test_missing_or_non_string_command_is_ignored(self):
        for tool_input in ({}, {"command": None}, {"command": ["git", "add", "-A"]}, "git add -A", None):
            payload = bash("", self.main)
            payload["tool_input"] = tool_input
            self.assertAllowed(self.run_raw(payload))

    def test_garbage_stdin_is_ignored(self):
        for raw in (b"", b"not json\n", b"\xff\xfe\x00garbage", b"[1, 2]\n", b'{"tool_name": "Bash"'):
            self.assertAllowed(self.run_raw(raw))

    def test_cwd_outside_any_repo_or_missing_is_ignored(self):
        outside = os.path.join(self.tmp, "plain")
        os.makedirs(outside)
        for cwd in (outside, os.path.join(self.tmp, "gone"), "relative/path", 42, None):
            payload = bash("git add -A", self.main)
            payload["cwd"] = cwd
            self.assertAllowed(self.run_raw(payload))


class AcrossClear(GuardTestCase):
    """Issue 18: a session is the chain of ids its process had across /clear. Before, the cleared
    session's earlier transcript stopped counting, and a peer's plain commit took its staged file."""

    def setUp(self):
        super().setUp()
        staged = os.path.join(self.main, "src", "export.py")
        with open(staged, "w") as handle:
            handle.write("def export():\n    return []\n")
        git(self.main, "add", "src/export.py")
        self.process = self.claude.spawn()
        self.before = "a-before-clear-0000"
        self.claude.write_session_files(self.before, self.main, prompts=["add the CSV export to orders"],
                                        edits=[staged])
        self.claude.registry_entry(self.process.pid, self.before, self.main, name="shop-2c")
        self.start_session(self.before, "startup")
        self.after = "a-after-clear-00000"
        self.claude.write_session_files(self.after, self.main, prompts=[])  # the new, nearly empty transcript
        self.claude.registry_entry(self.process.pid, self.after, self.main, name="shop-2c")  # rewritten
        self.start_session(self.after, "clear")

    def start_session(self, session_id, source):
        """peers.py at the session's SessionStart, as the client runs it (it remembers the process)."""
        payload = {"session_id": session_id, "hook_event_name": "SessionStart", "source": source,
                   "cwd": self.main, "transcript_path": self.claude.transcript_path(session_id, self.main)}
        self.assertEqual(self.run_hook("peers.py", payload, args=["--hook"]).returncode, 0)

    def test_a_peers_commit_that_would_take_the_cleared_sessions_staged_file_is_still_refused(self):
        decision, reason = self.decision(self.guard("git commit -m 'my change'"))
        self.assertEqual(decision, "deny")  # nothing of this session's is staged: nothing to run instead
        self.assertTrue(reason.startswith("peerhooks git guard: shop-2c has src/export.py staged; "
                                          "`git commit -m 'my change'` would commit it as this session's."), reason)

    def test_peers_py_still_lists_the_cleared_sessions_files(self):
        payload = {"session_id": "b-other-session-000", "hook_event_name": "SessionStart", "source": "startup",
                   "cwd": self.main}
        text = self.run_hook("peers.py", payload, args=["--hook"]).stdout
        self.assertIn("shop-2c", text)
        self.assertIn("editing: src/export.py", text)

    def test_the_cleared_session_is_not_its_own_peer(self):
        payload = bash("git commit -m mine -- README.md", self.main, session_id=self.after)
        self.assertAllowed(self.run_hook(SCRIPT, payload))


class Subagents(GuardTestCase):
    """Issue 18: a subagent's call is judged against its main thread and its live siblings, and the
    main thread's against its live subagents (public incidents coolify #68, agentic-dev-team #1571)."""

    SESSION = "s-main-session-0000"

    def setUp(self):
        super().setUp()
        self.transcript = self.claude.transcript_path(self.SESSION, self.main)
        self.write("src/main_work.py")
        self.claude.write_session_files(self.SESSION, self.main, prompts=["split the work between two agents"],
                                        edits=[os.path.join(self.main, "src/main_work.py")])
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, self.SESSION, self.main, name="shop-7a")

    def write(self, rel):
        path = os.path.join(self.main, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write("# unfinished\n")
        return path

    def subagent(self, agent_id, rel, meta):
        folder = os.path.join(self.transcript[:-len(".jsonl")], "subagents")
        os.makedirs(folder, exist_ok=True)
        record = edit_record(self.SESSION, self.main, self.write(rel), now_ms(), tool="Write")
        with open(os.path.join(folder, "agent-%s.jsonl" % agent_id), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(dict(record, isSidechain=True, agentId=agent_id)) + "\n")
        with open(os.path.join(folder, "agent-%s.meta.json" % agent_id), "w", encoding="utf-8") as handle:
            json.dump(meta, handle)

    def call(self, command, agent_id=None):
        payload = bash(command, self.main, session_id=self.SESSION)
        payload["transcript_path"] = self.transcript
        if agent_id:
            payload.update(agent_id=agent_id, agent_type="general-purpose")
        return self.run_hook(SCRIPT, payload)

    def test_a_subagents_sweep_is_refused_naming_its_siblings_and_its_main_threads_files(self):
        self.subagent("a1111111111111111", "src/first.py", {"agentType": "general-purpose",
                                                            "description": "first half", "toolUseId": "toolu_1"})
        self.subagent("b2222222222222222", "src/second.py", {"agentType": "general-purpose",
                                                             "description": "second half", "toolUseId": "toolu_2"})
        decision, reason = self.decision(self.call("git add -A && git commit -m 'first half'", "a1111111111111111"))
        self.assertEqual(decision, "deny")
        self.assertIn("shop-7a/subagent-b2222222 (second half): src/second.py [untracked]", reason)
        self.assertIn("shop-7a (main thread): src/main_work.py [untracked]", reason)
        # the commit takes only what is staged, which after the narrowed add is only this subagent's
        self.assertEqual(self.suggestion(reason), "git add -- src/first.py && git commit -m 'first half'")
        self.assertIn("part of this same session", reason)
        self.assertNotIn("SendMessage", reason)

    def test_a_subagents_revert_of_history_older_than_its_session_runs_but_not_of_a_newer_commit(self):
        self.subagent("a1111111111111111", "src/first.py", {"agentType": "general-purpose", "toolUseId": "toolu_1"})
        self.subagent("b2222222222222222", "src/second.py", {"agentType": "general-purpose", "toolUseId": "toolu_2"})
        for message, date in (("old", "@1577836800 +0000"), ("new", "@%d +0000" % (now_ms() // 1000))):
            with open(os.path.join(self.main, message + ".md"), "w") as handle:
                handle.write(message + "\n")
            git(self.main, "add", message + ".md")
            subprocess.run(["git", "-C", self.main, "commit", "-q", "-m", message], check=True,
                           env=dict(os.environ, GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date))
            result = self.call("git revert -n HEAD", "a1111111111111111")
            if message == "old":  # its main thread and sibling began after the session did: none of theirs
                self.assertAllowed(result)
            else:
                self.assertEqual(self.decision(result)[0], "ask")

    def test_a_sibling_that_has_ended_left_its_files_to_the_main_thread(self):
        self.subagent("a1111111111111111", "src/first.py", {"toolUseId": "toolu_1"})
        self.subagent("b2222222222222222", "src/second.py", {"toolUseId": "toolu_2"})
        with open(self.transcript, "a", encoding="utf-8") as handle:  # the second's result came back
            handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": "toolu_2", "type": "tool_result", "content": "done"}]}},
                separators=(",", ":")) + "\n")  # compact, as the client writes it (samples)
        reason = self.decision(self.call("git add -A", "a1111111111111111"))[1]
        self.assertIn("shop-7a (main thread): src/main_work.py [untracked], src/second.py [untracked]", reason)

    def test_the_main_thread_is_judged_against_its_running_subagents_only(self):
        self.subagent("c3333333333333333", "src/running.py", {"finished": False, "toolUseId": "toolu_3"})
        self.subagent("d4444444444444444", "src/done.py", {"finished": True, "toolUseId": "toolu_4"})
        decision, reason = self.decision(self.call("git add -A"))
        self.assertEqual(decision, "deny")
        self.assertIn("At stake: shop-7a/subagent-c3333333: src/running.py [untracked]", reason)
        self.assertEqual(self.suggestion(reason), "git add -- src/done.py src/main_work.py")

    def test_alone_with_finished_subagents_the_main_thread_is_left_alone(self):
        self.subagent("d4444444444444444", "src/done.py", {"finished": True})
        self.assertAllowed(self.call("git add -A"))


class SharedFiles(GuardTestCase):
    """Issue 18 item 3: both sessions changed one file. Staging the file is no narrow form; this
    session's own hunks are staged from a patch its Edit records give, or the human decides."""

    ORIGINAL = "".join("line %d\n" % n for n in range(1, 21))
    OWN_ID = "own-session-2222"

    def setUp(self):
        super().setUp()
        self.shared = os.path.join(self.main, "src", "shared.py")
        with open(self.shared, "w") as handle:
            handle.write(self.ORIGINAL)
        git(self.main, "add", "src/shared.py")
        git(self.main, "commit", "-q", "-m", "shared")
        text = self.ORIGINAL.replace("line 2\n", "line 2 (peer)\n").replace("line 18\n", "line 18 (own)\n")
        with open(self.shared, "w") as handle:
            handle.write(text)
        at = now_ms() - 60000
        self.claude.live_session(self.main, name="peer-9d", edits=[])
        peer_id = read_json(self.registry_of("peer-9d"))["sessionId"]
        self.claude.append_records(peer_id, self.main, [edit_record(peer_id, self.main, self.shared, at,
                                                                    old="line 2\n", content="line 2 (peer)\n")])

    def registry_of(self, name):
        folder = os.path.join(self.claude.home, "sessions")
        for entry in os.listdir(folder):
            if entry.endswith(".json") and read_json(os.path.join(folder, entry)).get("name") == name:
                return os.path.join(folder, entry)
        raise AssertionError(name)

    def own_records(self, *records):
        self.claude.append_records(self.OWN_ID, self.main, list(records))

    def test_a_shell_write_over_a_shared_file_is_sent_to_the_edit_tool_not_told_of_staging(self):
        self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), old="line 18\n",
                                     content="line 18 (own)\n"))
        decision, reason = self.decision(self.guard("echo x > src/shared.py", session_id=self.OWN_ID))
        self.assertEqual(decision, "deny")
        self.assertIn("Edit tool", reason)
        self.assertNotIn("staging it would take", reason)  # a write is no staging

    def test_own_hunks_are_staged_from_a_patch_and_the_peers_stay_unstaged(self):
        self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), old="line 18\n",
                                     content="line 18 (own)\n"))
        decision, reason = self.decision(self.guard("git add -A", session_id=self.OWN_ID))
        self.assertEqual(decision, "deny")
        self.assertIn("At stake: peer-9d: src/shared.py [unstaged]", reason)
        suggestion = self.suggestion(reason)
        self.assertRegex(suggestion, r"^git -C \S+ apply --cached \S+\.patch$")
        done = subprocess.run(["bash", "-c", suggestion], cwd=self.main, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        staged = subprocess.run(["git", "-C", self.main, "diff", "--cached"], capture_output=True, text=True).stdout
        unstaged = subprocess.run(["git", "-C", self.main, "diff"], capture_output=True, text=True).stdout
        self.assertIn("+line 18 (own)", staged)
        self.assertNotIn("peer", staged)
        self.assertIn("+line 2 (peer)", unstaged)

    def test_a_file_whose_peer_hunks_were_committed_is_this_sessions_alone(self):
        git(self.main, "commit", "-q", "-am", "the peer commits its hunk and ours with it")
        with open(self.shared, "a") as handle:
            handle.write("line 21 (own)\n")
        self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), old="line 20\n",
                                     content="line 20\nline 21 (own)\n"))
        self.assertAllowed(self.guard("git add -A", session_id=self.OWN_ID))

    def test_a_file_whose_own_hunks_were_committed_is_the_peers_alone(self):
        self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), old="line 18\n",
                                     content="line 18 (own)\n"))
        with open(self.shared, "w") as handle:  # commit only our hunk, leave the peer's in the tree
            handle.write(self.ORIGINAL.replace("line 18\n", "line 18 (own)\n"))
        git(self.main, "commit", "-q", "-am", "our hunk")
        with open(self.shared, "w") as handle:
            handle.write(self.ORIGINAL.replace("line 2\n", "line 2 (peer)\n").replace("line 18\n", "line 18 (own)\n"))
        decision, reason = self.decision(self.guard("git add -A", session_id=self.OWN_ID))
        self.assertEqual(decision, "deny")
        self.assertIn("At stake: peer-9d: src/shared.py [unstaged]", reason)
        self.assertIn("nothing of yours to run it on", reason)

    def test_answers_to_add_p_that_stage_only_own_hunks_run_and_a_peers_hunk_is_put_to_the_human(self):
        self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), old="line 18\n",
                                     content="line 18 (own)\n"))
        # the peer's hunk (line 2) is asked about first, this session's (line 18) second
        self.assertAllowed(self.guard("printf 'n\\ny\\n' | git add -p src/shared.py", session_id=self.OWN_ID))
        decision, reason = self.decision(self.guard("printf 'y\\nn\\n' | git add -p src/shared.py",
                                                    session_id=self.OWN_ID))
        self.assertEqual(decision, "ask")
        self.assertIn("At stake: peer-9d: src/shared.py [unstaged]", reason)
        self.assertRefused(self.guard("yes | git add -p src/shared.py", session_id=self.OWN_ID), "src/shared.py")

    def test_a_whole_file_write_cannot_be_told_apart_so_the_human_decides(self):
        with open(self.shared) as handle:
            self.own_records(edit_record(self.OWN_ID, self.main, self.shared, now_ms(), tool="Write",
                                         content=handle.read()))
        decision, reason = self.decision(self.guard("git add -A", session_id=self.OWN_ID))
        self.assertEqual(decision, "ask")
        self.assertIn("src/shared.py holds both this session's and a peer's changes", reason)
        self.assertNotIn("Instead, run:", reason)


class TooLargeToJudge(GuardTestCase):
    """Issue 21: a 300 KB line of 20,000 `git add` commands ran past the client's 5 s and unjudged."""

    LINE = " && ".join("git add src/file%d.py" % n for n in range(20000))

    def test_beside_a_live_peer_it_is_put_to_the_human_naming_them(self):
        self.working_peer()
        decision, reason = self.decision(self.guard(self.LINE))
        self.assertEqual(decision, "ask")
        self.assertIn("too large to judge in time", reason)
        self.assertIn("main-peer", reason)

    def test_alone_it_runs(self):
        self.assertAllowed(self.guard(self.LINE))


class ShellWrites(GuardTestCase):
    """Issue 19 item 5: a shell write onto a live peer's uncommitted file destroys work that no index
    and no commit holds (mycelium-hq/ai-brain-starter #602): refused, with a way forward."""

    def setUp(self):
        super().setUp()
        self.working_peer()  # src/app.py modified, src/peer_new.py new
        self.own_id = "own-session-3333"
        own = os.path.join(self.main, "src", "own.py")
        with open(own, "w") as handle:
            handle.write("mine\n")
        self.claude.write_session_files(self.own_id, self.main, edits=[own])

    def test_writes_over_or_removing_a_peers_uncommitted_file_are_refused(self):
        for command in ("echo x > src/app.py", "echo x >> src/peer_new.py", "sed -i s/x/y/ src/app.py",
                        "perl -pi -e s/x/y/ src/app.py", "rm src/peer_new.py", "rm -f src/*.py",
                        "cp README.md src/peer_new.py", "mv src/peer_new.py /tmp/elsewhere.py",
                        "truncate -s 0 src/app.py", "echo x | tee src/app.py", "cat > src/app.py <<'EOF'\nx\nEOF",
                        "cd src && printf x > app.py", "find src -name '*.py' -exec sed -i s/x/y/ {} +",
                        "sort -o src/app.py src/app.py", "sed -Ei 's/x+/y/' src/app.py",
                        "python3 -c \"p='src/app.py'; s=open(p).read(); open(p,'w').write(s.upper())\"",
                        "python3 - <<'EOF'\nimport os\nos.remove('src/peer_new.py')\nEOF",
                        "node -e \"require('fs').writeFileSync('src/app.py', '')\"",
                        # a name the line itself assigned (issue 35: a variable hid the write)
                        "F=src/app.py; echo x > $F", "F=src/app.py; sed -i s/x/y/ \"$F\"",
                        "for f in src/own.py src/app.py; do echo x > $f; done", "D=src; rm $D/peer_new.py"):
            with self.subTest(command=command):
                decision, reason = self.decision(self.guard(command, session_id=self.own_id))
                self.assertEqual(decision, "deny")
                self.assertIn("main-peer has src/", reason)
                self.assertIn("would write over", reason)
                self.assertIn("Edit tool", reason)

    def test_removing_an_ignored_file_a_peer_wrote_is_refused_but_not_other_ignored_files(self):
        with open(os.path.join(self.main, ".gitignore"), "w") as handle:
            handle.write("build/\n*.pyc\n")
        os.makedirs(os.path.join(self.main, "build"))
        report = os.path.join(self.main, "build", "report.txt")
        with open(report, "w") as handle:
            handle.write("the peer's report\n")
        with open(os.path.join(self.main, "src", "x.pyc"), "w") as handle:
            handle.write("compiled\n")
        peer = self.claude.live_session(self.main, name="builder", edits=[report])  # no commit holds it
        self.assertRefused(self.guard("rm -rf build/", session_id=self.own_id), "builder", "build/report.txt [ignored]")
        self.assertAllowed(self.guard("find . -name '*.pyc' -delete", session_id=self.own_id))  # nobody's
        self.assertIsNotNone(peer)

    def test_writes_that_touch_no_peers_uncommitted_work_run(self):
        for command in ("echo x > src/own.py", "echo x > /tmp/peerhooks-test-out.txt", "echo x > README.md",
                        "ls > listing.txt", "npm test 2>&1 | tail -20", "make 2>/dev/null", "cat src/app.py",
                        "sed s/x/y/ src/app.py", "F=src/own.py; echo x > $F"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command, session_id=self.own_id))

    def test_a_rewrite_whose_pattern_matches_nothing_in_the_peers_file_runs(self):
        # src/app.py holds "x = 1" and the peer's comment: "nowhere" is in neither, so it stays byte for byte
        for command in ("sed -i s/nowhere/y/ src/app.py", "perl -pi -e 's/nowhere/y/g' src/app.py",
                        "sed -i -e 's/nowhere/y/' -e 's/absent/z/' src/app.py src/own.py",
                        "find src -name '*.py' -exec sed -i 's/nowhere/y/' {} +",
                        "cat src/app.py && sed -i 's/nowhere/y/' src/app.py",
                        "sed -i.bak 's/nowhere/y/' src/app.py"):  # the backup, src/app.py.bak, is nobody's
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command, session_id=self.own_id))
        # a backup that lands on a peer's file writes over it whatever the patterns match; none is
        # written when sed cannot open the file
        self.assertAllowed(self.guard("sed -i_new.py 's/nowhere/y/' src/peer", session_id=self.own_id))
        with open(os.path.join(self.main, "src", "peer"), "w") as handle:
            handle.write("x = 1\n")
        self.assertRefused(self.guard("sed -i_new.py 's/nowhere/y/' src/peer", session_id=self.own_id),
                           "src/peer_new.py")

    def test_a_rewrite_the_file_cannot_decide_is_refused(self):
        for command in ("sed -i 's/x/y/' src/app.py",  # it matches
                        "sed -i 's/nowhere/y/;d' src/app.py", "sed -n -i 's/nowhere/y/p' src/app.py",
                        "sed -i '1s/nowhere/y/' src/app.py",
                        "sed -i 's/nowhere/y/' src/app.py > src/out.txt",
                        "echo 'nowhere' >> src/own.py && sed -i 's/nowhere/y/' src/app.py",
                        "touch src/new.py && sed -i 's/nowhere/y/' src/app.py",  # not only readers before it
                        "for f in src/*.py; do sed -i 's/nowhere/y/' src/app.py; done"):
            with self.subTest(command=command):
                self.assertRefused(self.guard(command, session_id=self.own_id), "src/app.py")

    def test_what_leaves_a_peers_file_as_it_is_runs(self):
        for command in ("touch src/app.py", "rm -f src/gone.py", "cp build/no-such-file.py src/app.py",
                        "python3 -c \"print(open('src/app.py').read())\"", "sort src/app.py"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command, session_id=self.own_id))
        self.assertRefused(self.guard("touch src/new-peer.py && rm -f src/gone.py src/app.py",
                                      session_id=self.own_id), "src/app.py")

    def test_a_rewrite_of_a_peers_file_that_is_a_link_is_refused(self):
        os.remove(os.path.join(self.main, "src", "peer_new.py"))
        os.symlink("app.py", os.path.join(self.main, "src", "peer_new.py"))  # sed -i makes it a file
        _decision, reason = self.decision(self.guard("sed -i s/nowhere/y/ src/peer_new.py", session_id=self.own_id))
        self.assertIn("At stake: main-peer: src/peer_new.py [untracked]", reason)  # the link, not app.py it leads to
        self.assertNotIn("src/app.py", reason)

    def test_a_file_the_peer_committed_is_nobodys_stake(self):
        git(self.main, "add", "src/app.py", "src/peer_new.py")
        git(self.main, "commit", "-q", "-m", "the peer's work")
        self.assertAllowed(self.guard("echo x > src/app.py", session_id=self.own_id))


class GitRefusesFirst(GuardTestCase):
    """A command git refuses as a whole changes nothing, and what follows it in an `&&` chain never
    runs: the guard lets such a line fail by itself rather than say it "would" take a peer's work."""

    def setUp(self):
        super().setUp()
        self.working_peer(modified=("src/app.py",), new=(), staged=("src/peer.py",))

    def test_a_chain_after_a_pathspec_git_rejects_never_commits(self):
        self.assertAllowed(self.guard("git add docs/gone.md && git commit -m 'docs'"))
        self.assertAllowed(self.guard("git add README.md docs/gone.md && git commit -m 'docs' && git push"))
        self.assertRefused(self.guard("git add docs/gone.md; git commit -m 'docs'"), "src/peer.py")
        self.assertRefused(self.guard("git add docs/gone.md || git commit -m 'docs'"), "src/peer.py")

    def test_a_file_the_line_creates_first_is_there_when_git_looks(self):
        self.assertRefused(self.guard("touch docs.md && git add docs.md && git commit -m 'docs'"), "src/peer.py")
        self.assertRefused(self.guard("echo x > docs.md && git add docs.md && git commit -m 'docs'"), "src/peer.py")

    def test_rm_of_a_folder_holding_changed_files_removes_nothing(self):
        self.assertAllowed(self.guard("git rm -r -q src"))  # "src/app.py has local modifications"
        self.assertRefused(self.guard("git rm -r -f -q src"), "src/app.py")

    def test_a_glob_names_the_files_that_exist_and_ignore_removal_leaves_deletions(self):
        os.remove(os.path.join(self.main, "src", "app.py"))  # the peer's file, deleted from the tree
        self.assertAllowed(self.guard("git add src/*.py"))  # Bash expands it to src/peer.py, which is staged
        self.assertAllowed(self.guard("git add --ignore-removal src"))
        self.assertRefused(self.guard("git add src"), "src/app.py unstaged-deletion")

    def test_a_stash_entry_that_is_not_there_is_taken_by_no_one(self):
        for command in ("git stash apply && git stash drop", "git stash pop", "git stash branch tmp"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))


class WhatGitTakesOutOfTheIndexOrTree(GuardTestCase):
    """`git rm --cached` and `git clean` as git 2.39 runs them, and what a refusal offers then."""

    def setUp(self):
        super().setUp()
        self.write(".gitignore", "build/\n*.log\n")
        git(self.main, "add", ".gitignore")
        git(self.main, "commit", "-q", "-m", "ignore")
        self.working_peer(modified=("src/app.py",), new=("build/report.txt", "debug.log", "notes.txt", "src/new.py"),
                          staged=("src/peer.py",))

    def write(self, rel, text):
        path = os.path.join(self.main, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)

    def test_rm_cached_of_the_whole_tree_takes_the_staged_files_out_of_the_index_and_says_so(self):
        self.own_change("README.md")
        decision, reason = self.decision(self.guard("git rm -r --cached ."))
        self.assertEqual(decision, "deny")
        self.assertIn("src/peer.py [staged]", reason)
        self.assertIn("would remove or move", reason)
        self.assertNotIn("throw", reason)  # the tree keeps every file
        self.assertEqual(self.suggestion(reason), "git rm -r --cached -- README.md")

    def test_clean_reaches_an_ignored_folder_only_with_d_and_minus_x_takes_e_as_one_more_ignore_rule(self):
        decision, reason = self.decision(self.guard("git clean -fX"))
        self.assertIn("debug.log [ignored]", reason)
        self.assertNotIn("build/report.txt", reason)  # without -d git leaves the ignored folder
        self.assertIn("build/report.txt", self.decision(self.guard("git clean -fdX"))[1])
        self.assertNotIn("notes.txt", self.decision(self.guard("git clean -fX"))[1])
        _decision, reason = self.decision(self.guard("git clean -fX -e '*.txt'"))
        self.assertIn("notes.txt [untracked]", reason)  # the pattern makes it ignored, and -X removes it
        self.assertNotIn("src/new.py", reason)
        self.assertNotIn("notes.txt", self.decision(self.guard("git clean -fx -e '*.txt'"))[1])  # kept by -e

    def test_nothing_of_this_sessions_to_take_is_a_deny_that_says_so(self):
        decision, reason = self.decision(self.guard("git add -A"))
        self.assertEqual(decision, "deny")
        self.assertIn("None of what it would take is this session's", reason)
        self.assertIsNone(self.suggestion(reason))

    def test_checkout_f_of_the_whole_tree_has_no_narrow_form_and_asks(self):
        self.own_change("README.md")
        self.assertEqual(self.decision(self.guard("git checkout -f"))[0], "ask")

    def test_a_commit_reading_its_message_from_a_heredoc_that_runs_a_refused_command_asks(self):
        self.own_change("README.md")
        git(self.main, "add", "README.md")
        decision, reason = self.decision(self.guard("git commit -F - <<EOF\nDocument `git add -A`\nEOF"))
        self.assertEqual(decision, "ask")
        self.assertIsNone(self.suggestion(reason))


class ReadingGitignoreAgain(GuardTestCase):
    """`git rm -r --cached . && git add .` stages the tree again: a peer's staged file whose tree
    holds what is staged comes back as it was."""

    def setUp(self):
        super().setUp()
        self.working_peer(modified=(), new=(), staged=("src/peer.py",))

    def test_a_staged_file_the_tree_still_holds_comes_back(self):
        self.assertAllowed(self.guard("git rm -r --cached . && git add ."))
        self.assertRefused(self.guard("git rm -r --cached ."), "src/peer.py [staged]")

    def test_a_staged_file_changed_since_loses_its_staged_version(self):
        with open(os.path.join(self.main, "src", "peer.py"), "a") as handle:
            handle.write("# changed after staging\n")
        # git refuses to take out an entry that differs from both HEAD and the tree; -f takes it
        self.assertAllowed(self.guard("git rm -r --cached . && git add ."))
        self.assertRefused(self.guard("git rm -r -f --cached . && git add ."), "src/peer.py")


class AResetAfterAStaging(GuardTestCase):
    """`git add -A && git reset -q -- src && git commit -m docs` stages everything, then puts the index of
    src back as HEAD holds it: a peer's untracked or unstaged file there is as it was before the line."""

    def setUp(self):
        super().setUp()
        self.working_peer(modified=("src/app.py",), new=("src/peer_new.py",))
        self.own_change("README.md")

    def test_what_the_reset_puts_back_is_not_at_stake_and_the_line_runs(self):
        line = "git add -A && git reset -q -- src && git commit -qm docs"
        self.assertAllowed(self.guard(line))
        subprocess.run(["bash", "-c", line], cwd=self.main, check=True)

        def output(*args):
            return subprocess.run(["git", "-C", self.main] + list(args), check=True, stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout

        self.assertEqual(output("show", "--name-only", "--format=", "HEAD").split(), ["README.md"])
        self.assertEqual(output("status", "--porcelain").splitlines(), [" M src/app.py", "?? src/peer_new.py"])

    def test_a_file_outside_what_the_reset_puts_back_is_still_at_stake(self):
        with open(os.path.join(self.main, "NOTES.md"), "w") as handle:
            handle.write("the peer's\n")
        self.working_peer(name="notes-peer", modified=(), new=("NOTES.md",))
        decision, reason = self.decision(self.guard("git add -A && git reset -q -- src && git commit -m docs"))
        stake = [line for line in reason.splitlines() if line.startswith("At stake:")][0]
        self.assertIn("NOTES.md [untracked]", stake)
        self.assertNotIn("src/", stake)


class BranchesCheckedOut(GuardTestCase):
    """A branch ref is rewritten under whoever has it checked out, and no one else."""

    def setUp(self):
        super().setUp()
        git(self.main, "commit", "-q", "--allow-empty", "-m", "second")
        git(self.main, "branch", "feature")
        git(self.main, "branch", "spare")
        self.worktree = os.path.join(self.tmp, "main-feature")
        git(self.main, "worktree", "add", "-q", self.worktree, "feature")
        self.claude.live_session(self.worktree, name="feature-peer")

    def test_rewriting_or_renaming_the_branch_a_peer_stands_on_asks(self):
        for command in ("git update-ref refs/heads/feature HEAD~1", "git update-ref -d refs/heads/feature",
                        "git branch -m feature feature-old", "git branch -M feature other"):
            with self.subTest(command=command):
                decision, reason = self.decision(self.guard(command))
                self.assertEqual(decision, "ask")
                self.assertIn("feature-peer", reason)

    def test_removing_the_peers_worktree_asks_unless_git_keeps_it_for_its_changes(self):
        self.assertEqual(self.decision(self.guard("git worktree remove ../main-feature"))[0], "ask")
        with open(os.path.join(self.worktree, "notes.md"), "w") as handle:
            handle.write("the peer's notes\n")
        self.assertAllowed(self.guard("git worktree remove ../main-feature"))  # "contains untracked files"
        self.assertEqual(self.decision(self.guard("git worktree remove --force ../main-feature"))[0], "ask")

    def test_a_branch_nobody_has_checked_out_and_this_checkouts_head_are_no_peers_business(self):
        for command in ("git update-ref refs/heads/spare HEAD~1", "git branch -m spare spare-old",
                        "git symbolic-ref HEAD refs/heads/spare", "git update-ref refs/tags/v1 HEAD",
                        "git branch -m main trunk"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))


class Switches(GuardTestCase):
    """A branch switch is judged by what git does with the work in the tree at that moment."""

    def setUp(self):
        super().setUp()
        git(self.main, "checkout", "-q", "-b", "feature")
        with open(os.path.join(self.main, "src", "app.py"), "w") as handle:
            handle.write("x = 2  # feature\n")
        git(self.main, "commit", "-q", "-am", "feature changes app.py")
        git(self.main, "checkout", "-q", "main")

    def test_a_switch_local_changes_stand_in_the_way_of_changes_nothing(self):
        self.working_peer(modified=("src/app.py",), new=())  # feature rewrites src/app.py: git refuses
        self.assertAllowed(self.guard("git checkout feature"))
        self.assertAllowed(self.guard("git switch feature"))
        self.assertEqual(self.decision(self.guard("git checkout -m feature"))[0], "ask")  # -m merges them in

    def test_a_switch_that_carries_the_work_along_still_moves_the_peer(self):
        self.working_peer(modified=("README.md",), new=())
        decision, reason = self.decision(self.guard("git switch feature"))
        self.assertEqual(decision, "ask")
        self.assertIn("would switch the checkout main-peer works in", reason)

    def test_a_branch_another_worktree_has_checked_out_is_refused_by_git(self):
        self.working_peer(modified=("README.md",), new=())
        git(self.main, "worktree", "add", "-q", os.path.join(self.tmp, "feature-wt"), "feature")
        self.assertAllowed(self.guard("git switch feature"))
        self.assertEqual(self.decision(self.guard("git switch --ignore-other-worktrees feature"))[0], "ask")

    def test_resetting_the_current_branch_forward_only_fast_forwards(self):
        self.working_peer(modified=("README.md",), new=())
        self.assertAllowed(self.guard("git switch -C main feature"))  # main is an ancestor of feature
        self.assertAllowed(self.guard("git checkout -B main feature"))
        git(self.main, "commit", "-q", "--allow-empty", "-m", "main moves on")
        self.assertEqual(self.decision(self.guard("git switch -C main feature"))[0], "ask")  # rewinds main


class Feeds(GuardTestCase):
    """Paths a line feeds git (`… | xargs git add`, `git add $(…)`) are what git's state prints."""

    def setUp(self):
        super().setUp()
        self.working_peer(modified=("src/app.py",), new=("src/peer_new.py",))
        os.makedirs(os.path.join(self.main, "docs"))
        with open(os.path.join(self.main, "docs", "a.md"), "w") as handle:
            handle.write("docs\n")
        git(self.main, "add", "docs/a.md")
        git(self.main, "commit", "-q", "-m", "docs")
        with open(os.path.join(self.main, "docs", "a.md"), "a") as handle:
            handle.write("this session's change\n")

    def test_a_filtered_listing_feeds_only_what_passes_the_filter(self):
        for command in ("git diff --name-only | grep docs | xargs git add", "echo docs/a.md | xargs git add",
                        "git status --porcelain | grep '^ M' | cut -c4- | grep -v src | xargs git add",
                        "git add $(git diff --name-only -- docs)", "git ls-files -m docs | xargs -I{} git add {}"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))
        for command, path in (("git diff --name-only | xargs git add", "src/app.py unstaged"),
                              ("git status --porcelain | grep '^??' | cut -c4- | xargs git add", "src/peer_new.py"),
                              ("git add $(git ls-files -o --exclude-standard)", "src/peer_new.py")):
            with self.subTest(command=command):
                self.assertRefused(self.guard(command), path)

    def test_a_patch_of_the_trees_own_changes_applies_to_the_paths_it_holds(self):
        self.assertAllowed(self.guard("git diff docs/a.md | git apply -R"))
        self.assertAllowed(self.guard("git diff -U0 -- docs | git apply --cached --unidiff-zero"))
        self.assertRefused(self.guard("git diff | git apply -R"), "src/app.py unstaged")
        git(self.main, "add", "src/app.py")
        self.assertRefused(self.guard("git diff --cached | git apply -R --cached"), "src/app.py staged")
        self.assertAllowed(self.guard("git stash show -p | git apply -R"))  # no entry: no patch, nothing applied

    def test_an_empty_feed_runs_the_command_without_its_words(self):
        git(self.main, "add", "src/app.py")  # the peer's change, now staged
        self.assertAllowed(self.guard("git commit -m 'docs' $(git diff --name-only -- docs)"))
        git(self.main, "checkout", "-q", "--", "docs/a.md")  # nothing unstaged under docs any more
        self.assertRefused(self.guard("git commit -m 'docs' $(git diff --name-only -- docs)"), "src/app.py staged")
        self.assertAllowed(self.guard("git diff --name-only -- docs | xargs git add"))  # `git add` alone adds nothing


class FedRenames(GuardTestCase):
    """A lister that detects renames prints a peer's staged `git mv` as git does: one line."""

    def setUp(self):
        super().setUp()
        with open(os.path.join(self.main, "src", "util.py"), "w") as handle:
            handle.write("def helper():\n    return 1\n")
        git(self.main, "add", "src/util.py")
        git(self.main, "commit", "-q", "-m", "util")
        git(self.main, "mv", "src/util.py", "src/utils.py")
        git(self.main, "rm", "-q", "README.md")
        self.claude.live_session(self.main, name="mover", edits=[os.path.join(self.main, p)
                                                                 for p in ("src/util.py", "src/utils.py", "README.md")])
        self.own_change("docs/own.md")
        git(self.main, "add", "docs/own.md")

    def test_the_old_name_of_a_rename_is_not_at_stake_where_the_lister_prints_only_the_new(self):
        _decision, reason = self.decision(self.guard("git diff --cached --name-only | xargs git reset --"))
        stake = next(line for line in reason.splitlines() if line.startswith("At stake:"))
        self.assertIn("src/utils.py [staged]", stake)
        self.assertIn("README.md [staged-deletion]", stake)
        self.assertNotIn("src/util.py ", stake)
        _decision, reason = self.decision(self.guard("git reset -- $(git -c diff.renames=false diff --cached "
                                                     "--name-only)"))
        self.assertIn("src/util.py [staged-deletion]", reason)  # without detection both names are printed

    def test_an_add_git_refuses_for_a_fed_path_that_matches_nothing_is_let_through(self):
        line = "git status --porcelain | awk '{print $2}' | xargs git add"  # `R  src/util.py -> …`: gone
        self.assertAllowed(self.guard(line))
        self.assertNotEqual(subprocess.run(["bash", "-c", line], cwd=self.main, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL).returncode, 0)  # git refuses it


class GitsOwnReadings(GuardTestCase):
    """Forms whose reach is git's own reading of them, not what their words suggest."""

    def setUp(self):
        super().setUp()
        self.working_peer(modified=("src/app.py",), new=(), staged=("src/peer.py",))

    def test_a_staged_stash_of_some_paths_stashes_every_staged_change(self):
        decision, reason = self.decision(self.guard("git stash push --staged -- README.md"))
        self.assertEqual(decision, "deny")  # nothing of this session's to stash
        self.assertIn("src/peer.py staged", reason)
        self.own_change("docs/mine.md")
        git(self.main, "add", "docs/mine.md")
        decision, reason = self.decision(self.guard("git stash push --staged -- docs/mine.md"))
        self.assertEqual(decision, "ask")  # git 2.39 keeps no path: no narrow form

    def test_an_amend_with_all_rewrites_what_everyone_stands_on(self):
        self.assertEqual(self.decision(self.guard("git commit -a --amend --no-edit"))[0], "ask")

    def test_a_sparse_checkout_takes_out_the_staged_files_outside_its_folders(self):
        decision, reason = self.decision(self.guard("git sparse-checkout set docs"))
        self.assertEqual(decision, "ask")
        self.assertIn("src/peer.py staged", reason)
        self.assertNotIn("src/app.py", reason.splitlines()[0])  # an unstaged change: git keeps the file
        for command in ("git sparse-checkout set src", "git sparse-checkout list", "git sparse-checkout disable"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))

    def test_long_magic_matches_as_git_matches(self):
        self.assertRefused(self.guard("git add ':(icase)SRC'"), "src/app.py unstaged")
        self.assertRefused(self.guard("git add ':(glob)src/**/*.py'"), "src/app.py unstaged")
        self.assertAllowed(self.guard("git add ':(glob)*.py'"))  # only the toplevel's .py files

    def test_answers_fed_to_add_p_say_which_files_it_stages(self):
        self.own_change("README.md")
        for command in ("printf 'n\\nn\\n' | git add -p", "git add -p <<EOF\ny\nn\nEOF"):  # README's hunk first
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))
        for command in ("yes | git add -p", "printf 'n\\ny\\n' | git add -p", "echo -e 'a\\na' | git add -p"):
            with self.subTest(command=command):
                self.assertRefused(self.guard(command), "src/app.py unstaged")

    def test_a_folder_only_the_shell_knows_is_judged_where_the_line_starts(self):
        sub = os.path.join(self.main, "src")
        self.assertRefused(self.guard('cd "$(dirname "$0")"/.. 2>/dev/null; git add -A', cwd=sub), "src/app.py")
        self.assertAllowed(self.guard('cd "$WORKDIR" && git status'))


class BehindTheIndex(GuardTestCase):
    """Issue 19 items 2 and 3: history written behind the shared index, and config that changes what
    a command does."""

    def setUp(self):
        super().setUp()
        self.peer = self.working_peer(modified=("README.md",))  # tracked change, and src/peer_new.py new

    def test_a_ref_set_to_a_commit_known_only_at_run_time_asks(self):
        line = "c=$(git commit-tree 'HEAD^{tree}' -p HEAD -m snapshot) && git update-ref refs/heads/main $c"
        self.assertEqual(self.decision(self.guard(line))[0], "ask")
        self.assertEqual(self.decision(self.guard("git reset $(git rev-parse HEAD~1)"))[0], "ask")

    def test_a_commit_from_an_index_made_before_a_peers_commit_asks_naming_what_it_would_revert(self):
        index = os.path.join(self.tmp, "stale.index")
        subprocess.run(["git", "-C", self.main, "read-tree", "HEAD"], env=dict(os.environ, GIT_INDEX_FILE=index),
                       check=True)
        with open(os.path.join(self.main, "src", "validate.py"), "w") as handle:
            handle.write("def validate():\n    return True\n")
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "src", "validate.py"), now_ms())])
        git(self.main, "add", "src/validate.py")
        git(self.main, "commit", "-q", "-m", "the peer's validation")
        decision, reason = self.decision(self.guard("GIT_INDEX_FILE=%s git commit -m 'safe commit'" % shell_path(index)))
        self.assertEqual(decision, "ask")
        self.assertIn("main-peer: src/validate.py [committed]", reason)
        launched = self.run_hook(SCRIPT, bash("git commit -m 'safe commit'", self.main), GIT_INDEX_FILE=index)
        self.assertIn("src/validate.py [committed]", self.decision(launched)[1])

    def test_a_private_index_the_line_fills_is_judged_by_what_it_adds(self):
        own = os.path.join(self.main, "NOTES.md")
        with open(own, "w") as handle:
            handle.write("mine\n")
        self.claude.write_session_files("this-session-0000", self.main, edits=[own])
        index = os.path.join(self.tmp, "fresh.index")
        build = "GIT_INDEX_FILE=%s git read-tree HEAD && GIT_INDEX_FILE=%s git add %s && GIT_INDEX_FILE=%s git commit -m x"
        self.assertAllowed(self.guard(build % (index, index, "NOTES.md", index)))
        decision, reason = self.decision(self.guard(build % (index, index, "-A", index)))
        self.assertEqual(decision, "ask")
        self.assertIn("src/peer_new.py [untracked]", reason)

    def test_config_on_the_line_is_read(self):
        self.assertRefused(self.guard("git -c alias.save='!git add -A && git commit -m wip' save"), "main-peer")
        self.own_change("docs/mine.md")
        _decision, reason = self.decision(self.guard("git -c alias.save='!git add -A && git commit -m wip' save"))
        # the alias's commands are a nested shell: narrowed alone, not spliced into the line by their
        # places in the alias's text
        self.assertEqual(self.suggestion(reason), "git add -- docs/mine.md && git commit -m wip -- docs/mine.md")
        git(self.main, "branch", "other")
        self.assertAllowed(self.guard("git pull --rebase . other"))  # git refuses: tracked changes
        self.assertEqual(self.decision(self.guard("git -c rebase.autoStash=true pull --rebase . other"))[0], "ask")
        self.assertAllowed(self.guard("git clean -d"))  # clean.requireForce: nothing happens without -f
        self.assertRefused(self.guard("git -c clean.requireForce=false clean -d"), "src/peer_new.py")

    def test_revert_without_a_commit_of_a_commit_a_live_peer_may_have_made_asks(self):
        def commit(name, date):
            with open(os.path.join(self.main, name), "w") as handle:
                handle.write("%s\n" % name)
            git(self.main, "add", name)
            subprocess.run(["git", "-C", self.main, "commit", "-q", "-m", name], check=True,
                           env=dict(os.environ, GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date))

        commit("old.md", "@1577836800 +0000")  # 2020: before the live peer started (30 minutes ago)
        self.assertAllowed(self.guard("git revert -n HEAD"))  # no live session's work: this session's change
        commit("new.md", "@%d +0000" % (now_ms() // 1000))  # since the peer started: it may be its commit
        for line in ("git revert -n HEAD", "git cherry-pick -n HEAD~1..HEAD", "git revert -n HEAD~1 HEAD"):
            with self.subTest(line=line):
                self.assertEqual(self.decision(self.guard(line))[0], "ask")
        self.assertAllowed(self.guard("git revert --no-commit HEAD~1"))

    def test_expiring_the_stash_reflog_asks(self):
        with open(os.path.join(self.main, "src", "app.py"), "a") as handle:
            handle.write("stashed\n")
        git(self.main, "stash", "push", "-q", "--", "src/app.py")
        self.assertEqual(self.decision(self.guard("git reflog expire --expire=now --all && git gc --prune=now"))[0],
                         "ask")

    def test_removing_deleted_files_fed_by_a_lister_stages_the_peers_deletion(self):
        git(self.main, "checkout", "-q", "--", "README.md")
        os.remove(os.path.join(self.main, "README.md"))  # the peer's unstaged deletion
        self.assertRefused(self.guard("git ls-files --deleted | xargs git rm"), "README.md [unstaged-deletion]")


class StashTestCase(GuardTestCase):
    """A live peer that pushes stash entries, and this session's own transcript."""

    OWN_ID = "own-session-4444"

    def setUp(self):
        super().setUp()
        self.peer = self.claude.live_session(self.main, name="stasher")
        self.claude.write_session_files(self.OWN_ID, self.main, prompts=["tidy up"])

    def push(self, session_id, message, path="src/app.py"):
        """A `git stash push -m <message>` that the session's transcript shows, made for real."""
        with open(os.path.join(self.main, path), "a") as handle:
            handle.write("%s\n" % message)
        command = 'git stash push -m "%s" -- %s' % (message, path)
        self.claude.append_records(session_id, self.main, [bash_record(session_id, self.main, command, now_ms())])
        git(self.main, "stash", "push", "-q", "-m", message, "--", path)


class StashOwners(StashTestCase):
    """Issue 19 item 4: stash entries have owners (ShaftHQ/SHAFT_ENGINE #4130, gsd-build/get-shit-done #3542)."""

    def test_popping_a_peers_entry_asks_naming_it_and_popping_ones_own_runs(self):
        self.push(self.peer.session_id, "wip: the peer's parser")
        decision, reason = self.decision(self.guard("git stash pop", session_id=self.OWN_ID))
        self.assertEqual(decision, "ask")
        self.assertIn('stash@{0} ("On main: wip: the peer\'s parser"): it was pushed by stasher', reason)
        self.push(self.OWN_ID, "mine for a moment", path="README.md")
        self.assertAllowed(self.guard("git stash pop", session_id=self.OWN_ID))
        self.assertEqual(self.decision(self.guard("git stash drop stash@{1}", session_id=self.OWN_ID))[0], "ask")
        self.assertEqual(self.decision(self.guard("git stash apply stash@{1}", session_id=self.OWN_ID))[0], "ask")
        self.assertEqual(self.decision(self.guard("git stash clear", session_id=self.OWN_ID))[0], "ask")

    def test_an_entry_an_ended_session_pushed_is_still_asked_about(self):
        ended = "ended-session-5555"
        self.claude.write_session_files(ended, self.main, prompts=["park the refactor"])
        self.push(ended, "parked refactor")
        reason = self.decision(self.guard("git stash pop", session_id=self.OWN_ID))[1]
        self.assertIn("it was pushed by %s (ended)" % ended[:8], reason)

    def test_a_same_line_pop_after_a_push_that_saved_nothing_takes_the_peers_entry(self):
        self.push(self.peer.session_id, "wip: the peer's parser")
        git(self.main, "checkout", "-q", "--", ".")
        decision, _reason = self.decision(self.guard("git stash && git pull && git stash pop", session_id=self.OWN_ID))
        self.assertEqual(decision, "ask")


class StashSequences(StashTestCase):
    """The stack changes under the line itself: each pop takes what is on top when it runs."""

    def test_a_second_pop_takes_the_entry_below_this_sessions_own(self):
        self.push(self.peer.session_id, "wip: the peer's parser")
        self.push(self.OWN_ID, "mine for a moment", path="README.md")
        self.assertAllowed(self.guard("git stash pop", session_id=self.OWN_ID))
        for command in ("git stash pop && git stash pop", "git stash pop; git stash pop",
                        "for i in 1 2; do git stash drop; done"):
            with self.subTest(command=command):
                decision, reason = self.decision(self.guard(command, session_id=self.OWN_ID))
                self.assertEqual(decision, "ask")
                self.assertIn("it was pushed by stasher", reason)

    def test_a_round_trip_puts_files_back_but_leaves_what_a_peer_staged_unstaged(self):
        with open(os.path.join(self.main, "src", "new.py"), "w") as handle:
            handle.write("new = 1\n")
        git(self.main, "add", "src/new.py")  # a new file comes back added
        self.claude.append_records(self.peer.session_id, self.main, [edit_record(
            self.peer.session_id, self.main, os.path.join(self.main, "src", "new.py"), now_ms())])
        self.assertAllowed(self.guard("git stash -u && git stash pop", session_id=self.OWN_ID))
        with open(os.path.join(self.main, "README.md"), "a") as handle:
            handle.write("the peer's line\n")
        git(self.main, "add", "README.md")  # a staged change comes back unstaged
        self.claude.append_records(self.peer.session_id, self.main, [edit_record(
            self.peer.session_id, self.main, os.path.join(self.main, "README.md"), now_ms())])
        decision, reason = self.decision(self.guard("git stash -u && git stash pop", session_id=self.OWN_ID))
        self.assertEqual(decision, "deny")  # nothing of this session's to stash
        self.assertIn("README.md staged", reason)
        self.assertIn("leave it unstaged", reason)
        self.assertNotIn("src/new.py", reason.splitlines()[0])
        self.assertAllowed(self.guard("git stash -u && git stash pop --index", session_id=self.OWN_ID))


FUZZ_WORDS = ["git", "add", "-A", ".", "commit", "-am", "stash", "reset", "--hard", "cd", "src", "&&",
              "||", ";", "|", "(", ")", "{", "}", "'", '"', "$(", "`", "<<EOF", "EOF", "\n", "bash -c",
              "eval", "-C", "..", "sudo", "env", "X=1", "#", "\\", "*", ":/", "checkout", "--", "xargs"]


class Fuzz(GuardTestCase):
    def test_random_command_lines_exit_only_0_or_2(self):
        self.working_peer()
        rng = random.Random(20260311)
        for _ in range(15):  # each run judges a dozen random lines; the pure parser's fuzz runs thousands
            lines = [" ".join(rng.choice(FUZZ_WORDS) for _ in range(rng.randint(1, 14))) for _ in range(12)]
            command = rng.choice(["\n", " ; ", " && "]).join(lines)
            result = self.guard(command)
            self.assertIn(result.returncode, (0, 2), command)
            if result.returncode == 0:
                self.assertEqual(result.stderr, "", command)


if __name__ == "__main__":
    unittest.main()

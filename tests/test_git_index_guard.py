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


class PeersInTheCheckout(GuardTestCase):
    def test_sendmessage_is_advised_only_when_this_sessions_client_can_send(self):
        self.claude.live_session(self.main, name="main-peer", version=claudehome.CURRENT_VERSION)
        payload = bash("git add -A", self.main)
        _, oldest = self.decision(self.run_hook(SCRIPT, payload))  # no socket variable, no entry
        self.assertNotIn("SendMessage", oldest)
        self.assertIn("cannot send messages: coordinate with them through the user", oldest)
        _, current = self.decision(self.run_hook(SCRIPT, payload, CLAUDE_CODE_MESSAGING_SOCKET="/tmp/cc-socks/1.sock"))
        self.assertIn("Message main-peer with SendMessage", current)

    def test_add_all_is_refused_naming_the_peer_and_the_narrow_form(self):
        self.claude.live_session(self.main, name="main-peer")
        result = self.guard("git add -A")
        self.assertRefused(result, "main-peer", "git add -- <your files>", "git add -A")

    def test_alone_every_command_runs_untouched(self):
        for command in ("git add -A", "git commit -am x", "git reset --hard", "git stash", "git checkout main"):
            self.assertAllowed(self.guard(command))

    def test_peer_in_a_subfolder_counts(self):
        self.claude.live_session(os.path.join(self.main, "src"), name="sub-peer")
        self.assertRefused(self.guard("git stash"), "sub-peer")

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
        self.claude.live_session(self.main, name="main-peer")
        self.assertAllowed(self.guard("cd ../other && git add -A"))
        self.claude.live_session(other, name="other-peer")
        self.assertRefused(self.guard("cd %s && git add -A" % shell_path(other)), "other-peer")

    def test_git_dash_c_into_the_shared_checkout_is_refused_from_elsewhere(self):
        self.claude.live_session(self.main, name="main-peer")
        self.assertRefused(self.guard("git -C %s clean -fd" % shell_path(self.main), cwd=self.tmp), "main-peer")

    def test_quoted_commit_message_mentioning_git_add_is_data(self):
        self.claude.live_session(self.main, name="main-peer")
        self.assertAllowed(self.guard('git commit -m "then git add ." -- README.md'))

    def test_path_limited_forms_pass_with_a_peer(self):
        self.claude.live_session(self.main, name="main-peer")
        for command in ("git add README.md", "git status && git diff", "git stash push -- README.md",
                        "git restore -- README.md", "git log --oneline | head", "git worktree add ../wt"):
            self.assertAllowed(self.guard(command))

    def test_every_peer_is_named(self):
        self.claude.live_session(self.main, name="peer-one")
        self.claude.live_session(os.path.join(self.main, "src"), name="peer-two")
        self.assertRefused(self.guard("git reset --hard"), "peer-one", "peer-two")


class PeersRecentEdits(GuardTestCase):
    def test_adding_a_folder_holding_a_peers_recent_edit_is_refused(self):
        self.claude.live_session(self.main, name="editor", edits=[os.path.join(self.main, "src/app.py")])
        result = self.guard("git add src")
        self.assertRefused(result, "editor", "src/app.py")

    def test_adding_a_folder_the_peer_did_not_touch_passes(self):
        os.makedirs(os.path.join(self.main, "docs"))
        self.claude.live_session(self.main, name="editor", edits=[os.path.join(self.main, "src/app.py")])
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

    def test_a_pathspec_through_a_symlink_to_the_checkout_is_judged_as_the_checkout(self):
        self.claude.append_records(self.peer.session_id, self.main, [
            edit_record(self.peer.session_id, self.main, os.path.join(self.main, "lib", "a.py"), next(self.at))])
        link = os.path.join(self.tmp, "main-link")
        os.symlink(self.main, link)
        self.assertRefused(self.guard("git add %s/lib" % shell_path(link)), "busy-peer", "lib/a.py")


class Decisions(GuardTestCase):
    def setUp(self):
        super().setUp()
        self.claude.live_session(self.main, name="main-peer")

    def test_a_narrow_form_means_deny_and_none_means_ask(self):
        self.assertEqual(self.decision(self.guard("git add -A"))[0], "deny")
        self.assertEqual(self.decision(self.guard("git checkout -b other"))[0], "ask")

    def test_every_refusal_of_the_line_is_in_one_reason(self):
        decision, reason = self.decision(self.guard("git stash && git add -A && git checkout -b x"))
        self.assertEqual(decision, "deny")
        for command in ("`git stash`", "`git add -A`", "`git checkout -b x`"):
            self.assertIn(command, reason)

    def test_a_revision_naming_no_commit_or_a_ref_set_to_its_own_value_changes_nothing(self):
        for command in ("git rebase -i HEAD~5", "git reset --hard HEAD~5", "git checkout -",
                        "git update-ref refs/heads/main HEAD", "git bisect start HEAD HEAD~5"):
            with self.subTest(command=command):
                self.assertAllowed(self.guard(command))
        self.assertEqual(self.decision(self.guard("git reset --hard HEAD"))[0], "ask")

    def test_a_rebase_git_refuses_over_tracked_changes_changes_nothing(self):
        git(self.main, "branch", "other")
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
        self.assertRefused(self.guard("cd ~/%s && git stash" % home_relative, cwd=self.tmp), "main-peer")

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
        self.assertRefused(self.guard('FILES="src lib"; git add $FILES'), "main-peer", "src/app.py", "lib/util.py")
        self.assertRefused(self.guard('F="docs lib"; git commit -m x $F'), "lib/util.py")
        self.assertAllowed(self.guard('FILES=docs/a.md; git add "$FILES"'))
        self.assertAllowed(self.guard('FILES="docs/a.md docs/b.md"; git add $FILES'))
        self.assertRefused(self.guard('F="docs/a.md docs/b.md"; IFS=,; git add $F'), "computed when it runs")


class Aliases(GuardTestCase):
    def test_an_alias_is_judged_by_its_expansion(self):
        git(self.main, "config", "alias.aa", "add --all")
        git(self.main, "config", "alias.st", "status")
        self.claude.live_session(self.main, name="main-peer")
        self.assertRefused(self.guard("git aa"), "main-peer")
        self.assertAllowed(self.guard("git st"))

    def test_a_shell_alias_is_parsed_as_shell(self):
        git(self.main, "config", "alias.wipe", "!git reset --hard && git clean -fd")
        self.claude.live_session(self.main, name="main-peer")
        self.assertRefused(self.guard("git wipe"), "main-peer", "git reset --hard")


class BadInput(GuardTestCase):
    def setUp(self):
        super().setUp()
        self.claude.live_session(self.main, name="main-peer")

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


FUZZ_WORDS = ["git", "add", "-A", ".", "commit", "-am", "stash", "reset", "--hard", "cd", "src", "&&",
              "||", ";", "|", "(", ")", "{", "}", "'", '"', "$(", "`", "<<EOF", "EOF", "\n", "bash -c",
              "eval", "-C", "..", "sudo", "env", "X=1", "#", "\\", "*", ":/", "checkout", "--", "xargs"]


class Fuzz(GuardTestCase):
    def test_random_command_lines_exit_only_0_or_2(self):
        self.claude.live_session(self.main, name="main-peer")
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

"""guard_verdict and narrow: whether to let git operations run beside live peers, judged by what each
operation reaches of the peers' work as git holds it now, the words the human and the model read,
and the line to run instead. Pure: operations from peerhooks.git.classify, the peers' changes and git's state given."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git import classify, kinds, patch_answers
from peerhooks.guard import narrow, reason as guard_reason, verdict as guard_verdict  # noqa: E402
from peerhooks.git.gitstate import PathState, StashEntry  # noqa: E402
from peerhooks.guard.verdict import Judged, Peer  # noqa: E402

TOP = "/r"


def modified(path, staged=False, unstaged=True):
    return PathState(path, "M" if staged else ".", "M" if unstaged else ".")


def added(path):
    return PathState(path, "A", ".")


def untracked(path, folder=False):
    return PathState(path, ".", ".", True, False, folder)


def ignored(path):
    return PathState(path, ".", ".", False, True)


def deleted(path, staged=True):
    return PathState(path, "D", ".") if staged else PathState(path, ".", "D")


def states(*entries):
    return {entry.path: entry for entry in entries}


def peer(name, *paths, busy=True):
    return Peer(name, tuple(os.path.join(TOP, p) for p in paths), busy=busy)


def judge(command, peers, world, own=(), cwd=TOP, stash=None):
    judged = [Judged(op, TOP, tuple(peers)) for op in classify.parse(command, cwd)
              if op.kind != kinds.SAFE and op.cwd]
    own = frozenset(os.path.join(TOP, p) for p in own)
    return guard_verdict.verdict(judged, own, {TOP: world}, {TOP: stash})


def held(refusals):
    return sorted((h.peer, h.path, h.state) for r in refusals for h in r.held)


class WorkOnlyUntracked(unittest.TestCase):
    """Issue 18's world where the peer's work is only untracked files."""

    WORLD = states(untracked("src/cache.py"), untracked("notes", folder=True), modified("src/app.py"))
    PEER = peer("p", "src/cache.py", "notes/design.md")
    OWN = ["src/app.py"]

    def test_commands_that_leave_untracked_files_alone_run(self):
        for command in ("git stash", "git add -u", "git commit -am x", "git checkout .", "git restore .",
                        "git reset --hard", "git stash --keep-index", "git reset", "git rm -rf --cached src"):
            with self.subTest(command=command):
                self.assertEqual(judge(command, [self.PEER], self.WORLD, own=["src/app.py"]), [])

    def test_commands_that_take_untracked_files_are_refused_naming_them(self):
        for command, expected in (
                ("git add -A", [("p", "notes/design.md", "untracked"), ("p", "src/cache.py", "untracked")]),
                ("git add .", [("p", "notes/design.md", "untracked"), ("p", "src/cache.py", "untracked")]),
                ("git stash -u", [("p", "notes/design.md", "untracked"), ("p", "src/cache.py", "untracked")]),
                ("git clean -fd", [("p", "notes/design.md", "untracked"), ("p", "src/cache.py", "untracked")]),
                ("git clean -f", [("p", "src/cache.py", "untracked")]),  # without -d: new folders stay
                ("git clean -f notes", [("p", "notes/design.md", "untracked")])):  # a pathspec needs no -d
            with self.subTest(command=command):
                self.assertEqual(held(judge(command, [self.PEER], self.WORLD, self.OWN)), expected)

    def test_a_subfolder_checkout_names_only_what_it_reaches(self):
        self.assertEqual(judge("cd src && git checkout .", [self.PEER], self.WORLD, self.OWN), [])

    def test_clean_exclusions_and_ignored_files(self):
        world = states(untracked("src/cache.py"), ignored("build.log"))
        who = peer("p", "src/cache.py", "build.log")
        self.assertEqual(judge("git clean -fd -e src/cache.py", [who], world), [])
        self.assertEqual(judge("git clean -fd -e cache.py", [who], world), [])
        self.assertEqual(held(judge("git clean -fX", [who], world)), [("p", "build.log", "ignored")])
        self.assertEqual(held(judge("git clean -fdx", [who], world)),
                         [("p", "build.log", "ignored"), ("p", "src/cache.py", "untracked")])


class StagedWork(unittest.TestCase):
    WORLD = states(modified("src/util.py", staged=True, unstaged=False), added("src/parser.py"),
                   deleted("src/old.py"), modified("src/api.py"))
    PEER = peer("p", "src/util.py", "src/parser.py", "src/old.py", "src/api.py")

    def test_a_checkout_from_head_leaves_a_file_head_lacks_and_one_from_elsewhere_may_not(self):
        def paths(command):
            return [path for _peer, path, _state in held(judge(command, [self.PEER], self.WORLD))]

        self.assertEqual(paths("git checkout HEAD -- src"), ["src/api.py", "src/old.py", "src/util.py"])  # overlay
        self.assertIn("src/parser.py", paths("git checkout main~1 -- src"))  # main~1 may hold it
        self.assertIn("src/parser.py", paths("git restore --source=HEAD --staged --worktree src"))  # no overlay

    def test_clean_never_deletes_a_staged_file(self):
        self.assertEqual(judge("git clean -fd", [self.PEER], self.WORLD), [])

    def test_adding_a_file_staged_identically_changes_nothing(self):
        for command in ("git add src/util.py", "git add src/*.py", "git add 'src/*.py' src/parser.py"):
            with self.subTest(command=command):
                refusals = judge(command, [self.PEER], self.WORLD)
                self.assertNotIn("src/util.py", [h.path for h in held_records(refusals)])

    def test_a_commit_takes_staged_work_and_a_deletion_is_staged_work(self):
        self.assertEqual(held(judge("git commit -m x", [self.PEER], self.WORLD)),
                         [("p", "src/old.py", "staged-deletion"), ("p", "src/parser.py", "staged"),
                          ("p", "src/util.py", "staged")])
        self.assertEqual(held(judge("git commit -m x -- src/api.py", [self.PEER], self.WORLD)),
                         [("p", "src/api.py", "unstaged")])

    def test_unstaging_and_discarding_reach_different_states(self):
        self.assertEqual([h[1] for h in held(judge("git reset", [self.PEER], self.WORLD))],
                         ["src/old.py", "src/parser.py", "src/util.py"])
        self.assertEqual([h[1] for h in held(judge("git checkout .", [self.PEER], self.WORLD))], ["src/api.py"])
        self.assertEqual(judge("git add -A", [self.peer_without_api()], self.WORLD, own=["src/api.py"]), [])

    def test_a_move_onto_a_path_whose_deletion_is_staged_undoes_that_deletion(self):
        for command in ("git mv src/api.py src/old.py", "git mv -f src/api.py src/old.py",
                        "cd src && git mv api.py old.py"):
            with self.subTest(command=command):
                self.assertEqual(held(judge(command, [self.PEER], self.WORLD)),
                                 [("p", "src/api.py", "unstaged"), ("p", "src/old.py", "staged-deletion")])
        self.assertEqual(judge("git rm --cached src/old.py", [self.PEER], self.WORLD), [])  # git has no entry to remove

    def peer_without_api(self):
        return peer("p", "src/util.py", "src/parser.py", "src/old.py")


def held_records(refusals):
    return [h for r in refusals for h in r.held]


class ExclusionsAndScope(unittest.TestCase):
    WORLD = states(untracked("services/billing/x.py"), modified("services/billing/y.py"))
    PEER = peer("p", "services/billing/x.py", "services/billing/y.py")

    def test_exclusion_pathspecs_leave_the_peers_folder_out(self):
        for command in ("git add -A ':!services'", "git add . ':!services/billing'", "git add -A -- ':(exclude)services'",
                        "git commit -am x -- ':!services'"):
            with self.subTest(command=command):
                self.assertEqual(judge(command, [self.PEER], self.WORLD), [], command)
        self.assertEqual(len(judge("git add . ':!services/billing/x.py'", [self.PEER], self.WORLD)), 1)

    def test_loops_finds_and_listers_bounded_by_a_folder_are_followed(self):
        for command in ('for f in docs/a.md docs/b.md; do git add "$f"; done',
                        "git diff --name-only -- docs | xargs git add",
                        "find docs -name '*.md' -exec git add {} +",
                        "git ls-files -m docs | xargs git add"):
            with self.subTest(command=command):
                self.assertEqual(judge(command, [self.PEER], self.WORLD), [])
        self.assertEqual(len(judge('for f in services/billing/y.py; do git add "$f"; done', [self.PEER],
                                   self.WORLD)), 1)
        self.assertEqual(len(judge("find services -exec git add {} +", [self.PEER], self.WORLD)), 1)

    def test_a_lister_feeds_only_the_work_it_lists(self):
        # `git diff --name-only` lists tracked files' working-tree changes: never an untracked file
        self.assertEqual(held(judge("git diff --name-only | xargs git add", [self.PEER], self.WORLD)),
                         [("p", "services/billing/y.py", "unstaged")])

    def test_paths_only_the_running_shell_knows_are_refused_while_the_peer_has_work(self):
        for command in ("git add $(cat files.txt)", 'git add "$FILES"', "git status --porcelain | xargs git add"):
            with self.subTest(command=command):
                self.assertEqual(len(judge(command, [self.PEER], self.WORLD)), 1)
                self.assertEqual(judge(command, [peer("q", "elsewhere.py", busy=False)], self.WORLD), [])


class Unattributed(unittest.TestCase):
    WORLD = states(modified("c.py", staged=True, unstaged=False), untracked("d.py"))

    def test_changes_nobody_claims_count_only_while_a_peer_is_busy(self):
        idle, busy = peer("idle", busy=False), peer("busy")
        self.assertEqual(judge("git commit -m x", [idle], self.WORLD), [])
        self.assertEqual(held(judge("git commit -m x", [busy], self.WORLD)),
                         [(guard_verdict.UNATTRIBUTED, "c.py", "staged")])

    def test_naming_a_file_claims_it(self):
        self.assertEqual(judge("git add d.py", [peer("busy")], self.WORLD), [])
        self.assertEqual(len(judge("git add .", [peer("busy")], self.WORLD)), 1)

    def test_own_files_are_not_unattributed(self):
        self.assertEqual(judge("git commit -m x", [peer("busy")], self.WORLD, own=["c.py"]), [])


class CommitsBeforeTheParties(unittest.TestCase):
    def test_only_commits_made_before_every_party_started_are_nobodys_live_work(self):
        started = [1_700_000_000_000, 1_700_000_500_000]
        self.assertTrue(guard_verdict.predates_every_party([1_699_999_000, 1_699_999_999], started))
        self.assertFalse(guard_verdict.predates_every_party([1_699_999_000, 1_700_000_100], started))
        self.assertFalse(guard_verdict.predates_every_party([1_600_000_000], started + [None]))  # a subagent
        self.assertFalse(guard_verdict.predates_every_party(None, started))  # git could not tell
        self.assertFalse(guard_verdict.predates_every_party([], started))


class AskKinds(unittest.TestCase):
    WORLD = states(modified("a.py"))

    def test_moving_head_asks_whatever_the_files_state_and_names_the_stake(self):
        for command in ("git checkout -b other", "git switch main2", "git rebase main", "git reset --hard HEAD~1",
                        "git reset HEAD~1", "git update-ref refs/heads/main HEAD~1"):
            with self.subTest(command=command):
                refusals = judge(command, [peer("p")], states(untracked("a.py")))
                self.assertTrue(guard_verdict.is_ask(refusals), command)
        # over a tracked change git refuses to start a rebase: nothing moves
        self.assertEqual(judge("git rebase main", [peer("p")], self.WORLD), [])
        self.assertTrue(guard_verdict.is_ask(judge("git rebase --autostash main", [peer("p")], self.WORLD)))

    def test_a_new_branch_is_not_said_to_rewrite_the_tree(self):
        refusals = judge("git checkout -b other", [peer("p", "a.py")], self.WORLD)
        text = guard_reason.reason(refusals, "git checkout -b other")
        self.assertIn("the files stay as they are", text)
        self.assertNotIn("rewrit", text.split("\n")[0])
        self.assertTrue(text.startswith("peerhooks git guard: p has 1 uncommitted file here (a.py unstaged)"), text)

    def test_an_ask_never_says_refused_and_tells_what_yes_does(self):
        refusals = judge("git reset --hard", [peer("p", "a.py")], self.WORLD)
        text = guard_reason.reason(refusals, "git reset --hard")
        self.assertNotIn("refused", text)
        self.assertIn("Yes runs it anyway", text)

    def test_a_stash_pop_with_an_empty_stack_runs_and_otherwise_names_the_entry(self):
        self.assertEqual(judge("git stash pop", [peer("p")], self.WORLD, stash=[]), [])
        entry = StashEntry("stash@{0}", "abc", 1, "On main: wip: models")
        refusals = judge("git stash pop", [peer("p")], self.WORLD, stash=[entry])
        self.assertIn('stash@{0} ("On main: wip: models"): no transcript shows who pushed it', guard_reason.reason(refusals, "git stash pop"))

    def test_a_pop_of_what_the_line_pushed_runs_only_when_the_push_saved_something(self):
        self.assertEqual(judge("git stash push -- a.py && make && git stash pop", [peer("q")], self.WORLD,
                               own=["a.py"], stash=[]), [])
        entry = StashEntry("stash@{0}", "abc", 1, "On main: the peer's")
        nothing = judge("git stash push -- b.py && git stash pop", [peer("q")], self.WORLD, stash=[entry])
        self.assertTrue(guard_verdict.is_ask(nothing))


class UnknownState(unittest.TestCase):
    def test_when_git_does_not_answer_in_time_every_path_in_scope_counts_state_unknown(self):
        refusals = judge("git add src", [peer("p", "src/a.py", "lib/b.py")], None)
        self.assertEqual(held(refusals), [("p", "src/a.py", "unknown")])


class Reason(unittest.TestCase):
    WORLD = states(modified("src/util.py", staged=True, unstaged=False), untracked("src/cache.py"),
                   modified("docs/tutorial.md"), untracked("docs/new.md"))
    PEERS = (Peer("parser-peer", ("/r/src/util.py", "/r/src/cache.py"), can_message=True),
             Peer("docs-peer", (), can_message=False))

    def reason(self, command, **options):
        refusals = judge(command, self.PEERS, self.WORLD, own=["docs/tutorial.md", "docs/new.md"])
        return guard_reason.reason(refusals, command, **options)

    def test_the_first_line_says_whose_work_which_files_and_what_git_would_do(self):
        first = self.reason("git commit -m x").splitlines()[0]
        self.assertEqual(first, "peerhooks git guard: parser-peer has src/util.py staged; `git commit -m x` would "
                                "commit it as this session's.")

    def test_the_stake_line_lists_each_path_with_its_state(self):
        self.assertIn("At stake: parser-peer: src/cache.py [untracked]", self.reason("git add -A"))

    def test_messaging_advice_names_what_was_observed(self):
        claude = self.reason("git add -A")
        self.assertIn("Message parser-peer with SendMessage", claude)
        self.assertNotIn("SendMessage", self.reason("git add -A", host="codex"))
        self.assertIn("no messaging socket", self.reason("git add -A", can_send=False))

    def test_a_secret_in_the_command_is_not_echoed_but_the_suggestion_runs_as_given(self):
        command = "git add -A && git commit -m 'rotate' # AKIAIOSFODNN7EXAMPLE"
        refusals = judge(command, self.PEERS, self.WORLD, own=["docs/tutorial.md", "docs/new.md"])
        text = guard_reason.reason(refusals, command, suggestion="git add -- docs/new.md")
        self.assertNotIn("AKIAIOSFODNN7EXAMPLE", text)
        self.assertIn("```\ngit add -- docs/new.md\n```", text)

    def test_the_command_is_echoed_to_200_characters(self):
        command = "git add -A && " + "echo " + "x" * 400
        self.assertLess(max(len(line) for line in self.reason(command).splitlines()[2:3]), 260)


def suggest(command, peers, world, own, cwd=TOP, stash=None):
    judged = [Judged(op, TOP, tuple(peers)) for op in classify.parse(command, cwd) if op.kind != kinds.SAFE and op.cwd]
    own_paths = frozenset(os.path.join(TOP, p) for p in own)
    refusals = guard_verdict.verdict(judged, own_paths, {TOP: world}, {TOP: stash})
    own_states = {p: world[p[len(TOP) + 1:]] for p in own_paths if p[len(TOP) + 1:] in world}
    return narrow.suggestion(command, cwd, [(j.operation, j.toplevel) for j in judged],
                             {id(r.operation) for r in refusals}, {TOP: own_states}).text


class Suggestions(unittest.TestCase):
    """Issue 18 item 4: every suggestion runs as given and does what the refused line meant."""
    WORLD = states(modified("src/util.py", staged=True, unstaged=False), untracked("src/cache.py"),
                   modified("docs/usage.md"), untracked("docs/tutorial.md"))
    PEER = peer("p", "src/util.py", "src/cache.py")
    OWN = ("docs/usage.md", "docs/tutorial.md")

    def test_claude_codes_heredoc_commit_message_is_kept_byte_for_byte(self):
        command = 'git add -A && git commit -m "$(cat <<\'EOF\'\nAdd the tutorial\n\nBody.\nEOF\n)"'
        self.assertEqual(suggest(command, [self.PEER], self.WORLD, self.OWN),
                         'git add -- docs/tutorial.md docs/usage.md && git commit -m "$(cat <<\'EOF\'\n'
                         'Add the tutorial\n\nBody.\nEOF\n)" -- docs/tutorial.md docs/usage.md')

    def test_a_same_line_add_of_a_new_file_is_kept_before_the_narrowed_commit(self):
        self.assertEqual(suggest("git add docs/tutorial.md && git commit -m m", [self.PEER], self.WORLD, self.OWN),
                         "git add docs/tutorial.md && git commit -m m -- docs/tutorial.md")

    def test_discarding_never_names_an_untracked_file_and_cleaning_only_untracked_ones(self):
        world = dict(self.WORLD, **states(modified("src/api.py")))
        who = peer("p", "src/util.py", "src/cache.py", "src/api.py")
        self.assertEqual(suggest("git restore .", [who], world, self.OWN), "git restore -- docs/usage.md")
        self.assertEqual(suggest("git checkout .", [who], world, self.OWN), "git checkout -- docs/usage.md")
        self.assertEqual(suggest("git clean -fd", [who], world, self.OWN), "git clean -fd -- docs/tutorial.md")

    def test_flags_are_kept_and_whole_tree_flags_dropped(self):
        self.assertEqual(suggest("git stash -u", [self.PEER], self.WORLD, self.OWN),
                         "git stash push -u -- docs/tutorial.md docs/usage.md")
        self.assertEqual(suggest("git commit -am 'fix it'", [peer("p", "src/util.py")], self.WORLD, self.OWN),
                         "git commit -m 'fix it' -- docs/usage.md")
        self.assertEqual(suggest("git add -A", [self.PEER], self.WORLD, self.OWN),
                         "git add -- docs/tutorial.md docs/usage.md")

    def test_paths_are_relative_to_where_the_command_runs(self):
        self.assertEqual(suggest("cd docs && git add .", [peer("p", "docs/x.md")],
                                 dict(self.WORLD, **states(untracked("docs/x.md"))), self.OWN),
                         "cd docs && git add -- tutorial.md usage.md")

    def test_a_command_left_with_nothing_of_this_sessions_is_dropped_from_the_chain(self):
        world = states(untracked("src/cache.py"), modified("docs/usage.md", staged=True, unstaged=False))
        self.assertEqual(suggest("git clean -fd && git commit -m x", [self.PEER], world, ["docs/usage.md"]),
                         "git commit -m x")
        self.assertEqual(suggest("git add -A && git commit -m x", [self.PEER], world, ["docs/usage.md"]),
                         "git commit -m x")
        self.assertIsNone(suggest("git clean -fd", [self.PEER], world, ["docs/usage.md"]))

    def test_a_command_inside_a_nested_shell_is_rendered_from_its_words(self):
        # its words' places are in the `bash -c` script, not the line (found by the wrappers work)
        self.assertEqual(suggest("cd /r && bash -c 'git commit -am x'", [peer("p", "src/util.py")], self.WORLD,
                                 self.OWN), "git commit -m x -- docs/usage.md")

    def test_a_later_command_reaches_what_the_narrowed_staging_before_it_staged(self):
        # `git stash` takes no untracked file, but the add before it staged docs/tutorial.md
        self.assertEqual(suggest("git add -A; git stash", [self.PEER], self.WORLD, self.OWN),
                         "git add -- docs/tutorial.md docs/usage.md; git stash push -- docs/tutorial.md docs/usage.md")
        self.assertEqual(suggest("git stash", [self.PEER], self.WORLD, self.OWN), "git stash push -- docs/usage.md")

    def test_a_staging_an_index_reset_puts_back_is_narrowed_with_the_reset(self):
        # the add alone is let through (the reset puts back what it takes); narrowed, the reset would
        # leave the peer's files staged, so the add is narrowed too
        world = dict(self.WORLD, **states(untracked("src/new.py")))
        who = peer("p", "src/util.py", "src/cache.py", "src/new.py")
        self.assertEqual(suggest("git add -A && git reset -q -- . && git add docs/usage.md", [who], world, self.OWN),
                         "git add -- docs/tutorial.md docs/usage.md && git reset -q -- docs/tutorial.md docs/usage.md "
                         "&& git add docs/usage.md")

    def test_a_push_left_with_nothing_goes_with_the_drop_that_would_take_another_entry(self):
        world = states(untracked("src/cache.py"), modified("src/util.py"), untracked("docs/tutorial.md"))
        who, own = [peer("p", "src/util.py")], ["docs/tutorial.md"]
        self.assertIsNone(suggest("git stash && git stash drop", who, world, own))  # nothing of this session's
        self.assertEqual(suggest("git stash && git stash drop && git add docs/tutorial.md", who, world, own,
                                 stash=[]), "git add docs/tutorial.md")
        self.assertEqual(suggest("git add docs/tutorial.md && git stash -k && git stash drop", who, world, own,
                                 stash=[]), "git add docs/tutorial.md")

    def test_a_staged_state_holds_the_tree_in_the_index(self):
        self.assertEqual(narrow.staged_state(untracked("a")), added("a"))
        self.assertEqual(narrow.staged_state(modified("a", staged=True)), modified("a", staged=True, unstaged=False))
        self.assertEqual(narrow.staged_state(deleted("a", staged=False)), deleted("a"))
        self.assertEqual(narrow.staged_state(PathState("a", "A", "M")), added("a"))
        self.assertIsNone(narrow.staged_state(PathState("a", "A", "D")))  # nothing left to stage
        self.assertEqual(narrow.staged_state(added("a")), added("a"))

    def test_a_loop_is_replaced_by_the_narrowed_commands(self):
        self.assertEqual(suggest('for f in src docs; do git add "$f"; done', [self.PEER], self.WORLD, self.OWN),
                         "git add -- docs/tutorial.md docs/usage.md")


class StashOwners(unittest.TestCase):
    def test_an_entry_is_matched_to_a_push_by_its_message_else_by_time(self):
        from peerhooks.git import stash_owners
        from peerhooks.git.stash_owners import Push

        entries = [StashEntry("stash@{0}", "c0", 1000, "On main: wip: parser"),
                   StashEntry("stash@{1}", "c1", 500, "WIP on main: 1a2b3c4 Add validation")]
        pushes = [Push("peer", 400 * 1000, None), Push(stash_owners.SELF, 999 * 1000, "wip: parser")]
        self.assertEqual(stash_owners.owners(entries, pushes), {"stash@{0}": stash_owners.SELF, "stash@{1}": "peer"})
        self.assertEqual(stash_owners.owners(entries, [Push("late", 600 * 1000, None)]),
                         {"stash@{0}": None, "stash@{1}": None})  # a push after the entry is not its maker


class Scan(unittest.TestCase):
    def test_short_option_clusters_lose_only_the_dropped_letters(self):
        words = classify.parse("git commit -aqm x", TOP)[0].words[1:]
        roles = narrow._scan(words, narrow.TABLES["commit"])
        self.assertEqual(roles, [(0, ("rewrite", "-qm")), (1, "keep")])


if __name__ == "__main__":
    unittest.main()


class SharedFileHunks(unittest.TestCase):
    """A file both sessions changed: this session's patch stages all its hunks, which is the narrow
    form of staging the file, not of a `git add -p` whose answers pick some hunks."""
    PATH = os.path.join(TOP, "src/h.py")
    OWN = {TOP: {PATH: modified("src/h.py")}}

    def suggestion(self, command):
        ops = [op for op in classify.parse(command, TOP) if op.kind != kinds.SAFE]
        ops = [patch_answers.with_answered_hunks(op, ["src/h.py"], TOP) if op.answers is not None else op for op in ops]
        return narrow.suggestion(command, TOP, [(op, TOP) for op in ops], {id(op) for op in ops}, self.OWN,
                                 frozenset([self.PATH]), {self.PATH: "/p/own.patch"})

    def test_staging_the_file_becomes_applying_this_sessions_hunks(self):
        self.assertEqual(self.suggestion("git add src/h.py").text, "git -C /r apply --cached /p/own.patch")

    def test_answered_hunks_get_no_suggestion_and_the_human_decides(self):
        for command in ("printf 'n\\ny\\n' | git add -p src/h.py", "yes | git add -p src/h.py"):
            with self.subTest(command=command):
                self.assertEqual(self.suggestion(command), narrow.Suggestion(None))


class RewritesThatChangeNothing(unittest.TestCase):
    """A `sed -i`/`perl -pi` refusal is decided by the file as it is only while nothing before the
    rewrite may have changed it; the files it leaves byte for byte leave the refusal."""

    def refusals(self, writes, readers=()):
        ops = []
        for step, (path, rewrite) in enumerate(writes):
            ops.append(kinds.Operation(kinds.SHELL_WRITE, TOP, "sed", (kinds.Pathspec(path, path, ""),), False,
                                        step=step, rewrite=rewrite))
        held = [guard_verdict.Held("peer", os.path.relpath(path, TOP), "unstaged") for path, _r in writes]
        refusals = [guard_verdict.Refusal(op, (Peer("peer"),), False, (h,)) for op, h in zip(ops, held)]
        chain = guard_verdict.chains.Chain({}, frozenset(readers), len(writes))
        return ops, refusals, chain

    def test_only_rewrites_with_nothing_but_readers_and_rewrites_before_them(self):
        model = object()  # a rewrites.Rewrite: only whether there is one counts here
        ops, refusals, chain = self.refusals([("/r/a.py", model), ("/r/b.py", model)])
        self.assertEqual(guard_verdict.judged_by_their_files(refusals, ops, chain), refusals)
        ops, refusals, chain = self.refusals([("/r/a.py", None), ("/r/b.py", model)])  # `> a.py`, then sed
        self.assertEqual(guard_verdict.judged_by_their_files(refusals, ops, chain), [])
        ops, refusals, chain = self.refusals([("/r/a.py", None), ("/r/b.py", model)], readers=[0])
        self.assertEqual(guard_verdict.judged_by_their_files(refusals, ops, chain), refusals[1:])
        looped = [r._replace(operation=r.operation._replace(in_loop=True)) for r in refusals]
        self.assertEqual(guard_verdict.judged_by_their_files(looped, ops, chain), [])

    def test_the_files_left_unchanged_leave_the_refusal(self):
        ops, refusals, _chain = self.refusals([("/r/a.py", object()), ("/r/b.py", object())])
        kept = guard_verdict.without_unchanged(refusals, {(id(ops[0]), "a.py")})
        self.assertEqual(kept, refusals[1:])
        self.assertEqual(guard_verdict.without_unchanged(refusals, set()), refusals)

"""peerhooks.git.refusals: whether git refuses an operation as a whole, from the checkout's state. Pure:
states, what is at each path and the stash are given."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git import classify, kinds, refusals  # noqa: E402
from peerhooks.git.refusals import FILE, FOLDER  # noqa: E402
from peerhooks.git.gitstate import PathState, StashEntry  # noqa: E402

TOP = "/r"
# The checkout: src/app.py modified, src/new.py staged new, src/old.py staged deletion (git rm),
# src/gone.py deleted from the tree only, notes/ an untracked folder, src/cache.py untracked.
STATES = {
    "src/app.py": PathState("src/app.py", ".", "M"),
    "src/new.py": PathState("src/new.py", "A", "."),
    "src/old.py": PathState("src/old.py", "D", "."),
    "src/gone.py": PathState("src/gone.py", ".", "D"),
    "src/cache.py": PathState("src/cache.py", ".", ".", True),
    "notes": PathState("notes", ".", ".", True, False, True),
}
PRESENT = {"/r/src/app.py": FILE, "/r/src/new.py": FILE, "/r/src/old.py": None, "/r/src/gone.py": None,
           "/r/src/cache.py": FILE, "/r/notes": FOLDER, "/r/notes/a.md": FILE, "/r/nope.py": None,
           "/r/src": FOLDER, "/r/src/clean.py": FILE, "/r/lib": FOLDER, "/r/lib/x.py": FILE}
STASH = [StashEntry("stash@{0}", "c0", 1, "On main: x")]


def fails(line, states=STATES, stash=STASH, in_the_way=None):
    (op,) = [o for o in classify.parse(line, TOP) if o.kind != kinds.SAFE]
    return refusals.fails(op, TOP, refusals.Snapshot({TOP: states}, PRESENT, {TOP: stash}, in_the_way or {}))


class Pathspecs(unittest.TestCase):
    def test_add_needs_a_file_in_the_tree_or_an_index_entry(self):
        self.assertTrue(fails("git add src/app.py nope.py"))
        self.assertTrue(fails("git add src/old.py src/app.py"))  # a staged deletion is in neither
        self.assertFalse(fails("git add src/gone.py src/cache.py notes"))  # in the index; on disk
        self.assertFalse(fails("git add -A src"))

    def test_checkout_restore_and_stash_push_need_an_index_entry(self):
        for line in ("git checkout -- src/cache.py", "git checkout -- notes", "git restore src/old.py",
                     "git stash push -- src/cache.py src/app.py", "git checkout -- src/app.py nope.py"):
            with self.subTest(line=line):
                self.assertTrue(fails(line))
        for line in ("git checkout -- src/app.py src/gone.py", "git restore src/new.py src/clean.py",
                     "git stash push -u -- src/cache.py", "git checkout HEAD -- src/old.py"):
            with self.subTest(line=line):
                self.assertFalse(fails(line))

    def test_commit_and_unstaging_restore_also_take_what_head_holds(self):
        self.assertFalse(fails("git commit -m x -- src/old.py src/app.py"))
        self.assertFalse(fails("git restore --staged src/old.py"))
        self.assertTrue(fails("git commit -m x -- src/cache.py"))
        self.assertTrue(fails("git commit -m x -- notes src/app.py"))

    def test_reset_and_patterns_are_never_judged_refused(self):
        self.assertFalse(fails("git reset -- nope.py src/app.py"))
        self.assertFalse(fails("git add 'nope*.py' src/app.py"))
        self.assertFalse(fails("git add ':(icase)NOPE.PY'"))  # magic: matched as git matches it
        self.assertFalse(fails("git add $F src/app.py"))

    def test_a_reset_of_a_mode_that_takes_no_paths_is_refused_whatever_the_state(self):
        for line in ("git reset --hard HEAD -- src", "git reset --soft HEAD~1 src/app.py", "git reset --keep -- src"):
            with self.subTest(line=line):
                self.assertTrue(fails(line, states=None))  # "Cannot do hard reset with paths"
        self.assertFalse(fails("git reset --hard HEAD --"))  # no path after `--`: it resets

    def test_unknown_states_mean_git_may_go_ahead(self):
        self.assertFalse(fails("git add nope.py", states=None))


class RemoveAndMove(unittest.TestCase):
    def test_rm_keeps_changed_files_and_then_removes_nothing(self):
        self.assertTrue(fails("git rm -r src"))  # src/app.py modified, src/new.py staged
        self.assertTrue(fails("git rm src/new.py"))
        self.assertFalse(fails("git rm -f src/new.py"))
        self.assertFalse(fails("git rm --cached src/new.py"))  # index differs from HEAD only
        both = dict(STATES, **{"src/new.py": PathState("src/new.py", "A", "M")})
        self.assertTrue(fails("git rm --cached src/new.py", states=both))
        self.assertFalse(fails("git rm src/gone.py"))  # staging a deletion the tree already has

    def test_rm_refuses_a_folder_without_r_and_a_path_the_index_lacks(self):
        self.assertTrue(fails("git rm lib"))
        self.assertFalse(fails("git rm -r lib"))
        self.assertTrue(fails("git rm src/cache.py"))
        self.assertFalse(fails("git rm --ignore-unmatch -r lib nope.py"))

    def test_mv_refuses_a_folder_holding_a_deleted_file(self):
        self.assertTrue(fails("git mv src source"))
        self.assertFalse(fails("git mv lib vendor"))
        self.assertTrue(fails("git mv src/cache.py lib/"))  # untracked: not under version control


class Switches(unittest.TestCase):
    def test_a_switch_stops_when_local_changes_are_in_its_way(self):
        self.assertTrue(fails("git checkout feature", in_the_way={(TOP, "feature"): True}))
        self.assertFalse(fails("git checkout feature", in_the_way={(TOP, "feature"): False}))
        self.assertFalse(fails("git switch feature"))  # not known: git may go ahead
        self.assertFalse(fails("git checkout -m feature", in_the_way={(TOP, "feature"): True}))
        self.assertTrue(fails("git switch -c topic origin/topic", in_the_way={(TOP, "origin/topic"): True}))

    def test_a_rebase_without_autostash_needs_a_tree_without_tracked_changes(self):
        self.assertTrue(fails("git rebase origin/main"))
        self.assertFalse(fails("git rebase origin/main", states={"n.py": PathState("n.py", ".", ".", True)}))
        self.assertFalse(fails("git rebase --autostash origin/main"))


class StashEntries(unittest.TestCase):
    def test_an_entry_the_stack_does_not_hold(self):
        for line in ("git stash pop stash@{1}", "git stash drop 3", "git stash apply stash@{2}",
                     "git stash branch tmp stash@{1}"):
            with self.subTest(line=line):
                self.assertTrue(fails(line))
                self.assertFalse(fails(line.replace("stash@{1}", "stash@{0}").replace(" 3", " 0")
                                       .replace("stash@{2}", "stash@{0}")))
        for line in ("git stash pop", "git stash apply", "git stash drop", "git stash branch tmp"):
            with self.subTest(line=line):
                self.assertTrue(fails(line, stash=[]))
                self.assertFalse(fails(line, stash=None))
        self.assertFalse(fails("git stash clear", stash=[]))  # succeeds, doing nothing: what follows runs
        self.assertTrue(fails("git stash drop $(git stash list | tail -1 | cut -d: -f1)", stash=[]))

    def test_a_pathspec_outside_the_repository_is_refused_by_every_path_form(self):
        for line in ("git add ..", "git stash push -- /etc", "git reset -q -- ../x", "git add -A ':!:/services'",
                     "git clean -fd ../other"):
            with self.subTest(line=line):
                self.assertTrue(fails(line))
        self.assertFalse(fails("git add -A ':!:services'"))


if __name__ == "__main__":
    unittest.main()

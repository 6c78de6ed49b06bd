"""peerhooks.git.stash_sequence: which entry each stash operation of a line takes, as the stack will be."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git import classify, kinds, stash_sequence  # noqa: E402
from peerhooks.git.gitstate import StashEntry  # noqa: E402
from peerhooks.git.stash_sequence import PUSHED_HERE  # noqa: E402

MINE, THEIRS, OLD = (StashEntry("stash@{%d}" % i, c, 1, s) for i, (c, s) in
                     enumerate([("c0", "mine"), ("c1", "theirs"), ("c2", "old")]))
STACK = [MINE, THEIRS, OLD]


def walk(line, stack=STACK, saves=True):
    ops = [op for op in classify.parse(line, "/r") if op.kind != kinds.SAFE]
    return stash_sequence.walk(ops, stack, lambda index: saves)


class Sequence(unittest.TestCase):
    def test_each_pop_takes_what_is_on_top_when_it_runs(self):
        self.assertEqual(walk("git stash pop && git stash pop").taken, {0: [MINE], 1: [THEIRS]})
        self.assertEqual(walk("git stash drop stash@{1}; git stash drop stash@{1}").taken, {0: [THEIRS], 1: [OLD]})

    def test_a_pop_after_a_push_takes_the_entry_the_line_made(self):
        found = walk("git stash -u && git pull && git stash pop")
        self.assertEqual(found.taken, {1: [PUSHED_HERE]})
        self.assertEqual(found.round_trips, {0: False})
        self.assertEqual(walk("git stash && git stash pop --index").round_trips, {0: True})
        self.assertEqual(walk("git stash && git stash drop").round_trips, {})  # dropped: nothing comes back
        # an apply gives the files back as a pop does; the drop after it takes the same entry
        found = walk("git stash && git stash apply && git stash drop")
        self.assertEqual(found.round_trips, {0: False})
        self.assertEqual(walk("git stash && git stash apply --index").round_trips, {0: True})

    def test_a_push_that_saves_nothing_leaves_the_top_entry_to_the_pop(self):
        found = walk("git stash push -- a.py && git stash pop", saves=False)
        self.assertEqual((found.taken, found.round_trips), ({1: [MINE]}, {}))

    def test_an_entry_git_will_not_find_is_nothing_and_an_unknown_one_ends_the_walk(self):
        self.assertEqual(walk("git stash pop stash@{5}").taken, {0: []})
        self.assertEqual(walk("git stash pop stash@{$N}; git stash pop").taken, {})
        self.assertEqual(walk("git stash pop", stack=None).taken, {})

    def test_clear_and_expire_take_every_entry_or_the_older_ones(self):
        self.assertEqual(walk("git stash clear").taken, {0: STACK})
        self.assertEqual(walk("git reflog expire --expire-unreachable=now --all").taken, {0: [THEIRS, OLD]})


if __name__ == "__main__":
    unittest.main()

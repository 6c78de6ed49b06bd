"""patch_roundtrip and the verdict over it: `git diff > F && git checkout . && git apply F` gives the
tree back, so the checkout takes none of the peers' work the saved diff holds; what it does not hold
(other paths, a binary file, what a discard of the index too takes) stays refused. Pure."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import chains, cmdline
from peerhooks.git import classify, kinds, patch_roundtrip
from peerhooks.guard import verdict as guard_verdict  # noqa: E402
from peerhooks.git.gitstate import PathState  # noqa: E402
from peerhooks.guard.verdict import Judged, Peer  # noqa: E402

TOP = "/r"
WORLD = {s.path: s for s in (PathState("src/api.py", ".", "M"), PathState("lib/format.py", ".", "M"),
                             PathState("src/util.py", "M", "M"), PathState("src/cache.py", ".", ".", True))}
PEER = Peer("p", tuple(os.path.join(TOP, p) for p in WORLD), busy=False)


def held(line, cwd=TOP, binary=frozenset()):
    runs = cmdline.commands(line, cwd)
    every = classify.operations(runs)
    chain = chains.chain_of(runs, {op.step for op in every if op.kind != kinds.SAFE})
    judged = [Judged(op, TOP, (PEER,)) for op in every if op.kind != kinds.SAFE and op.cwd]
    refusals = guard_verdict.verdict(judged, frozenset(), {TOP: WORLD}, chain=chain,
                                     saved_trees=patch_roundtrip.round_trips(runs, line, cmdline.Context()),
                                     binary_of={TOP: binary})
    return sorted(h.path for r in refusals for h in r.held)


class SavedTreeAppliedBack(unittest.TestCase):
    def test_the_checkout_between_saving_and_applying_the_tree_takes_nothing(self):
        for line in ("git diff > /tmp/all.patch && git checkout . && git apply /tmp/all.patch",
                     "git diff --binary >/tmp/p && git restore . ; git apply /tmp/p",
                     "git diff --no-color -- . > /tmp/all.patch && git checkout -- . && git apply /tmp/all.patch"):
            with self.subTest(line=line):
                self.assertEqual(held(line), [])

    def test_what_the_saved_diff_does_not_hold_is_still_at_stake(self):
        self.assertEqual(held("git diff -- src > /tmp/p && git checkout . && git apply /tmp/p"), ["lib/format.py"])
        self.assertEqual(held("git diff > /tmp/p && git checkout . && git apply /tmp/p", binary={"src/api.py"}),
                         ["src/api.py"])  # no --binary: the apply cannot write it, and fails whole
        self.assertEqual(held("git diff > /tmp/p && git checkout HEAD . && git apply /tmp/p"),
                         ["lib/format.py", "src/api.py", "src/util.py"])  # the index's change is not in the diff
        self.assertEqual(held("cd src && git diff > /tmp/p && cd .. && git checkout . && cd src && git apply /tmp/p"),
                         ["lib/format.py"])  # from a subfolder git apply writes only what lies under it

    def test_a_patch_that_may_not_be_applied_or_not_be_the_tree_puts_nothing_back(self):
        everything = ["lib/format.py", "src/api.py", "src/util.py"]
        for line in ("git diff >> /tmp/p && git checkout . && git apply /tmp/p",  # appended to what it held
                     "git diff > /tmp/p && git checkout . || git apply /tmp/p",
                     "git diff --cached > /tmp/p && git checkout . && git apply /tmp/p",
                     "git diff > /tmp/p && git checkout . && echo x > /tmp/p && git apply /tmp/p",
                     "git diff > /tmp/p && git checkout . && make && git apply /tmp/p",  # the tree may change first
                     "git checkout . && git diff > /tmp/p && git apply /tmp/p"):
            with self.subTest(line=line):
                self.assertEqual(held(line), everything)
        self.assertEqual(held("git diff > /tmp/p && git checkout . && git apply /tmp/p", binary=None),
                         everything)  # whether a file is binary is unknown


def staged(line, cwd=TOP):
    """The peers' paths a line's `git apply --cached` of a saved diff is refused for."""
    runs = cmdline.commands(line, cwd)
    every = patch_roundtrip.with_staged_patches(classify.operations(runs), runs, line, cmdline.Context(),
                                                lambda word, _cwd: "." in word)  # a dotted word names a file
    judged = [Judged(op, TOP, (PEER,)) for op in every if op.kind != kinds.SAFE and op.cwd]
    refusals = guard_verdict.verdict(judged, frozenset(), {TOP: WORLD})
    return sorted(h.path for r in refusals for h in r.held)


class SavedTreeStaged(unittest.TestCase):
    def test_a_saved_diff_applied_to_the_index_stages_the_tree_changes_it_holds(self):
        self.assertEqual(staged("git diff src/api.py > /tmp/p && git apply --cached /tmp/p"), ["src/api.py"])
        self.assertEqual(staged("git diff -- src > /tmp/p && git apply --cached /tmp/p"), ["src/api.py", "src/util.py"])
        self.assertEqual(staged("git diff > /tmp/p; git apply --cached /tmp/p"),
                         ["lib/format.py", "src/api.py", "src/util.py"])  # never the untracked src/cache.py

    def test_a_patch_the_line_did_not_save_from_the_tree_is_the_sessions_own(self):
        for line in ("git apply --cached /tmp/mine.patch",
                     "git diff main > /tmp/p && git apply --cached /tmp/p",  # a revision: not the tree's diff
                     "git diff > /tmp/p && echo x > /tmp/p && git apply --cached /tmp/p"):
            with self.subTest(line=line):
                self.assertEqual(staged(line), [])


if __name__ == "__main__":
    unittest.main()

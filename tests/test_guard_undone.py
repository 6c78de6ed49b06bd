"""guard_undone and the verdict over it: a later command of the line that puts a path back as it is
now takes it off the earlier command's refusal (`git add -A && git reset -q -- src` leaves a peer's
untracked file under src untracked), and only while that later command certainly runs after it and
resets to HEAD. Pure."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import chains, cmdline
from peerhooks.git import classify, kinds
from peerhooks.guard import reason as guard_reason, verdict as guard_verdict  # noqa: E402
from peerhooks.git.gitstate import PathState  # noqa: E402
from peerhooks.guard.verdict import Judged, Peer  # noqa: E402

TOP = "/r"
WORLD = {s.path: s for s in (PathState("src/cache.py", ".", ".", True), PathState("src/api.py", ".", "M"),
                             PathState("src/util.py", "M", "."), PathState("src/both.py", "M", "M"),
                             PathState("config/peer.yaml", ".", ".", True))}
PEER = Peer("p", tuple(os.path.join(TOP, p) for p in WORLD), busy=False)


def held(line, cwd=TOP):
    """{command as written: [paths its refusal holds]} of the line's refusals."""
    runs = cmdline.commands(line, cwd)
    every = classify.operations(runs)
    chain = chains.chain_of(runs, {op.step for op in every if op.kind != kinds.SAFE})
    judged = [Judged(op, TOP, (PEER,)) for op in every if op.kind != kinds.SAFE and op.cwd]
    refusals = guard_verdict.verdict(judged, frozenset(), {TOP: WORLD}, chain=chain)
    return {" ".join(w.value for w in r.operation.words): sorted(h.path for h in r.held) for r in refusals}


class AResetAfterAStaging(unittest.TestCase):
    def test_what_the_reset_puts_back_leaves_the_stagings_refusal(self):
        found = held("git add -A && git reset -q -- src && git commit -m docs")
        # src's untracked and unstaged files come back; both.py's staged version does not (below)
        self.assertEqual(found["add -A"], ["config/peer.yaml", "src/both.py"])
        self.assertEqual(found["reset -q -- src"], ["src/both.py", "src/util.py"])  # what was staged loses it
        self.assertEqual(held("git add -A; git reset HEAD src")["add -A"], ["config/peer.yaml", "src/both.py"])
        self.assertEqual(held("git add -A && git reset -q -- src && git reset -q -- config"),
                         {"add -A": ["src/both.py"], "reset -q -- src": ["src/both.py", "src/util.py"]})

    def test_a_restore_of_the_whole_tree_puts_back_and_a_new_folder_counts_as_its_files(self):
        self.assertEqual(held("git add -A && git restore --staged . && git add docs")["add -A"], ["src/both.py"])
        world = dict(WORLD, vendor=PathState("vendor", ".", ".", True, False, True))
        peer = Peer("p", PEER.changes + ("/r/vendor/lib/core.py",), busy=False)
        runs = cmdline.commands("git add -A && git reset -q -- vendor config && git commit -m x", TOP)
        every = classify.operations(runs)
        chain = chains.chain_of(runs, {op.step for op in every if op.kind != kinds.SAFE})
        refusals = guard_verdict.verdict([Judged(op, TOP, (peer,)) for op in every if op.kind != kinds.SAFE],
                                         frozenset(), {TOP: world}, chain=chain)
        self.assertNotIn("vendor/lib/core.py", [h.path for r in refusals for h in r.held])

    def test_a_file_staged_before_stays_on_the_stagings_refusal(self):
        # `git add -A` stages both.py's tree over its staged version: the reset cannot give that back
        self.assertIn("src/both.py", held("git add -A && git reset -q -- src/api.py")["add -A"])

    def test_only_a_reset_that_certainly_runs_right_after_it(self):
        whole = sorted(WORLD)
        for line in ("git add -A || git reset -q -- src",  # runs only when the add failed
                     "git add -A && make && git reset -q -- src",  # make may fail, and the reset not run
                     "git add -A && git commit -m x && git reset -q -- src",  # the commit took them first
                     "git add -A && git reset -q -- src ../outside",  # git refuses the whole reset
                     "git add -A && git restore --staged src nothing-here",  # restore refuses a whole list
                     "git add -A && git reset -q HEAD~1 -- src",  # the index of HEAD~1, not as it was
                     "git add -A && git reset -q -- $DIR"):  # paths known only at run time
            with self.subTest(line=line):
                self.assertEqual(held(line)["add -A"], [p for p in whole if p != "src/util.py"])

    def test_a_reset_from_another_commit_says_so(self):
        runs = cmdline.commands("git reset -q HEAD~1 -- src", TOP)
        op = [o for o in classify.operations(runs) if o.kind != kinds.SAFE][0]
        self.assertEqual(op.target, "HEAD~1")
        refusal = guard_verdict.Refusal(op, (PEER,), False, (guard_verdict.Held("p", "src/util.py", "staged"),))
        self.assertIn("resets those paths in the index to HEAD~1",
                      "\n".join(guard_reason.model_lines([refusal], "git reset -q HEAD~1 -- src")))
        head = [o for o in classify.parse("git reset -q HEAD -- src", TOP) if o.kind != kinds.SAFE][0]
        self.assertIsNone(head.target)


if __name__ == "__main__":
    unittest.main()

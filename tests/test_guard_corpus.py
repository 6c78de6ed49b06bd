"""The git guard judged on the labelled corpus (tests/guard_corpus/): issue 13's goals on the held-out
lines, silence with no live peer, no traceback, no slow run, and labels that still match execution.

The corpus labels come from executing each line (tests/guard_corpus/oracle.py); this test only runs
the guard's front door on each line with the payload and environment Claude Code gives it (in this
process; a sample, and every line under PEERHOOKS_TEST_PROCESSES=1, as the real process), and
re-executes a few lines to keep the stored labels honest.
"""
import collections
import os
import random
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "guard_corpus"))

import generate  # noqa: E402
import guardrun  # noqa: E402
import oracle  # noqa: E402
import support  # noqa: E402

MIN_LINES = 450
FREQUENCIES = ("routine", "occasional", "rare")
LABELS = ("harmful", "harmless")
# Lines re-executed per run (~0.6 s): enough to notice labels drifting from the scenario; the whole
# corpus is re-executed by `python3 tests/guard_corpus/oracle.py --check`.
SPOT_CHECKS = 12
SPOT_SEED = 13
# With no live peer, the guard is run on every line it refused or spoke on with live peers, and on one
# in ALONE_STRIDE of the lines it let through silently (a line silent with peers has no path to a
# refusal without them): as processes, the whole file stays near 30 s on 2 shared cores instead of
# near 60.
ALONE_STRIDE = 3
PROCESS_SAMPLE = 40  # lines also run as the process Claude Code starts: ~1 s
# Every line where the guard's decision and the oracle's label differ, with why. A new disagreement
# fails the suite, and so does one that goes away (take it off the list): the goals above are shares,
# this is the line-by-line record behind them.
KNOWN_DISAGREEMENTS = {
    ('cd "$(dirname "$0")"/.. 2>/dev/null; git add -A', "docs"): "harmful, let through: the directory is "
                                                                 "unknowable ($0 of the tool's shell)",
    ("git diff --name-only | grep docs | xargs git add", "."): "harmless, refused: paths computed at run "
                                                              "time are refused on purpose while a peer is live",
    ("git diff > /tmp/all.patch && git checkout . && git apply /tmp/all.patch", "."): "harmless, refused: "
        "harmless only because the apply succeeds, which the guard cannot know",
    ("git stash show -p | git apply -R", "."): "harmless, refused: a patch on stdin may touch any file",
    ("git stash apply", "."): "harmless here, asked: the entry is the peer's (its transcript pushed it), and issue 19 "
                              "asks before applying another session's entry into the shared tree",
    ("printf 'n\\nn\\nn\\nn\\nn\\nn\\n' | git add -p", "."): "harmless, refused: answers piped into "
                                                                          "-p are not read",
}


class CorpusFile(unittest.TestCase):
    def setUp(self):
        self.entries = oracle.load()

    def test_has_enough_lines_each_labelled_and_tagged(self):
        self.assertGreaterEqual(len(self.entries), MIN_LINES)
        for entry in self.entries:
            self.assertIn(entry["label"], LABELS, entry["line"])
            self.assertIn(entry["frequency"], FREQUENCIES, entry["line"])
            self.assertTrue(entry["class"], entry["line"])
            self.assertFalse(os.path.isabs(entry["cwd"]), entry["line"])

    def test_each_line_appears_once_per_cwd(self):
        counts = collections.Counter((e["line"], e["cwd"]) for e in self.entries)
        self.assertEqual([k for k, n in counts.items() if n > 1], [])

    def test_split_is_the_fixed_hash_of_the_line(self):
        for entry in self.entries:
            self.assertEqual(entry["split"], generate.split_of(entry["line"], entry["cwd"]), entry["line"])

    def test_about_a_third_is_held_out(self):
        share = sum(e["split"] == "heldout" for e in self.entries) / len(self.entries)
        self.assertTrue(0.25 < share < 0.42, share)


class OracleSpotCheck(unittest.TestCase):
    def test_stored_labels_match_executing_a_sample_of_lines(self):
        entries = oracle.load()
        sample = random.Random(SPOT_SEED).sample(entries, SPOT_CHECKS)
        root = tempfile.mkdtemp(prefix="guard-oracle-", dir=oracle.work_root())
        self.addCleanup(shutil.rmtree, root, True)
        bench = oracle.Bench(root)
        wrong = []
        for entry in sample:
            verdict = bench.judge(entry["line"], entry["cwd"])
            if verdict["label"] != entry["label"]:
                wrong.append("%s [%s]: stored %s, executes as %s %s" % (
                    entry["line"], entry["cwd"], entry["label"], verdict["label"], verdict["effects"]))
        self.assertEqual(wrong, [], "run `python3 tests/guard_corpus/oracle.py --check`")


class GuardOnCorpus(unittest.TestCase):
    """One run of the guard per line with live peers, one with the peers dead."""

    @classmethod
    def setUpClass(cls):
        cls.entries = oracle.load()
        cls.scenarios = guardrun.Scenarios().__enter__()
        cls.live = guardrun.run_all(cls.scenarios.live, cls.entries)
        quiet = [e for e, d in zip(cls.entries, cls.live) if d.silent]
        cls.alone_entries = [e for e, d in zip(cls.entries, cls.live) if not d.silent] + quiet[::ALONE_STRIDE]
        cls.alone = guardrun.run_all(cls.scenarios.alone, cls.alone_entries)

    @classmethod
    def tearDownClass(cls):
        cls.scenarios.__exit__(None, None, None)

    def _goal_failures(self, about_harmful):
        failures = [f for f in guardrun.goal_failures(self.entries, self.live)
                    if f.startswith("harmful") == about_harmful]
        if failures:
            sys.stderr.write("\n" + guardrun.render(self.entries, self.live) + "\n")
        return failures

    def test_issue_13_harmful_goals_are_met_on_the_held_out_lines(self):
        failures = self._goal_failures(about_harmful=True)
        self.assertEqual(failures, [], "GUARD GOALS NOT MET on held-out corpus lines (issue 13; the thresholds "
                                       "are the goals, do not lower them): " + "; ".join(failures))

    def test_issue_13_harmless_goal_is_met_on_the_held_out_lines(self):
        failures = self._goal_failures(about_harmful=False)
        self.assertEqual(failures, [], "GUARD GOAL NOT MET on held-out corpus lines (issue 13; the threshold "
                                       "is the goal, do not lower it): " + "; ".join(failures))

    def test_the_guard_and_the_oracle_disagree_only_on_the_known_lines(self):
        disagree = {(e["line"], e["cwd"]): "%s, %s" % (e["label"], "refused" if d.refused else "let through")
                    for e, d in zip(self.entries, self.live) if d.refused != (e["label"] == "harmful")}
        self.assertEqual(sorted(set(disagree) - set(KNOWN_DISAGREEMENTS)), [], "new disagreements")
        self.assertEqual(sorted(set(KNOWN_DISAGREEMENTS) - set(disagree)), [],
                         "fixed: take these off KNOWN_DISAGREEMENTS")

    def test_with_no_live_peer_every_line_is_silent(self):
        loud = ["%s [%s]: exit %d %r" % (e["line"], e["cwd"], d.exit, d.stdout[:80])
                for e, d in zip(self.alone_entries, self.alone) if not d.silent]
        self.assertEqual(loud, [])

    def test_no_run_ends_in_a_traceback(self):
        crashed = ["%s: %s" % (e["line"], d.stderr[-200:]) for e, d in zip(self.entries + self.alone_entries, self.live + self.alone)
                   if d.traceback]
        self.assertEqual(crashed, [])

    def test_a_sample_run_as_processes_decides_as_in_this_process(self):
        sample = random.Random(SPOT_SEED).sample(range(len(self.entries)), PROCESS_SAMPLE)
        entries = [self.entries[i] for i in sample]
        as_processes = guardrun.run_all(self.scenarios.live, entries, process=True)
        differ = ["%s [%s]: %s here, %s as a process" % (e["line"], e["cwd"], self.live[i][:3], p[:3])
                  for i, e, p in zip(sample, entries, as_processes) if self.live[i][:3] != p[:3]]
        self.assertEqual(differ, [])
        self.assertEqual([p.stderr for p in as_processes if p.traceback], [])

    def test_every_run_takes_under_a_second(self):
        # A run over the bound is timed again alone: other work on a shared machine is not the guard's.
        slow = []
        for entry, decision in zip(self.entries, self.live):
            if decision.seconds > guardrun.MAX_SECONDS:
                again = guardrun.run_guard(self.scenarios.live, entry["line"], entry["cwd"])
                if again.seconds > guardrun.MAX_SECONDS:
                    slow.append("%s: %.2f s" % (entry["line"], again.seconds))
        self.assertEqual(slow, [])


if __name__ == "__main__":
    unittest.main()

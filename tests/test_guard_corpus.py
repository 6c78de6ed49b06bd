"""The git guard judged on the labelled corpus (tests/guard_corpus/) in every world: the goals of
issues 13 and 18 on the held-out lines, silence with no live peer, no error, no slow run, refusal
texts that say only what is so, every suggestion run, and labels that still match execution.

The labels come from executing each line in each world (tests/guard_corpus/oracle.py); this test
runs the guard's front door on the held-out lines in every world and on every line in the `mixed`
world, with the payload and environment Claude Code gives the judged session (in a worker process per
world, two at a time; a sample, and every run under PEERHOOKS_TEST_PROCESSES=1, as the real process),
runs every held-out suggestion the guard prints in a copy of its world, and re-executes a few lines to
keep the stored labels honest. `python3 tests/guard_corpus/guardrun.py --contract` does all of it on
every line in every world.
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

import contract  # noqa: E402
import generate  # noqa: E402
import guardrun  # noqa: E402
import oracle  # noqa: E402
import scenario  # noqa: E402
import worlds  # noqa: E402

MIN_LINES = 900
FREQUENCIES = ("routine", "occasional", "rare")
LABELS = ("harmful", "harmless")
# (line, world) pairs re-executed per run (~3 s): enough to notice labels drifting from the worlds;
# the whole corpus is re-executed by `python3 tests/guard_corpus/oracle.py --check`.
SPOT_CHECKS = 12
SPOT_WORLDS = 3
SPOT_SEED = 18
PROCESS_SAMPLE = 8  # lines per world also run as the process Claude Code starts
# The guard runs on the held-out third in every world and on every line in FULL_WORLD (~30 s on 2
# idle cores; every line in every world, ~3x that: `python3 tests/guard_corpus/guardrun.py --contract`,
# which exits 1 when any check below fails on any line).
FULL_WORLD = "mixed"
# The held-out goals the guard on this branch misses, one per (world, goal): none. It refuses 0%
# (worktree, committed, shared-file) to 1.5% (stash: 6 of 405; subfolder: 4 of 283) of harmless
# held-out lines (the goal is 2%) and meets the harmful goals everywhere. Among what it refuses by design:
# `commit-tree` + `update-ref` or a branch move beside a peer, which the oracle does not count as
# harm (it protects uncommitted work and stash entries, not a branch moved under a peer), and a
# stash apply of a peer's entry (a `revert -n` asks only of a commit made since a party started).
# The guard before issue 18 (5b3da2d) missed the harmless goal in most worlds and the harmful goals
# of shared-file and cleared (README.md). A goal the guard misses again is entered here, with why;
# an entry for a goal it meets fails the run (an unexpected success).
GOALS_MISSED = set()
MIN_HELD_OUT_PER_LABEL = 10  # the stash world has the fewest harmful lines: only its entries can be harmed


def _goal_slug(goal):
    return goal[4].replace("+", "_").replace(" ", "_")


class CorpusFile(unittest.TestCase):
    def setUp(self):
        self.entries = oracle.load()

    def test_has_enough_lines_each_labelled_in_every_world_and_tagged(self):
        self.assertGreaterEqual(len(self.entries), MIN_LINES)
        for entry in self.entries:
            self.assertEqual(sorted(entry), ["class", "cwd", "frequency", "line", "split", "worlds"], entry["line"])
            self.assertEqual(list(entry["worlds"]), list(worlds.NAMES), entry["line"])
            for name, labelled in entry["worlds"].items():
                self.assertIn(labelled["label"], LABELS, (name, entry["line"]))
                self.assertEqual(labelled["label"] == "harmful", bool(labelled["effects"]), (name, entry["line"]))
                self.assertEqual(bool(labelled.get("harmed")), bool(labelled["effects"]), (name, entry["line"]))
                self.assertRegex(labelled["self_state"], "^[0-9a-f]{12}$")
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

    def test_every_world_has_harmful_and_harmless_lines_held_out(self):
        for name in worlds.NAMES:
            held = collections.Counter(e["worlds"][name]["label"] for e in self.entries if e["split"] == "heldout")
            self.assertGreaterEqual(min(held[label] for label in LABELS), MIN_HELD_OUT_PER_LABEL, (name, held))


class OracleSpotCheck(unittest.TestCase):
    def test_stored_labels_match_executing_a_sample_of_lines(self):
        entries = oracle.load()
        rng = random.Random(SPOT_SEED)
        chosen = rng.sample(list(worlds.NAMES), SPOT_WORLDS)
        sample = [(rng.choice(chosen), entry) for entry in rng.sample(entries, SPOT_CHECKS)]
        verdicts = oracle.judge_all([(name, e["line"], e["cwd"]) for name, e in sample])
        wrong = []
        for (name, entry), verdict in zip(sample, verdicts):
            stored = entry["worlds"][name]
            if (verdict.label, verdict.self_state) != (stored["label"], stored["self_state"]):
                wrong.append("%s [%s] %s: stored %s, executes as %s %s" % (
                    name, entry["cwd"], entry["line"], stored["label"], verdict.label, verdict.effects))
        self.assertEqual(wrong, [], "run `python3 tests/guard_corpus/oracle.py --check`")


class GuardOnCorpus(unittest.TestCase):
    """One run of the guard per line and world with the sessions live, one with the peers gone."""

    @classmethod
    def setUpClass(cls):
        cls.entries = oracle.load()
        held_out = [i for i, e in enumerate(cls.entries) if e["split"] == "heldout"]
        chosen = {name: held_out for name in worlds.NAMES}
        chosen[FULL_WORLD] = range(len(cls.entries))
        cls.sample = sorted(random.Random(SPOT_SEED).sample(held_out, PROCESS_SAMPLE))
        cls.runs = guardrun.score_all(cls.entries, process_sample=cls.sample, chosen=chosen)
        cls.reports = {name: guardrun.contract_report(cls.entries, run) for name, run in cls.runs.items()}

    def _goal(self, world, goal):
        failures = guardrun.goal_failures(self.entries, self.runs[world].live, world, (goal,))
        if failures:
            sys.stderr.write("\n" + guardrun.render_summary(self.entries, {world: self.runs[world]}) + "\n")
        self.assertEqual(failures, [], "GUARD GOAL NOT MET on held-out corpus lines (issues 13 and 18; the "
                                       "thresholds are the goals, do not lower them)")

    def test_with_no_live_peer_every_line_is_silent(self):
        loud = ["%s [%s] %s: exit %d %r" % (run.world, self.entries[i]["cwd"], self.entries[i]["line"], d.exit,
                                            d.stdout[:80])
                for run in self.runs.values() for i, d in run.alone if not d.silent]
        self.assertEqual(loud, [])

    def test_no_run_writes_an_error(self):
        crashed = ["%s %s: %s" % (run.world, self.entries[i]["line"], d.stderr[-200:])
                   for run in self.runs.values() for i, d in list(enumerate(run.live)) + run.alone + run.processes
                   if d is not None and d.errored]
        self.assertEqual(crashed, [])

    def test_a_sample_run_as_processes_decides_as_in_this_process(self):
        differ = ["%s %s [%s]: %s here, %s as a process" % (run.world, self.entries[i]["line"], self.entries[i]["cwd"],
                                                           run.live[i][:3], p[:3])
                  for run in self.runs.values() for i, p in run.processes if run.live[i][:3] != p[:3]]
        self.assertEqual(differ, [])

    def test_every_run_takes_under_a_second(self):
        slow = ["%s %s: %.2f s" % (run.world, self.entries[i]["line"], seconds)
                for run in self.runs.values() for i, seconds in run.slow]
        self.assertEqual(slow, [])

    def _stake(self, *kinds):
        return [p.text for r in self.reports.values() for p in r.stake_problems if p.kind in kinds]

    def test_stake_lines_name_only_peer_work_in_its_state_and_all_that_is_harmed(self):
        self.assertEqual(self._stake(contract.FALSE, contract.MISSING), [])

    # The lines written at the start of the third stop (generate.sequence_lines) show later commands
    # that put a staging back in forms guard_undone does not model, so the At stake line names paths
    # the line leaves as they were (never one it harms, never a false state): a reset from another
    # commit (`git reset -q HEAD~1 -- src`: what HEAD~1 holds is not read), and, held out, a reader
    # between the staging and the reset, `git restore --staged src`, `git rm -r --cached src`. Left
    # as found; the lead removes the expectedFailure when the check passes.
    @unittest.expectedFailure
    def test_stake_lines_name_nothing_the_line_does_not_harm(self):
        self.assertEqual(self._stake(contract.EXTRA), [])

    def test_every_suggestion_runs_harms_no_peer_and_does_what_the_line_meant_for_self(self):
        # The held-out third's in every world (FULL_WORLD's train lines too would add ~10 s).
        self.assertEqual(guardrun.suggestion_failures(self.entries, self.reports, "heldout"), [])

    def test_every_refusal_carries_one_stake_line(self):
        missing = {name: r.without_stake for name, r in self.reports.items() if r.without_stake}
        self.assertEqual(missing, {})

    def test_every_deny_carries_exactly_one_suggestion(self):
        problems = [p for r in self.reports.values() for p in r.suggestion_problems]
        self.assertEqual(problems, [])


def _texts(problems):
    return [p.text for p in problems]


def _goal_test(world, goal):
    def test(self):
        self._goal(world, goal)
    test.__doc__ = "%s: %s (held-out)" % (world, goal[4])
    return test


for _world in worlds.NAMES:
    for _goal in guardrun.GOALS:
        _test = _goal_test(_world, _goal)
        if (_world, _goal_slug(_goal)) in GOALS_MISSED:
            _test = unittest.expectedFailure(_test)  # the lead removes the entry when the guard meets it
        setattr(GuardOnCorpus, "test_goal_%s_%s" % (_world.replace("-", "_"), _goal_slug(_goal)), _test)


class ChecksCatchWhatIsWrong(unittest.TestCase):
    """The suggestion and stake checks on texts written by hand: a right one passes and each way of
    being wrong is caught, so an empty report from the guard's own texts means something."""

    OWN = "src/app.py docs/usage.md docs/tutorial.md tests/test_feature.py"
    COMMIT = 'git add -A && git commit -m "Add CLI tutorial"'
    # (world, refused line, suggestion, what the check must say, or None: nothing)
    SUGGESTIONS = (
        ("mixed", "git add -A", "git add -- " + OWN, None),
        ("mixed", "git add -A", "git add -A", "harms"),
        ("mixed", COMMIT, 'git add -- %s && git commit -m "Add CLI tutorial" -- %s' % (OWN, OWN), None),
        ("mixed", COMMIT, 'git add -- %s && git commit -m "Add tutorial" -- %s' % (OWN, OWN), "HEAD moves to a commit"),
        ("mixed", COMMIT, "git commit -m 'Add CLI tutorial' -- docs/tutorial.md", "exits 1"),
        ("shared-file", "git add src/handlers.py", "printf 'y\\nn\\n' | git add -p src/handlers.py", None),
        ("shared-file", "git add src/handlers.py", "git add src/handlers.py", "harms"),
        ("untracked-only", "git clean -fd", "git clean -f -- docs/tutorial.md tests/test_feature.py", None),
        ("untracked-only", "git clean -fd", "git clean -f -- docs/tutorial.md", "does to self's files"),
    )

    def test_a_suggestion_that_does_what_the_line_meant_passes_and_every_other_is_caught(self):
        entries = oracle.load()
        index = {(e["line"], e["cwd"]): i for i, e in enumerate(entries)}
        reports = {}
        for world, line, command, _ in self.SUGGESTIONS:
            reports.setdefault(world, guardrun.ContractReport(1, 0, [], 1, [], [], None)).suggestions.append(
                (index[(line, ".")], command))
        failures = guardrun.suggestion_failures(entries, reports)
        for world, line, command, expected in self.SUGGESTIONS:
            said = [f for f in failures if f.startswith(world + " ") and (" -> %r: " % command) in f]
            if expected is None:
                self.assertEqual(said, [], command)
            else:
                self.assertTrue(any(expected in f for f in said), (command, said))

    def test_a_stake_line_from_the_world_passes_and_a_short_one_is_caught(self):
        root = tempfile.mkdtemp(prefix="guard-facts-")
        self.addCleanup(shutil.rmtree, root, True)
        scn = scenario.build(os.path.join(root, "home"), worlds.STAGED_DELETIONS, live=False)
        facts = guardrun.facts_of(scn)
        harmed = next(e for e in oracle.load() if e["line"] == "git reset" and e["cwd"] == ".")["worlds"][
            "staged-deletions"]["harmed"]
        paths = harmed["a"]
        line = "At stake: cleanup-peer: " + ", ".join("%s [%s]" % (p, scn.stake["a"][p]) for p in paths)
        self.assertEqual(_texts(contract.stake_problems(contract.parse_stake(line), facts, harmed, exact=True)), [])
        short = "At stake: cleanup-peer: " + ", ".join("%s [%s]" % (p, scn.stake["a"][p]) for p in paths[1:])
        self.assertEqual(_texts(contract.stake_problems(contract.parse_stake(short), facts, harmed, exact=True)),
                         ["cleanup-peer: harmed but not named: %s" % paths[0]])


class ContractReading(unittest.TestCase):
    """contract.py reads the refusal texts the lead's guard will print (issue 18)."""

    FACTS = contract.Facts({"self": ("me",), "a": ("app-peer", "a0a0a0a0-1"), "s": ("5b1b0a0b0c0d0e0f2", "cache layer")},
                           frozenset(("5b1b0a0b0c0d0e0f2", "cache layer")),
                           {"a": {"src/util.py": "staged", "src/cache.py": "untracked", "stash@{1}": "stash"},
                            "s": {"src/api.py": "unstaged"}})

    def test_a_stake_line_is_read_per_peer(self):
        peers = contract.parse_stake("At stake: app-peer: src/util.py [staged], stash@{1} [stash]; "
                                     "subagent 5b1b0a0 (cache layer): src/api.py [unstaged]")
        self.assertEqual([(p.name, p.items, p.more) for p in peers],
                         [("app-peer", (("src/util.py", "staged"), ("stash@{1}", "stash")), 0),
                          ("subagent 5b1b0a0 (cache layer)", (("src/api.py", "unstaged"),), 0)])
        self.assertEqual(contract.owner_of("subagent 5b1b0a0 (cache layer)", self.FACTS), "s")

    def test_more_than_twelve_paths_end_in_a_count(self):
        many = ", ".join("f%d.py [untracked]" % n for n in range(12))
        self.assertEqual(contract.parse_stake("At stake: app-peer: %s (+3 more)" % many)[0].more, 3)
        with self.assertRaises(ValueError):
            contract.parse_stake("At stake: app-peer: %s, f12.py [untracked]" % many)

    def test_a_state_outside_the_contract_is_refused(self):
        with self.assertRaises(ValueError):
            contract.parse_stake("At stake: app-peer: src/util.py [modified]")

    def test_a_wrong_state_an_unheld_path_and_a_missed_harm_are_each_reported(self):
        peers = contract.parse_stake("At stake: app-peer: src/util.py [unstaged], src/app.py [unstaged]")
        problems = contract.stake_problems(peers, self.FACTS, {"a": ["src/util.py", "src/cache.py"]}, exact=True)
        self.assertEqual(_texts(problems), ["app-peer: src/util.py named [unstaged], git has it [staged]",
                                    "app-peer: src/app.py holds none of its uncommitted work",
                                    "app-peer: harmed but not named: src/cache.py",
                                    "app-peer: named but not harmed: src/app.py"])
        self.assertEqual([p.kind for p in problems], [contract.FALSE, contract.FALSE, contract.MISSING, contract.EXTRA])

    def test_unknown_state_is_true_of_any_held_path(self):
        peers = contract.parse_stake("At stake: app-peer: src/util.py [unknown]")
        self.assertEqual(_texts(contract.stake_problems(peers, self.FACTS, {"a": ["src/util.py"]}, exact=True)), [])

    def test_a_peer_with_no_file_at_stake_may_be_named_with_a_note(self):
        peers = contract.parse_stake("At stake: app-peer (live here; no uncommitted file of theirs); "
                                     "subagent 5b1b0a0b (cache layer): src/api.py [unstaged]")
        self.assertEqual([(p.name, p.items) for p in peers], [("app-peer", ()),
                                                               ("subagent 5b1b0a0b (cache layer)", (("src/api.py", "unstaged"),))])

    def test_the_suggestion_is_the_fenced_block_after_instead_run(self):
        text = ("peerhooks: this commit would take app-peer's src/util.py\nInstead, run:\n```\n"
                "git commit -m \"$(cat <<'EOF'\nAdd tutorial\nEOF\n)\" -- docs/tutorial.md\n```\nAt stake: app-peer: "
                "src/util.py [staged]")
        command, problems = contract.suggestion_problems(contract.Refusal("deny", text))
        self.assertEqual(problems, [])
        self.assertEqual(command, "git commit -m \"$(cat <<'EOF'\nAdd tutorial\nEOF\n)\" -- docs/tutorial.md")

    def test_a_deny_without_a_block_or_with_an_open_one_is_reported(self):
        self.assertEqual(contract.suggestion_problems(contract.Refusal("deny", "refused"))[1], ["no suggestion"])
        self.assertEqual(contract.suggestion_problems(contract.Refusal("deny", "Instead, run:\n```\ngit add x"))[1],
                         ["the suggestion's block never ends (no closing ```)"])


if __name__ == "__main__":
    unittest.main()

"""The simulated working day (sim/): its ledger agrees with git, it can see loss, and it leaves
nothing behind. What peerhooks achieves in the day is measured by `sim/fleetday.py` and recorded in
docs/testing.md, not asserted here: these tests hold the measuring instrument to the truth."""
import os
import re
import subprocess
import sys
import unittest

import support

SIM = os.path.join(support.REPO, "sim")
if SIM not in sys.path:
    sys.path.insert(0, SIM)

import day as fleet  # noqa: E402
import label  # noqa: E402
import report  # noqa: E402
from script import QUICK, plan_day  # noqa: E402
from world import CHECKOUT  # noqa: E402

# A quick day whose run without peerhooks has `git reset --hard` and `git restore .` beside live
# peers (measured: 8 changes of s1, s2 and s4 lost).
SEED = 5


def git(top, *args):
    return subprocess.run(["git"] + list(args), cwd=top, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          check=True).stdout.decode("utf-8", "replace")


def everything_git_shows(run):
    """Every line git shows the user of history and the stash, read with porcelain alone: the patches
    of every commit reachable from a ref or a reflog, and every stash entry's (untracked files too)."""
    top = run.world.tops[CHECKOUT]
    shown = git(top, "log", "--all", "--reflog", "-p", "--format=commit %H%n%s")
    count = len(git(top, "stash", "list").splitlines())
    for n in range(count):
        shown += git(top, "stash", "show", "-p", "--include-untracked", "stash@{%d}" % n)
    return shown


def working_files(run):
    """{(checkout, path): text} of every file in the checkouts, and their indexes' staged text."""
    files = {}
    for name, top in run.world.tops.items():
        for path in git(top, "ls-files", "--cached", "--others", "--exclude-standard").splitlines():
            full = os.path.join(top, path)
            if os.path.isfile(full):
                with open(full, encoding="utf-8", errors="replace") as handle:
                    files[(name, path)] = handle.read()
            staged = subprocess.run(["git", "show", ":" + path], cwd=top, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL).stdout.decode("utf-8", "replace")
            files[("index " + name, path)] = staged
    return files


class DayWithoutPeerhooks(unittest.TestCase):
    """The ledger of a quick day in which every command ran, checked against git by porcelain."""

    @classmethod
    def setUpClass(cls):
        cls.day = plan_day(SEED, QUICK)
        cls.played = fleet.Run(cls.day, "without")
        try:
            cls.result = cls.played.play()
            cls.states = cls.result.ledger.states()
            cls.shown = everything_git_shows(cls.played)
            cls.files = working_files(cls.played)
        except BaseException:
            cls.played.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.played.close()

    def test_the_day_has_its_shape(self):
        self.assertEqual(len(self.day.sessions), 4)
        self.assertGreaterEqual(self.result.steps, 50)
        self.assertTrue(any(s.checkout != CHECKOUT for s in self.day.sessions))
        self.assertTrue(any(e.kind == "clear" for e in self.day.events))
        self.assertTrue(any(e.kind == "subagent-write" for e in self.day.events))

    def test_every_change_is_in_exactly_one_state(self):
        counted = sum(len(changes) for changes in self.states.values())
        self.assertEqual(counted, len(self.result.ledger.changes))
        self.assertGreater(len(self.result.ledger.changes), 20)

    def test_a_change_the_ledger_calls_committed_is_added_by_that_commit_and_its_command_made_it(self):
        ledger = self.result.ledger
        committed = self.states["committed"] + self.states["misattributed"]
        self.assertTrue(committed)
        for change in committed:
            commit = ledger.first_commit[change.marker]
            patch = git(self.played.world.tops[CHECKOUT], "show", "--format=%s", commit.sha)
            subject = patch.splitlines()[0]
            self.assertIn("+# " + change.marker, patch)
            self.assertIn('"%s"' % subject, commit.command)  # the line that made it carried its message
            self.assertEqual(change.session != commit.session, change in self.states["misattributed"])

    def test_a_change_kept_is_in_a_working_file_or_an_index(self):
        for change in self.states["kept"]:
            self.assertTrue(any(change.marker in text for text in self.files.values()), change)

    def test_a_change_stashed_is_in_a_stash_entry_and_no_working_file(self):
        for change in self.states["stashed"]:
            self.assertIn("+# " + change.marker, self.shown, change)
            self.assertFalse(any(change.marker in text for text in self.files.values()), change)

    def test_a_change_lost_is_nowhere_git_or_the_files_show(self):
        gone = self.states["lost"] + self.states["discarded"]
        for change in gone:
            self.assertNotIn(change.marker, self.shown, change)
            self.assertFalse(any(change.marker in text for text in self.files.values()), change)

    def test_the_run_without_peerhooks_loses_work_beside_a_peer(self):
        self.assertGreater(len(self.states["lost"]), 0)
        lines = " ".join(loss.command for loss in self.result.losses if loss.lost)
        self.assertIn("git reset --hard", lines)
        for loss in self.result.losses:
            self.assertTrue(all(not m.endswith(" " + loss.session) for m in loss.lost + loss.misattributed))

    def test_without_peerhooks_nothing_is_refused_or_told(self):
        numbers = report.numbers(self.result)
        self.assertEqual((numbers["denies"], numbers["asks"], numbers["told"]), (0, 0, 0))
        self.assertGreater(numbers["collisions"], 0)

    def test_a_command_labelled_in_a_copy_leaves_the_day_as_it_was(self):
        top = self.played.world.tops[CHECKOUT]
        before = (git(top, "status", "--porcelain"), git(top, "stash", "list"), git(top, "rev-parse", "HEAD"))
        self.assertTrue(self.states["kept"])  # work of the day's sessions is in the checkouts at its end
        found = label.label(self.played.world, self.result.ledger, "s9", CHECKOUT,  # s9: nobody of a quick day
                            "git stash -u && git reset -q --hard HEAD~1 && git stash drop", 60.0)
        self.assertEqual(found.name, "loses")
        self.assertEqual(before, (git(top, "status", "--porcelain"), git(top, "stash", "list"),
                                  git(top, "rev-parse", "HEAD")))


class DayIsItsSeed(unittest.TestCase):
    def test_a_seed_gives_one_script_and_one_outcome(self):
        self.assertEqual(plan_day(SEED, QUICK), plan_day(SEED, QUICK))
        self.assertNotEqual(plan_day(SEED, QUICK), plan_day(SEED + 1, QUICK))
        first, second = (report.numbers(fleet.run_day(plan_day(SEED, QUICK), "without")) for _ in range(2))
        first.pop("hook_ms"), second.pop("hook_ms")
        self.assertEqual(first, second)


class DayWithPeerhooks(unittest.TestCase):
    """A quick day with the hooks, asks answered No: its numbers are consistent with themselves and
    its sessions are gone when it ends (what peerhooks achieves is recorded, not asserted)."""

    def test_the_day_runs_the_hooks_and_leaves_nothing_behind(self):
        with fleet.Run(plan_day(SEED, QUICK), "no") as run:
            result = run.play()
            pids = [s.process.pid for s in run.sessions.values()]
            root = run.world.root
        numbers = report.numbers(result)
        self.assertGreater(len(result.hook_seconds), result.steps)  # every step and start ran a hook
        self.assertLessEqual(numbers["told"], numbers["collisions"])
        self.assertTrue(all(r.label in ("loses", "misattributes", "displaces", "harmless") for r in result.refusals))
        self.assertFalse(os.path.exists(root))
        for pid in pids:
            self.assertFalse(os.path.exists("/proc/%d" % pid) and _not_zombie(pid), pid)

    def test_nothing_in_scripts_imports_the_simulator(self):
        for folder, _folders, names in os.walk(os.path.join(support.REPO, "scripts")):
            for name in names:
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), encoding="utf-8") as handle:
                        self.assertIsNone(re.search(r"^\s*(from|import)\s+(sim|fleetday)\b", handle.read(), re.M), name)


def _not_zombie(pid):
    try:
        with open("/proc/%d/stat" % pid) as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


if __name__ == "__main__":
    unittest.main()

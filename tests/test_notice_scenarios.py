"""The edit notice on its labelled scenario set (tests/notice_scenarios.py): every peer change still
uncommitted is noticed, naming its party once, and nothing is said of this caller's own, read-only,
committed, stashed or reverted files, on both client versions, for the main thread, a subagent and a
Codex session, held-out part included; and a second call of each says nothing new."""
import json
import unittest

import notice_scenarios as scenarios
import support


class LabelledScenarios(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.outcomes = scenarios.run()

    def test_the_set_covers_every_dimension(self):
        seen = {field: {getattr(o.scenario, field) for o in self.outcomes}
                for field in ("version", "caller", "writer", "state", "tool")}
        self.assertEqual(seen["version"], set(scenarios.VERSIONS))
        self.assertEqual(seen["caller"], set(scenarios.CALLERS))
        self.assertEqual(seen["writer"], set(scenarios.WRITERS))
        self.assertEqual(seen["state"], set(scenarios.STATES))
        self.assertEqual(seen["tool"], set(scenarios.CLAUDE_TOOLS + ("apply_patch",)))
        self.assertTrue(any(o.scenario.held_out for o in self.outcomes))

    def test_every_uncommitted_change_of_a_party_is_noticed_and_nothing_else(self):
        for part, chosen in (("tuned on", [o for o in self.outcomes if not o.scenario.held_out]),
                             ("held out", [o for o in self.outcomes if o.scenario.held_out])):
            with self.subTest(part=part):
                true_positives, false_positives, false_negatives = scenarios.scores(chosen)
                wrong = [(o.scenario, sorted(o.expected), o.told) for o in chosen
                         if set(o.told) != o.expected or len(o.told) != len(set(o.told))]
                self.assertEqual(wrong, [])
                self.assertGreater(true_positives, 0)
                self.assertEqual((false_positives, false_negatives), (0, 0))

    def test_no_notice_at_all_for_own_read_only_committed_stashed_or_reverted_files(self):
        quiet = [o for o in self.outcomes if not o.expected]
        self.assertTrue({"committed", "stashed", "reverted", "committed-then-changed"} <= {o.scenario.state for o in quiet})
        self.assertTrue({"peer-read", "nobody", "own", "caller-subagent"} <= {o.scenario.writer for o in quiet})
        self.assertEqual([o.scenario for o in quiet if o.text], [])


class TheSecondCallSaysNothingNew(unittest.TestCase):
    def test_each_noticed_file_is_told_once_per_change(self):
        items = [s for s in scenarios.scenarios() if s.version == scenarios.VERSIONS[0] and s.caller == "main"
                 and s.state in scenarios.UNCOMMITTED]
        import os
        import shutil
        import tempfile
        from fixtures import claudehome

        root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-notice-once-"))
        claude = claudehome.ClaudeHome(os.path.join(root, "home"))
        self.addCleanup(shutil.rmtree, root, True)
        self.addCleanup(claude.close)
        world = scenarios.World(claude, root, items[0].version, "main", items)
        told = 0
        for item in items:
            first, second = [support.run_script("edit_notice.py", world.payload(item), claude.env(), cwd=world.repo)
                             for _ in range(2)]
            told += bool(first.stdout)
            self.assertEqual(second.stdout, "", item)
        self.assertGreater(told, 0)
        peer_item = next(i for i in items if i.writer == "peer")
        claudehome.ClaudeHome.append_records(claude, world.peer[1], world.repo, [claudehome.edit_record(
            world.peer[1], world.repo, os.path.join(world.repo, peer_item.rel), claudehome.now_ms())])
        again = support.run_script("edit_notice.py", world.payload(peer_item), claude.env(), cwd=world.repo)
        self.assertIn(scenarios.PEER, json.loads(again.stdout)["hookSpecificOutput"]["additionalContext"])


if __name__ == "__main__":
    unittest.main()

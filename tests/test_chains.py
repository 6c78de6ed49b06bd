"""peerhooks.shell.chains: which commands of a line run, once some are known to fail."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import chains, cmdline  # noqa: E402


def inert(line, failing):
    runs = cmdline.commands(line, "/repo")
    chain = chains.chain_of(runs, {i for i, r in enumerate(runs) if r.name == "git"})
    return sorted(chains.inert(chain, lambda step: step in failing))


class Gates(unittest.TestCase):
    def test_an_and_chain_stops_at_the_first_failure(self):
        self.assertEqual(inert("git add gone.py && git commit -m x", {0}), [0, 1])
        self.assertEqual(inert("git add gone.py && echo ok && git commit -m x && git push", {0}), [0, 1, 2, 3])

    def test_or_and_semicolons_run_what_follows(self):
        self.assertEqual(inert("git add gone.py || git commit -m x", {0}), [0])
        self.assertEqual(inert("git add gone.py; git commit -m x", {0}), [0])
        self.assertEqual(inert("git add gone.py & git commit -m x", {0}), [0])
        self.assertEqual(inert("test -f a || git add gone.py && git commit -m x", {1}), [1])  # test may succeed

    def test_a_pipeline_has_its_last_stage_status(self):
        self.assertEqual(inert("git add gone.py | tee log && git commit -m x", {0}), [0])
        self.assertEqual(inert("(git add gone.py) && git commit -m x", {0}), [0, 1])

    def test_compound_syntax_is_never_read_as_a_chain(self):
        for line in ("if git add gone.py; then echo; fi && git commit -m x",
                     "! git add gone.py && git commit -m x",
                     "for f in a b; do git add gone.py; done && git commit -m x",
                     "while git add gone.py; do :; done && git commit -m x"):
            with self.subTest(line=line):
                self.assertNotIn(max(i for i, _r in enumerate(cmdline.commands(line, "/repo"))), inert(line, {0}))

    def test_a_failure_counts_only_while_nothing_before_it_changed_the_checkout(self):
        self.assertEqual(inert("cd src && git add gone.py && git commit -m x", {1}), [1, 2])
        self.assertEqual(inert("touch gone.py && git add gone.py && git commit -m x", {1}), [])
        self.assertEqual(inert("echo x > gone.py && git add gone.py && git commit -m x", {1}), [])
        self.assertEqual(inert("make gen && git add gone.py && git commit -m x", {1}), [])

    def test_an_awk_printing_a_field_reads_only(self):
        self.assertEqual(inert("cat list | awk '{print $2}' | xargs git add && git commit -m x", {2}),
                         [2, 3])
        self.assertEqual(inert("awk 'BEGIN{system(\"touch gone.py\")}' && git add gone.py", {1}), [])


if __name__ == "__main__":
    unittest.main()

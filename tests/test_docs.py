"""README.md and docs/: every sample a document shows is what the code prints today, and every
document the README points to exists."""
import os
import re
import unittest

import support
import docs_samples

SAMPLE = re.compile(r"<!-- sample: ([\w-]+) -->\n```\n(.*?)\n```", re.DOTALL)
DOCUMENTS = ["README.md"] + [os.path.join("docs", name) for name in sorted(os.listdir(os.path.join(support.REPO, "docs")))
                             if name.endswith(".md")]


def read(relative):
    with open(os.path.join(support.REPO, relative), encoding="utf-8") as handle:
        return handle.read()


class Samples(unittest.TestCase):
    def test_every_sample_block_is_what_its_producer_returns(self):
        produced = docs_samples.samples()
        for document in DOCUMENTS:
            for name, shown in SAMPLE.findall(read(document)):
                self.assertIn(name, produced, "%s names an unknown sample %s" % (document, name))
                self.assertEqual(shown, produced[name], "%s: sample %s is stale; regenerate with "
                                                        "`cd tests && python3 docs_samples.py`" % (document, name))

    def test_the_readme_shows_one_real_sample_per_hook(self):
        shown = {name for name, _ in SAMPLE.findall(read("README.md"))}
        self.assertLessEqual({"peers-hook", "guard-refusal", "memory-delta", "diff"}, shown)


class Links(unittest.TestCase):
    def test_every_document_the_readme_links_exists(self):
        for target in re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)\)", read("README.md")):
            self.assertTrue(os.path.exists(os.path.join(support.REPO, target)), target)


if __name__ == "__main__":
    unittest.main()

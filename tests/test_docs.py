"""README.md and docs/: every sample a document shows is what the code prints today, and every
document the README points to exists."""
import os
import re
import unittest

import support
import docs_samples

# A sample that itself holds a fenced block (the guard's runnable suggestion) is fenced with four.
SAMPLE = re.compile(r"<!-- sample: ([\w-]+) -->\n(````?)\n(.*?)\n\2(?:\n|$)", re.DOTALL)
# Samples checked where their fixture is built: the --stats report of test_stats' fixture home.
CHECKED_ELSEWHERE = {"stats-text": "test_stats", "stats-json": "test_stats"}
DOCUMENTS = ["README.md"] + [os.path.join("docs", name) for name in sorted(os.listdir(os.path.join(support.REPO, "docs")))
                             if name.endswith(".md")]


def read(relative):
    with open(os.path.join(support.REPO, relative), encoding="utf-8") as handle:
        return handle.read()


class Samples(unittest.TestCase):
    def test_every_sample_block_is_what_its_producer_returns(self):
        produced = docs_samples.samples()
        for document in DOCUMENTS:
            for name, _fence, shown in SAMPLE.findall(read(document)):
                if name in CHECKED_ELSEWHERE:
                    continue
                self.assertIn(name, produced, "%s names an unknown sample %s" % (document, name))
                self.assertEqual(shown, produced[name], "%s: sample %s is stale; regenerate with "
                                                        "`cd tests && python3 docs_samples.py`" % (document, name))

    def test_the_readme_shows_one_real_sample_per_hook(self):
        shown = {name for name, _fence, _text in SAMPLE.findall(read("README.md"))}
        self.assertLessEqual({"peers-hook", "guard-refusal", "memory-delta", "diff"}, shown)


class Links(unittest.TestCase):
    def test_every_document_the_readme_links_exists(self):
        for target in re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)\)", read("README.md")):
            self.assertTrue(os.path.exists(os.path.join(support.REPO, target)), target)


class ModuleMap(unittest.TestCase):
    def test_every_module_is_on_the_map_and_every_name_on_it_is_a_module(self):
        listed = set(re.findall(r"^\| `([\w/.]+)` \|", read(os.path.join("docs", "modules.md")), re.M))
        library = os.path.join(support.REPO, "scripts", "peerhooks")
        modules = set()
        for folder, _, names in os.walk(library):
            package = os.path.relpath(folder, library).replace(os.sep, "/")
            if "__pycache__" in package:
                continue
            if package != "." and "__init__.py" in names:
                modules.add(package)
            modules |= {(name[:-3] if package == "." else package + "/" + name[:-3])
                        for name in names if name.endswith(".py") and name != "__init__.py"}
        modules |= {name for name in os.listdir(os.path.join(support.REPO, "scripts")) if name.endswith(".py")}
        modules |= {"installer/" + name[:-3] for name in os.listdir(os.path.join(support.REPO, "installer"))
                    if name.endswith(".py") and name != "__init__.py"} | {"install.py"}
        self.assertEqual(sorted(modules - listed), [], "modules missing from docs/modules.md")
        self.assertEqual(sorted(listed - modules), [], "docs/modules.md names modules that do not exist")


if __name__ == "__main__":
    unittest.main()

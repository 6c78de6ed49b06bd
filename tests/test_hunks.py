"""hunks: this session's own hunks of a file a peer changed too, replayed from its Edit records. Pure."""
import os
import subprocess
import sys
import tempfile
import shutil
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git import hunks  # noqa: E402
from peerhooks.git.hunks import OwnEdit  # noqa: E402

BASE = "".join("line %d\n" % n for n in range(1, 11))


class OwnText(unittest.TestCase):
    def test_own_edits_replayed_on_the_index_leave_the_peers_out(self):
        current = BASE.replace("line 2\n", "line 2 (peer)\n").replace("line 9\n", "line 9 (own)\n")
        own = hunks.own_text(BASE, current, [OwnEdit("Edit", "line 9\n", "line 9 (own)\n")])
        self.assertEqual(own, BASE.replace("line 9\n", "line 9 (own)\n"))

    def test_what_cannot_be_told_apart(self):
        current = BASE.replace("line 2\n", "line 2 (peer) (own)\n")
        for edits in ([OwnEdit("Write")],  # a whole file may hold the peer's lines
                      [OwnEdit("Edit", "line 2 (peer)\n", "line 2 (peer) (own)\n")],  # over the peer's change
                      [OwnEdit("Edit", "line", "LINE")],  # not unique
                      [OwnEdit("Edit", "line 5\n", "line 5 (gone)\n")],  # the file no longer holds it
                      []):
            with self.subTest(edits=edits):
                self.assertIsNone(hunks.own_text(BASE, current, edits))

    def test_an_edit_already_in_the_index_was_committed_and_is_skipped(self):
        committed = BASE.replace("line 3\n", "line 3 (own)\n")
        self.assertEqual(hunks.own_text(committed, committed, [OwnEdit("Edit", "line 3\n", "line 3 (own)\n")]),
                         committed)


class Patch(unittest.TestCase):
    def test_git_applies_the_patch_to_the_index(self):
        folder = tempfile.mkdtemp(prefix="peerhooks-hunks-")
        self.addCleanup(shutil.rmtree, folder, True)
        run = lambda *a: subprocess.run(["git", "-C", folder] + list(a), check=True, capture_output=True)  # noqa: E731
        run("init", "-q")
        with open(os.path.join(folder, "f.py"), "w") as handle:
            handle.write(BASE.rstrip("\n"))  # no newline at the end: git's marker
        run("add", "f.py")
        own = BASE.rstrip("\n").replace("line 4", "line 4 (own)").replace("line 10", "line 10 (own)")
        with open(os.path.join(folder, "p.patch"), "w") as handle:
            handle.write(hunks.patch("f.py", BASE.rstrip("\n"), own))
        run("apply", "--cached", os.path.join(folder, "p.patch"))
        self.assertEqual(run("show", ":f.py").stdout.decode(), own)

    def test_a_new_file(self):
        text = hunks.patch("n.py", "", "x = 1\n", new_file=True)
        self.assertTrue(text.startswith("diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py"))


if __name__ == "__main__":
    unittest.main()

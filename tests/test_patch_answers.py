"""peerhooks.git.patch_answers: which files `git add -p` stages a hunk of, given what the line feeds it."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git.patch_answers import answers_of, file_hunks, hunks_of, staged_files, staged_hunks  # noqa: E402

HUNKS = [("a.py", 2), ("b.py", 1), ("c.py", 3)]


class Answers(unittest.TestCase):
    def test_each_answer_takes_one_hunk_in_order(self):
        self.assertEqual(staged_files(answers_of("n\nn\nn\nn\nn\nn\n"), HUNKS), [])
        self.assertEqual(staged_files(answers_of("n\ny\nn\n"), HUNKS), ["a.py"])
        self.assertEqual(staged_files(answers_of("n\nn\nn\nn\ny\n"), HUNKS), ["c.py"])

    def test_a_and_d_decide_the_rest_of_a_file_q_and_the_end_stop(self):
        self.assertEqual(staged_files(answers_of("d\na\nn\n"), HUNKS), ["b.py"])
        self.assertEqual(staged_files(answers_of("y\nq\ny\n"), HUNKS), ["a.py"])
        self.assertEqual(staged_files(answers_of("n\n"), HUNKS), [])  # then EOF: it quits
        self.assertEqual(staged_files(answers_of(None, "y"), HUNKS), ["a.py", "b.py", "c.py"])  # yes |

    def test_an_answer_not_followed_here_tells_nothing(self):
        self.assertIsNone(staged_files(answers_of("s\ny\n"), HUNKS))
        self.assertIsNone(staged_files(answers_of("e\n"), HUNKS))


class Hunks(unittest.TestCase):
    def test_prompts_are_counted_from_the_diff(self):
        diff = ("diff --git a/a.py b/a.py\nindex 1..2 100644\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
                "@@ -9 +9 @@\n-x\n+y\ndiff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n"
                "diff --git a/d.py b/d.py\ndeleted file mode 100644\n--- a/d.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
        self.assertEqual(hunks_of(diff), [("a.py", 2), ("m.sh", 1), ("d.py", 1)])
        self.assertIsNone(hunks_of("diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n"))


if __name__ == "__main__":
    unittest.main()


class WhichHunks(unittest.TestCase):
    def test_the_prompts_each_answer_stages_are_told_file_by_file(self):
        self.assertEqual(staged_hunks(answers_of("n\ny\nd\na\n"), HUNKS), [("a.py", [1]), ("b.py", []), ("c.py", [0, 1, 2])])
        self.assertEqual(staged_hunks(answers_of("y\n"), HUNKS), [("a.py", [0])])  # then EOF: it quits
        self.assertIsNone(staged_hunks(answers_of("s\n"), HUNKS))

    def test_a_hunk_is_its_old_range_and_lines(self):
        diff = ("diff --git a/x.py b/x.py\nindex 1..2 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"
                "@@ -9 +9 @@ def f():\n-y\n+z\n")
        self.assertEqual(file_hunks(diff), [("x.py", [("-1,2", ("-a", "+b", " c")), ("-9", ("-y", "+z"))])])
        self.assertEqual(hunks_of(diff), [("x.py", 2)])

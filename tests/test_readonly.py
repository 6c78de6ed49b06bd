"""readonly: a payload whose git only reads is let through on its raw bytes. Pure."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import writes
from peerhooks.guard import readonly as guard_readonly  # noqa: E402


def raw(command):
    return json.dumps({"tool_name": "Bash", "tool_input": {"command": command, "description": "x"}}).encode()


class OnlyReads(unittest.TestCase):
    def test_read_only_git_and_words_that_merely_contain_git_pass(self):
        for command in ("git status", "git log --oneline | head -5", "git -C src diff && git show HEAD",
                        "/usr/bin/git status", "cat .gitignore", "git --no-pager diff", "git status\ngit log"):
            with self.subTest(command=command):
                self.assertTrue(guard_readonly.only_reads(raw(command)))

    def test_anything_else_goes_to_the_full_judgement(self):
        for command in ("git status && git add -A", "git status\ngit add -A", "echo git", "git stash list",
                        "git statusx", '"git" add -A', "a;git add -A", "git"):
            with self.subTest(command=command):
                self.assertFalse(guard_readonly.only_reads(raw(command)))


class MayWrite(unittest.TestCase):
    def test_lines_that_cannot_write_a_file_are_told_apart_on_the_raw_bytes(self):
        for line in (b"ls -la && npm test 2>&1 | tail -20", b"make 2>/dev/null", b"cat a | grep b",
                     b"python3 -m pytest -q >&2", b"git status", b"sort names.txt | uniq -c",
                     b"python3 -c \\\"print(open('a.py').read())\\\""):
            with self.subTest(line=line):
                self.assertFalse(guard_readonly.may_write(line))

    def test_a_redirection_to_a_file_or_a_writing_command_may_write(self):
        for line in (b"echo x > a.py", b"echo x >>a.py", b"x &> log", b"sed -i s/a/b/ f", b"rm -rf build",
                     b"/bin/cp a b", b"a;mv x y", b"(tee out)", b'bash -c \\"rm x\\"', b"find . -delete",
                     b"sort -o names.txt names.txt", b"python3 -c \\\"open('a.py','w').write('')\\\"",
                     b"node -e \\\"require('fs').unlinkSync('a.js')\\\""):
            with self.subTest(line=line):
                self.assertTrue(guard_readonly.may_write(line))

    def test_the_write_markers_are_the_inline_code_readers(self):
        from peerhooks.wrappers import inline_code

        self.assertEqual([m.decode() for m in guard_readonly.WRITE_MARKERS], list(inline_code.WRITE_MARKERS))
        self.assertEqual(tuple(i.decode() for i in guard_readonly.INTERPRETERS), writes.INTERPRETER_PREFIXES)


if __name__ == "__main__":
    unittest.main()

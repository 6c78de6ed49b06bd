"""peerhooks.shell.rewrites: whether a `sed -i` / `perl -pi` can change a file, from the file as it is."""
import unittest

from support import SCRIPTS  # noqa: F401  (puts scripts/ on the path)
from peerhooks.shell import rewrites


def changes(command, data):
    """may_change for a command line of plain words (`\\x01` splits words holding spaces); None when
    the command is not a form modelled."""
    words = command.split("\x01") if "\x01" in command else command.split()
    found = rewrites.rewrite_of(words[0], words[1:])
    return None if found is None else rewrites.may_change(found, data)


class WhatIsModelled(unittest.TestCase):
    def test_substitutions_without_addresses_are_read_with_their_dialect(self):
        found = rewrites.rewrite_of("sed", ["-i", "-E", "-e", "s/a+/b/g", "-e", "s|c|d|I", "f"])
        self.assertEqual(found.patterns, (rewrites.Pattern(rewrites.ERE, "a+", False),
                                          rewrites.Pattern(rewrites.ERE, "c", True)))
        self.assertEqual(rewrites.rewrite_of("sed", ["-i", "s/x/y/;s/z/w/", "f"]).patterns[1].source, "z")
        self.assertEqual(rewrites.rewrite_of("sed", ["-z", "-i", "s/x/y/", "f"]).separator, "\0")
        self.assertEqual(rewrites.rewrite_of("perl", ["-pi", "-e", "s/foo/bar/gi", "f"]).patterns,
                         (rewrites.Pattern(rewrites.PERL_RE, "foo", True),))

    def test_forms_that_act_without_a_match_or_are_not_modelled_are_none(self):
        for words in (["sed", "-n", "-i", "s/a/b/p", "f"],  # writes only what is printed: empties f
                      ["sed", "-i", "1s/a/b/", "f"], ["sed", "-i", "/x/s/a/b/", "f"],  # addresses
                      ["sed", "-i", "s/a/b/;d", "f"], ["sed", "-i", "y/ab/cd/", "f"],
                      ["sed", "-i", "s/a/b/w out", "f"], ["sed", "-i", "s/a/b/e", "f"],
                      ["sed", "-i'bak/*'", "s/a/b/", "f"], ["sed", "--in-place=*.orig", "s/a/b/", "f"],
                      ["sed", "-i", "s//b/", "f"], ["sed", "--posix", "-i", "s/a/b/", "f"],
                      ["sed", "-i", "-f", "script.sed", "f"], ["sed", "s/a/b/", "f"],
                      ["sed", "-i", "s|a\\|c|b|", "f"],  # `\|` with `|` as delimiter
                      ["perl", "-ip", "-e", "s/a/b/", "f"],  # `p` is -i's suffix: nothing printed
                      ["perl", "-pie", "s/a/b/", "f"],  # -i with the suffix `e`: 's/a/b/' is a program file
                      ["perl", "-ni", "-e", "s/a/b/", "f"], ["perl", "-pli", "-e", "s/a/b/", "f"],
                      ["perl", "-pi", "-e", "s/a/b/; unlink 'x'", "f"], ["perl", "-pi", "-e", "s{a}{b}", "f"],
                      ["perl", "-pi", "-e", "s/a/b/x", "f"], ["perl", "-pi", "-e", "tr/a/b/", "f"]):
            with self.subTest(words=words):
                self.assertIsNone(rewrites.rewrite_of(words[0], words[1:]))

    def test_a_backup_suffix_leaves_the_rewrite_of_the_file_itself_as_without_it(self):
        # the backup is a file of its own, which cmdline names as written whatever the patterns match
        for words in (["sed", "-i.bak", "s/a/b/", "f"], ["sed", "-ie", "s/a/b/", "f"], ["sed", "-Ei.orig", "s/a+/b/", "f"],
                      ["sed", "--in-place=.bak", "s/a/b/", "f"], ["perl", "-pi.bak", "-e", "s/a/b/", "f"]):
            with self.subTest(words=words):
                self.assertIsNotNone(rewrites.rewrite_of(words[0], words[1:]))

    def test_patterns_not_translated_exactly_may_change(self):
        for pattern in ("\\(a\\)\\1", "\\<word\\>", "\\w+", "[[:alpha:]]", "[a-z]", "[\\n]", "a^b", "a$b",
                        "\\(a\\)*", "é"):
            with self.subTest(pattern=pattern):
                self.assertTrue(changes("sed\x01-i\x01s/%s/x/\x01f" % pattern, b"nothing like it\n"))
        for pattern in ("$x", "@list", "(?{ 1 })a", "a\\z", "\\d"):
            with self.subTest(pattern=pattern):
                self.assertTrue(changes("perl\x01-pi\x01-e\x01s/%s/x/\x01f" % pattern, b"nothing like it\n"))


class WhetherTheFileChanges(unittest.TestCase):
    def test_a_literal_found_nowhere_changes_nothing(self):
        self.assertFalse(changes("sed -i s/TODO/DONE/ f", b"def f():\n    return 1\n"))
        self.assertTrue(changes("sed -i s/TODO/DONE/ f", b"# TODO: later\n"))
        self.assertFalse(changes("perl -pi -e s/foo/bar/ f", b"x = 1\n"))
        self.assertTrue(changes("perl -pi -e s/foo/bar/ f", b"food = 1\n"))
        self.assertFalse(changes("sed -i -e s/a1/b/ -e s/c2/d/ f", b"a c\n"))
        self.assertTrue(changes("sed -i -e s/a1/b/ -e s/c2/d/ f", b"a c2\n"))

    def test_escapes_and_case_are_matched_as_the_program_does(self):
        self.assertFalse(changes("sed\x01-i\x01s/\\t/    /g\x01f", b"    indented\n"))
        self.assertTrue(changes("sed\x01-i\x01s/\\t/    /g\x01f", b"\tindented\n"))
        self.assertTrue(changes("sed -i s/foo/bar/I f", b"FOO\n"))
        self.assertFalse(changes("sed -i s/foo/bar/ f", b"FOO\n"))
        self.assertFalse(changes("sed -i s/a+/c/ f", b"aa\n"))  # BRE: `+` is a plain character
        self.assertTrue(changes("sed -i s/a+/c/ f", b"a+\n"))
        self.assertTrue(changes("sed -E -i s/a+/c/ f", b"aa\n"))
        self.assertTrue(changes("sed -i s/*a/c/ f", b"*a\n"))  # a leading `*` is plain in BRE
        self.assertFalse(changes("sed -i s/x\\|y/c/ f", b"z\n"))
        self.assertTrue(changes("sed -i s/x\\|y/c/ f", b"y\n"))
        self.assertFalse(changes("sed -i s/[0-9]/c/ f", b"abc\n"))
        self.assertTrue(changes("sed -i s/[0-9]/c/ f", b"ab1\n"))

    def test_a_match_is_looked_for_within_each_line(self):
        self.assertFalse(changes("sed -i s/a.*b/c/ f", b"a\nb\n"))
        self.assertTrue(changes("sed -i s/a.*b/c/ f", b"a b\n"))
        self.assertFalse(changes("sed -i s/^x$/c/ f", b"xx\n"))
        self.assertTrue(changes("sed -i s/^x$/c/ f", b"x\n"))
        self.assertFalse(changes("sed -i s/a\\nb/c/ f", b"a\nb\n"))  # a sed line holds no newline
        self.assertTrue(changes("sed -z -i s/a\\nb/c/ f", b"a\nb\n"))  # ... unless lines end at NUL
        self.assertTrue(changes("perl -pi -e s/a\\n/b/ f", b"a\n"))  # perl's line holds its "\n"
        self.assertTrue(changes("perl -pi -e s/a$/b/ f", b"a\n"))

    def test_a_pattern_matching_the_empty_string_changes_any_file_with_a_line(self):
        self.assertFalse(changes("sed -i s/.*/y/ f", b""))
        self.assertTrue(changes("sed -i s/.*/y/ f", b"\n"))
        self.assertTrue(changes("sed -i s/x*/y/ f", b"abc\n"))

    def test_beyond_ascii_only_literals_matched_with_case_are_decided(self):
        self.assertFalse(changes("sed -i s/TODO/DONE/ f", "é = 1\n".encode()))
        self.assertTrue(changes("sed -i s/a.b/y/ f", "aéb\n".encode()))  # one character or two: the locale's
        self.assertTrue(changes("sed -i s/todo/y/I f", "é TODO\n".encode()))

    def test_searches_that_could_backtrack_long_may_change(self):
        self.assertTrue(changes("sed -i s/x.*y.*z/w/ f", b"x y z\n" * 3))  # quantifiers over the budget
        self.assertTrue(changes("sed -i s/x.*y/w/ f", b"x" * (rewrites.MAX_LINE_CHARS + 1) + b"\ny\n"))
        self.assertFalse(changes("sed -i s/x.*y.*q/w/ f", b"x y z\n"))  # a run found nowhere: no search


if __name__ == "__main__":
    unittest.main()

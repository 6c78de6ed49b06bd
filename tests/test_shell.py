"""shell.tokenize on its own: a Bash command line split into words and operators as Bash would."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell.lexer import Operator, Word, tokenize  # noqa: E402


def texts(command):
    """Words as their values, operators in angle brackets, substitutions as [ … ]."""
    out = []
    for token in tokenize(command):
        if isinstance(token, Operator):
            out.append("<%s>" % ("NL" if token.text == "\n" else token.text))
        else:
            out.append(token.value)
    return out


def only_word(command):
    tokens = tokenize(command)
    assert len(tokens) == 1 and isinstance(tokens[0], Word), tokens
    return tokens[0]


class Words(unittest.TestCase):
    def test_blanks_separate_words(self):
        self.assertEqual(texts("git  add\t-A"), ["git", "add", "-A"])

    def test_quotes_are_removed_and_join_pieces(self):
        self.assertEqual(texts("a'b c'\"d e\"f"), ["ab cd ef"])

    def test_single_quotes_keep_everything_literal(self):
        self.assertEqual(only_word("'$(x) `y` \\n'").value, "$(x) `y` \\n")
        self.assertFalse(only_word("'$(x)'").expanded)

    def test_double_quotes_keep_backslash_unless_it_escapes_a_special(self):
        self.assertEqual(only_word('"a\\"b\\$c\\\\d\\e"').value, 'a"b$c\\d\\e')

    def test_backslash_escapes_one_character_outside_quotes(self):
        self.assertEqual(texts("a\\ b c\\;d"), ["a b", "c;d"])

    def test_line_continuation_joins_lines(self):
        self.assertEqual(texts("git \\\n add -A"), ["git", "add", "-A"])

    def test_ansi_c_quotes_decode_escapes(self):
        self.assertEqual(only_word("$'it\\'s\\n'").value, "it's\n")

    def test_unquoted_glob_characters_are_marked(self):
        self.assertTrue(only_word("*.py").glob)
        self.assertTrue(only_word("a?").glob)
        self.assertFalse(only_word("'*.py'").glob)
        self.assertFalse(only_word("\\*").glob)
        self.assertEqual(only_word("'*'").value, "*")

    def test_variables_tilde_and_substitutions_mark_the_word_expanded(self):
        for command in ("$HOME", "${X:-y}", "a$1", "~/x", '"$X"', "$(pwd)", "`pwd`"):
            with self.subTest(command=command):
                self.assertTrue(only_word(command).expanded)
        self.assertFalse(only_word("a~b").expanded)
        self.assertFalse(only_word("'~'").expanded)
        self.assertEqual(only_word("$").value, "$")

    def test_unquoted_expansions_are_marked_where_they_start(self):
        self.assertEqual(only_word("$F").unquoted, (0,))
        self.assertEqual(only_word('"$F"').unquoted, ())
        self.assertEqual(only_word('"$A"/$B').unquoted, (3,))
        self.assertEqual(only_word("x`pwd`$(pwd)").unquoted, (1, 6))
        self.assertEqual(only_word("'$F'").unquoted, ())

    def test_an_array_assignment_is_one_word(self):
        self.assertEqual([t.value for t in tokenize("A=(src lib) B+=(x)")], ["A=(src lib)", "B+=(x)"])
        self.assertTrue(tokenize("A=(src lib)")[0].expanded)
        self.assertEqual([getattr(t, "text", None) for t in tokenize("echo (x)")][1], "(")


class Operators(unittest.TestCase):
    def test_separators(self):
        self.assertEqual(texts("a;b&&c||d|e&f|&g"),
                         ["a", "<;>", "b", "<&&>", "c", "<||>", "d", "<|>", "e", "<&>", "f", "<|&>", "g"])

    def test_newline_is_a_separator(self):
        self.assertEqual(texts("a\nb"), ["a", "<NL>", "b"])

    def test_subshell_parentheses(self):
        self.assertEqual(texts("(cd x; y)"), ["<(>", "cd", "x", "<;>", "y", "<)>"])

    def test_braces_are_words(self):
        self.assertEqual(texts("{ a; }"), ["{", "a", "<;>", "}"])

    def test_redirections_and_descriptor_numbers(self):
        self.assertEqual(texts("a 2>&1 >>log <in 3<>f &>all"),
                         ["a", "<>&>", "1", "<>>>", "log", "<<>", "in", "<<>>", "f", "<&>>", "all"])

    def test_a_digit_word_not_touching_a_redirection_stays(self):
        self.assertEqual(texts("echo 2 > f"), ["echo", "2", "<>>", "f"])
        self.assertEqual(texts("echo '2'>f"), ["echo", "2", "<>>", "f"])

    def test_separators_inside_quotes_are_data(self):
        self.assertEqual(texts("git commit -m 'a; git add . && b'"),
                         ["git", "commit", "-m", "a; git add . && b"])

    def test_case_terminators(self):
        self.assertEqual(texts("a;;b"), ["a", "<;;>", "b"])


class Comments(unittest.TestCase):
    def test_comment_runs_to_the_end_of_the_line(self):
        self.assertEqual(texts("a # git add -A\nb"), ["a", "<NL>", "b"])

    def test_hash_inside_a_word_is_not_a_comment(self):
        self.assertEqual(texts("a#b '#' \"#\""), ["a#b", "#", "#"])


class Heredocs(unittest.TestCase):
    def test_body_is_skipped(self):
        self.assertEqual(texts("cat <<EOF\ngit add -A\nEOF\nnext"),
                         ["cat", "<<<>", "EOF", "<NL>", "next"])

    def test_quoted_delimiter(self):
        self.assertEqual(texts("cat <<'E O'\nx\nE O\ny"), ["cat", "<<<>", "E O", "<NL>", "y"])

    def test_dash_form_strips_tabs_before_the_delimiter(self):
        self.assertEqual(texts("cat <<-EOF\n\tx\n\tEOF\ny"), ["cat", "<<<->", "EOF", "<NL>", "y"])

    def test_two_heredocs_on_one_line(self):
        self.assertEqual(texts("cat <<A <<B\n1\nA\n2\nB\nz"),
                         ["cat", "<<<>", "A", "<<<>", "B", "<NL>", "z"])

    def test_unterminated_body_runs_to_the_end(self):
        self.assertEqual(texts("cat <<EOF\ngit add -A"), ["cat", "<<<>", "EOF", "<NL>"])

    def test_here_string_is_just_a_redirection(self):
        self.assertEqual(texts("cat <<< 'git add'"), ["cat", "<<<<>", "git add"])

    def test_heredoc_inside_a_substitution_inside_double_quotes(self):
        word = tokenize("git commit -m \"$(cat <<'EOF'\ndon't (git add .)\nEOF\n)\" -- a")[3]
        self.assertTrue(word.expanded)
        self.assertEqual([t.text if isinstance(t, Operator) else t.value for t in word.substitutions[0]],
                         ["cat", "<<", "EOF", "\n"])
        self.assertEqual(texts("git commit -m \"$(cat <<'EOF'\nx)\nEOF\n)\" -- a")[-2:], ["--", "a"])


class Substitutions(unittest.TestCase):
    def inner(self, command):
        subs = [s for t in tokenize(command) if isinstance(t, Word) for s in t.substitutions]
        return [[t.text if isinstance(t, Operator) else t.value for t in s] for s in subs]

    def test_dollar_paren_contents_are_tokens(self):
        self.assertEqual(self.inner("echo $(git add -A; ls)"), [["git", "add", "-A", ";", "ls"]])

    def test_nested_substitution(self):
        word = only_word("$(a $(b))")
        self.assertEqual(word.substitutions[0][1].substitutions[0][0].value, "b")

    def test_paren_inside_quotes_in_a_substitution_does_not_close_it(self):
        self.assertEqual(self.inner("echo $(echo ')') x"), [["echo", ")"]])

    def test_backticks_with_escapes(self):
        self.assertEqual(self.inner("echo `git \\`x\\``"), [["git", "`x`"]])
        self.assertEqual(only_word("`a`").substitutions[0][0].value, "a")

    def test_process_substitution(self):
        self.assertEqual(self.inner("diff <(git show) >(cat)"), [["git", "show"], ["cat"]])

    def test_arithmetic_is_read_as_a_substitution(self):
        self.assertEqual(only_word("$((1+(2)))").value, "$((1+(2)))")

    def test_substitution_in_double_quotes(self):
        self.assertEqual(self.inner('echo "a $(git stash) b"'), [["git", "stash"]])

    def test_no_substitution_in_single_quotes(self):
        self.assertEqual(self.inner("echo '$(git stash)'"), [])


class Unbalanced(unittest.TestCase):
    def test_unclosed_quotes_give_what_was_read(self):
        self.assertEqual(texts("git add 'a b"), ["git", "add", "a b"])
        self.assertEqual(texts('git add "a'), ["git", "add", "a"])
        self.assertEqual(texts("a $'b"), ["a", "b"])

    def test_unclosed_substitution(self):
        self.assertEqual(only_word("$(git stash").substitutions[0][0].value, "git")

    def test_stray_close_paren_is_an_operator(self):
        self.assertEqual(texts("a ) b"), ["a", "<)>", "b"])

    def test_trailing_backslash(self):
        self.assertEqual(texts("a\\"), ["a"])

    def test_non_text_input_gives_nothing(self):
        self.assertEqual(tokenize(None), [])


class Fuzz(unittest.TestCase):
    ALPHABET = "ab gitd-A'\"\\$(){}`;&|<>#\n\t*?[]~=$'<<EOF"

    def test_random_input_never_raises_and_always_ends(self):
        for seed in range(4):
            rng = random.Random(seed)
            for _ in range(1500):
                command = "".join(rng.choice(self.ALPHABET) for _ in range(rng.randint(0, 80)))
                self.assertIsInstance(tokenize(command), list)

    def test_a_line_of_more_tokens_than_any_typed_one_raises_too_large(self):
        from peerhooks.shell.lexer import MAX_TOKENS, TooLarge

        self.assertEqual(len(tokenize("a;" * (MAX_TOKENS // 2))), MAX_TOKENS)
        with self.assertRaises(TooLarge):
            tokenize("a;" * (MAX_TOKENS // 2 + 1))
        with self.assertRaises(TooLarge):  # a substitution's tokens count against the same budget
            tokenize("echo $(" + "a;" * MAX_TOKENS + ")")
        self.assertEqual(len(tokenize("cat <<EOF\n" + "word " * 100000 + "\nEOF\n")), 4)  # data is one word

    def test_nesting_past_the_bound_raises_too_large_rather_than_skip_what_it_holds(self):
        from peerhooks.shell.lexer import MAX_NESTING, TooLarge

        inner = tokenize("$(" * MAX_NESTING + "git add -A" + ")" * MAX_NESTING)[0]
        for _level in range(MAX_NESTING - 1):
            inner = inner.substitutions[0][0]
        self.assertEqual([w.value for w in inner.substitutions[0]], ["git", "add", "-A"])
        for line in ("$(" * 5000 + "x" + ")" * 5000, '"$(' * 3000, "echo " + "$(" * (MAX_NESTING + 1) + "git add -A"):
            with self.assertRaises(TooLarge):
                tokenize(line)
        tokenize("`" * 5001)  # empty pairs: nothing nested


if __name__ == "__main__":
    unittest.main()

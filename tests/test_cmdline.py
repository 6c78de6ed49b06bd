"""cmdline: the one interpreter of Bash command lines (simple commands, their directory, what they
run and write: shell.words, shell.writes). Pure: no files, no clock."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks import wrappers  # noqa: E402
from peerhooks.shell import cmdline, words, writes  # noqa: E402
from peerhooks.shell.lexer import tokenize  # noqa: E402

CONTEXT = cmdline.Context(home="/home/me", toplevel=lambda path: "/r" if path.startswith("/r") else None)


def runs(line, cwd="/r/sub"):
    """[(name, [args], cwd)] of each simple command."""
    return [(c.name, [w.value for w in c.args], c.cwd) for c in cmdline.commands(line, cwd, CONTEXT)]


class Prefixes(unittest.TestCase):
    def test_prefixes_are_matched_by_basename(self):
        for line in ("/usr/bin/env git add -A", "/usr/bin/time git add -A", "sudo -u x git add -A",
                     "env -i FOO=1 git add -A", "timeout 5 git add -A", "nice -n 5 git add -A",
                     "command git add -A", "exec git add -A", "nohup git add -A", "stdbuf -o0 git add -A",
                     "FOO=1 BAR=2 git add -A", "time -p git add -A"):
            self.assertIn(("git", ["add", "-A"], "/r/sub"), runs(line), line)

    def test_command_v_is_a_lookup(self):
        self.assertEqual(runs("command -v git"), [])

    def test_xargs_and_find_exec_add_words(self):
        found = cmdline.commands("git diff --name-only | xargs git add", "/r", CONTEXT)
        self.assertTrue(found[-1].adds_words and found[-1].name == "git")
        found = cmdline.commands("find . -name '*.py' -exec git add {} +", "/r", CONTEXT)
        self.assertTrue(any(c.name == "git" and c.adds_words for c in found))


class NestedShells(unittest.TestCase):
    def test_bash_c_eval_and_a_heredoc_fed_to_a_shell_are_opened(self):
        self.assertIn(("git", ["add", "-A"], "/r/sub"), runs("bash -c 'git add -A'"))
        self.assertIn(("git", ["add", "-A"], "/r/sub"), runs("eval git add -A"))
        self.assertIn(("git", ["add", "-A"], "/r/sub"), runs("bash <<EOF\ngit add -A\nEOF"))
        self.assertIn(("git", ["add", "-A"], "/r/sub"), runs("sh -s <<< 'git add -A'"))

    def test_a_heredoc_fed_to_cat_is_data_but_its_substitutions_run(self):
        self.assertNotIn("git", [r[0] for r in runs("cat <<'EOF'\ngit add -A\nEOF")])
        self.assertIn(("git", ["add", "-A"], "/r/sub"), runs("cat <<EOF\n`git add -A`\nEOF"))
        self.assertNotIn("git", [r[0] for r in runs("cat <<'EOF'\n`git add -A`\nEOF")])

    def test_a_heredoc_fed_to_a_shell_running_a_file_is_data(self):
        self.assertNotIn("git", [r[0] for r in runs("bash run.sh <<EOF\ngit add -A\nEOF")])


class Directories(unittest.TestCase):
    def test_cd_follows_knowable_expansions(self):
        self.assertEqual(runs('cd "$(git rev-parse --show-toplevel)" && git add -A')[-1][2], "/r")
        self.assertEqual(runs("cd ~/w && git status")[-1][2], "/home/me/w")
        self.assertEqual(runs('cd "$HOME/w" && git status')[-1][2], "/home/me/w")
        self.assertEqual(runs('cd "$PWD/x" && git status')[-1][2], "/r/sub/x")
        self.assertEqual(runs("cd && git status")[-1][2], "/home/me")
        self.assertEqual(runs("D=/r/x; cd $D && git status")[-1][2], "/r/x")
        self.assertIsNone(runs("cd $UNKNOWN && git status")[-1][2])

    def test_subshells_and_pipe_stages_keep_their_cd(self):
        self.assertEqual(runs("(cd /a && true); git status")[-1][2], "/r/sub")
        self.assertEqual(runs("cd /a | true; git status")[-1][2], "/r/sub")
        self.assertEqual(runs("cd /a; git status")[-1][2], "/a")

    def test_env_dash_c_changes_the_directory_of_its_command_only(self):
        self.assertEqual(runs("env -C /x git status; git log")[0][2], "/x")
        self.assertEqual(runs("env -C /x git status; git log")[1][2], "/r/sub")


class Expansions(unittest.TestCase):
    def test_brace_expansion(self):
        self.assertEqual(words.brace_expand("{src,lib}/"), ["src/", "lib/"])
        self.assertEqual(words.brace_expand("f{1..3}.py"), ["f1.py", "f2.py", "f3.py"])
        self.assertEqual(words.brace_expand("a{b,c}{d,e}"), ["abd", "abe", "acd", "ace"])
        word = tokenize("git add {src,lib}/")[2]
        self.assertEqual([w.value for w in words.words_of(word)], ["src/", "lib/"])
        self.assertEqual(words.words_of(tokenize("git add '{a,b}'")[2])[0].value, "{a,b}")

    def test_unknowable_words_expand_to_none(self):
        self.assertIsNone(words.expand(tokenize('"$(git ls-files -m)"')[0], "/r", CONTEXT))
        self.assertIsNone(words.expand(tokenize("$FILES")[0], "/r", CONTEXT))
        self.assertEqual(words.expand(tokenize("${HOME}/x")[0], "/r", CONTEXT), "/home/me/x")


class FieldSplitting(unittest.TestCase):
    """An unquoted expansion is split into words at blanks (then globbed); a quoted one is one word."""

    def test_a_variable_the_line_set_is_split_in_any_commands_arguments(self):
        self.assertEqual(runs('FILES="src lib"; git add $FILES')[-1][:2], ("git", ["add", "src", "lib"]))
        self.assertEqual(runs('F="a.py b.py"; rm -f $F')[-1][:2], ("rm", ["-f", "a.py", "b.py"]))
        self.assertEqual(runs('F="a b"; git add "$F"')[-1][:2], ("git", ["add", "$F"]))  # one word, expanded where read

    def test_a_command_word_holding_blanks_runs_its_first_word(self):
        self.assertEqual(runs('G="git -C /x"; $G add -A')[-1], ("git", ["-C", "/x", "add", "-A"], "/r/sub"))

    def test_an_unquoted_empty_variable_is_no_word(self):
        self.assertEqual(runs("E=; git add $E")[-1][:2], ("git", ["add"]))
        self.assertEqual(runs('E=; git add "$E"')[-1][:2], ("git", ["add", "$E"]))

    def test_fields_of_one_word(self):
        def fields(text, **variables):
            return words.fields(tokenize(text)[0], "/r", CONTEXT, variables)
        self.assertEqual(fields("$F", F=" src  lib "), ["src", "lib"])
        self.assertEqual(fields('"$F"', F=" src  lib "), [" src  lib "])
        self.assertEqual(fields('x$F-"y z"', F="a b"), ["xa", "b-y z"])
        self.assertEqual(fields("$F/x", F=""), ["/x"])
        self.assertEqual(fields("$F", F=""), [])
        self.assertEqual(fields("~/$F", F="a b"), ["/home/me/a", "b"])
        self.assertIsNone(fields("$F", F="a b", IFS=","))  # the line set IFS: only the shell knows
        self.assertEqual(fields('"$F"', F="a b", IFS=","), ["a b"])  # quoted: IFS does not matter
        self.assertIsNone(fields("$UNSET"))

    def test_expand_is_none_for_an_unquoted_value_that_makes_several_words(self):
        self.assertIsNone(words.expand(tokenize("$F")[0], "/r", CONTEXT, {"F": "a b"}))
        self.assertEqual(words.expand(tokenize('"$F"')[0], "/r", CONTEXT, {"F": "a b"}), "a b")

    def test_assignments_are_not_split_and_an_array_is_not_known(self):
        found = cmdline.commands('A=$B; git add $A', "/r", CONTEXT)
        self.assertEqual([w.value for w in found[-1].args], ["add", "$A"])
        found = cmdline.commands('B="x y"; A=$B; git add $A', "/r", CONTEXT)
        self.assertEqual([w.value for w in found[-1].args], ["add", "x", "y"])
        found = cmdline.commands("A=(x y); git add $A", "/r", CONTEXT)
        self.assertNotIn("A", dict(found[-1].variables))

    def test_declaration_builtins_assign_and_ifs_set_anywhere_is_remembered(self):
        for line in ('declare F="a b"; git add $F', 'local F="a b"; git add $F', 'readonly F="a b"; git add $F'):
            self.assertEqual(runs(line)[-1][:2], ("git", ["add", "a", "b"]), line)
        found = cmdline.commands("IFS=$'\\n'; F='a b'; git add $F", "/r", CONTEXT)
        self.assertIn("IFS", dict(found[-1].variables))
        self.assertEqual([w.value for w in found[-1].args], ["add", "$F"])

    def test_write_targets_follow_the_split(self):
        self.assertEqual(cmdline.write_targets('F="a.py b.py"; touch $F', "/repo"),
                         [("/repo/a.py", False), ("/repo/b.py", False)])


class WriteTargets(unittest.TestCase):
    def targets(self, line, cwd="/repo"):
        return cmdline.write_targets(line, cwd, "/home/me", code_writes=wrappers.code_writes)

    def test_writes_through_prefixes_nested_shells_and_git_mv(self):
        self.assertEqual(self.targets("/usr/bin/env sed -i s/a/b/ x.py"), [("/repo/x.py", False)])
        self.assertEqual(self.targets("bash -c 'echo x > a.txt'"), [("/repo/a.txt", False)])
        self.assertEqual(self.targets("git mv old.py new.py"), [("/repo/old.py", False), ("/repo/new.py", False)])
        self.assertEqual(self.targets("mkdir -p s && cat > s/gen.sh <<'EOF'\necho\nEOF"), [("/repo/s/gen.sh", False)])
        self.assertEqual(self.targets("echo x > /dev/null"), [])

    def test_an_in_place_edit_in_any_cluster_writes_its_files_and_their_backups(self):
        self.assertEqual(self.targets("sed -Ei 's/a+/b/' x.py"), [("/repo/x.py", False)])
        self.assertEqual(self.targets("sed -i.bak 's/a/b/' x.py"), [("/repo/x.py", False), ("/repo/x.py.bak", False)])
        self.assertEqual(self.targets("sed -ie 's/a/b/' x.py"), [("/repo/x.py", False), ("/repo/x.pye", False)])
        self.assertEqual(self.targets("perl -pi.orig -e 's/a/b/' x.py"),
                         [("/repo/x.py", False), ("/repo/x.py.orig", False)])
        self.assertEqual(self.targets("sed -n -e 's/i/j/p' x.py"), [])  # an `i` in the script is no switch

    def test_an_inline_program_that_may_write_writes_the_paths_it_names(self):
        self.assertEqual(self.targets("python3 -c \"p='src/util.py'; s=open(p).read(); open(p,'w').write(s)\""),
                         [("/repo/src/util.py", False)])
        self.assertEqual(self.targets("python3 - <<'EOF'\nimport pathlib\npathlib.Path('a.py').write_text('')\nEOF"),
                         [("/repo/a.py", False)])
        self.assertEqual(self.targets("node -e \"require('fs').unlinkSync('lib/x.js')\""),
                         [("/repo/fs", False), ("/repo/lib/x.js", False)])
        self.assertEqual(self.targets("perl -e 'unlink \"old.log\"'"), [("/repo/old.log", False)])
        for line in ("python3 -c \"print(open('src/util.py').read())\"", "python3 script.py 'out.txt'",
                     "python3 -m json.tool data.json", "perl -ne 'print' x.py"):
            with self.subTest(line=line):
                self.assertEqual(self.targets(line), [])  # it only reads, or its program is in a file

    def test_sort_writes_its_output_file(self):
        for line in ("sort -o x.txt x.txt", "sort -ox.txt x.txt", "sort --output=x.txt x.txt", "sort -u -o x.txt y"):
            with self.subTest(line=line):
                self.assertEqual(self.targets(line), [("/repo/x.txt", False)])

    def test_a_missing_path_is_not_removed_edited_copied_or_moved_and_a_file_there_not_touched(self):
        def targets(line):
            context = cmdline.Context(code_writes=wrappers.code_writes)
            return [p for p, _g, _c in writes.targets_of(cmdline.commands(line, "/repo", context), context,
                                                         exists=lambda path, _run: "gone" not in path)]
        self.assertEqual(targets("rm -f gone.py kept.py"), ["/repo/kept.py"])
        self.assertEqual(targets("sed -i s/a/b/ gone.py"), [])
        self.assertEqual(targets("sed -i.bak s/a/b/ gone.py kept.py"), ["/repo/kept.py", "/repo/kept.py.bak"])
        self.assertEqual(targets("cp /tmp/gone.py src/api.py"), [])
        self.assertEqual(targets("mv gone.py src/api.py"), [])
        self.assertEqual(targets("cp /tmp/gone.py /tmp/kept.py src/"), ["/repo/src/gone.py", "/repo/src/kept.py"])
        self.assertEqual(targets("touch gone.py kept.py"), ["/repo/gone.py"])  # it creates; a file there gets times only
        self.assertEqual(targets("touch -c gone.py kept.py"), [])
        self.assertEqual(targets("cat x > gone.py"), ["/repo/gone.py"])
        self.assertEqual(targets("perl -e 'open(F, \">gone.txt\")'"), ["/repo/gone.txt"])  # a program creates

    def test_git_rm_changes_what_it_removes_even_from_the_index_alone(self):
        self.assertEqual(self.targets("git rm -q src/routes.py lib/format.py"),
                         [("/repo/src/routes.py", False), ("/repo/lib/format.py", False)])
        self.assertEqual(self.targets("git rm --cached -- old.py"), [("/repo/old.py", False)])

    def test_a_copy_into_an_existing_folder_writes_the_sources_names_there(self):
        found = cmdline.write_targets("cp a.py lib", "/repo", None, isdir=lambda p: p == "/repo/lib")
        self.assertEqual(found, [("/repo/lib/a.py", False)])


class Bounds(unittest.TestCase):
    def test_a_line_running_more_commands_than_the_budget_raises_too_large(self):
        from peerhooks.shell.lexer import TooLarge

        self.assertEqual(len(cmdline.commands("true;" * cmdline.MAX_COMMANDS, "/r")), cmdline.MAX_COMMANDS)
        with self.assertRaises(TooLarge):
            cmdline.commands("true;" * (cmdline.MAX_COMMANDS + 1), "/r")
        with self.assertRaises(TooLarge):  # loops multiply: their iterations count too
            cmdline.commands("for a in %s; do for b in %s; do :; done; done" % (" x" * 60, " y" * 60), "/r")

    def test_a_loop_runs_its_body_once_per_known_value(self):
        found = cmdline.commands('for f in a.py "b c.py"; do git add "$f"; done', "/r")
        self.assertEqual([(c.name, c.in_loop, dict(c.variables)["f"]) for c in found],
                         [("git", True, "a.py"), ("git", True, "b c.py")])

    def test_a_pipe_stage_and_a_find_feed_the_command_that_gains_words(self):
        piped = cmdline.commands("git diff --name-only -- docs | xargs git add", "/r")[-1]
        self.assertEqual((piped.name, piped.fed_by.name), ("git", "git"))
        found = cmdline.commands("find docs -name '*.md' -exec git add {} +", "/r")
        self.assertEqual([c.name for c in found], ["git", "find"])
        self.assertEqual(found[0].fed_by.name, "find")

    def test_write_targets_of_a_line_too_large_to_read_are_none(self):
        self.assertEqual(cmdline.write_targets("echo x > a;" * (cmdline.MAX_COMMANDS + 1), "/r"), [])


if __name__ == "__main__":
    unittest.main()

"""peerhooks.wrappers: what `make T`, `npm run S`, `./x.sh`, `gh pr checkout`, `python -c` run, as the
operations the shared interpreter and the git classifier find in it. Pure: the files are a dict."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import cmdline
from peerhooks.git import classify, kinds as git_kinds
from peerhooks.guard import readonly
from peerhooks import wrappers  # noqa: E402
from peerhooks.wrappers import inline_code, make_invocation, makefile, package_scripts  # noqa: E402
from peerhooks.wrappers import files as wrapper_files  # noqa: E402
from peerhooks.shell.lexer import MAX_TOKENS, TooLarge  # noqa: E402
from peerhooks.wrappers.files import MAX_FILES  # noqa: E402
from peerhooks.wrappers.follower import MAX_LINES, MAX_TEXT, Follower  # noqa: E402

ROOT = "/r"


class CountingFiles:
    """Files that count how often each path is asked for."""

    def __init__(self, files):
        self.files = dict(files)
        self.asked = {}

    def __call__(self, path):
        self.asked[path] = self.asked.get(path, 0) + 1
        return self.files.get(path)


def operations(line, files=None, cwd=ROOT):
    """[(kind, command, [wrappers])] of the git operations the line runs, wrappers followed."""
    follower = Follower(files if files is not None else {})
    context = cmdline.Context(home="/home/me", toplevel=lambda path: ROOT if path.startswith(ROOT) else None,
                              follow=follower)
    return [(op.kind, op.command, [v.wrapper for v in op.via]) for op in classify.parse(line, cwd, context)]


def kinds(line, files=None, cwd=ROOT):
    return [kind for kind, _command, _via in operations(line, files, cwd) if kind != git_kinds.SAFE]


def makefile_of(text, path=ROOT + "/Makefile"):
    return {path: text}


COMMIT_MAKEFILE = makefile_of("""\
.PHONY: commit status save
commit:
\t@git add -A && git commit -m save
status:
\tgit status --short
save: commit
\t@echo saved
""")


class MakefileTargets(unittest.TestCase):
    def test_a_target_runs_its_recipe_named_by_the_wrapper(self):
        self.assertEqual(operations("make commit", COMMIT_MAKEFILE), [
            (git_kinds.STAGE_ALL, "git add -A", ["make commit"]),
            (git_kinds.COMMIT_INDEX, "git commit -m save", ["make commit"])])

    def test_what_the_recipe_line_runs_is_shown(self):
        follower = Follower(COMMIT_MAKEFILE)
        context = cmdline.Context(follow=follower)
        [add, _commit] = classify.parse("make commit", ROOT, context)
        self.assertEqual(add.via, (cmdline.Via("make commit", "git add -A && git commit -m save"),))

    def test_a_target_running_only_git_status_runs_nothing_harmful(self):
        self.assertEqual(kinds("make status", COMMIT_MAKEFILE), [])
        self.assertEqual(operations("make status", COMMIT_MAKEFILE)[0][:2], (git_kinds.SAFE, "git status --short"))

    def test_options_folders_files_and_the_default_goal(self):
        sub = makefile_of("x:\n\tgit stash\n", ROOT + "/sub/Makefile")
        other = makefile_of("y:\n\tgit clean -fd\n", ROOT + "/build/other.mk")
        files = dict(COMMIT_MAKEFILE, **sub, **other)
        for line in ("make -s commit", "make --silent commit", "make -j4 commit", "make -j 4 commit", "make -k -B commit",
                     "make commit V=1", "make", "make save"):
            with self.subTest(line=line):
                self.assertEqual(kinds(line, files), [git_kinds.STAGE_ALL, git_kinds.COMMIT_INDEX])
        self.assertEqual(kinds("make -C sub", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make --directory=sub x", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make -C build -f other.mk", files), [git_kinds.CLEAN_ALL])
        self.assertEqual(kinds("cd sub && make", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make -f build/other.mk y", files), [git_kinds.CLEAN_ALL])

    def test_gnumakefile_and_makefile_come_before_Makefile(self):
        files = {ROOT + "/Makefile": "all:\n\tgit stash\n", ROOT + "/makefile": "all:\n\tgit status\n"}
        self.assertEqual(kinds("make", files), [])

    def test_a_dry_run_runs_only_plus_lines_and_recursive_makes_as_dry_runs(self):
        files = makefile_of("a:\n\tgit add -A\nb:\n\t+git stash\nc:\n\t$(MAKE) a\n")
        for option in ("-n", "--dry-run", "--just-print", "-q", "-t"):
            self.assertEqual(kinds("make %s a" % option, files), [])
        self.assertEqual(kinds("make -n b", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make -n c", files), [])  # the sub-make is told -n too
        self.assertEqual(kinds("make c", files), [git_kinds.STAGE_ALL])
        self.assertEqual(kinds("make -v", files) + kinds("make --help", files), [])

    def test_prerequisites_run_first_each_once_and_recursively(self):
        files = makefile_of("all: a b\na: c\n\tgit stash\nb: c\n\tgit add -A\nc:\n\tgit clean -fd\n")
        self.assertEqual(kinds("make", files), [git_kinds.CLEAN_ALL, git_kinds.STASH_ALL, git_kinds.STAGE_ALL])

    def test_recipe_prefixes_and_continuations(self):
        files = makefile_of("a:\n\t@-git add \\\n\t  -A\n\t-@ git stash\n\t+ @git clean -f\n")
        self.assertEqual(operations("make a", files), [
            (git_kinds.STAGE_ALL, "git add -A", ["make a"]), (git_kinds.STASH_ALL, "git stash", ["make a"]),
            (git_kinds.CLEAN_ALL, "git clean -f", ["make a"])])

    def test_variables_of_every_flavour_and_the_command_line(self):
        files = makefile_of("""\
GIT ?= git
ADD = $(GIT) add
WHAT := -A
WHAT += --verbose
FLAGS = $(WHAT)
override KEEP = stash
export MSG = from-makefile
commit: MSG = target
a:
\t$(ADD) $(FLAGS)
b:
\t${GIT} $(KEEP)
commit:
\tgit commit -m $(MSG)
""")
        self.assertEqual(operations("make a", files)[0][1], "git add -A --verbose")
        self.assertEqual(operations("make a GIT=echo", files), [])
        self.assertEqual(operations("make b KEEP=status", files)[0][1], "git stash")  # override wins
        self.assertEqual(operations("make commit", files)[0][1], "git commit -m target")
        self.assertEqual(operations("make commit MSG=line", files)[0][1], "git commit -m line")

    def test_automatic_variables_substitutions_and_text_functions(self):
        files = makefile_of("""\
SRC = a.c b.c
docs/%.html: docs/%.md
\tgit add $@ $<
objs: $(SRC:.c=.o)
\tgit add $^ $(patsubst %.o,%.c,$^) $(addprefix lib/,$(notdir x/y.py)) $(firstword $(SRC))
""")
        self.assertEqual(operations("make docs/x.html", files)[0][1], "git add docs/x.html docs/x.md")
        self.assertEqual(operations("make objs", files)[0][1], "git add a.o b.o a.c b.c lib/y.py a.c")

    def test_a_canned_recipe_runs_each_of_its_lines(self):
        files = makefile_of("define COMMIT\ngit add -A\ngit commit -m \"$(1)\"\nendef\nc:\n\t$(call COMMIT,wip)\n")
        self.assertEqual(operations("make c", files), [
            (git_kinds.STAGE_ALL, "git add -A", ["make c"]), (git_kinds.COMMIT_INDEX, "git commit -m wip", ["make c"])])

    def test_recursive_make_is_followed_into_the_other_makefile(self):
        files = dict(makefile_of("release:\n\t$(MAKE) -C sub commit\n"),
                     **makefile_of("commit:\n\tgit commit -am release\n", ROOT + "/sub/Makefile"))
        self.assertEqual(operations("make release", files),
                         [(git_kinds.COMMIT_ALL, "git commit -am release", ["make release", "make -C sub commit"])])

    def test_shell_function_runs_where_make_runs_it(self):
        files = makefile_of("REV := $(shell git stash)\nLAZY = $(shell git add -A)\nlazy:\n\techo $(LAZY)\nquiet:\n\techo\n")
        self.assertEqual(kinds("make quiet", files), [git_kinds.STASH_ALL])  # `:=` runs it while reading
        self.assertEqual(kinds("make lazy", files), [git_kinds.STASH_ALL, git_kinds.STAGE_ALL])
        self.assertEqual(kinds("make -n quiet", files), [git_kinds.STASH_ALL])  # a dry run reads the makefile too
        self.assertEqual(kinds("make quiet", makefile_of("X != git clean -fd\nquiet:\n\techo\n")), [git_kinds.CLEAN_ALL])

    def test_conditionals_take_the_known_branch_and_both_when_unknown(self):
        files = makefile_of("""\
MODE = safe
ifeq ($(MODE),safe)
ACTION = status
else
ACTION = stash
endif
ifdef CI_ONLY
OTHER = clean -fd
endif
a:
\tgit $(ACTION)
b:
ifneq ($(ENVIRONMENT_ONLY),)
\tgit add -A
endif
\techo done
""")
        self.assertEqual(kinds("make a", files), [])
        self.assertEqual(kinds("make a MODE=x", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make b", files), [git_kinds.STAGE_ALL])  # the environment decides: both taken

    def test_an_included_makefile_in_the_checkout_is_read(self):
        files = dict(makefile_of("include rules.mk\n-include missing.mk\n"),
                     **makefile_of("c:\n\tgit add -A\n", ROOT + "/rules.mk"))
        self.assertEqual(kinds("make c", files), [git_kinds.STAGE_ALL])
        self.assertEqual(kinds("make c", makefile_of("include missing.mk\nc:\n\tgit add -A\n")), [])  # make stops

    def test_what_make_alone_knows_is_unknown_never_safe(self):
        files = makefile_of("""\
a:
\tgit add $(wildcard src/*.py)
b:
\t$(eval X := git add -A)echo
c:
\techo $(wildcard *.c)
include $(shell ls *.mk)
""")
        self.assertEqual(operations("make a", files)[0][1], "git add '${PEERHOOKS_MAKE_UNKNOWN}'")  # computed paths
        self.assertIn(git_kinds.UNFOLLOWED, kinds("make b", files))
        self.assertEqual(kinds("make c", makefile_of("c:\n\techo $(wildcard *.c)\n")), [])
        self.assertEqual(kinds("make c", files), [])  # c is defined here: the include cannot be its rule
        self.assertIn(git_kinds.UNFOLLOWED, kinds("make d", files))  # an include only make can name may be

    def test_an_include_outside_the_checkout_matters_only_for_a_goal_not_found(self):
        def read(path):
            if path == "/usr/share/mk/rules.mk":
                raise wrapper_files.Outside("outside every checkout")
            return {ROOT + "/Makefile": "include /usr/share/mk/rules.mk\nc:\n\tgit status\n"}.get(path)

        self.assertEqual(kinds("make c", read), [])
        self.assertEqual(kinds("make release", read), [git_kinds.UNFOLLOWED])

    def test_undefined_variables_are_the_environments_and_pattern_rules_apply(self):
        files = makefile_of("a:\n\tgit commit -m \"$(MSG)\"\n%.done:\n\tgit stash\n")
        self.assertEqual(operations("make a", files)[0][:2], (git_kinds.COMMIT_INDEX, "git commit -m '${MSG}'"))
        self.assertEqual(kinds("make x.done", files), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("make nothing", files), [])  # no rule: make stops

    def test_oneshell_runs_the_recipe_in_one_shell(self):
        files = makefile_of(".ONESHELL:\na:\n\tcd sub\n\tgit add -A\n")
        self.assertEqual(classify.parse("make a", ROOT, cmdline.Context(follow=Follower(files)))[0].cwd,
                         ROOT + "/sub")
        files = makefile_of("a:\n\tcd sub\n\tgit add -A\n")  # each line its own shell
        self.assertEqual(classify.parse("make a", ROOT, cmdline.Context(follow=Follower(files)))[0].cwd, ROOT)

    def test_no_makefile_or_an_argument_known_only_at_run_time(self):
        self.assertEqual(kinds("make commit", {}), [])
        self.assertEqual(kinds("make -f nothere.mk commit", COMMIT_MAKEFILE), [])
        self.assertEqual(kinds("make $TARGET", COMMIT_MAKEFILE), [git_kinds.UNFOLLOWED])

    def test_the_invocation_reads_options_as_gnu_make_does(self):
        invocation = make_invocation.Invocation(["-sk", "-C", "a", "-Cb", "-f", "x.mk", "-j", "4", "V=1", "t", "--", "u"], "/r")
        self.assertEqual((invocation.directory, invocation.files, invocation.goals, invocation.overrides),
                         ("/r/a/b", ["x.mk"], ["t", "u"], {"V": "1"}))


PACKAGE = {ROOT + "/package.json": json.dumps({"scripts": {
    "commit": "git add -A && git commit -m wip", "precommit": "npm run lint", "lint": "eslint .",
    "release": "npm run build && npm run tag", "build": "tsc", "tag": "git tag v1",
    "clean": "git clean -fdx", "test": "jest", "posttest": "git stash", "start": "git checkout main",
    "cm": "git commit -m", "status": "git status"}})}


class PackageScripts(unittest.TestCase):
    def test_every_manager_runs_the_script(self):
        for line in ("npm run clean", "npm run-script clean", "yarn clean", "yarn run clean", "pnpm clean",
                     "pnpm run clean", "bun run clean", "bun clean", "npm run clean --silent", "npm --silent run clean"):
            with self.subTest(line=line):
                self.assertEqual(operations(line, PACKAGE), [(git_kinds.CLEAN_ALL, "git clean -fdx", [line])])

    def test_lifecycle_commands_with_pre_and_post_scripts(self):
        self.assertEqual(kinds("npm test", PACKAGE), [git_kinds.STASH_ALL])  # posttest
        self.assertEqual(kinds("npm t", PACKAGE), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("npm test --ignore-scripts", PACKAGE), [])
        self.assertEqual(kinds("npm start", PACKAGE), [git_kinds.MOVE_HEAD])
        self.assertEqual(kinds("npm restart", PACKAGE), [git_kinds.MOVE_HEAD])  # no restart script: stop, start
        self.assertEqual(kinds("npm run status", PACKAGE), [])

    def test_scripts_calling_scripts_are_followed_and_named(self):
        self.assertEqual(operations("npm run release", PACKAGE),
                         [(git_kinds.SAFE, "git tag v1", ["npm run release", "npm run tag"])])
        self.assertEqual(kinds("npm run commit", PACKAGE), [git_kinds.STAGE_ALL, git_kinds.COMMIT_INDEX])

    def test_arguments_are_appended_to_the_script(self):
        self.assertEqual(operations("npm run cm -- 'fix it'", PACKAGE)[0][1], "git commit -m 'fix it'")
        self.assertEqual(operations("yarn cm fix", PACKAGE)[0][1], "git commit -m fix")

    def test_what_runs_no_script_of_the_package(self):
        for line in ("npm install", "npm run", "npm run missing", "yarn add left-pad", "pnpm install", "bun test",
                     "npm -w app run clean", "pnpm -r clean", "yarn workspace app clean"):
            with self.subTest(line=line):
                self.assertEqual(kinds(line, PACKAGE), [])

    def test_the_nearest_package_json_up_to_the_checkout(self):
        self.assertEqual(kinds("cd src/deep && npm run clean", PACKAGE), [git_kinds.CLEAN_ALL])
        self.assertEqual(kinds("npm --prefix sub run clean", PACKAGE), [])
        nested = dict(PACKAGE, **{ROOT + "/sub/package.json": '{"scripts": {"clean": "echo"}}'})
        self.assertEqual(kinds("cd sub && npm run clean", nested), [])
        self.assertEqual(kinds("npm --prefix sub run clean", nested), [])

    def test_a_package_json_that_is_not_json_or_a_script_known_at_run_time_is_unknown(self):
        self.assertEqual(kinds("npm run clean", {ROOT + "/package.json": "{not json"}), [git_kinds.UNFOLLOWED])
        self.assertEqual(kinds("npm run $SCRIPT", PACKAGE), [git_kinds.UNFOLLOWED])

    def test_the_run_record(self):
        run = package_scripts.invocation("npm", ["run", "x", "--", "a b"], "/r")
        self.assertEqual((run.events, run.main, run.arguments, run.folder, run.walks_up),
                         (("prex", "x", "postx"), "x", ("a b",), "/r", True))


SCRIPTS = {ROOT + "/scripts/commit.sh": '#!/usr/bin/env bash\nset -e\ngit add -A\ngit commit -m "${1:-wip}"\n',
           ROOT + "/scripts/status": "#!/bin/sh\ngit status\n",
           ROOT + "/scripts/noshebang": "git stash\n",
           ROOT + "/scripts/tool.py": "#!/usr/bin/env python3\nimport os\nos.system('git add -A')\n",
           ROOT + "/bin/app": "\x7fELF\x00\x00",
           ROOT + "/env.sh": "cd /r/sub\nexport GIT_INDEX_FILE=/tmp/private-index\n"}


class ShellScripts(unittest.TestCase):
    def test_a_script_in_the_checkout_run_every_way(self):
        for line in ("bash scripts/commit.sh", "sh scripts/commit.sh", "bash -e scripts/commit.sh x",
                     "./scripts/commit.sh", "scripts/commit.sh", "/r/scripts/commit.sh", "source scripts/commit.sh",
                     ". scripts/commit.sh", "cd scripts && ./commit.sh"):
            with self.subTest(line=line):
                self.assertEqual(kinds(line, SCRIPTS), [git_kinds.STAGE_ALL, git_kinds.COMMIT_INDEX])
        self.assertEqual(operations("./scripts/commit.sh", SCRIPTS)[0][2], ["./scripts/commit.sh"])

    def test_what_is_no_shell_script_is_not_followed(self):
        self.assertEqual(kinds("./scripts/status", SCRIPTS), [])
        self.assertEqual(kinds("./scripts/noshebang", SCRIPTS), [git_kinds.STASH_ALL])  # the shell runs it itself
        self.assertEqual(kinds("./scripts/tool.py", SCRIPTS), [])  # python from the disk: not followed
        self.assertEqual(kinds("./bin/app", SCRIPTS), [])  # a program
        self.assertEqual(kinds("bash scripts/missing.sh", SCRIPTS), [])

    def test_a_sourced_script_changes_this_shell(self):
        for line in ("source env.sh && git add -A", ". env.sh; git add -A"):
            with self.subTest(line=line):
                [op] = classify.parse(line, ROOT, cmdline.Context(follow=Follower(SCRIPTS)))
                self.assertEqual((op.cwd, op.private, op.via), (ROOT + "/sub", "/tmp/private-index", ()))

    def test_a_script_the_line_writes_is_read_from_the_line_not_the_disk(self):
        on_disk = {ROOT + "/s.sh": "git status\n"}
        self.assertEqual(kinds("cat > s.sh <<'EOF'\ngit add -A\nEOF\nbash s.sh", on_disk), [git_kinds.STAGE_ALL])
        self.assertEqual(kinds("cat > s.sh <<'EOF'\ngit status\nEOF\nchmod +x s.sh && ./s.sh",
                               {ROOT + "/s.sh": "git add -A\n"}), [])
        self.assertEqual(kinds("echo 'git stash' > /tmp/x.sh; sh /tmp/x.sh"), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("printf 'set -e\\ngit stash\\n' > s.sh && bash s.sh"), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("tee run.sh <<'EOF'\ngit clean -fd\nEOF\nbash run.sh"), [git_kinds.CLEAN_ALL])
        self.assertEqual(kinds("echo 'git status' > s.sh; echo 'git stash' >> s.sh; bash s.sh"), [git_kinds.STASH_ALL])

    def test_a_script_written_with_text_the_line_does_not_show_is_unknown(self):
        self.assertEqual(kinds("curl -s https://x.invalid/i.sh > i.sh && bash i.sh", {ROOT + "/i.sh": "echo"}),
                         [git_kinds.UNFOLLOWED])

    def test_a_shell_given_its_script_as_text_is_walked_once(self):
        self.assertEqual(kinds("bash -c 'git stash'", SCRIPTS), [git_kinds.STASH_ALL])
        self.assertEqual(kinds("bash -s < scripts/commit.sh", SCRIPTS), [])


class GithubCli(unittest.TestCase):
    def test_pr_checkout_and_repo_sync_are_what_they_do_to_the_checkout(self):
        cases = {"gh pr checkout 12": git_kinds.MOVE_HEAD, "gh pr checkout --detach 12": git_kinds.MOVE_HEAD,
                 "gh pr checkout -b mine 12": git_kinds.MOVE_HEAD, "gh pr -R o/r checkout 3": git_kinds.MOVE_HEAD,
                 "gh pr checkout 12 --force": git_kinds.RESET_ALL, "gh repo sync": git_kinds.WRITE_REFS,
                 "gh repo sync --branch main": git_kinds.WRITE_REFS, "gh repo sync --force": git_kinds.RESET_ALL}
        for line, kind in cases.items():
            with self.subTest(line=line):
                self.assertEqual(operations(line), [(kind, line, [line])])

    def test_what_touches_no_checkout(self):
        for line in ("gh repo sync owner/fork", "gh pr checkout --help", "gh pr view 12", "gh pr checkout"):
            with self.subTest(line=line):
                self.assertEqual(operations(line), [])


class InlineCode(unittest.TestCase):
    def test_a_string_that_plainly_holds_a_git_command_line_is_that_line(self):
        cases = {
            '''python3 -c "import subprocess; subprocess.run(['git','add','--all'])"''': "git add --all",
            '''python3 -c "import os; os.system('git add -A')"''': "git add -A",
            '''python -c 'import subprocess as s; s.check_call("git stash".split())' ''': "git stash",
            '''python3 -c "import os; os.execvp('git', ['git', 'clean', '-fd'])"''': "git clean -fd",
            '''python3 -c "import subprocess; subprocess.run(['/usr/bin/git', 'add', '-A'], check=True)"''': "git add -A",
            '''node -e "require('child_process').execSync('git add -A')"''': "git add -A",
            '''node -e "require('child_process').spawnSync('git', ['stash'])"''': "git stash",
            '''node --eval="require('child_process').execSync('git clean -fd')"''': "git clean -fd",
            '''perl -e 'system("git add -A")' ''': "git add -A",
            '''perl -e 'system("git", "stash")' ''': "git stash",
            """perl -e 'print `git stash`' """: "git stash",
            """perl -e 'my $x = qx(git clean -fd)' """: "git clean -fd",
            """perl -e 'system(qw(git reset --hard))' """: "git reset --hard",
            '''ruby -e 'system("git add -A")' ''': "git add -A",
            """ruby -e '%x(git stash)' """: "git stash",
            """ruby -e '`git clean -fd`' """: "git clean -fd",
        }
        for line, git_line in cases.items():
            with self.subTest(line=line):
                [(kind, command, via)] = operations(line)
                self.assertEqual(command, git_line)
                self.assertNotEqual(kind, git_kinds.UNFOLLOWED)

    def test_code_from_a_heredoc_or_a_pipe_and_a_script_the_line_wrote(self):
        for line in ("python3 - <<'EOF'\nimport subprocess\n# stage it all\nsubprocess.run(['git', 'add', '-A'])\nEOF",
                     "python3 <<'EOF'\nimport os\nos.system('git add -A')\nEOF",
                     "node - <<'EOF'\nrequire('child_process').execSync('git add -A')\nEOF",
                     "echo \"import os; os.system('git add -A')\" | python3",
                     "cat > t.py <<'EOF'\nimport os\nos.system('git add -A')\nEOF\npython3 t.py"):
            with self.subTest(line=line):
                self.assertEqual(kinds(line), [git_kinds.STAGE_ALL])

    def test_a_computed_argument_after_the_subcommand_is_known_only_at_run_time(self):
        [(kind, command, _via)] = operations('''python3 -c 'import subprocess; subprocess.run(["git", "add", path])' ''')
        self.assertEqual((kind, command), (git_kinds.STAGE_PATHS, "git add '${PEERHOOKS_CODE_VALUE}'"))

    def test_git_mentioned_in_a_way_that_cannot_be_read_is_unknown_never_safe(self):
        for line in ('''python3 -c 'import subprocess; subprocess.run(["git", cmd, "-A"])' ''',
                     '''python3 -c 'import os; os.system("git add " + path)' ''',
                     '''python3 -c 'import os; os.system("git add %s" % path)' ''',
                     '''python3 -c 'import os; os.system(f"git {verb} -A")' ''',
                     '''python3 -c 'import git; git.Repo(".").git.add(A=True)' ''',
                     '''node -e 'require("child_process").execSync(`git add ${f}`)' ''',
                     '''ruby -e 'system("git add #{f}")' ''',
                     '''perl -e '$g = "git"; system($g, "add", "-A")' '''):
            with self.subTest(line=line):
                self.assertEqual(kinds(line), [git_kinds.UNFOLLOWED])

    def test_code_without_git_or_only_in_comments_runs_nothing(self):
        for line in ('''python3 -c 'print(1)  # git is not used' ''', '''python3 -c 'print("hello")' ''',
                     "python3 -m pip install gitpython", "node -e 'console.log(1) // git'", "python3 tool.py",
                     '''python3 -c "import os; print(os.path.join(root, '.git'))"'''):
            with self.subTest(line=line):
                self.assertEqual(operations(line), [])

    def test_options_and_languages(self):
        self.assertEqual(inline_code.language_of("python3.11"), "python")
        self.assertEqual(inline_code.language_of("pythonista"), None)
        self.assertEqual(inline_code.code_given("python", ["-B", "-c", "x", "arg"], None), "x")
        self.assertEqual(inline_code.code_given("python", ["-Bc", "x"], None), "x")
        self.assertEqual(inline_code.code_given("python", ["-m", "x"], "stdin"), None)
        self.assertEqual(inline_code.code_given("python", ["-"], "stdin"), "stdin")
        self.assertEqual(inline_code.code_given("perl", ["-ne", "x", "file"], None), "x")
        self.assertEqual(inline_code.code_given("perl", ["-pi", "-e", "x", "file"], None), "x")
        self.assertEqual(inline_code.code_given("perl", ["-e", "a", "-e", "b"], None), "a\nb")
        self.assertEqual(inline_code.script_operand("node", ["-r", "ts-node/register", "x.ts"]), "x.ts")


class Bounds(unittest.TestCase):
    def test_each_file_is_read_at_most_once_per_judgement(self):
        files = CountingFiles(COMMIT_MAKEFILE)
        operations("make commit && make status && make -C . save", files)
        self.assertEqual(files.asked[ROOT + "/Makefile"], 1)
        self.assertEqual(files.asked[ROOT + "/GNUmakefile"], 1)

    def test_past_the_files_a_judgement_reads_what_is_left_is_unknown(self):
        files = {ROOT + "/s%d.sh" % i: "echo %d\n" % i for i in range(MAX_FILES + 1)}
        line = " && ".join("bash s%d.sh" % i for i in range(MAX_FILES + 1))
        self.assertEqual(kinds(line, files), [git_kinds.UNFOLLOWED])

    def test_past_the_lines_a_judgement_follows_what_is_left_is_unknown(self):
        recipe = "".join("\techo %d\n" % i for i in range(MAX_LINES + 5))
        self.assertEqual(kinds("make", makefile_of("all:\n" + recipe)), [git_kinds.UNFOLLOWED])

    def test_past_the_text_a_judgement_follows_what_is_left_is_unknown(self):
        big = "cat <<'EOF'\n" + "data\n" * (MAX_TEXT // 5) + "EOF\n"  # few words, much text
        self.assertEqual(kinds("bash a.sh", {ROOT + "/a.sh": big}), [git_kinds.UNFOLLOWED])
        self.assertEqual(kinds("bash a.sh", {ROOT + "/a.sh": big[:MAX_TEXT // 2] + "\nEOF\n"}), [])

    def test_followed_scripts_share_the_lines_word_budget(self):
        many_words = "echo x\n" * (MAX_TOKENS // 3 + 1)
        with self.assertRaises(TooLarge):  # the guard asks beside a peer, as for a line this large
            operations("bash a.sh", {ROOT + "/a.sh": many_words})

    def test_a_script_outside_every_checkout_is_not_followed(self):
        def read(path):
            raise wrapper_files.Outside("outside every checkout")

        self.assertEqual(kinds("bash ~/bin/x.sh && ./x.sh && npm run x && make", read), [])

    def test_nesting_deeper_than_the_interpreter_follows_is_unknown(self):
        self.assertEqual(kinds("make", makefile_of("all:\n\t$(MAKE)\n")), [git_kinds.UNFOLLOWED])
        self.assertEqual(kinds("bash a.sh", {ROOT + "/a.sh": "bash a.sh\n"}), [git_kinds.UNFOLLOWED])

    def test_targets_and_variables_past_their_bounds_are_unknown(self):
        chain = "".join("t%d: t%d\n" % (i, i + 1) for i in range(makefile.MAX_PREREQUISITE_DEPTH + 2))
        self.assertEqual(kinds("make t0", makefile_of(chain + "\t@echo\n")), [git_kinds.UNFOLLOWED])
        self.assertEqual(kinds("make", makefile_of("X = $(X) more\nall:\n\techo $(X)\n")), [git_kinds.UNFOLLOWED])
        many = "all: " + " ".join("o%d" % i for i in range(makefile.MAX_TARGETS + 1)) + "\n"
        many += "".join("o%d:\n\t@true\n" % i for i in range(makefile.MAX_TARGETS + 1))
        self.assertEqual(kinds("make", makefile_of(many)), [git_kinds.UNFOLLOWED])

    def test_a_file_that_must_not_be_read_makes_what_it_runs_unknown(self):
        def refuse(path):
            raise wrapper_files.Unreadable("a link out of the checkout")

        for line in ("make commit", "npm run x", "./scripts/x.sh", "bash x.sh"):
            with self.subTest(line=line):
                self.assertEqual(kinds(line, refuse), [git_kinds.UNFOLLOWED])

    def test_nothing_is_read_without_a_follower(self):
        self.assertEqual(classify.parse("make commit", ROOT, cmdline.Context()), [])


class HostileText(unittest.TestCase):
    """Random makefiles, code and lines made of the pieces the parsers treat specially: nothing
    raises (a parser that raised would silence the guard's judgement of the whole line)."""

    MAKE_PIECES = ["$(", ")", "${", "}", "$$", "$@", ":", "::", "=", ":=", "?=", "+=", "!=", "\t", "\n", "\\\n", "#",
                   ";", "|", "%", ",", "ifeq", "ifneq", "ifdef", "else", "endif", "define", "endef", "include",
                   "export", "override", " ", "git add -A", "$(shell ", "$(call ", "$(foreach ", "$(if ",
                   "$(patsubst ", "$(word ", "$(wordlist ", "$(eval ", "a", "a:", "\ta", "x.mk", "$(MAKE)", "-", "@",
                   "+", "'", '"', ".ONESHELL", ".DEFAULT_GOAL", "$(error x)", "%.o", "$<", "$(X:.c=.o)", "(", "{",
                   "-1", "999999999999"]
    CODE_PIECES = ["'", '"', "`", "[", "]", "(", ")", ",", "+", "%", ".", "*", "git", "add", "-A", "'git'",
                   '"git add -A"', "#", "//", "/*", "*/", "\\", "\n", "qx(", "qw(", "%x(", "%w[", "f'", "r'", "'''",
                   '"""', "${", "#{", "$x", "split", "q{", " "]
    LINE_WORDS = ["make", "npm", "run", "yarn", "pnpm", "bun", "gh", "pr", "checkout", "repo", "sync", "./x.sh", "bash",
                  "x.sh", "source", ".", "python3", "-c", "node", "-e", "perl", "ruby", "'git add -A'", "&&", ";", "|",
                  "<<EOF\ngit stash\nEOF\n", ">", "s.sh", "cat", "-C", "sub", "-f", "--", "$X", '"$(git status)"',
                  "-n", "--force", "1", "test"]

    def test_random_text_never_raises(self):
        import random

        rng = random.Random(19)
        for _ in range(400):
            text = "".join(rng.choice(self.MAKE_PIECES) for _ in range(rng.randint(1, 60)))
            code = "".join(rng.choice(self.CODE_PIECES) for _ in range(rng.randint(1, 40)))
            for goals in ([], ["a"], ["-n", "a"], ["-f", "x.mk", "a"]):
                makefile.follow(make_invocation.Invocation(goals, ROOT), {ROOT + "/Makefile": text, ROOT + "/x.mk": text[::-1]}.get)
            for language in ("python", "node", "perl", "ruby"):
                inline_code.git_lines(code, language)
            line = " ".join(rng.choice(self.LINE_WORDS) for _ in range(rng.randint(1, 10)))
            files = {ROOT + "/Makefile": text, ROOT + "/x.sh": code, ROOT + "/s.sh": text, ROOT + "/package.json": code}
            operations(line, files)


class EntryWords(unittest.TestCase):
    def test_the_front_door_looks_for_the_same_words(self):
        self.assertEqual(readonly.WRAPPER_BYTES, tuple(w.encode() for w in wrappers.ENTRY_WORDS))

    def test_the_front_door_looks_in_the_command_not_its_description(self):
        may_wrap = readonly.may_wrap
        for separators in ((",", ":"), (", ", ": ")):  # as Claude Code writes it, as json.dumps does
            def payload(command):
                return json.dumps({"tool_input": {"command": command, "description": "make sure it builds"}},
                                  separators=separators).encode()

            self.assertFalse(may_wrap(payload("ls -la && pytest -q")))
            self.assertTrue(may_wrap(payload("ls && make commit")))
            self.assertTrue(may_wrap(payload('echo "x" && ls')))  # an escaped quote: the whole payload
            self.assertTrue(may_wrap(payload('echo "a" && make commit')))
        self.assertTrue(may_wrap(b'{"tool_input": {"cmd": "ls", "description": "make"}}'))

    def test_a_line_without_a_wrapper_word_gets_no_follower(self):
        self.assertIsNone(wrappers.follower_for("git add -A && pytest -q"))
        for line in ("make commit", "python3 -c 'import os'", "node -e 1", "./x"):
            self.assertIsInstance(wrappers.follower_for(line), Follower, line)

    def test_git_as_a_word(self):
        self.assertTrue(wrapper_files.mentions_git("import git"))
        self.assertTrue(wrapper_files.mentions_git("['git', 'add']"))
        for text in (".git/HEAD", "github.com", "digit", "gitignore", "legit"):
            self.assertFalse(wrapper_files.mentions_git(text), text)


if __name__ == "__main__":
    unittest.main()

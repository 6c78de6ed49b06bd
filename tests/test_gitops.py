"""peerhooks.git.classify and its forms: git invocations found in command lines, what they do, and
the verdict while peers share the checkout. Pure: no files, no git, no clock."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.git import classify, kinds, shell_writes  # noqa: E402
from peerhooks.shell import cmdline, writes  # noqa: E402
from peerhooks.git.forms import head_movers, run as forms_run  # noqa: E402

CWD = "/r"
TOP = "/r"

# command line -> the operations it runs, in order: "kind" or "kind@cwd" (cwd checked only when
# given; "@?" means the directory cannot be known). Every row of the table, every prefix and
# wrapper, quoting traps, heredocs, subshells.
TABLE = [
    # -- add -------------------------------------------------------------------------------------
    ("git add -A", "stage-all@/r"),
    ("git add --all", "stage-all"),
    ("git add -u", "stage-all"),
    ("git add --update", "stage-all"),
    ("git add --no-ignore-removal", "stage-all"),
    ("git add .", "stage-all"),
    ("git add ./", "stage-all"),
    ("git add :/", "stage-all"),
    ("git add '*'", "stage-all"),
    ('git add "*"', "stage-all"),
    ("git add -- .", "stage-all"),
    ("git add -Av", "stage-all"),
    ("git add -vA", "stage-all"),
    ("git add -fu", "stage-all"),
    ("git add -A .", "stage-all"),
    ("git add ':!secret.txt'", "stage-all"),
    ("git add -A src/", "stage-paths"),
    ("git add -u a.py", "stage-paths"),
    ("git add a.py b.py", "stage-paths"),
    ("git add -- a.py", "stage-paths"),
    ("git add src", "stage-paths"),
    ("git add /r", "stage-paths"),
    ("git add '*.py'", "stage-paths"),
    ("git add *.py", "stage-paths"),
    ("git add", "safe"),
    ("git add -n .", "safe"),
    ("git add --dry-run -A", "safe"),
    ("git add -p", "safe"),
    ("git add --chmod=+x run.sh", "stage-paths"),
    ("git add --chmod +x run.sh", "stage-paths"),
    ("git stage -A", "stage-all"),
    ("git add --pathspec-from-file=list.txt", "stage-paths"),
    # -- commit ----------------------------------------------------------------------------------
    ("git commit -a", "safe"),  # no message: Claude Code's GIT_EDITOR=true makes git abort
    ("git commit --all -m x", "commit-all"),
    ("git commit -am 'fix it'", "commit-all"),
    ("git commit -a -m x", "commit-all"),
    ("git commit -ma", "commit-index"),
    ("git commit -m x", "commit-index"),
    ("git commit", "safe"),
    ("git commit --no-edit", "safe"),  # --no-edit only skips the editor: no message, git aborts
    ("git commit --no-edit --allow-empty-message", "commit-index"),
    ("git commit -c HEAD", "commit-index"),  # reuses HEAD's message; the editor (true) keeps it
    ("git commit --reedit-message=HEAD", "commit-index"),
    ("git commit --fixup HEAD", "commit-index"),
    ("git commit -t msg.txt", "commit-index"),  # a template is kept by --cleanup=verbatim
    ("git commit -am wip -- src", "safe"),  # git refuses -a with paths
    ("git commit -a -m x a.py", "safe"),
    ("git commit --amend -a -m x a.py", "safe"),
    ("git commit -a -i -m x", "safe"),  # git refuses -a with -i, -o or a pathspec file
    ("git commit -a -o -m x", "safe"),
    ("git commit -a -m x --pathspec-from-file=list", "safe"),
    ("git commit -a -m x --", "commit-all"),  # `--` with no path after it: still -a alone
    ("git commit -a -m x $FILES", "commit-all"),  # an unquoted empty variable leaves no path
    ("git commit --amend --no-edit", "commit-amend"),
    ("git commit -m x -- b.py", "commit-paths"),
    ("git commit -m x b.py", "commit-paths"),
    ("git commit -o -m x", "commit-index"),
    ("git commit -i -m x a.py", "commit-index commit-paths"),  # the index, and a.py staged first
    ("git commit -m \"then git add .\"", "commit-index"),
    ("git commit -m 'git add -A && git reset --hard'", "commit-index"),
    ("git commit -uno -m x", "commit-index"),
    ("git commit -F msg.txt", "commit-index"),
    ("git commit --dry-run", "safe"),
    ("git commit --message=x -- a.py", "commit-paths"),
    ("git commit -C HEAD", "commit-index"),
    # -- stash -----------------------------------------------------------------------------------
    ("git stash", "stash-all"),
    ("git stash push", "stash-all"),
    ("git stash save", "stash-all"),
    ("git stash save 'wip on a.py'", "stash-all"),
    ("git stash -u", "stash-all"),
    ("git stash -a", "stash-all"),
    ("git stash --include-untracked", "stash-all"),
    ("git stash push -m wip", "stash-all"),
    ("git stash push -k", "stash-all"),
    ("git stash push -- a.py", "stash-paths"),
    ("git stash push a.py", "stash-paths"),
    ("git stash -- a.py", "stash-paths"),
    ("git stash push -m wip -- src/", "stash-paths"),
    ("git stash push -- .", "stash-all"),
    ("git stash drop", "stash-stack"),
    ("git stash clear", "stash-stack"),
    ("git stash pop", "stash-stack"),
    ("git stash apply stash@{1}", "stash-apply"),
    ("git stash list", "safe"),
    ("git stash show -p", "safe"),
    ("git stash branch fix", "stash-stack"),
    # -- reset -----------------------------------------------------------------------------------
    ("git reset --hard", "reset-all"),
    ("git reset --hard HEAD~1", "reset-all"),
    ("git reset --hard origin/main", "reset-all"),
    ("git reset --merge", "reset-all"),
    ("git reset --keep HEAD^", "reset-all"),
    ("git reset", "unstage-all"),
    ("git reset -q", "unstage-all"),
    ("git reset HEAD", "unstage-all"),
    ("git reset --soft HEAD~1", "reset-all"),
    ("git reset main", "reset-all"),
    ("git reset -- a.py", "unstage-paths"),
    ("git reset HEAD a.py", "unstage-paths"),
    ("git reset a.py", "unstage-paths"),
    ("git reset HEAD -- src/", "unstage-paths"),
    ("git reset -- .", "unstage-all"),
    # -- checkout / restore / switch --------------------------------------------------------------
    ("git checkout -- .", "discard-all"),
    ("git checkout .", "discard-all"),
    ("git checkout HEAD -- .", "discard-all"),
    ("git checkout -- :/", "discard-all"),
    ("git checkout -f", "discard-all"),
    ("git checkout -- a.py", "discard-paths"),
    ("git checkout a.py", "discard-paths"),
    ("git checkout main -- a.py", "discard-paths"),
    ("git checkout main", "move-head"),
    ("git checkout -", "move-head"),
    ("git checkout -b feature", "move-head"),
    ("git checkout -B feature origin/feature", "move-head"),
    ("git checkout --orphan gh-pages", "move-head"),
    ("git checkout --detach", "move-head"),
    ("git checkout v1.2.3", "move-head"),
    ("git checkout 1a2b3c4d", "move-head"),
    ("git checkout", "safe"),
    ("git restore .", "discard-all"),
    ("git restore --staged .", "unstage-all"),
    ("git restore :/", "discard-all"),
    ("git restore --staged --worktree -- .", "discard-all"),
    ("git restore -- a.py", "discard-paths"),
    ("git restore -s HEAD~2 a.py", "discard-paths"),
    ("git restore --staged a.py", "unstage-paths"),
    ("git restore", "safe"),
    ("git switch main", "move-head"),
    ("git switch -c feature", "move-head"),
    ("git switch", "safe"),
    ("git switch -f", "safe"),  # "fatal: missing branch or commit argument"
    ("git switch --detach", "move-head"),
    # -f / --force / --discard-changes throw away local changes and the index, even on the current branch
    ("git checkout -f main", "reset-all"),
    ("git checkout --force main", "reset-all"),
    ("git checkout -f HEAD", "reset-all"),
    ("git checkout -qf feature", "reset-all"),
    ("git checkout -f -- a.py", "discard-paths"),
    ("git checkout -f main -- a.py", "discard-paths"),
    ("git switch -f main", "reset-all"),
    ("git switch --discard-changes main", "reset-all"),
    ("git switch --force feature", "reset-all"),
    ("git switch -f -c feature", "move-head"),
    # -- clean -----------------------------------------------------------------------------------
    ("git clean -f", "clean-all"),
    ("git clean -fd", "clean-all"),
    ("git clean -xdf", "clean-all"),
    ("git clean --force -d", "clean-all"),
    ("git clean -fd .", "clean-all"),
    ("git clean -f -- build/", "clean-paths"),
    ("git clean -n", "safe"),
    ("git clean -nd", "safe"),
    ("git clean -d", "safe"),
    # -- HEAD movers -----------------------------------------------------------------------------
    ("git rebase main", "move-head"),
    ("git rebase -i HEAD~3", "move-head"),
    ("git rebase --continue", "safe"),
    ("git rebase --abort", "move-head"),
    ("git merge feature", "safe"),  # adds commits; git refuses over local changes,
    ("git merge --ff-only origin/main", "safe"),
    ("git merge --continue", "safe"),
    ("git pull", "safe"),
    ("git pull --no-rebase origin main", "safe"),
    ("git pull --rebase origin main", "move-head"),
    ("git cherry-pick abc1234", "safe"),
    ("git cherry-pick --quit", "safe"),
    ("git revert HEAD", "safe"),
    ("git am 0001-fix.patch", "safe"),
    ("git am --show-current-patch", "safe"),
    # -- read-only and path-limited ---------------------------------------------------------------
    ("git status", "safe"),
    ("git diff --cached", "safe"),
    ("git log --oneline -5", "safe"),
    ("git show HEAD:a.py", "safe"),
    ("git fetch origin", "safe"),
    ("git push origin main", "safe"),
    ("git worktree add ../wt -b feature", "safe"),
    ("git branch -D old", "safe"),
    ("git tag v1", "safe"),
    ("git --version", ""),
    ("git --help", ""),
    ("git", ""),
    ("git help add", "safe"),
    ("git add --help", "safe"),
    # -- global options --------------------------------------------------------------------------
    ("git -C /o add -A", "stage-all@/o"),
    ("git -C sub add -A", "stage-all@/r/sub"),
    ("git -C /o -C sub add -A", "stage-all@/o/sub"),
    ("git -C /o -C /p add -A", "stage-all@/p"),
    ("git -C \"$REPO\" add -A", "stage-all@?"),
    ("git -c core.autocrlf=false add -A", "stage-all@/r"),
    ("git --git-dir=/o/.git --work-tree=/o add -A", "stage-all@/o"),
    ("git --work-tree /o add -A", "stage-all@/o"),
    ("git --git-dir=/o/.git add -A", "stage-all@/o"),
    ("git --git-dir=/srv/bare.git add -A", "stage-all@?"),
    ("git --no-pager -P log", "safe"),
    ("git -p --no-optional-locks add -A", "stage-all"),
    ("GIT_DIR=/o/.git git add -A", "stage-all@/o"),
    ("GIT_WORK_TREE=/p git add -A", "stage-all@/p"),
    # -- prefixes --------------------------------------------------------------------------------
    ("FOO=1 git add -A", "stage-all@/r"),
    ("FOO=1 BAR='x y' git stash", "stash-all"),
    ("env git add -A", "stage-all"),
    ("env -i PATH=/bin git add -A", "stage-all"),
    ("env -u GIT_DIR git add -A", "stage-all"),
    ("env -C /o git add -A", "stage-all@/o"),
    ("env --chdir=/o git add -A", "stage-all@/o"),
    ("command git add -A", "stage-all"),
    ("command -p git add -A", "stage-all"),
    ("command -v git", ""),
    ("builtin git add -A", "stage-all"),
    ("exec git add -A", "stage-all"),
    ("exec -a mygit git add -A", "stage-all"),
    ("nohup git stash &", "stash-all"),
    ("time git add -A", "stage-all"),
    ("time -p git add -A", "stage-all"),
    ("sudo git add -A", "stage-all"),
    ("sudo -u builder git add -A", "stage-all"),
    ("sudo -E -H -u builder -- git add -A", "stage-all"),
    ("sudo --user=builder git clean -fd", "clean-all"),
    ("nice -n 10 git add -A", "stage-all"),
    ("timeout 30 git pull -r", "move-head"),
    ("timeout -s KILL 30 git rebase main", "move-head"),
    ("/usr/bin/git add -A", "stage-all"),
    ("/usr/local/bin/git reset --hard", "reset-all"),
    ("\\git add -A", "stage-all"),
    ("'git' add -A", "stage-all"),
    ("xargs git add", "stage-paths"),
    ("git ls-files -m | xargs git add", "safe stage-paths"),
    ("find . -name '*.py' | xargs -0 git add", "stage-paths"),
    ("xargs git reset --hard", "reset-all"),
    ("xargs -I{} git stash drop {}", "stash-stack"),
    ("sudo env FOO=1 nohup git add -A", "stage-all"),
    ("$GIT add -A", ""),
    ("mygit add -A", ""),
    ("echo git add -A", ""),
    ("gitk --all", ""),
    # -- separators, cd, subshells ---------------------------------------------------------------
    ("git status; git add -A", "safe stage-all"),
    ("git status && git add -A", "safe stage-all"),
    ("git diff || git stash", "safe stash-all"),
    ("git status | git add -A", "safe stage-all"),
    ("git fetch & git pull --rebase", "safe move-head"),
    ("git status\ngit add -A", "safe stage-all"),
    ("cd /o && git add -A", "stage-all@/o"),
    ("cd sub && git add -A", "stage-all@/r/sub"),
    ("cd /o; cd sub; git add -A", "stage-all@/o/sub"),
    ("cd .. && git add -A", "stage-all@/"),
    ("cd /o && cd - && git add -A", "stage-all@/r"),
    ("cd && git add -A", "stage-all@?"),  # the home is not given here,
    ("cd ~/o && git add -A", "stage-all@?"),
    ("cd \"$TMP\" && git add -A", "stage-all@?"),
    ("cd -P /o && git add -A", "stage-all@/o"),
    ("pushd /o && git add -A && popd && git stash", "stage-all@/o stash-all@/r"),
    ("(cd /o && git add -A) && git stash", "stage-all@/o stash-all@/r"),
    ("(cd /o; (cd sub; git add .); git stash); git clean -f",
     "stage-all@/o/sub stash-all@/o clean-all@/r"),
    ("{ cd /o; git add -A; }; git stash", "stage-all@/o stash-all@/o"),
    ("cd /o | git add -A", "stage-all@/r"),
    ("cd /o & git add -A", "stage-all@/r"),
    ("if true; then git add -A; fi", "stage-all"),
    ("for f in a b; do git add \"$f\"; done", "stage-paths stage-paths"),
    ("while read f; do git add -A; done < list", "stage-all"),
    ("! git stash", "stash-all"),
    ("case $x in a) git add -A;; esac", "stage-all"),
    ("git status >/dev/null 2>&1 && git add -A", "safe stage-all"),
    ("git add -A > log.txt", "stage-all"),
    ("git stash 2>/dev/null", "stash-all"),
    ("echo x > git; git status", "safe"),
    ("git add -A # then commit", "stage-all"),
    ("# git add -A", ""),
    ("echo '#'; git stash", "stash-all"),
    # -- quoting traps and heredocs --------------------------------------------------------------
    ("echo 'git add -A'", ""),
    ("echo \"git add -A; git reset --hard\"", ""),
    ("grep -r 'git stash' .", ""),
    ("echo git add . \\; git stash", ""),
    ("git commit -F - <<EOF\ngit add -A\ngit reset --hard\nEOF", "commit-index"),
    ("cat <<'EOF' > notes.md\ngit stash\nEOF\ngit status", "safe"),
    ("cat <<-EOF\n\tgit clean -f\n\tEOF\ngit diff", "safe"),
    ("git commit -m \"$(cat <<'EOF'\nFix: don't run git add . (it's shared)\nEOF\n)\" -- a.py",
     "commit-paths"),
    ("cat <<A <<B\ngit add -A\nA\ngit stash\nB\ngit status", "safe"),
    ("git commit -m $'it\\'s git add .'", "commit-index"),
    ("echo \"it's fine\"; git status", "safe"),
    # -- substitutions ---------------------------------------------------------------------------
    ("echo $(git stash)", "stash-all"),
    ("echo \"$(git add -A)\"", "stage-all"),
    ("echo `git add -A`", "stage-all"),
    ("echo $(cd /o && git add -A); git stash", "stage-all@/o stash-all@/r"),
    ("diff <(git show HEAD:a.py) a.py", "safe"),
    ("x=$(git rev-parse --show-toplevel) && cd \"$x\" && git add -A", "safe stage-all@?"),
    ("echo $(echo $(git reset --hard))", "reset-all"),
    ("echo '$(git add -A)'", ""),
    # -- recursive shells ------------------------------------------------------------------------
    ("bash -c 'git add -A'", "stage-all"),
    ("sh -c \"cd /o && git add -A\"; git stash", "stage-all@/o stash-all@/r"),
    ("bash -lc 'git stash'", "stash-all"),
    ("bash -o pipefail -c 'git status | cat; git add .'", "safe stage-all"),
    ("bash -e -x -c 'git clean -fdx'", "clean-all"),
    ("zsh -c 'git reset --hard'", "reset-all"),
    ("/bin/bash -c 'git add -A'", "stage-all"),
    ("bash script.sh", ""),
    ("bash -c \"bash -c 'git add -A'\"", "stage-all"),
    ("eval 'git add -A'", "stage-all"),
    ("eval git add -A", "stage-all"),
    ("eval 'cd /o'; git add -A", "stage-all@/o"),
    ("sudo bash -c 'git add -A'", "stage-all"),
    ("env bash -c 'cd /o; git stash'", "stash-all@/o"),
    # -- aliases (judged once resolved) ----------------------------------------------------------
    ("git co main", "alias"),
    ("git aa", "alias"),
    ("git -C /o wip", "alias@/o"),
    # -- issue 13: forms that passed before -----------------------------------------------------
    ("/usr/bin/env git add -A", "stage-all"),
    ("/usr/bin/time git add -A", "stage-all"),
    ("bash <<EOF\ngit add -A\nEOF", "stage-all"),
    ("cat <<EOF\n`git stash`\nEOF", "stash-all"),
    ("git add --al", "stage-all"),
    ("git add --upd", "stage-all"),
    ("git reset --har", "reset-all"),
    ("yes | git add -p", "stage-all"),
    ("git add -p", "safe"),
    ("git add $(git ls-files -m)", "safe stage-paths"),
    ("git restore $(git diff --name-only)", "safe discard-paths"),
    ("git add $(git ls-files -o --exclude-standard docs)", "safe stage-paths"),
    ("git add {src,lib}/", "stage-paths"),
    ("git commit -m x .", "commit-all"),
    ("git commit -m x src/", "commit-paths"),
    ("git rm -r --cached .", "remove-paths"),  # every index entry out of the index: nothing discarded
    ("git rm -r src", "remove-paths"),  # refused by git for a changed file, but stages a deleted one's removal
    ("git rm -rf src", "remove-paths"),
    ("git rm -r --cached src", "remove-paths"),
    ("yes | git checkout -p", "discard-all"),
    ("git apply -R <(git diff)", "safe discard-paths"),
    ("cat <<EOF | bash\ngit add .\nEOF", "stage-all"),
    ("echo 'git stash' | sh", "stash-all"),
    ("x=add; git $x -A", "stage-all"),
    ("G=git; $G add -A", "stage-all"),
    ("git add --a", "stage-all"),
    ("git bisect start HEAD HEAD~2", "move-head"),
    ("git mv src lib/src", "remove-paths"),
    ("git diff | git apply -R", "safe discard-paths"),
    ("git apply --check fix.patch", "safe"),
    ("git bisect start", "safe"),  # starts a session; HEAD moves only with good/bad revisions
    ("git bisect log", "safe"),
    ("git read-tree HEAD", "reset-all"),
    ("git checkout-index -a -f", "discard-all"),
    # an empty prefix, or one naming the toplevel with a `/`, writes over the working tree itself
    ("git checkout-index -f -a --prefix=''", "discard-all"),
    ("git checkout-index -f -a --prefix=", "discard-all"),
    ('git checkout-index -f -a --prefix ""', "discard-all"),
    ("git checkout-index -f -a --prefix=./", "discard-all"),
    ("P=; git checkout-index -a -f --prefix=$P", "discard-all"),
    ("git checkout-index -f --prefix= a.py", "discard-paths"),
    ("git checkout-index --prefix=/tmp/export/ -a", "safe"),
    ("git checkout-index -f -a --prefix=export/", "safe"),
    ("git checkout-index -f -a --prefix=snapshot-", "safe"),  # prepended to each name: snapshot-a.py
    ("git update-ref refs/heads/main HEAD~1", "write-refs"),
    ("git symbolic-ref HEAD refs/heads/x", "write-refs"),
    ("git symbolic-ref --short HEAD", "safe"),
    ("git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main", "safe"),
    ("git update-ref refs/tags/v1 HEAD~1", "safe"),
    ("git update-ref -d refs/stash", "stash-stack"),
    ("git branch -m feature feature-old", "write-refs"),
    ("git branch -M renamed", "write-refs"),
    ("git branch -D feature", "safe"),
    ("git branch -f feature HEAD~1", "safe"),
    ("git branch new-one", "safe"),
    ("git reflog expire --expire-unreachable=now --all", "stash-stack"),
    ("git sparse-checkout set src docs", "sparse-checkout"),
    ("git sparse-checkout add lib", "safe"),
    ("git sparse-checkout list", "safe"),
    ("git worktree remove --force ../wt", "remove-worktree"),
    ("git commit --amend -m x", "commit-amend"),
    ("git stash pop", "stash-stack"),
    ("GIT_INDEX_FILE=/tmp/i git add -A", "stage-all"),  # judged with the commit made from that index
    ("cd \"$(git rev-parse --show-toplevel)\" && git add -A", "safe stage-all@?"),
    ("F=src/a.py; git add \"$F\"", "stage-paths"),
    ("F=; git add $F", "safe"),  # an unquoted empty variable is no word: `git add` alone
    ("G='git -C /r'; $G add -A", "stage-all@/r"),  # split into the command's words
    # -- unbalanced input is read as far as it goes ----------------------------------------------
    ("git add -A 'unclosed", "stage-paths"),  # `-A unclosed`: path-limited
    ("git add \"unclosed", "stage-paths"),
    ("echo $(git stash", "stash-all"),
    ("git add -A )", "stage-all"),
    ("(git add -A", "stage-all"),
    ("echo `git stash", "stash-all"),
]


# Path-limited in form, but the path is the toplevel: refused as the whole tree.
NAMING_TOPLEVEL = frozenset(["git add /r"])


def shape(command):
    found = []
    for op in classify.parse(command, CWD):
        found.append(op.kind)
    return " ".join(found)


def located(command):
    return " ".join("%s@%s" % (op.kind, op.cwd if op.cwd is not None else "?")
                    for op in classify.parse(command, CWD))


class ParseTable(unittest.TestCase):
    def test_table_has_at_least_150_command_lines(self):
        self.assertGreaterEqual(len(TABLE), 150)

    def test_each_command_line_gives_the_expected_operations(self):
        for command, expected in TABLE:
            with self.subTest(command=command):
                if "@" in expected:
                    want = " ".join(e if "@" in e else e for e in expected.split())
                    got = located(command).split()
                    self.assertEqual(len(got), len(want.split()), located(command))
                    for got_item, want_item in zip(got, want.split()):
                        if "@" in want_item:
                            self.assertEqual(got_item, want_item)
                        else:
                            self.assertEqual(got_item.split("@")[0], want_item)
                else:
                    self.assertEqual(shape(command), expected)

    def test_runtime_paths_are_marked(self):
        for command in ("git add $(git log --format=%s -1)", "xargs git add", "git add \"$FILES\"",
                        "git add --pathspec-from-file=list", "cat list | xargs git add", "git add \"$(git ls-files -m)\""):
            with self.subTest(command=command):
                self.assertTrue(classify.parse(command, CWD)[-1].runtime)
        self.assertFalse(classify.parse('F=a.py; git add "$F"', CWD)[-1].runtime)
        for command, bound in (("git add $(git ls-files -o docs)", ["docs"]), ("git add $(git ls-files -m)", [""]),
                               ("git diff --name-only -- docs | grep md | xargs git add", ["docs"])):
            with self.subTest(command=command):
                fed = classify.parse(command, CWD)[-1]
                self.assertFalse(fed.runtime)
                self.assertEqual([p.relative for p in fed.paths], bound)  # until git's state says which
                self.assertEqual(len(fed.feeds), 1)

    def test_words_the_line_prints_into_a_git_command_are_its_paths(self):
        for command in ("echo a.py b.py | xargs git add", "printf '%s\\n' a.py b.py | xargs -I{} git add {}",
                        "git add $(echo a.py b.py)"):
            with self.subTest(command=command):
                op = classify.parse(command, CWD)[-1]
                self.assertEqual((op.runtime, [p.relative for p in op.paths]), (False, ["a.py", "b.py"]))

    def test_dot_and_a_pathless_clean_are_relative_to_their_directory(self):
        self.assertTrue(classify.parse("cd docs && git add .", CWD)[-1].relative)
        self.assertTrue(classify.parse("git clean -fd", CWD)[-1].relative)
        self.assertFalse(classify.parse("git add -A", CWD)[-1].relative)

    def test_a_lookup_decides_between_a_branch_and_a_file(self):
        class Refs(forms_run.Lookup):
            def is_revision(self, word, cwd):
                return word == "release-1.2"
        context = cmdline.Context()
        self.assertEqual(classify.parse("git checkout release-1.2", CWD, context, Refs())[0].kind, "move-head")
        self.assertEqual(classify.parse("git checkout Makefile", CWD, context, Refs())[0].kind, "discard-paths")

    def test_a_forced_checkout_of_the_current_branch_discards_and_a_plain_one_does_nothing(self):
        class OnMain(forms_run.Lookup):
            def is_current(self, revision, cwd):
                return revision in ("HEAD", "@", "main")

            def names_no_commit(self, revisions, cwd):
                return "nosuch" in revisions
        context = cmdline.Context()
        for command, kind in (("git checkout main", "safe"), ("git switch main", "safe"),
                              ("git switch -q main", "safe"), ("git checkout -f main", "reset-all"),
                              ("git checkout --force main", "reset-all"), ("git switch -f main", "reset-all"),
                              ("git switch --discard-changes main", "reset-all"),
                              ("git checkout -f nosuch", "safe"), ("git switch -f nosuch", "safe")):
            with self.subTest(command=command):
                self.assertEqual([op.kind for op in classify.parse(command, CWD, context, OnMain())], [kind])

    def test_a_work_tree_other_than_the_repositorys_is_judged_as_such(self):
        context = cmdline.Context(toplevel=lambda path: TOP)
        def kind(line, cwd=TOP):
            return [op.kind for op in classify.parse(line, cwd, context)]
        self.assertEqual(kind("git --work-tree=src add -A"), ["foreign-tree"])
        self.assertEqual(kind("GIT_WORK_TREE=src git commit -am x"), ["foreign-tree"])
        self.assertEqual(kind("git --work-tree=src status"), ["safe"])
        self.assertEqual(kind("git --work-tree=. add -A"), ["stage-all"])  # the repository's own
        self.assertEqual(kind("git --git-dir=/r/.git --work-tree=/r add -A", "/tmp"), ["stage-all"])
        self.assertEqual(kind("git --git-dir=/r/.git --work-tree=/r/src add -A", "/tmp"), ["foreign-tree"])

    def test_paths_from_a_commit_that_does_not_exist_are_not_written(self):
        class NoStash(forms_run.Lookup):
            def names_no_commit(self, revisions, cwd):
                return "stash@{0}" in revisions or "v9" in revisions
        context = cmdline.Context()
        for command, kind in (("git checkout stash@{0} -- src/util.py", "safe"),
                              ("git checkout stash@{1} -- src/util.py", "discard-paths"),
                              ("git restore -s v9 -- src", "safe"), ("git restore --source=v9 --staged src", "safe"),
                              ("git restore -s v1 -- src", "discard-paths"), ("git restore -s $REV -- src", "discard-paths")):
            with self.subTest(command=command):
                self.assertEqual([op.kind for op in classify.parse(command, CWD, context, NoStash())], [kind])

    def test_a_reset_to_head_1_right_after_the_lines_one_commit_goes_back_to_where_it_started(self):
        def kinds(line):
            runs = cmdline.commands(line, CWD)
            every = classify.operations(runs)
            gates = {step: run.gate for step, run in enumerate(runs) if run.gate is not None}
            return [(op.kind, op.moves_branch) for op in classify.back_to_the_start(every, gates)]
        self.assertEqual(kinds("git commit -m x && git push && git reset --hard HEAD~1"),
                         [("commit-index", False), ("safe", False), ("reset-all", False)])
        self.assertEqual(kinds("git commit -m x && git reset --soft HEAD^"), [("safe", False), ("safe", False)])
        self.assertEqual(kinds("git commit -am x && git reset --soft HEAD~1"), [("commit-all", False), ("safe", False)])
        for line in ("git commit -m x; git reset --hard HEAD~1",  # the commit may have failed
                     "git commit -m x && git commit -m y && git reset --hard HEAD~1",  # HEAD~1 is the first commit
                     "git reset --hard HEAD~1", "git commit -m x && git reset --hard HEAD~2",
                     "git commit -m x || git reset --hard HEAD~1", "git pull && git commit -m x && git reset --hard HEAD~1"):
            with self.subTest(line=line):
                self.assertIn(("reset-all", True), kinds(line))

    def test_checkout_index_all_acts_on_the_working_directory_and_its_prefix_is_read_from_the_toplevel(self):
        self.assertTrue(classify.parse("cd docs && git checkout-index -a -f", CWD)[-1].relative)
        context = cmdline.Context(toplevel=lambda path: TOP)
        for prefix, kind in (("../r/", "discard-all"), ("/r/", "discard-all"), ("/r/sub/../", "discard-all"),
                             ("../elsewhere/", "safe"), ("/tmp/export/", "safe"), ("../r", "safe")):
            with self.subTest(prefix=prefix):
                op = classify.parse("git checkout-index -a -f --prefix=" + prefix, CWD + "/sub", context)[-1]
                self.assertEqual(op.kind, kind)

    def test_an_unquoted_variable_holding_blanks_is_several_paths_and_a_quoted_one_is_one(self):
        def paths(command):
            op = classify.parse(command, CWD)[-1]
            return op.kind, [p.relative for p in op.paths], op.runtime
        self.assertEqual(paths('FILES="src lib"; git add $FILES'), ("stage-paths", ["src", "lib"], False))
        self.assertEqual(paths('FILES="src lib"; git add "$FILES"'), ("stage-paths", ["src lib"], False))
        self.assertEqual(paths('F="a.py  b.py"; git commit -m x $F'), ("commit-paths", ["a.py", "b.py"], False))
        self.assertEqual(paths('D=docs; F="a.md b.md"; git add $D/$F'), ("stage-paths", ["docs/a.md", "b.md"], False))
        self.assertEqual(paths('F="src lib"; git add -- ${F}'), ("stage-paths", ["src", "lib"], False))
        self.assertEqual(paths('export F="src lib"; git add $F'), ("stage-paths", ["src", "lib"], False))
        glob = classify.parse('F="src/*.py lib"; git add $F', CWD)[-1].paths[0]
        self.assertTrue(glob.shell_glob)  # the shell expands the glob a variable yields

    def test_an_expansion_only_the_shell_can_split_is_computed_at_run_time(self):
        for command in ('F="src lib"; IFS=,; git add $F', 'IFS=: F=src:lib; git add $F',
                        'export IFS=,; F=a,b; git add $F', 'FILES=(src lib); git add $FILES',
                        'FILES=(src lib); git add "${FILES[@]}"', "git add $FILES",
                        'for f in $(git ls-files); do git add $f; done'):
            with self.subTest(command=command):
                self.assertTrue(classify.parse(command, CWD)[-1].runtime)

    def test_a_commit_without_a_message_is_judged_when_the_checkout_holds_one(self):
        class MergeUnderWay(forms_run.Lookup):
            def message_waiting(self, cwd):
                return True  # MERGE_MSG, SQUASH_MSG, a commit-msg hook or a template
        context = cmdline.Context()
        for command, kind in (("git commit", "commit-index"), ("git commit --no-edit", "commit-index"),
                              ("git commit -a", "commit-all"), ("git commit -a -- a.py", "safe")):
            with self.subTest(command=command):
                self.assertEqual(classify.parse(command, CWD, context, MergeUnderWay())[0].kind, kind)

    def test_git_rm_acts_only_on_the_index_entries_its_pathspecs_match(self):
        class Index(forms_run.Lookup):
            def index_entries(self, pathspecs, cwd):
                return [p + "/a.yaml" for p in pathspecs if p == "config"]
        context = cmdline.Context()
        op, = classify.parse("git rm --cached -r config", CWD, context, Index())
        self.assertEqual((op.kind, op.entries), ("remove-paths", frozenset(["config/a.yaml"])))
        self.assertEqual(classify.parse("git rm -f untracked.txt", CWD, context, Index())[0].kind, "safe")
        self.assertIsNone(classify.parse("git rm --cached -r config", CWD)[0].entries)  # not asked: unknown
        self.assertIsNone(classify.parse("git rm -f $(cat list)", CWD, context, Index())[0].entries)

    def test_stash_apply_asks_the_checkout_for_the_entrys_files(self):
        class Stash(forms_run.Lookup):
            def stash_files(self, entry, cwd):
                return {None: ["src/models.py"], "stash@{1}": ["a.py", "b.py"]}.get(entry)
        context = cmdline.Context()
        self.assertEqual(classify.parse("git stash apply", CWD, context, Stash())[0].entries,
                         frozenset(["src/models.py"]))
        self.assertEqual(classify.parse("git stash apply stash@{1}", CWD, context, Stash())[0].entries,
                         frozenset(["a.py", "b.py"]))
        for command in ("git stash apply --index", "git stash apply $ENTRY", "git stash apply 7"):
            with self.subTest(command=command):
                op, = classify.parse(command, CWD, context, Stash())
                self.assertEqual((op.kind, op.entries), ("stash-apply", None))

    def test_the_commit_message_is_kept_for_the_advice(self):
        self.assertEqual(classify.parse("git commit -m 'fix: x'", CWD)[0].message, "fix: x")


class CommitInclude(unittest.TestCase):
    def test_a_commit_including_paths_is_the_index_and_those_paths(self):
        ops = classify.parse("git commit -i -m x docs/usage.md", CWD)
        self.assertEqual([op.kind for op in ops], ["commit-index", "commit-paths"])
        self.assertEqual([p.text for p in ops[1].paths], ["docs/usage.md"])
        self.assertEqual(ops[0].step, ops[1].step)
        self.assertEqual([op.kind for op in classify.parse("git commit -i -m x", CWD)], ["commit-index"])


class AppliedCommits(unittest.TestCase):
    def applied(self, command):
        return head_movers.applied_commits(classify.parse(command, CWD)[0])

    def test_the_commits_a_revert_or_cherry_pick_without_commit_writes_are_read_as_written(self):
        self.assertEqual(self.applied("git revert -n HEAD"), ("HEAD",))
        self.assertEqual(self.applied("git cherry-pick --no-commit -x -m 1 abc123 main~2..main"),
                         ("abc123", "main~2..main"))
        self.assertEqual(self.applied("git revert --no-commit --strategy=ort HEAD~1"), ("HEAD~1",))

    def test_anything_else_or_words_not_read_plainly_say_nothing(self):
        for command in ("git revert HEAD", "git checkout main", "git revert -n $(git rev-parse HEAD)",
                        "git revert -n --reference HEAD", "git cherry-pick -n"):
            with self.subTest(command=command):
                self.assertIsNone(self.applied(command))


class Aliases(unittest.TestCase):
    CONFIG = ("alias.co checkout\nalias.aa add --all\nalias.st status -sb\n"
              "alias.wip !git add -A && git commit -m wip\nalias.up !cd /o && git pull --rebase\n"
              "alias.loop loop\nalias.sav stash\nalias.x aa\nalias.Mixed commit -a -m wip\n")

    def expand(self, command):
        aliases = classify.parse_alias_config(self.CONFIG)
        found = []
        for op in classify.parse(command, CWD):
            found.extend(classify.expand_alias(op, aliases) if classify.is_unknown(op) else [op])
        return " ".join("%s@%s" % (op.kind, op.cwd) for op in found)

    def test_an_alias_is_unknown_until_resolved(self):
        self.assertTrue(classify.is_unknown(classify.parse("git co main", CWD)[0]))
        self.assertFalse(classify.is_unknown(classify.parse("git checkout main", CWD)[0]))

    def test_alias_expansions_are_judged(self):
        self.assertEqual(self.expand("git co main"), "move-head@/r")
        self.assertEqual(self.expand("git co -- a.py"), "discard-paths@/r")
        self.assertEqual(self.expand("git aa"), "stage-all@/r")
        self.assertEqual(self.expand("git st"), "safe@/r")
        self.assertEqual(self.expand("git sav"), "stash-all@/r")
        self.assertEqual(self.expand("git sav push -- a.py"), "stash-paths@/r")

    def test_alias_of_an_alias(self):
        self.assertEqual(self.expand("git x"), "stage-all@/r")

    def test_shell_alias_is_parsed_as_shell(self):
        self.assertEqual(self.expand("git wip"), "stage-all@/r commit-index@/r")
        self.assertEqual(self.expand("git -C /p up"), "move-head@/o")

    def test_shell_alias_runs_from_the_toplevel(self):
        aliases = classify.parse_alias_config("alias.here !git add lib\n")
        op = classify.parse("git here", "/r/src")[0]
        self.assertEqual(classify.expand_alias(op, aliases, "/r")[0].paths[0].root, "/r")

    def test_alias_names_are_case_insensitive(self):
        self.assertEqual(self.expand("git mixed"), "commit-all@/r")

    def test_a_looping_alias_or_an_unknown_command_runs_nothing_to_judge(self):
        self.assertEqual(self.expand("git loop"), "")
        self.assertEqual(self.expand("git lfs pull"), "safe@/r")
        self.assertEqual(self.expand("git frobnicate"), "")


FUZZ_PIECES = ["git", "add", "commit", "stash", "reset", "checkout", "-A", "-am", "--", ".", ":/", "-C",
               "cd", "/o", "..", "&&", "||", ";", "|", "&", "(", ")", "{", "}", "'", '"', "\\", "$(",
               "`", "$", "${", "<<", "<<-", "EOF", "\n", "#", "*", "?", "[", "bash", "-c", "eval",
               "sudo", "-u", "env", "-i", "X=1", "xargs", "time", "<(", ">", "2>&1", "$'", "~", "=",
               "pushd", "popd", "-", "!", "if", "then", "fi"]


class Fuzz(unittest.TestCase):
    def assertOperations(self, operations):
        self.assertIsInstance(operations, list)
        for op in operations:
            self.assertIsInstance(op, kinds.Operation)

    def test_random_command_lines_never_raise(self):
        for seed in (1, 2, 3):
            rng = random.Random(seed)
            for _ in range(1500):
                pieces = [rng.choice(FUZZ_PIECES) for _ in range(rng.randint(0, 25))]
                command = "".join(p + rng.choice(["", " ", " ", "\n"]) for p in pieces)
                operations = classify.parse(command, rng.choice([CWD, None]))
                self.assertOperations(operations)
                aliases = {"aa": "add -A", "x": "!git stash; git x"}
                for op in operations:
                    if classify.is_unknown(op):
                        self.assertOperations(classify.expand_alias(op, aliases))

    def test_random_bytes_never_raise(self):
        rng = random.Random(99)
        alphabet = "git add -A'\"\\$(){}`;&|<>#\n\t*?[]~=:/.abc"
        for _ in range(2000):
            command = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
            self.assertOperations(classify.parse(command, CWD))

    def test_deep_nesting_does_not_exhaust_the_stack(self):
        from peerhooks.shell.lexer import TooLarge

        for opener in ("$(", "`", "(", "bash -c '", "eval "):
            try:  # read, or past a nesting bound said to be too large (the guard then asks): never a RecursionError
                self.assertOperations(classify.parse(opener * 2000 + "git add -A", CWD))
            except TooLarge:
                pass


if __name__ == "__main__":
    unittest.main()


class RewriteOfAnInPlaceEditor(unittest.TestCase):
    """A `sed -i`/`perl -pi` write carries its script's model (peerhooks.shell.rewrites); any other write, or
    the editor's output redirected, carries none: those write the file whatever it holds."""

    def writes(self, line):
        runs = cmdline.commands(line, "/r")
        return [shell_writes.write_operation(path, pattern, run)
                for path, pattern, run in writes.targets_of(runs, cmdline.Context())]

    def test_the_editors_script_is_read_and_other_writes_have_none(self):
        (sed,) = self.writes("sed -i 's/old/new/' src/a.py")
        self.assertEqual([p.source for p in sed.rewrite.patterns], ["old"])
        self.assertIsNotNone(self.writes("perl -pi -e 's/x/y/' a.py")[0].rewrite)
        for line in ("echo x > a.py", "sed -i 's/old/new/' a.py > b.py", "rm a.py"):
            with self.subTest(line=line):
                self.assertTrue(all(op.rewrite is None for op in self.writes(line)))
        # the file keeps its model; its backup is a copy, written whatever the patterns match
        edited, backup = self.writes("sed -i.bak 's/a/b/' a.py")
        self.assertEqual((edited.paths[0].text, backup.paths[0].text), ("/r/a.py", "/r/a.py.bak"))
        self.assertIsNotNone(edited.rewrite)
        self.assertIsNone(backup.rewrite)

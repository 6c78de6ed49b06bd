"""gitops: git invocations found in command lines, what they do, and the verdict while peers share
the checkout. Pure: no files, no git, no clock."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks import gitops  # noqa: E402
from peerhooks.gitops import Peer  # noqa: E402

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
    ("git add --pathspec-from-file=list.txt", "safe"),
    # -- commit ----------------------------------------------------------------------------------
    ("git commit -a", "commit-all"),
    ("git commit --all -m x", "commit-all"),
    ("git commit -am 'fix it'", "commit-all"),
    ("git commit -a -m x", "commit-all"),
    ("git commit -ma", "commit-index"),
    ("git commit -m x", "commit-index"),
    ("git commit", "commit-index"),
    ("git commit --amend --no-edit", "commit-index"),
    ("git commit -m x -- b.py", "commit-paths"),
    ("git commit -m x b.py", "commit-paths"),
    ("git commit -o -m x", "commit-paths"),
    ("git commit -i -m x a.py", "commit-index"),
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
    ("git stash apply stash@{1}", "stash-stack"),
    ("git stash list", "safe"),
    ("git stash show -p", "safe"),
    ("git stash branch fix", "move-head"),
    # -- reset -----------------------------------------------------------------------------------
    ("git reset --hard", "reset-all"),
    ("git reset --hard HEAD~1", "reset-all"),
    ("git reset --hard origin/main", "reset-all"),
    ("git reset --merge", "reset-all"),
    ("git reset --keep HEAD^", "reset-all"),
    ("git reset", "reset-all"),
    ("git reset -q", "reset-all"),
    ("git reset HEAD", "reset-all"),
    ("git reset --soft HEAD~1", "reset-all"),
    ("git reset main", "reset-all"),
    ("git reset -- a.py", "unstage-paths"),
    ("git reset HEAD a.py", "unstage-paths"),
    ("git reset a.py", "unstage-paths"),
    ("git reset HEAD -- src/", "unstage-paths"),
    ("git reset -- .", "reset-all"),
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
    ("git restore --staged .", "discard-all"),
    ("git restore :/", "discard-all"),
    ("git restore --staged --worktree -- .", "discard-all"),
    ("git restore -- a.py", "discard-paths"),
    ("git restore -s HEAD~2 a.py", "discard-paths"),
    ("git restore --staged a.py", "unstage-paths"),
    ("git restore", "safe"),
    ("git switch main", "move-head"),
    ("git switch -c feature", "move-head"),
    ("git switch", "safe"),
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
    ("git merge feature", "move-head"),
    ("git merge --ff-only origin/main", "move-head"),
    ("git merge --continue", "safe"),
    ("git pull", "move-head"),
    ("git pull --rebase origin main", "move-head"),
    ("git cherry-pick abc1234", "move-head"),
    ("git cherry-pick --quit", "safe"),
    ("git revert HEAD", "move-head"),
    ("git am 0001-fix.patch", "move-head"),
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
    ("timeout 30 git pull", "move-head"),
    ("timeout -s KILL 30 git pull", "move-head"),
    ("/usr/bin/git add -A", "stage-all"),
    ("/usr/local/bin/git reset --hard", "reset-all"),
    ("\\git add -A", "stage-all"),
    ("'git' add -A", "stage-all"),
    ("xargs git add", "safe"),
    ("git ls-files -m | xargs git add", "safe safe"),
    ("find . -name '*.py' | xargs -0 git add", "safe"),
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
    ("git fetch & git pull", "safe move-head"),
    ("git status\ngit add -A", "safe stage-all"),
    ("cd /o && git add -A", "stage-all@/o"),
    ("cd sub && git add -A", "stage-all@/r/sub"),
    ("cd /o; cd sub; git add -A", "stage-all@/o/sub"),
    ("cd .. && git add -A", "stage-all@/"),
    ("cd /o && cd - && git add -A", "stage-all@/r"),
    ("cd && git add -A", "stage-all@?"),
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
    ("for f in a b; do git add \"$f\"; done", "stage-paths"),
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
    for op in gitops.parse(command, CWD):
        found.append(op.kind)
    return " ".join(found)


def located(command):
    return " ".join("%s@%s" % (op.kind, op.cwd if op.cwd is not None else "?")
                    for op in gitops.parse(command, CWD))


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

    def test_each_refused_shape_is_refused_with_a_peer_and_passes_alone(self):
        for command, expected in TABLE:
            operations = [op for op in gitops.parse(command, CWD) if op.cwd is not None]
            outright = any(op.kind in gitops.REFUSED_OUTRIGHT for op in operations) or command in NAMING_TOPLEVEL
            with self.subTest(command=command):
                refusal = gitops.verdict(operations, [Peer("repo-2a")], TOP)
                self.assertEqual(refusal is not None, outright)
                self.assertIsNone(gitops.verdict(operations, [], TOP))


class Pathspecs(unittest.TestCase):
    PEER = Peer("editor-7f", ("/r/src/app.py", "/r/docs/guide.md"))

    def judge(self, command, peers=(PEER,), cwd=CWD):
        return gitops.verdict(gitops.parse(command, cwd), list(peers), TOP)

    def test_adding_a_folder_holding_a_peers_edit_is_refused_naming_peer_and_file(self):
        refusal = self.judge("git add src")
        self.assertEqual(refusal.peers, ("editor-7f",))
        self.assertEqual(refusal.files, ("src/app.py",))
        self.assertIn("src/app.py", refusal.message())
        self.assertIn("editor-7f", refusal.message())

    def test_naming_the_file_itself_is_the_narrow_form_and_passes(self):
        self.assertIsNone(self.judge("git add src/app.py"))
        self.assertIsNone(self.judge("git restore -- src/app.py"))

    def test_adding_other_paths_passes(self):
        for command in ("git add lib", "git add src/other.py", "git add srcx", "git add README.md"):
            with self.subTest(command=command):
                self.assertIsNone(self.judge(command))

    def test_relative_paths_follow_cd(self):
        self.assertIsNotNone(self.judge("cd lib && git add ../src"))
        self.assertIsNotNone(self.judge("git add ../src", cwd="/r/lib"))
        self.assertIsNotNone(self.judge("git -C /r/lib add ../docs/"))
        self.assertIsNone(self.judge("cd src && git add lib"))

    def test_top_relative_pathspec(self):
        self.assertIsNotNone(self.judge("git add :/src", cwd="/r/lib"))

    def test_git_patterns_cross_folders_and_shell_globs_do_not(self):
        self.assertIsNotNone(self.judge("git add '*.py'"))
        self.assertIsNone(self.judge("git add *.py"))
        self.assertIsNotNone(self.judge("git add s*"))
        self.assertIsNotNone(self.judge("git add 'src/*'"))

    def test_the_toplevel_path_is_the_whole_tree(self):
        for command in ("git add /r", "git add ..", "git -C /r/src add ../"):
            with self.subTest(command=command):
                refusal = self.judge(command, peers=[Peer("idle-peer")], cwd="/r/lib")
                self.assertIsNotNone(refusal)
                self.assertIn("every change", refusal.effect)

    def test_discarding_or_cleaning_a_peers_file_is_refused(self):
        self.assertIsNotNone(self.judge("git checkout -- src"))
        self.assertIsNotNone(self.judge("git restore docs"))
        self.assertIsNotNone(self.judge("git clean -f src"))
        self.assertIsNone(self.judge("git restore --staged src/app.py"))

    def test_paths_in_variables_cannot_be_told_and_pass(self):
        self.assertIsNone(self.judge('git add "$FILES"'))
        self.assertIsNone(self.judge("cd $D && git add app.py"))


class PlainCommit(unittest.TestCase):
    PEER = Peer("stager-3c", ("/r/a.py",))

    def judge(self, command, staged, own=frozenset()):
        return gitops.verdict(gitops.parse(command, CWD), [self.PEER], TOP, staged, own)

    def test_commit_of_an_index_holding_a_peers_staged_edit_is_refused(self):
        refusal = self.judge("git commit -m x", ("/r/a.py", "/r/b.py"), frozenset(["/r/b.py"]))
        self.assertEqual(refusal.files, ("a.py",))
        self.assertEqual(refusal.peers, ("stager-3c",))
        self.assertIn("git commit -m <message> -- b.py", refusal.message())

    def test_commit_with_paths_passes(self):
        self.assertIsNone(self.judge("git commit -m x -- b.py", ("/r/a.py", "/r/b.py")))

    def test_a_file_both_sessions_edited_does_not_block(self):
        self.assertIsNone(self.judge("git commit -m x", ("/r/a.py",), frozenset(["/r/a.py"])))

    def test_an_index_without_peer_edits_passes(self):
        self.assertIsNone(self.judge("git commit -m x", ("/r/b.py",)))
        self.assertIsNone(self.judge("git commit -m x", ()))

    def test_needs_staged_only_for_a_plain_commit(self):
        self.assertTrue(gitops.needs_staged(gitops.parse("git commit --amend", CWD)))
        self.assertFalse(gitops.needs_staged(gitops.parse("git commit -m x -- a.py", CWD)))
        self.assertFalse(gitops.needs_edits(gitops.parse("git add -A && git stash", CWD)))
        self.assertTrue(gitops.needs_edits(gitops.parse("git add src", CWD)))


class Aliases(unittest.TestCase):
    CONFIG = ("alias.co checkout\nalias.aa add --all\nalias.st status -sb\n"
              "alias.wip !git add -A && git commit -m wip\nalias.up !cd /o && git pull\n"
              "alias.loop loop\nalias.sav stash\nalias.x aa\nalias.Mixed commit -a\n")

    def expand(self, command):
        aliases = gitops.parse_alias_config(self.CONFIG)
        found = []
        for op in gitops.parse(command, CWD):
            found.extend(gitops.expand_alias(op, aliases) if gitops.is_unknown(op) else [op])
        return " ".join("%s@%s" % (op.kind, op.cwd) for op in found)

    def test_an_alias_is_unknown_until_resolved(self):
        self.assertTrue(gitops.is_unknown(gitops.parse("git co main", CWD)[0]))
        self.assertFalse(gitops.is_unknown(gitops.parse("git checkout main", CWD)[0]))

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
        aliases = gitops.parse_alias_config("alias.here !git add lib\n")
        op = gitops.parse("git here", "/r/src")[0]
        self.assertEqual(gitops.expand_alias(op, aliases, "/r")[0].paths[0].root, "/r")

    def test_alias_names_are_case_insensitive(self):
        self.assertEqual(self.expand("git mixed"), "commit-all@/r")

    def test_a_looping_alias_or_an_unknown_command_runs_nothing_to_judge(self):
        self.assertEqual(self.expand("git loop"), "")
        self.assertEqual(self.expand("git lfs pull"), "safe@/r")
        self.assertEqual(self.expand("git frobnicate"), "")


class RefusalMessage(unittest.TestCase):
    def test_message_names_peers_effect_and_narrow_form(self):
        refusal = gitops.verdict(gitops.parse("git add -A", CWD), [Peer("repo-2a"), Peer("repo-9f")], TOP)
        message = refusal.message()
        self.assertIn("`git add -A`", message)
        self.assertIn("repo-2a, repo-9f", message)
        self.assertIn("stages every change", message)
        self.assertIn("git add -- <your paths>", message)
        self.assertIn("SendMessage", message)

    def test_branch_switch_suggests_a_linked_worktree(self):
        refusal = gitops.verdict(gitops.parse("git checkout main", CWD), [Peer("p")], TOP)
        self.assertIn("git worktree add", refusal.message())

    def test_unknown_directory_is_not_judged(self):
        self.assertIsNone(gitops.verdict(gitops.parse("cd $X && git add -A", CWD), [Peer("p")], TOP))
        self.assertIsNone(gitops.verdict(gitops.parse("git add -A", None), [Peer("p")], TOP))


FUZZ_PIECES = ["git", "add", "commit", "stash", "reset", "checkout", "-A", "-am", "--", ".", ":/", "-C",
               "cd", "/o", "..", "&&", "||", ";", "|", "&", "(", ")", "{", "}", "'", '"', "\\", "$(",
               "`", "$", "${", "<<", "<<-", "EOF", "\n", "#", "*", "?", "[", "bash", "-c", "eval",
               "sudo", "-u", "env", "-i", "X=1", "xargs", "time", "<(", ">", "2>&1", "$'", "~", "=",
               "pushd", "popd", "-", "!", "if", "then", "fi"]


class Fuzz(unittest.TestCase):
    def test_random_command_lines_never_raise(self):
        for seed in (1, 2, 3):
            rng = random.Random(seed)
            for _ in range(1500):
                pieces = [rng.choice(FUZZ_PIECES) for _ in range(rng.randint(0, 25))]
                command = "".join(p + rng.choice(["", " ", " ", "\n"]) for p in pieces)
                operations = gitops.parse(command, rng.choice([CWD, None]))
                aliases = {"aa": "add -A", "x": "!git stash; git x"}
                for op in operations:
                    if gitops.is_unknown(op):
                        gitops.expand_alias(op, aliases)
                gitops.verdict(operations, [Peer("p", ("/r/a.py",))], TOP, ("/r/a.py",))

    def test_random_bytes_never_raise(self):
        rng = random.Random(99)
        alphabet = "git add -A'\"\\$(){}`;&|<>#\n\t*?[]~=:/.abc"
        for _ in range(2000):
            command = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
            gitops.parse(command, CWD)

    def test_deep_nesting_does_not_exhaust_the_stack(self):
        for opener in ("$(", "`", "(", "bash -c '", "eval "):
            gitops.parse(opener * 2000 + "git add -A", CWD)


if __name__ == "__main__":
    unittest.main()

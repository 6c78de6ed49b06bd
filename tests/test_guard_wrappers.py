"""git_index_guard.py on lines that run git through a wrapper (`make commit`, `npm run clean`,
`./scripts/commit.sh`, `python3 -c …`, `gh pr checkout`): payload on stdin, a real repository where a
live peer (a real process) has staged work, and each label checked by running the line itself in a
copy of the checkout."""
import json
import os
import shutil
import stat
import subprocess
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

from support import HomeTestCase, shell_path
from peerhooks.wrappers.files import MAX_FILE_BYTES, Outside, Unreadable
from peerhooks.wrappers.reader import CheckoutReader

SCRIPT = "git_index_guard.py"
OWN_ID = "this-session-0000"
MAKEFILE = """\
.PHONY: commit status save
commit:
\t@git add -A && git commit -q -m save
status:
\t@git status --short
save: commit
\t@echo saved
"""
PACKAGE = json.dumps({"scripts": {"commit": "git add -A && git commit -q -m wip", "clean": "git clean -fdq",
                                  "status": "git status --short", "lint": "true"}})
COMMIT_SCRIPT = "#!/bin/sh\ngit add -A\ngit commit -q -m \"${1:-wip}\"\n"


def bash(command, cwd, session_id=OWN_ID):
    return {"session_id": session_id, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "x"}, "tool_use_id": "t1", "cwd": cwd}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True, text=True).stdout


class WrapperTestCase(HomeTestCase):
    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n", "Makefile": MAKEFILE, "package.json": PACKAGE,
                                       "scripts/commit.sh": COMMIT_SCRIPT})
        os.chmod(os.path.join(self.main, "scripts", "commit.sh"), 0o755)
        git(self.main, "commit", "-q", "-am", "an executable script")
        self.peer_file = os.path.join(self.main, "peer.py")
        with open(self.peer_file, "w") as handle:
            handle.write("PEER = 1\n")
        git(self.main, "add", "peer.py")  # the peer's staged, uncommitted work
        self.peer_new = os.path.join(self.main, "peer_new.py")
        with open(self.peer_new, "w") as handle:
            handle.write("NEW = 1\n")  # and its new file, untracked
        with open(os.path.join(self.main, "own.py"), "w") as handle:
            handle.write("OWN = 1\n")
        self.claude.write_session_files(OWN_ID, self.main, edits=[os.path.join(self.main, "own.py")])

    def peer(self):
        return self.claude.live_session(self.main, name="stager", edits=[self.peer_file, self.peer_new])

    def guard(self, command, process=False):
        return self.run_hook(SCRIPT, bash(command, self.main), process=process)

    def decision(self, result):
        self.assertEqual(result.returncode, 0, result.stderr)
        if not result.stdout:
            return None, None
        output = json.loads(result.stdout)["hookSpecificOutput"]
        return output.get("permissionDecision"), output.get("permissionDecisionReason")

    def harms_the_peer(self, command):
        """Run the line in a copy of the checkout: True when the peer's staged file ends up
        committed, unstaged, changed or gone, its new file changed or gone, or HEAD moves (the label,
        by execution)."""
        copy = tempfile.mkdtemp(prefix="copy-", dir=self.tmp)
        shutil.copytree(self.main, copy, symlinks=True, dirs_exist_ok=True)
        git(copy, "update-index", "-q", "--refresh")
        before = self._peer_state(copy)
        subprocess.run(["bash", "-c", command], cwd=copy, stdin=subprocess.DEVNULL, capture_output=True,
                       env=dict(os.environ, HOME=self.tmp, GIT_EDITOR="true"), timeout=120)
        return self._peer_state(copy) != before

    @staticmethod
    def _peer_state(copy):
        """HEAD, what is staged, and the peer's files' contents (None when gone)."""
        contents = []
        for name in ("peer.py", "peer_new.py"):
            try:
                with open(os.path.join(copy, name)) as handle:
                    contents.append(handle.read())
            except FileNotFoundError:
                contents.append(None)
        return git(copy, "rev-parse", "HEAD"), git(copy, "diff", "--cached", "--name-only"), contents


class WrappersBesideAPeer(WrapperTestCase):
    def test_make_commit_is_refused_naming_the_target_and_the_peers_file(self):
        self.peer()
        decision, reason = self.decision(self.guard("make commit"))
        self.assertEqual(decision, "deny")
        self.assertIn("`git add -A` (run by `make commit`) would stage it", reason.splitlines()[0])
        self.assertIn("At stake: stager: peer_new.py [untracked], peer.py [staged]", reason)
        self.assertIn("- `git add -A`, which `make commit` runs (`git add -A && git commit -q -m save`): it stages",
                      reason)
        self.assertIn("\ngit add -- own.py && git commit -q -m save -- own.py\n", reason)  # runs as given
        self.assertTrue(self.harms_the_peer("make commit"))

    def test_a_script_whose_message_comes_from_its_arguments_has_no_narrow_form(self):
        self.peer()
        decision, reason = self.decision(self.guard("./scripts/commit.sh 'Add the export'"))
        # `"${1:-wip}"` standing alone in a suggestion would be quoted as its text (or lose the argument)
        self.assertEqual(decision, "ask")
        self.assertNotIn("Instead, run:", reason)

    def test_a_target_that_runs_only_git_status_runs(self):
        self.peer()
        self.assertEqual(self.decision(self.guard("make status")), (None, None))
        self.assertFalse(self.harms_the_peer("make status"))

    def test_each_harmful_wrapper_line_is_refused_and_each_harmless_one_runs(self):
        self.peer()
        written, writes = os.path.join(self.tmp, "written.sh"), "cat > {0} <<'EOF'\ngit add -A\nEOF\nbash {0}"
        # The session types the folder as its shell spells it (`/c/…` under Git Bash); the label is
        # made by running the line here, where the folder is spelled as this machine spells it.
        run_here = {writes.format(shell_path(written)): writes.format(written)}
        harmful = ["make save", "make -s commit", "npm run commit", "npm run -s clean", "./scripts/commit.sh wip",
                   writes.format(shell_path(written)),
                   '''python3 -c "import subprocess; subprocess.run(['git','add','--all'])"''',
                   '''node -e "require('child_process').execSync('git add -A')"''',
                   "python3 - <<'EOF'\nimport os\nos.system('git reset -q --hard')\nEOF"]
        harmless = ["make status", "make -n commit", "npm run status",
                    '''python3 -c "import subprocess; subprocess.run(['git', 'status'])"''', "make nothing"]
        with ThreadPoolExecutor(4) as pool:  # the labels: each line run in its own copy, at once
            labels = dict(zip(harmful + harmless, pool.map(lambda line: self.harms_the_peer(run_here.get(line, line)),
                                                           harmful + harmless)))
        for command in harmful:
            with self.subTest(command=command):
                decision, _reason = self.decision(self.guard(command))
                self.assertIn(decision, ("deny", "ask"))
                self.assertTrue(labels[command])
        for command in harmless:
            with self.subTest(command=command):
                self.assertEqual(self.decision(self.guard(command)), (None, None))
                self.assertFalse(labels[command])

    def test_a_script_the_line_writes_is_judged_as_written_not_as_on_disk(self):
        self.peer()
        with open(os.path.join(self.main, "s.sh"), "w") as handle:
            handle.write("git add -A\n")
        line = "cat > s.sh <<'EOF'\ngit status --short\nEOF\nbash s.sh"
        self.assertEqual(self.decision(self.guard(line)), (None, None))
        self.assertFalse(self.harms_the_peer(line))

    def test_a_recipe_writing_over_a_peers_file_is_refused_naming_the_target(self):
        with open(os.path.join(self.main, "Makefile"), "a") as handle:
            handle.write("reset-notes:\n\t@echo fresh > peer_new.py\n")
        self.peer()
        decision, reason = self.decision(self.guard("make reset-notes"))
        self.assertIn(decision, ("deny", "ask"))
        self.assertIn("(run by `make reset-notes`)", reason.splitlines()[0])
        self.assertIn("peer_new.py", reason)
        self.assertTrue(self.harms_the_peer("make reset-notes"))

    def test_gh_pr_checkout_asks_beside_a_peer(self):
        self.peer()
        decision, reason = self.decision(self.guard("gh pr checkout 12"))
        self.assertEqual(decision, "ask")
        self.assertIn("`gh pr checkout 12` would switch the checkout stager works in", reason)
        self.assertIn("- `gh pr checkout 12`: it switches this checkout", reason)

    def test_code_that_mentions_git_the_guard_cannot_read_asks(self):
        self.peer()
        decision, reason = self.decision(self.guard('''python3 -c "import os; os.system('git add ' + f)"'''))
        self.assertEqual(decision, "ask")
        self.assertIn("its code mentions git in a way the guard cannot read", reason)

    def test_alone_every_wrapper_runs_untouched(self):
        for command in ("make commit", "npm run clean", "./scripts/commit.sh", "gh pr checkout 3"):
            with self.subTest(command=command):
                self.assertEqual(self.decision(self.guard(command)), (None, None))


class HostileWrapperFiles(WrapperTestCase):
    def test_a_script_linked_out_of_the_checkout_is_not_read_and_asks(self):
        outside = os.path.join(self.tmp, "outside.sh")
        with open(outside, "w") as handle:
            handle.write("echo harmless\n")
        os.symlink(outside, os.path.join(self.main, "scripts", "linked.sh"))
        self.peer()
        decision, reason = self.decision(self.guard("bash scripts/linked.sh"))
        self.assertEqual(decision, "ask")
        self.assertIn("a link out of the checkout", reason)

    def test_a_makefile_that_is_a_fifo_does_not_block_the_guard(self):
        os.remove(os.path.join(self.main, "Makefile"))
        os.mkfifo(os.path.join(self.main, "Makefile"))
        self.peer()
        result = self.guard("make commit", process=True)  # a blocking read would hang until the timeout
        decision, reason = self.decision(result)
        self.assertEqual(decision, "ask")
        self.assertIn("not a regular file", reason)

    def test_a_makefile_larger_than_the_bound_is_not_read_and_asks(self):
        with open(os.path.join(self.main, "Makefile"), "w") as handle:
            handle.write("status:\n\t@git status\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
        self.peer()
        self.assertEqual(self.decision(self.guard("make status"))[0], "ask")


class TheReader(HomeTestCase):
    """peerhooks.wrappers.reader on real files."""

    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"Makefile": "all:\n", "bin/app": "x"})
        self.read = CheckoutReader()

    def test_a_regular_file_in_the_checkout_is_read_and_an_absent_one_is_none(self):
        self.assertEqual(self.read(os.path.join(self.main, "Makefile")), "all:\n")
        self.assertIsNone(self.read(os.path.join(self.main, "GNUmakefile")))

    def test_outside_every_checkout_nothing_is_read(self):
        path = os.path.join(self.tmp, "x.sh")
        with open(path, "w") as handle:
            handle.write("git add -A\n")
        with self.assertRaises(Outside):
            self.read(path)

    def test_a_link_to_another_checkout_or_a_folder_or_fifo_is_unreadable(self):
        other = self.repo("other", {"Makefile": "all:\n\tgit add -A\n", "lib/x.sh": "git add -A\n"})
        os.symlink(os.path.join(other, "Makefile"), os.path.join(self.main, "linked.mk"))
        os.symlink(os.path.join(other, "lib"), os.path.join(self.main, "vendor"))  # a folder link out
        os.mkfifo(os.path.join(self.main, "fifo.sh"))
        os.mkdir(os.path.join(self.main, "folder.sh"))
        for name in ("linked.mk", "vendor/x.sh", "fifo.sh", "folder.sh"):
            with self.subTest(name=name), self.assertRaises(Unreadable) as raised:
                self.read(os.path.join(self.main, name))
            self.assertNotIsInstance(raised.exception, Outside)

    def test_a_link_inside_the_checkout_is_read(self):
        os.symlink("Makefile", os.path.join(self.main, "GNUmakefile"))
        self.assertEqual(self.read(os.path.join(self.main, "GNUmakefile")), "all:\n")

    def test_too_big_is_unreadable_but_a_big_program_is_a_program(self):
        big = os.path.join(self.main, "big.sh")
        with open(big, "w") as handle:
            handle.write("#" * (MAX_FILE_BYTES + 1))
        with self.assertRaises(Unreadable):
            self.read(big)
        program = os.path.join(self.main, "bin", "app")
        with open(program, "wb") as handle:
            handle.write(b"\x7fELF\x02\x01\x01\x00" + b"\x00" * (MAX_FILE_BYTES + 1))
        os.chmod(program, os.stat(program).st_mode | stat.S_IXUSR)
        self.assertIn("\0", self.read(program))


if __name__ == "__main__":
    unittest.main()

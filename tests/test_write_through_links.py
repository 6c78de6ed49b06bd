"""Issue 35 item 4: a path is resolved as the write resolves it, its last component included.

With `alias.py -> src/a.py` (in real checkouts, `CLAUDE.md -> AGENTS.md`) a write of alias.py reaches
src/a.py when the writer opens the path, and the link itself when the writer puts a new file in its
place (`sed -i`, `mv`, `rm`). The platform's landing follows a chain of links inside the checkout
only, bounded as the kernel bounds it; the shell model says per writer which of the two a write
changes; the edit notice names the real file; the guard judges the write where it lands. What each
writer does is not assumed: the tests run it on a link in a temporary folder and look.
"""
import json
import os
import shutil
import subprocess
import unittest

import support
from fixtures import claudehome
from fixtures.claudehome import edit_record, now_ms
from peerhooks import platform
from peerhooks.platform import posix
from peerhooks.shell import cmdline, writes

ME = "me-session-0000-0000"
POSIX = posix.Posix()  # the shell model as this machine's Bash runs the commands below


def git(repo, *args):
    subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def read(path):
    """A regular file's bytes (not through a link), None for anything else or nothing."""
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    with open(path, "rb") as handle:
        return handle.read()


def link(folder, name, target):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)
    return path


class Landing(support.HomeTestCase):
    """platform's landing: where a write opening the path reaches, links followed inside only."""

    def setUp(self):
        super().setUp()
        self.top = os.path.join(self.tmp, "top")
        os.makedirs(os.path.join(self.top, "src"))
        with open(os.path.join(self.top, "src", "a.py"), "w") as handle:
            handle.write("x = 1\n")
        self.paths = platform.current().paths

    def land(self, name):
        return self.paths.landing(os.path.join(self.top, name), self.top)

    def at(self, name):
        return os.path.join(self.top, name)

    def test_a_file_that_is_no_link_is_itself(self):
        self.assertEqual(self.land("src/a.py"), self.at("src/a.py"))
        self.assertEqual(self.land("src/new.py"), self.at("src/new.py"))  # not there yet: a write creates it

    def test_a_link_and_a_chain_of_two_reach_the_file(self):
        link(self.top, "alias.py", "src/a.py")
        link(self.top, "alias2.py", "alias.py")
        link(self.top, "docs/up.py", "../src/a.py")
        self.assertEqual(self.land("alias.py"), self.at("src/a.py"))
        self.assertEqual(self.land("alias2.py"), self.at("src/a.py"))
        self.assertEqual(self.land("docs/up.py"), self.at("src/a.py"))

    def test_a_hop_through_a_folder_link_resolves_as_the_kernel_does(self):
        link(self.top, "srclink", "src")
        link(self.top, "via.py", "srclink/../src/a.py")  # the kernel takes srclink first, then `..`
        self.assertEqual(self.land("via.py"), self.at("src/a.py"))

    def test_a_link_out_of_the_workspace_is_not_followed(self):
        outside = os.path.join(self.tmp, "outside.py")
        with open(outside, "w") as handle:
            handle.write("secret\n")
        link(self.top, "out.py", "../outside.py")
        link(self.top, "abs.py", outside)
        link(self.top, "out2.py", "out.py")
        for name in ("out.py", "abs.py", "out2.py"):
            self.assertEqual(self.land(name), self.at(name), name)
        self.assertEqual(self.paths.landing(self.at("src/a.py"), None), self.at("src/a.py"))

    def test_a_dangling_link_lands_where_the_write_creates_the_file(self):
        link(self.top, "dangling.py", "src/gone.py")
        self.assertEqual(self.land("dangling.py"), self.at("src/gone.py"))

    def test_a_loop_and_a_chain_past_the_kernels_bound_are_the_path_as_given(self):
        link(self.top, "loop1", "loop2")
        link(self.top, "loop2", "loop1")
        link(self.top, "self", "self")
        self.assertEqual(self.land("loop1"), self.at("loop1"))
        self.assertEqual(self.land("self"), self.at("self"))
        for n in range(1, posix.MAX_LINKS + 2):  # c1 -> c2 -> … -> c41 -> c42, a file
            link(self.top, "c%d" % n, "c%d" % (n + 1))
        with open(self.at("c%d" % (posix.MAX_LINKS + 2)), "w") as handle:
            handle.write("end\n")
        self.assertEqual(self.land("c2"), self.at("c42"))  # 40 links: the kernel follows them
        self.assertEqual(self.land("c1"), self.at("c1"))  # 41: ELOOP, nothing is written
        if shutil.which("cat"):
            self.assertEqual(subprocess.run(["cat", self.at("c2")], stdout=subprocess.PIPE).stdout, b"end\n")
            self.assertNotEqual(subprocess.run(["cat", self.at("c1")], stderr=subprocess.DEVNULL).returncode, 0)

    def test_a_link_to_a_folder_or_a_fifo_is_answered_without_opening_anything(self):
        link(self.top, "folder", "src")
        link(self.top, "dot", ".")
        self.assertEqual(self.land("folder"), self.at("src"))
        self.assertEqual(self.land("dot"), self.at("dot"))
        if hasattr(os, "mkfifo"):
            os.mkfifo(self.at("src/pipe"))
            link(self.top, "pipe", "src/pipe")
            self.assertEqual(self.land("pipe"), self.at("src/pipe"))  # lstat and readlink only: no block


# What each writer does to `l -> t` beside a file `f`, as the model says: the files that change.
WRITERS = (
    ("echo y > l", "t"), ("echo y >> l", "t"), ("echo y &> l", "t"), ("echo y 1<> l", "t"),
    ("echo y | tee l", "t"), ("echo y | tee -a l", "t"), ("truncate -s 0 l", "t"),
    ("dd if=f of=l", "t"), ("sort -o l f", "t"), ("cp f l", "t"), ("cp -f f l", "t"), ("cp -a f l", "t"),
    ("shred -n 1 l", "t"), ("sed -i --follow-symlinks s/x/y/ l", "t"),
    ("python3 -c \"open('l', 'w').write('y')\"", "t l"),  # code may open or remove it: both judged
    ("python3 -c \"import os; os.remove('l')\"", "t l"),
    ("shred -n 1 -u l", "t l"),
    ("rm l", "l"), ("rm -f l", "l"), ("unlink l", "l"), ("mv f l", "l"), ("mv l moved", "l"),
    ("install f l", "l"), ("ln -sf f l", "l"), ("ln -f f l", "l"), ("rsync f l", "l"),
    ("sed -i s/x/y/ l", "l"), ("sed -i.bak s/x/y/ l", "l"), ("perl -pi -e s/x/y/ l", "l"),
    ("perl -i -pe s/x/y/ l", "l"), ("cp --remove-destination f l", "l"), ("cp -b f l", "l"),
    ("cp --backup=numbered f l", "l"), ("cp -fs f l", "l"), ("cp -lf f l", "l"),
)


@unittest.skipIf(os.name != "posix" or not shutil.which("bash"), "runs the writers in Bash")
class WritersLabelledByRunning(support.HomeTestCase):
    """Each writer of the table run on a link: the files that changed are those the model names."""

    def scratch(self):
        """A fresh folder holding t, f and l -> t."""
        folder = os.path.join(self.tmp, "run")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name, content in (("t", "x\n"), ("f", "src\n")):
            with open(os.path.join(folder, name), "w") as handle:
                handle.write(content)
        os.symlink("t", os.path.join(folder, "l"))
        return folder

    def modelled(self, command, folder):
        """{'t', 'l'}: which of the two the model says the command changes."""
        context = cmdline.Context(paths=POSIX, code_writes=_code_writes)
        runs = cmdline.commands(command, folder, context)
        found = writes.targets_of(runs, context, landing=lambda path: POSIX.landing(path, folder))
        return {os.path.basename(path) for path, _pattern, _run in found} & {"t", "l"}

    def observed(self, command, folder):
        """{'t', 'l'}: which of the two running the command changed."""
        subprocess.run(["bash", "-c", command], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = set()
        if read(os.path.join(folder, "t")) != b"x\n":
            found.add("t")
        at = os.path.join(folder, "l")
        if not (os.path.islink(at) and os.readlink(at) == "t"):
            found.add("l")
        return found

    def test_each_writer_changes_what_the_model_says(self):
        for command, expected in WRITERS:
            if not shutil.which(command.split()[0]):
                continue  # rsync, say: not on every machine
            with self.subTest(command=command):
                folder = self.scratch()
                model = self.modelled(command, folder)
                self.assertEqual(model, set(expected.split()))
                observed = self.observed(command, folder)
                if command.startswith("python3"):
                    self.assertLessEqual(observed, model)  # code may open the path or remove it: both judged
                else:
                    self.assertEqual(observed, model)

    def test_a_writer_on_a_dangling_link(self):
        """`>` and touch create the target; rm removes the link; sed -i finds nothing to read."""
        for command, expected in (("echo y > l", {"gone"}), ("touch l", {"gone"}), ("rm l", {"l"}),
                                  ("sed -i s/x/y/ l", set())):
            with self.subTest(command=command):
                folder = os.path.join(self.tmp, "dangling")
                shutil.rmtree(folder, ignore_errors=True)
                os.makedirs(folder)
                os.symlink("gone", os.path.join(folder, "l"))
                context = cmdline.Context(paths=POSIX)
                runs = cmdline.commands(command, folder, context)

                def exists(path, _run):
                    return os.path.lexists(path)

                model = {os.path.relpath(path, folder) for path, _p, _r in writes.targets_of(
                    runs, context, None, exists, lambda path: POSIX.landing(path, folder))}
                subprocess.run(["bash", "-c", command], cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                observed = {name for name in ("gone",) if os.path.lexists(os.path.join(folder, name))}
                if not os.path.islink(os.path.join(folder, "l")):
                    observed.add("l")
                self.assertEqual(model, expected)
                self.assertEqual(observed, expected)

    def test_without_a_landing_every_path_is_as_written(self):
        context = cmdline.Context(paths=POSIX)
        runs = cmdline.commands("echo y > l && sed -i s/x/y/ m", "/r", context)
        self.assertEqual([p for p, _g, _r in writes.targets_of(runs, context)], ["/r/l", "/r/m"])


def _code_writes(command):
    from peerhooks import wrappers

    return wrappers.code_writes(command)


def edit_call(path, cwd, tool="Edit"):
    tool_input = {"file_path": path, "old_string": "x", "new_string": "y", "replace_all": False}
    if tool == "Write":
        tool_input = {"file_path": path, "content": "x = 2\n"}
    elif tool == "MultiEdit":
        tool_input = {"file_path": path, "edits": [{"old_string": "x", "new_string": "y"}]}
    return {"session_id": ME, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_1", "cwd": cwd}


class EditNoticeThroughALink(support.HomeTestCase):
    """An Edit, Write or MultiEdit of a link to a live peer's uncommitted file: the notice names the
    real file and the link the call goes through."""

    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n"})
        link(self.main, "alias.py", "src/a.py")  # committed, as `CLAUDE.md -> AGENTS.md` is
        git(self.main, "add", "alias.py")
        git(self.main, "commit", "-qm", "a link")
        self.peer_wrote(self.main, "src/a.py", "shop-3a")

    def peer_wrote(self, repo, rel, name):
        path = claudehome.leave_changed(repo, [rel])[0]
        peer = self.claude.live_session(repo, name=name, prompts=["add CSV export to the orders page please"])
        self.claude.append_records(peer.session_id, repo, [
            edit_record(peer.session_id, repo, path, now_ms() - 60000, tool="Write")])
        return path

    def notice(self, name, tool="Edit"):
        result = self.run_hook("edit_notice.py", edit_call(os.path.join(self.main, name), self.main, tool))
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        if not result.stdout:
            return None
        output = json.loads(result.stdout)["hookSpecificOutput"]
        self.assertNotIn("permissionDecision", output)
        return output["additionalContext"]

    def test_each_edit_tool_through_the_link_names_the_real_file(self):
        for tool in ("Edit", "Write", "MultiEdit"):
            with self.subTest(tool=tool):
                shutil.rmtree(os.path.join(self.claude.home, "peerhooks"), ignore_errors=True)  # told afresh
                text = self.notice("alias.py", tool)
                self.assertIsNotNone(text)
                self.assertTrue(text.startswith("peerhooks: src/a.py (the link alias.py leads to it) holds uncommitted "
                                                "work of shop-3a, a live session in this checkout"), text)
                self.assertIn("git shows it untracked now", text)

    def test_once_told_through_the_link_the_file_itself_is_told_already(self):
        self.assertIsNotNone(self.notice("alias.py"))
        self.assertIsNone(self.notice("src/a.py"))
        self.assertIsNone(self.notice("alias.py"))

    def test_a_chain_of_two_links_names_the_file_and_the_link_written(self):
        link(self.main, "docs/alias2.py", "../alias.py")
        text = self.notice("docs/alias2.py")
        self.assertIn("src/a.py (the link docs/alias2.py leads to it) holds uncommitted work of shop-3a", text)

    def test_a_link_out_of_the_checkout_is_not_followed_and_says_nothing_of_where_it_leads(self):
        other = self.repo("other", {"README.md": "there\n"})
        self.peer_wrote(other, "src/b.py", "over-there")  # a peer's uncommitted file in another checkout
        link(self.main, "out.py", "../other/src/b.py")
        self.assertIsNone(self.notice("out.py"))

    def test_a_dangling_link_and_a_loop_are_silent(self):
        link(self.main, "dangling.py", "src/gone.py")
        link(self.main, "loop1.py", "loop2.py")
        link(self.main, "loop2.py", "loop1.py")
        for name in ("dangling.py", "loop1.py"):
            with self.subTest(name=name):
                self.assertIsNone(self.notice(name))

    def test_a_link_to_a_file_nobody_changed_is_silent(self):
        with open(os.path.join(self.main, "mine.py"), "w") as handle:
            handle.write("x = 1\n")
        link(self.main, "alias_mine.py", "mine.py")
        self.assertIsNone(self.notice("alias_mine.py"))


@unittest.skipIf(os.name != "posix" or not shutil.which("bash"), "runs the commands in Bash")
class GuardOnWritesThroughALink(support.HomeTestCase):
    """A shell write through a link beside a live peer's uncommitted file: the guard refuses
    exactly the commands that, run in a copy of the checkout, change the peer's file."""

    PEER_FILE = "src/app.py"

    def setUp(self):
        super().setUp()
        self.main = self.repo("main", {"README.md": "hello\n", "src/app.py": "x = 1\n"})
        link(self.main, "alias.py", "src/app.py")
        link(self.main, "alias2.py", "alias.py")
        git(self.main, "add", "alias.py", "alias2.py")
        git(self.main, "commit", "-qm", "links")
        with open(os.path.join(self.main, self.PEER_FILE), "a") as handle:
            handle.write("# the peer's change\n")
        self.claude.live_session(self.main, name="main-peer", edits=[os.path.join(self.main, self.PEER_FILE)])

    def guard(self, command):
        payload = {"session_id": "this-session-0000", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": command, "description": "x"}, "tool_use_id": "t1", "cwd": self.main}
        result = self.run_hook("git_index_guard.py", payload)
        self.assertEqual(result.returncode, 0, result.stderr)
        if not result.stdout:
            return None
        return json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]

    def run_in_a_copy(self, command):
        """(whether the peer's file changed, whether alias.py is still the link) after running it."""
        copy = os.path.join(self.tmp, "copy")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.main, copy, symlinks=True)
        before = read(os.path.join(copy, self.PEER_FILE))
        subprocess.run(["bash", "-c", command], cwd=copy, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return read(os.path.join(copy, self.PEER_FILE)) != before, os.path.islink(os.path.join(copy, "alias.py"))

    def test_the_verdict_follows_what_the_command_changes(self):
        for command in ("echo x > alias.py", "echo x >> alias2.py", "sed -i s/x/y/ alias.py",
                        "sed -i s/x/y/ alias2.py", "sed -i --follow-symlinks s/x/y/ alias.py",
                        "perl -pi -e s/x/y/ alias.py", "cp README.md alias.py",
                        "cp --remove-destination README.md alias.py", "rm alias.py", "mv README.md alias.py", "echo x | tee alias.py", "truncate -s 0 alias2.py",
                        "ln -sf README.md alias.py", "install README.md alias.py", "dd if=README.md of=alias.py"):
            with self.subTest(command=command):
                peers_file_changed, _link_kept = self.run_in_a_copy(command)
                reason = self.guard(command)
                if peers_file_changed:
                    self.assertIsNotNone(reason, "%s writes the peer's file" % command)
                    self.assertIn("main-peer has src/app.py", reason)
                else:
                    self.assertIsNone(reason, "%s leaves the peer's file as it is" % command)

    def test_echo_and_sed_on_the_link_labelled_by_running_them(self):
        self.assertEqual(self.run_in_a_copy("echo x > alias.py"), (True, True))
        self.assertIn("`echo x > alias.py` would write over or delete it", self.guard("echo x > alias.py"))
        self.assertEqual(self.run_in_a_copy("sed -i s/x/y/ alias.py"), (False, False))  # a file in the link's place
        self.assertIsNone(self.guard("sed -i s/x/y/ alias.py"))

    def test_a_link_out_of_the_checkout_is_judged_as_the_path_given(self):
        outside = os.path.join(self.tmp, "outside.txt")
        with open(outside, "w") as handle:
            handle.write("not a checkout\n")
        link(self.main, "out.txt", outside)
        self.assertIsNone(self.guard("echo x > out.txt"))
        link(self.main, "loop1", "loop2")
        link(self.main, "loop2", "loop1")
        link(self.main, "dangling.py", "src/gone.py")
        for command in ("echo x > loop1", "echo x > dangling.py", "sed -i s/x/y/ dangling.py", "rm loop1"):
            with self.subTest(command=command):
                self.assertIsNone(self.guard(command))

    def test_a_link_the_peer_made_is_its_work_when_a_writer_replaces_it(self):
        link(self.main, "src/peer_link.py", "app.py")
        self.claude.live_session(self.main, name="linker", edits=[os.path.join(self.main, "src/peer_link.py")])
        reason = self.guard("sed -i s/x/y/ src/peer_link.py")
        self.assertIn("src/peer_link.py", reason)
        self.assertNotIn("main-peer", reason.splitlines()[0])  # not the target's owner: the link is replaced


if __name__ == "__main__":
    unittest.main()

"""The warm guard (peerhooks.warm): a judged line answered by a server that holds the library says
exactly what the door would have said itself, takes the line's own environment and folder, never
answers with code that changed on disk, and never costs a line more than its deadlines: whatever
is wrong with the server or its folder, the door judges the line itself.

Every test here runs the guard as Claude Code does, a process per line, with a TMPDIR of its own
(so a server of its own), and stops the server it started."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import support
from support import HomeTestCase

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "guard_corpus"))
import guardrun  # noqa: E402
import oracle  # noqa: E402
import scenario  # noqa: E402
import worlds  # noqa: E402
from peerhooks.warm import client, pages, place, preload, wire  # noqa: E402
from test_git_index_guard import bash  # noqa: E402

SCRIPT = "git_index_guard.py"
NATIVE = support.SIMULATED == "linux" and hasattr(os, "mkfifo") and os.path.isdir("/proc")
START_S = 15.0  # a server loads the library in ~50 ms; a loaded 2-core CI machine gets far more


def server_folder(scripts, tmpdir):
    user_root, folder = client.folder_of(scripts, {b"TMPDIR": os.fsencode(tmpdir)}, os.getuid())
    return user_root, folder


def server_pid(folder):
    """The pid in the folder's pid file while that process is the server of this folder (a pid
    left by a server killed with SIGKILL may since name another process, never to be signalled)."""
    try:
        with open(os.path.join(folder, place.PID)) as handle:
            pid = int(handle.read())
        with open("/proc/%d/cmdline" % pid, "rb") as handle:
            words = handle.read().split(b"\0")
    except (OSError, ValueError):
        return None
    return pid if os.fsencode(folder) in words and alive(pid) else None


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def children_of(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as handle:
            return set(int(word) for word in handle.read().split())
    except OSError:
        return set()


def wait_until(condition, seconds=START_S):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    return condition()


def stop_server(folder):
    pid = server_pid(folder)
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not alive(pid), 10)


@unittest.skipUnless(NATIVE, "the server runs where its door has posix: named pipes, fork, /proc to watch it")
class WarmTestCase(HomeTestCase):
    SCRIPTS = support.SCRIPTS

    def setUp(self):
        super().setUp()
        self.tmpdir = os.path.join(self.tmp, "tmp")
        os.mkdir(self.tmpdir)
        self.user_root, self.folder = server_folder(self.SCRIPTS, self.tmpdir)
        self.addCleanup(stop_server, self.folder)
        self.main = support.make_repo(os.path.join(self.tmp, "main"), {"README.md": "hello\n", "src/app.py": "x = 1\n"})

    def env(self, **extra):
        return self.claude.env(TMPDIR=self.tmpdir, **extra)

    def guard(self, command, env=None, cwd=None, script_folder=None, timeout=60):
        started = time.monotonic()
        done = subprocess.run(support.PYTHON + [os.path.join(script_folder or self.SCRIPTS, SCRIPT)],
                              input=support.payload_bytes(bash(command, self.main)), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env or self.env(), cwd=cwd or self.main, timeout=timeout)
        return SimpleNamespace(code=done.returncode, out=done.stdout, err=done.stderr, seconds=time.monotonic() - started)

    def judged_by_the_door(self, command, **extra):
        return self.guard(command, env=self.env(PEERHOOKS_WARM="off", **extra))

    def started_server(self, folder=None):
        """The server a first judged line starts (its pid), once it listens with a spare child."""
        folder = folder or self.folder
        pid = wait_until(lambda: server_pid(folder))
        self.assertIsNotNone(pid, "no server started")
        self.assertTrue(wait_until(lambda: children_of(pid)), "the server has no spare child")
        return pid

    def answered_by_the_server(self, pid, run):
        """run()'s result, and whether the server's spare answered it (it is gone, a new one forked)."""
        spares = wait_until(lambda: children_of(pid))
        result = run()
        replaced = wait_until(lambda: children_of(pid) and not (children_of(pid) & spares), 5)
        return result, bool(replaced)

    def working_peer(self, name="main-peer", files=("src/app.py", "src/peer_new.py")):
        edits = []
        for rel in files:
            path = os.path.join(self.main, rel)
            with open(path, "a") as handle:
                handle.write("# %s's change\n" % name)
            edits.append(path)
        return self.claude.live_session(self.main, name=name, edits=edits)


class TheServerAnswersAsTheDoor(WarmTestCase):
    def test_a_judged_line_is_answered_by_the_server_with_the_doors_own_bytes(self):
        self.working_peer()
        first = self.guard("git add -A")  # judged by the door, which starts the server
        pid = self.started_server()
        warm, by_server = self.answered_by_the_server(pid, lambda: self.guard("git add -A"))
        self.assertTrue(by_server)
        door = self.judged_by_the_door("git add -A")
        self.assertEqual((warm.code, warm.out, warm.err), (door.code, door.out, door.err))
        self.assertEqual((first.code, first.out, first.err), (door.code, door.out, door.err))
        self.assertEqual(json.loads(warm.out)["hookSpecificOutput"]["permissionDecision"], "deny")

    def test_the_line_is_judged_in_its_own_environment_and_folder(self):
        self.working_peer()
        self.guard("git add -A")
        pid = self.started_server()
        off, by_server = self.answered_by_the_server(pid, lambda: self.guard("git add -A", env=self.env(PEERHOOKS_GUARD="off")))
        self.assertTrue(by_server)
        self.assertEqual((off.code, off.out, off.err), (0, b"", b""))  # the human's escape, read per line
        elsewhere = support.make_repo(os.path.join(self.tmp, "other"), {"a.txt": "a\n"})
        moved, by_server = self.answered_by_the_server(pid, lambda: self.guard("cd %s && git add -A" % elsewhere))
        self.assertTrue(by_server)
        self.assertEqual(moved.out, self.judged_by_the_door("cd %s && git add -A" % elsewhere).out)
        # git is found on the line's own PATH: a PATH without git is judged as the door judges it
        bare = self.env(PATH=self.tmpdir)
        gitless, by_server = self.answered_by_the_server(pid, lambda: self.guard("git add -A", env=bare))
        self.assertTrue(by_server)
        self.assertEqual(gitless.out, self.guard("git add -A", env=dict(bare, PEERHOOKS_WARM="off")).out)

    def test_lines_judged_at_once_each_get_their_own_answer(self):
        self.working_peer()
        self.guard("git add -A")
        self.started_server()
        commands = ["git add -A", "git commit -am x", "git stash", "git add src", "git status", "git checkout ."] * 3
        with ThreadPoolExecutor(max_workers=8) as pool:
            warm = list(pool.map(self.guard, commands))
        for command, result in zip(commands, warm):
            door = self.judged_by_the_door(command)
            self.assertEqual((result.code, result.out, result.err), (door.code, door.out, door.err), command)

    def test_quiet_and_counted_runs_never_reach_the_server(self):
        self.assertFalse(client.wanted({b"PEERHOOKS_WARM": b"off"}, sys.flags, {}, []))
        self.assertFalse(client.wanted({}, sys.flags, {"importtime": True}, []))
        self.assertFalse(client.wanted({b"PYTHONPROFILEIMPORTTIME": b"1"}, sys.flags, {}, []))
        self.assertFalse(client.wanted({}, sys.flags, {}, ["peerhooks.platform"]))  # a caller set the library up
        self.assertTrue(client.wanted({}, sys.flags, {}, sorted(client.DOOR_MODULES) + ["os"]))


class NothingStaleNothingStuck(WarmTestCase):
    def copy_of_the_scripts(self):
        copy = os.path.join(self.tmp, "scripts")
        shutil.copytree(self.SCRIPTS, copy, ignore=shutil.ignore_patterns("__pycache__"))
        return copy

    def test_code_changed_on_disk_is_never_what_answers(self):
        scripts = self.copy_of_the_scripts()
        _root, folder = server_folder(scripts, self.tmpdir)
        self.addCleanup(stop_server, folder)
        self.working_peer()
        self.guard("git add -A", script_folder=scripts)
        pid = self.started_server(folder)
        verdict = os.path.join(scripts, "peerhooks", "guard_verdict.py")
        with open(verdict, encoding="utf-8") as handle:
            text = handle.read()
        mark = 'REFUSAL_MARK = "peerhooks git guard"'
        self.assertTrue(mark in text, "guard_verdict.py no longer sets its mark so")
        with open(verdict, "w", encoding="utf-8") as handle:
            handle.write(text.replace(mark, 'REFUSAL_MARK = "peerhooks git guard (updated)"'))
        after = self.guard("git add -A", script_folder=scripts)
        self.assertIn(b"peerhooks git guard (updated): ", after.out)
        self.assertTrue(wait_until(lambda: not alive(pid), 10), "the stale server did not end")
        again = self.guard("git add -A", script_folder=scripts)  # judged by the door or a new server
        self.assertIn(b"peerhooks git guard (updated): ", again.out)

    def test_a_stopped_server_costs_a_line_its_accept_deadline_and_the_door_judges_it(self):
        self.working_peer()
        door = self.judged_by_the_door("git add -A")
        self.guard("git add -A")
        pid = self.started_server()
        os.kill(pid, signal.SIGSTOP)
        try:
            stuck = self.guard("git add -A")
        finally:
            os.kill(pid, signal.SIGCONT)
        self.assertEqual((stuck.code, stuck.out, stuck.err), (door.code, door.out, door.err))
        self.assertGreaterEqual(stuck.seconds, client.ACCEPT_S * 0.9)  # it waited, then judged (guard()'s timeout bounds it)

    def test_a_pipe_nobody_reads_is_judged_by_the_door_and_a_server_started(self):
        self.working_peer()
        os.makedirs(self.folder, mode=0o700)
        os.chmod(self.user_root, 0o700)
        os.mkfifo(os.path.join(self.folder, place.REQUESTS), 0o600)  # left by a server killed with SIGKILL
        door = self.judged_by_the_door("git add -A")
        orphaned = self.guard("git add -A")
        self.assertEqual(orphaned.out, door.out)
        self.started_server()  # the door found no reader and started one

    def test_the_server_ends_when_its_folder_goes_and_on_sigterm_removes_what_it_made(self):
        self.guard("git add -A")
        pid = self.started_server()
        os.kill(pid, signal.SIGTERM)
        self.assertTrue(wait_until(lambda: not alive(pid), 10))
        self.assertEqual(sorted(os.listdir(self.folder)), [])
        self.guard("git add -A")
        pid = self.started_server()
        shutil.rmtree(self.user_root)
        self.assertTrue(wait_until(lambda: not alive(pid), 10), "the server outlived its folder")


class AnUntrustedFolderIsNeverUsed(WarmTestCase):
    def assertJudgedByTheDoor(self):
        self.working_peer()
        door = self.judged_by_the_door("git add -A")
        for _ in range(2):
            result = self.guard("git add -A")
            self.assertEqual((result.code, result.out, result.err), (door.code, door.out, door.err))
        time.sleep(0.3)  # a server started anyway would have made something by now

    def test_a_user_folder_that_is_a_link_is_not_followed(self):
        elsewhere = os.path.join(self.tmp, "elsewhere")
        os.mkdir(elsewhere, 0o700)
        os.symlink(elsewhere, self.user_root)
        self.assertJudgedByTheDoor()
        self.assertEqual(os.listdir(elsewhere), [])  # nothing made through the link

    def test_a_folder_others_may_enter_is_not_used(self):
        os.makedirs(self.folder)
        os.chmod(self.user_root, 0o700)
        os.chmod(self.folder, 0o755)
        self.assertJudgedByTheDoor()
        self.assertEqual(os.listdir(self.folder), [])

    def test_a_regular_file_in_the_pipes_place_is_not_written(self):
        os.makedirs(self.folder, mode=0o700)
        os.chmod(self.user_root, 0o700)
        planted = os.path.join(self.folder, place.REQUESTS)
        with open(planted, "w") as handle:
            handle.write("planted\n")
        self.assertJudgedByTheDoor()
        with open(planted) as handle:
            self.assertEqual(handle.read(), "planted\n")


@unittest.skipUnless(NATIVE, "the server runs where its door has posix")
class TheCorpusAnswersAlikeWarmAndCold(unittest.TestCase):
    """A slice of the guard corpus in four worlds, each line judged by the server and by the door:
    the same exit code, stdout and stderr, byte for byte."""
    STRIDE = 9
    WORLDS = (worlds.MIXED, worlds.UNTRACKED_ONLY, worlds.STASH, worlds.SUBAGENTS)

    def test_every_line_gets_the_doors_answer_from_the_server(self):
        entries = oracle.load()[::self.STRIDE]
        root = os.path.realpath(support.tempfile.mkdtemp(prefix="warm-corpus-"))
        self.addCleanup(shutil.rmtree, root, True)
        tmpdir = os.path.join(root, "tmp")
        os.mkdir(tmpdir)
        folder = server_folder(support.SCRIPTS, tmpdir)[1]
        self.addCleanup(stop_server, folder)
        script = os.path.join(support.SCRIPTS, SCRIPT)
        differ, served = [], 0
        for world in self.WORLDS:
            built = scenario.build(os.path.join(root, world.name), world, live=True, scripts=support.SCRIPTS)
            try:
                for entry in entries:
                    payload, env = guardrun.hook_input(built, entry["line"], entry["cwd"])
                    where = built.cwd(entry["cwd"])
                    where = where if os.path.isdir(where) else built.checkout
                    answers = []
                    for warm in ("on", "off"):
                        done = subprocess.run(support.PYTHON + [script], input=support.payload_bytes(payload),
                                              env=dict(env, TMPDIR=tmpdir, PEERHOOKS_WARM=warm), cwd=where,
                                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
                        answers.append((done.returncode, done.stdout, done.stderr))
                    served += server_pid(folder) is not None
                    if answers[0] != answers[1]:
                        differ.append("%s [%s, %s]: %r against %r" % (entry["line"], world.name, entry["cwd"],
                                                                    answers[0], answers[1]))
            finally:
                built.close()
        self.assertEqual(differ, [])
        self.assertGreater(served, len(entries) * len(self.WORLDS) // 2)  # most lines did reach a server


class TheWire(unittest.TestCase):
    def test_a_request_comes_back_whole_whatever_its_payload_holds(self):
        raw = b'{"tool_input": {"command": "git add -A"}}\0\xff trailing\n'
        data = wire.encode_request("/w/caf\udce9", 0o022, (("utf-8", "strict"), ("ascii", "backslashreplace")),
                                   ["--x", "y"], {b"HOME": b"/h", b"A": b"b=c", "T": "t\udcff"}, raw)
        request = wire.decode_request(data)
        self.assertEqual((request.cwd, request.umask, request.argv, request.raw),
                         ("/w/caf\udce9", 0o022, ["--x", "y"], raw))
        self.assertEqual(request.environ, {"HOME": "/h", "A": "b=c", "T": "t\udcff"})
        self.assertEqual((request.stderr_encoding, request.stderr_errors), ("ascii", "backslashreplace"))

    def test_anything_else_is_not_a_request(self):
        good = wire.encode_request("/", 0, (("utf-8", "strict"),) * 2, [], {}, b"{}")
        for data in (b"", b"PHW1", b"XXXX" + good[4:], good[:12], good.replace(b"\x000\x00", b"\x00x\x00", 1),
                     b"PHW1\0/\0" + b"9" * 20 + b"\0"):
            self.assertIsNone(wire.decode_request(data), data)

    def test_an_answer_is_whole_only_when_every_byte_is_there(self):
        data = wire.encode_answer(2, b"out\n", b"err\n")
        for cut in range(len(data)):
            self.assertIsNone(wire.decode_answer(data[:cut]))
        self.assertEqual(wire.decode_answer(data), (2, b"out\n", b"err\n"))
        for bad in (data + b"x", b"PHW1 x 1 1\n", b"NOPE 0 0 0\n", b"PHW1 " + b"1" * 80):
            with self.assertRaises(ValueError):
                wire.decode_answer(bad)


class ThePlace(unittest.TestCase):
    def test_each_install_and_interpreter_has_a_folder_of_its_own(self):
        keys = {place.key(s, e, v) for s in ("/a/scripts", "/b/scripts") for e in ("/usr/bin/python3", "/v/python3")
                for v in (0x30900F0, 0x30B07F0)}
        self.assertEqual(len(keys), 8)
        self.assertEqual(place.key("/a", "/p", 1), place.key("/a", "/p", 1))

    def test_the_folder_is_under_tmpdir_or_tmp(self):
        self.assertEqual(place.root(b"/var/t/", 501), "/var/t/peerhooks-warm-501")
        self.assertEqual(place.root(None, 0), "/tmp/peerhooks-warm-0")
        self.assertEqual(place.root("relative/dir", 7), "/tmp/peerhooks-warm-7")

    def test_only_a_private_directory_of_this_user_is_trusted(self):
        def status(mode, uid=1000):
            return SimpleNamespace(st_mode=mode, st_uid=uid)
        self.assertTrue(place.is_private_folder(status(stat.S_IFDIR | 0o700), 1000))
        self.assertFalse(place.is_private_folder(status(stat.S_IFDIR | 0o750), 1000))
        self.assertFalse(place.is_private_folder(status(stat.S_IFDIR | 0o700, 0), 1000))
        self.assertFalse(place.is_private_folder(status(stat.S_IFLNK | 0o777), 1000))
        self.assertTrue(place.is_own_pipe(status(stat.S_IFIFO | 0o600), 1000))
        self.assertFalse(place.is_own_pipe(status(stat.S_IFREG | 0o600), 1000))


class TouchingPages(unittest.TestCase):
    def test_touching_stops_at_the_first_look_that_says_stop(self):
        looks = []
        self.assertFalse(pages.touch(range(10 * pages.SLICE_OBJECTS), lambda: looks.append(1) or True))
        self.assertEqual(len(looks), 1)
        self.assertTrue(pages.touch(range(10), lambda: True))

    def test_the_objects_held_include_functions_code_and_their_constants(self):
        held = list(pages.held_objects([pages]))
        self.assertIn(pages.touch, held)
        self.assertIn(pages.touch.__code__, held)
        self.assertIn(pages.held_objects.__code__.co_consts, held)


class WhatTheServerLoads(unittest.TestCase):
    class Sources:
        def __init__(self, files):
            self.files = files

        def text(self, name):
            return self.files.get(name)

        def is_package(self, name):
            return name in ("p", "p.sub")

    def test_the_closure_follows_imports_inside_functions_and_from_lists(self):
        files = {
            "p.start": "from . import a\nfrom .b import thing\ndef f():\n    from . import (c, d)\n",
            "p.a": "from .sub import deep\n",
            "p.b": "x = 1\n",
            "p.c": "",
            "p.d": "from .. import outside\n",
            "p.sub": "from . import deep\n",
            "p.sub.deep": "from .. import a  # a cycle\n",
            "p.unused": "",
        }
        self.assertEqual(preload.closure("p.start", self.Sources(files)),
                         ["p.a", "p.b", "p.c", "p.d", "p.start", "p.sub", "p.sub.deep"])

    def test_the_guards_closure_holds_what_a_judged_line_loads_and_no_other_hook(self):
        names = preload.closure(preload.START, preload.PackageSources(support.SCRIPTS))
        for module in ("peerhooks.hook_git_guard", "peerhooks.guard_verdict", "peerhooks.narrow", "peerhooks.redact",
                       "peerhooks.gitstate", "peerhooks.guard_lookup", "peerhooks.wrappers.follower"):
            self.assertIn(module, names)
        for other in ("peerhooks.hook_peers", "peerhooks.hook_cold_start", "peerhooks.hook_memory_delta"):
            self.assertNotIn(other, names)


if __name__ == "__main__":
    unittest.main()

"""peerhooks.startup.oscalls and peerhooks.startup.posix_paths: the calls and path arithmetic a judged guard line makes
without importing `os` answer exactly as os and posixpath do."""
import itertools
import os
import posixpath
import random
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import support
from peerhooks.startup import oscalls

try:
    from peerhooks.startup import posix_paths
except ImportError:  # a system without the posix module (Windows): oscalls hands out os there
    posix_paths = None

PARTS = ("", "/", "//", "///", ".", "..", "...", "a", "b.py", ".bashrc", "..x", "a.b.c", "~", "~root", "~nobody-here", "a/", "./a", "../b",
         "a//b", "/a/./b/../c", " ", "é", "a\\b", "C:")


def generated_paths(count=4000, seed=20261203):
    """Paths joined from awkward parts (every pair, then random longer runs): what the comparisons run on."""
    paths = ["".join(pair) for pair in itertools.product(PARTS, repeat=2)]
    paths += ["/".join(pair) for pair in itertools.product(PARTS, repeat=2)]
    rng = random.Random(seed)
    paths += ["/".join(rng.choice(PARTS) for _ in range(rng.randint(1, 7))) for _ in range(count)]
    return paths


@unittest.skipIf(posix_paths is None, "POSIX only: elsewhere oscalls is os")
class PosixPathsAnswerAsPosixpath(unittest.TestCase):
    def test_the_arithmetic_agrees_on_every_generated_path(self):
        for path in generated_paths():
            for name in ("split", "splitext", "dirname", "basename", "isabs", "normpath", "abspath"):
                self.assertEqual(getattr(posix_paths, name)(path), getattr(posixpath, name)(path), (name, path))
            if path:
                self.assertEqual(posix_paths.relpath(path), posixpath.relpath(path), path)
                self.assertEqual(posix_paths.relpath(path, "/a/b"), posixpath.relpath(path, "/a/b"), path)

    def test_join_agrees_on_pairs_and_runs(self):
        for first, second in itertools.product(PARTS, repeat=2):
            self.assertEqual(posix_paths.join(first, second), posixpath.join(first, second), (first, second))
            self.assertEqual(posix_paths.join(first, second, first), posixpath.join(first, second, first))
        self.assertEqual(posix_paths.join("a"), "a")

    def test_the_python_normpath_agrees_where_the_c_one_answers(self):
        for path in generated_paths(1000):
            self.assertEqual(posix_paths._python_normpath(path), posixpath.normpath(path), path)

    def test_wrong_types_fail_as_posixpath_fails(self):
        for name in ("join", "split", "dirname", "basename", "normpath", "abspath", "realpath", "relpath"):
            with self.assertRaises(TypeError):
                getattr(posix_paths, name)(None)
        with self.assertRaises(TypeError):
            posix_paths.join("a", None)
        with self.assertRaises(ValueError):
            posix_paths.relpath("")

    def test_path_objects_are_read_as_their_text(self):
        import pathlib

        self.assertEqual(posix_paths.join(pathlib.PurePosixPath("a"), pathlib.PurePosixPath("b")), "a/b")
        self.assertEqual(posix_paths.dirname(pathlib.PurePosixPath("/a/b")), "/a")


@unittest.skipIf(posix_paths is None, "POSIX only: elsewhere oscalls is os")
class PosixPathsOnARealTree(unittest.TestCase):
    """realpath and the stat questions on files, folders and links (relative, absolute, chained,
    dangling, looping, through `..`), each answered as posixpath answers it."""

    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-test-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        join = os.path.join
        os.makedirs(join(self.root, "a", "b", "c"))
        with open(join(self.root, "a", "file.txt"), "w") as handle:
            handle.write("x")
        links = {
            "up": "..", "abs": join(self.root, "a", "b"), "rel": "a/b", "chain": "rel", "dangling": "nowhere/x",
            "loop1": "loop2", "loop2": "loop1", "self": "self", "file-link": "a/file.txt",
            "a/b/back": "../../a", "a/b/c/deep": "../../../chain/c", "dotdot-after": "a/b/c/../..",
        }
        for name, target in links.items():
            os.symlink(target, join(self.root, name))
        self.names = sorted(links) + ["a", "a/b", "a/b/c", "a/file.txt", "missing", "a/missing/../b"]

    def candidates(self):
        for name in self.names:
            for suffix in ("", "/", "/.", "/..", "/c", "/../a", "/missing/more"):
                yield os.path.join(self.root, name + suffix)
                yield name + suffix  # relative: from the cwd, set to the root below

    def test_realpath_agrees_on_links_loops_and_missing_parts(self):
        with _cwd(self.root):
            for path in self.candidates():
                self.assertEqual(posix_paths.realpath(path), os.path.realpath(path), path)

    def test_the_stat_questions_agree(self):
        with _cwd(self.root):
            for path in list(self.candidates()) + ["", "bad\0path"]:
                for name in ("isdir", "isfile", "islink", "exists", "lexists"):
                    self.assertEqual(getattr(posix_paths, name)(path), getattr(os.path, name)(path), (name, path))

    def test_expanduser_reads_home_as_posixpath_does(self):
        for home in ("/home/someone", "/home/someone/", "/", ""):
            with mock.patch.dict(os.environ, {"HOME": home}):
                for path in ("~", "~/x", "~x", "x/~", "~/", "~root/x", "~no-such-user-here/x"):
                    self.assertEqual(posix_paths.expanduser(path), os.path.expanduser(path), (home, path))
        with mock.patch.dict(os.environ, clear=True):
            self.assertEqual(posix_paths.expanduser("~/x"), os.path.expanduser("~/x"))


class _cwd:
    """In this folder for the block: relative paths are read from it."""

    def __init__(self, folder):
        self.folder = folder

    def __enter__(self):
        self.before = os.getcwd()
        os.chdir(self.folder)

    def __exit__(self, *_):
        os.chdir(self.before)


class OscallsIsWhatOsWouldGive(unittest.TestCase):
    def test_every_call_is_oss_own_and_a_missing_one_is_missing_from_both(self):
        for name in oscalls.CALLS:
            self.assertEqual(hasattr(oscalls, name), hasattr(os, name), name)
            if hasattr(os, name):
                self.assertIs(getattr(oscalls, name), getattr(os, name), name)
        self.assertEqual((oscalls.sep, oscalls.name, oscalls.devnull), (os.sep, os.name, os.devnull))

    def test_fdopen_opens_a_descriptor_as_os_fdopen_does(self):
        read, write = os.pipe()
        with oscalls.fdopen(write, "w", encoding="utf-8") as writer:
            writer.write("é\n")
        with oscalls.fdopen(read, "rb") as reader:
            self.assertEqual(reader.read(), "é\n".encode("utf-8"))
        with self.assertRaises(TypeError):
            oscalls.fdopen("3")

    @unittest.skipIf(posix_paths is None, "POSIX only: elsewhere oscalls is os")
    def test_a_hook_process_gets_the_environment_without_importing_os(self):
        program = ("import sys; sys.path.insert(0, %r); from peerhooks.startup import oscalls; "
                   "print(sorted(set(sys.modules) & {'os', 'posixpath', '_collections_abc', 'stat'})); "
                   "print(oscalls.environ['ODD'] == 'caf\\xe9 \\udcff', type(oscalls.environ).__name__)" % support.SCRIPTS)
        env = dict(os.environ, ODD="café \udcff")
        completed = subprocess.run([sys.executable, "-S", "-c", program], env=env, capture_output=True,
                                   text=True, timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual(completed.stdout.split("\n")[:2], ["[]", "True dict"], completed.stderr)

    def test_without_a_posix_module_it_hands_out_os_itself(self):
        """Windows has `nt`, not `posix`: there oscalls is os, os.path and posixpath (no machine of
        ours runs Windows, so the module is hidden here, after os has loaded)."""
        program = ("import os, posixpath, sys; sys.modules['posix'] = None; sys.path.insert(0, %r); "
                   "from peerhooks.startup import oscalls; "
                   "print(oscalls.path is os.path, oscalls.posixpath is posixpath, oscalls.environ is os.environ, "
                   "oscalls.fdopen is os.fdopen, oscalls.lstat is os.lstat, oscalls.sep == os.sep, "
                   "'peerhooks.startup.posix_paths' in sys.modules)" % support.SCRIPTS)
        completed = subprocess.run([sys.executable, "-S", "-c", program], capture_output=True, text=True,
                                   timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual(completed.stdout.split(), ["True"] * 6 + ["False"], completed.stderr)

    def test_in_a_process_that_imported_os_the_environment_is_oss(self):
        self.assertIs(oscalls.environ, os.environ)  # a test that patches os.environ patches the hooks'


if __name__ == "__main__":
    unittest.main()

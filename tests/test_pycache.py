"""peerhooks.pycache: our modules load from their cached bytecode exactly when importlib would use
it, and from their source through the standard loader whenever it would not."""
import compileall
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import support
from peerhooks import pycache

MAGIC = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER


def header(mtime, size, flags=b"\0\0\0\0", magic=MAGIC):
    return magic + flags + (int(mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (size & 0xFFFFFFFF).to_bytes(4, "little")


class TheHeaderCheck(unittest.TestCase):
    def test_a_header_matching_the_source_is_valid(self):
        self.assertTrue(pycache.valid_for(header(1700000000.9, 42), 1700000000.9, 42, MAGIC))

    def test_another_mtime_size_magic_or_the_hash_form_is_not(self):
        for data in (header(1700000001, 42), header(1700000000, 43), header(1700000000, 42, magic=b"abcd"),
                     header(1700000000, 42, flags=b"\3\0\0\0"), header(1700000000, 42)[:12]):
            self.assertFalse(pycache.valid_for(data, 1700000000, 42, MAGIC), data)

    def test_it_agrees_with_the_header_py_compile_writes(self):
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "m.py")
            with open(source, "w") as file:
                file.write("X = 1\n")
            cached = py_compile.compile(source, doraise=True,
                                        invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
            with open(cached, "rb") as file:
                data = file.read()
            stat = os.stat(source)
            self.assertTrue(pycache.valid_for(data, stat.st_mtime, stat.st_size, MAGIC))


PROBE = textwrap.dedent("""
    import importlib, json, sys
    import pkg.mod, pkg.sub.leaf
    def seen(module):
        return {"loader": type(module.__loader__).__name__, "file": module.__file__,
                "cached": module.__cached__, "origin": module.__spec__.origin,
                "path": getattr(module, "__path__", None), "value": getattr(module, "VALUE", None),
                "doc": module.__doc__}
    found = {"mod": seen(pkg.mod), "sub": seen(pkg.sub), "leaf": seen(pkg.sub.leaf)}
    if len(sys.argv) > 1:
        with open(pkg.mod.__file__, "a") as file:
            file.write("VALUE = 'reloaded'\\n")
        found["reloaded"] = seen(importlib.reload(pkg.mod))
    print(json.dumps(found))
""")


class ImportingAPackageThatInstallsIt(unittest.TestCase):
    """A package laid out as peerhooks is (a module, a subpackage with a module), installing the
    finder as peerhooks/__init__.py does, imported by a fresh `python3 -S`."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder, True)
        package = os.path.join(self.folder, "pkg")
        os.makedirs(os.path.join(package, "sub"))
        shutil.copy(pycache.__file__, os.path.join(package, "pycache.py"))
        files = {"__init__.py": "from . import pycache\npycache.install(__name__)\n",
                 "mod.py": "'''the mod'''\nVALUE = 'mod'\n", "sub/__init__.py": "VALUE = 'sub'\n", "sub/leaf.py": "VALUE = 'leaf'\n"}
        for name, text in files.items():
            with open(os.path.join(package, name), "w") as file:
                file.write(text)
        self.package = package

    def compile(self, *names, mode=py_compile.PycInvalidationMode.TIMESTAMP, optimize=0):
        for name in names or ("__init__.py", "pycache.py", "mod.py", "sub/__init__.py", "sub/leaf.py"):
            py_compile.compile(os.path.join(self.package, name), doraise=True, invalidation_mode=mode,
                               optimize=optimize)

    def probe(self, *args, flags=()):
        completed = subprocess.run([sys.executable, "-S"] + list(flags) + ["-c", PROBE] + list(args),
                                   cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return json.loads(completed.stdout)

    def test_fresh_bytecode_is_loaded_by_the_finder_with_a_source_files_attributes(self):
        self.compile()
        found = self.probe()
        for key, relative in (("mod", "mod.py"), ("sub", "sub/__init__.py"), ("leaf", "sub/leaf.py")):
            module = found[key]
            source = os.path.join(self.package, relative)
            self.assertEqual(module["loader"], "_Loader", key)
            self.assertEqual((module["file"], module["origin"]), (source, source))
            folder, name = os.path.split(source)
            self.assertEqual(module["cached"], os.path.join(folder, "__pycache__", name[:-3] + "."
                                                            + sys.implementation.cache_tag + ".pyc"))
            self.assertEqual(module["value"], key)
        self.assertEqual(found["sub"]["path"], [os.path.join(self.package, "sub")])

    def test_a_stale_pyc_is_left_to_the_standard_loader_which_reads_the_source(self):
        self.compile()
        source = os.path.join(self.package, "mod.py")
        with open(source, "w") as file:
            file.write("VALUE = 'edited since'\n")
        found = self.probe()
        self.assertEqual((found["mod"]["loader"], found["mod"]["value"]), ("SourceFileLoader", "edited since"))
        self.assertEqual(found["leaf"]["loader"], "_Loader")

    def test_no_pyc_a_hash_based_pyc_or_a_damaged_header_is_left_to_the_standard_loader(self):
        self.compile("__init__.py", "pycache.py", "sub/__init__.py")
        self.compile("sub/leaf.py", mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        found = self.probe()
        self.assertEqual((found["mod"]["loader"], found["mod"]["value"]), ("SourceFileLoader", "mod"))
        self.assertEqual((found["leaf"]["loader"], found["leaf"]["value"]), ("SourceFileLoader", "leaf"))
        self.assertEqual(found["sub"]["loader"], "_Loader")
        self.compile("mod.py")
        cached = found["mod"]["cached"]
        with open(cached, "r+b") as file:
            file.write(b"junk")
        self.assertEqual(self.probe()["mod"]["loader"], "SourceFileLoader")

    def test_the_docstringless_bytecode_is_preferred_while_it_is_fresh(self):
        self.compile()
        self.compile("mod.py", optimize=2)
        found = self.probe()["mod"]
        self.assertEqual((found["loader"], found["value"], found["doc"]), ("_Loader", "mod", None))
        self.assertTrue(found["cached"].endswith(".opt-2.pyc"), found["cached"])
        source = os.path.join(self.package, "mod.py")
        with open(source, "a") as file:
            file.write("# edited since\n")
        self.compile("mod.py")  # the plain pyc follows the edit; the -OO one is now stale
        found = self.probe()["mod"]
        self.assertEqual((found["loader"], found["doc"]), ("_Loader", "the mod"))
        self.assertFalse(found["cached"].endswith(".opt-2.pyc"), found["cached"])

    @unittest.skipUnless(hasattr(os, "mkfifo"), "a FIFO needs a POSIX system")
    def test_a_fifo_in_the_cache_folder_is_passed_over_without_blocking(self):
        self.compile()
        os.mkfifo(os.path.join(self.package, "__pycache__", "mod.%s.opt-2.pyc" % sys.implementation.cache_tag))
        found = self.probe()["mod"]
        self.assertEqual((found["loader"], found["value"]), ("_Loader", "mod"))
        self.assertFalse(found["cached"].endswith(".opt-2.pyc"), found["cached"])

    def test_a_reload_reads_the_source_again(self):
        self.compile()
        found = self.probe("reload")
        self.assertEqual(found["reloaded"]["value"], "reloaded")

    def test_under_optimisation_the_finder_stays_out(self):
        self.compile()
        found = self.probe(flags=["-O"])
        self.assertEqual((found["mod"]["loader"], found["mod"]["value"]), ("SourceFileLoader", "mod"))


RELATIVE_PROBE = textwrap.dedent("""
    import builtins, json, sys
    sys.path.insert(0, sys.argv[1])
    fast = sys.argv[2] == "fast"
    import pkg
    from pkg import pycache
    finder = pycache.install("pkg")
    before = builtins.__import__
    def seen(module):
        spec = module.__spec__
        return {"name": module.__name__, "file": module.__file__, "cached": module.__cached__,
                "package": module.__package__, "spec": [spec.name, spec.origin, spec.parent, spec.cached],
                "loader": type(module.__loader__).__name__, "path": getattr(module, "__path__", None),
                "value": getattr(module, "VALUE", None)}
    found = {}
    bootstrap = sys.modules["_frozen_importlib"]
    through_importlib, find_and_load = [], bootstrap._find_and_load
    def counted(name, import_):
        through_importlib.append(name)
        return find_and_load(name, import_)
    bootstrap._find_and_load = counted
    imports = pycache.RelativeImports(finder)
    if fast:
        imports.__enter__()
    try:
        from pkg import entry
        for name in ("entry", "mod", "a", "b", "sub", "sub.leaf"):
            module = sys.modules["pkg." + name]
            found[name] = seen(module)
            parent, _, child = ("pkg." + name).rpartition(".")
            found[name]["bound"] = getattr(sys.modules[parent], child) is module
        found["cycle"] = entry.b.a_value()
        found["leaf_up"] = entry.leaf.UP
        for statement in ("from pkg import bad", "from pkg import bad", "from pkg.mod import missing",
                          "from pkg import missing_module"):
            try:
                entry.load(statement)  # run inside the package, as its modules' imports are
            except Exception as error:
                found.setdefault("errors", []).append([type(error).__name__, str(error).split(" (")[0]])
        found["bad_in_modules"] = "pkg.bad" in sys.modules
    finally:
        if fast:
            imports.__exit__(None, None, None)
    found["restored"] = builtins.__import__ is before
    bootstrap._find_and_load = find_and_load
    print(json.dumps(through_importlib), file=sys.stderr)
    print(json.dumps(found))
""")


class RelativeImportsWhileAHookRuns(unittest.TestCase):
    """pycache.RelativeImports makes the package's modules exactly as importlib does (attributes,
    binding on the parent, cycles, failures, what it cannot answer), and leaves builtins as it found
    them."""

    FILES = {
        "__init__.py": "",
        "entry.py": ("from . import mod, a\nfrom .sub import leaf\nfrom .mod import VALUE as MOD_VALUE\nfrom . import b\n"
                     "VALUE = 'entry'\n"
                     "def load(statement):\n"
                     "    namespace = {'__package__': __package__, '__name__': __name__}\n"
                     "    exec(statement.replace('from pkg ', 'from . ').replace('from pkg.', 'from .'), namespace)\n"),
        "mod.py": "VALUE = 'mod'\n",
        "a.py": "from . import b\nVALUE = 'a'\n",
        "b.py": "from . import a\nVALUE = 'b'\ndef a_value():\n    return a.VALUE\n",
        "bad.py": "raise RuntimeError('the body fails')\n",
        "sub/__init__.py": "VALUE = 'sub'\n",
        "sub/leaf.py": "from .. import mod\nUP = mod.VALUE\nVALUE = 'leaf'\n",
    }

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.package = os.path.join(self.folder, "pkg")
        os.makedirs(os.path.join(self.package, "sub"))
        shutil.copy(pycache.__file__, os.path.join(self.package, "pycache.py"))
        for name, text in self.FILES.items():
            with open(os.path.join(self.package, name), "w") as file:
                file.write(text)
        compileall.compile_dir(self.package, quiet=1)

    def probe(self, mode, flags=(), **env):
        completed = subprocess.run([sys.executable, "-S"] + list(flags) + ["-c", RELATIVE_PROBE, self.folder, mode],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=support.SCRIPT_TIMEOUT,
                                   env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **env))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        reported = [line for line in completed.stderr.decode().splitlines() if not line.startswith("import time:")]
        return json.loads(completed.stdout), json.loads(reported[-1])

    def test_a_run_that_reports_its_import_times_leaves_every_import_to_importlib(self):
        for flags, env in ((["-X", "importtime"], {}), ((), {"PYTHONPROFILEIMPORTTIME": "1"})):
            found, made_by_importlib = self.probe("fast", flags, **env)
            self.assertIn("pkg.mod", made_by_importlib, (flags, env))  # so -X importtime counts every module
            self.assertTrue(found["restored"])

    def test_the_modules_cycles_and_failures_are_importlibs(self):
        (fast, made_by_importlib), (standard, made_by_importlib_alone) = self.probe("fast"), self.probe("standard")
        self.assertEqual(fast, standard)
        self.assertEqual(made_by_importlib, ["pkg.entry", "pkg.missing_module"])  # absolute, or no module
        self.assertIn("pkg.mod", made_by_importlib_alone)
        self.assertEqual(fast["cycle"], "a")
        self.assertEqual(fast["leaf_up"], "mod")
        self.assertEqual([error[0] for error in fast["errors"]], ["RuntimeError", "RuntimeError", "ImportError",
                                                                  "ImportError"])
        self.assertFalse(fast["bad_in_modules"])
        self.assertTrue(all(fast[name]["bound"] for name in ("entry", "mod", "a", "b", "sub", "sub.leaf")))
        self.assertEqual(fast["mod"]["loader"], "_Loader")
        self.assertTrue(fast["restored"])

    def test_a_stale_pyc_is_still_left_to_the_standard_loader(self):
        with open(os.path.join(self.package, "mod.py"), "w") as file:
            file.write("VALUE = 'edited since'\n")
        found, _ = self.probe("fast")
        self.assertEqual((found["mod"]["loader"], found["mod"]["value"]), ("SourceFileLoader", "edited since"))
        self.assertEqual(found["leaf_up"], "edited since")
        self.assertEqual(found["a"]["loader"], "_Loader")


FRONT_DOOR_PROBE = textwrap.dedent("""
    import io, json, runpy, sys
    script, payload = sys.argv[1], sys.argv[2]
    sys.stdin = io.TextIOWrapper(io.BytesIO(payload.encode() + b"\\n"))
    sys.stdout = io.StringIO()
    runpy.run_path(script, run_name="front_door")["main"]([])
    ours = {n: type(m.__loader__).__name__ for n, m in sys.modules.items() if n.startswith("peerhooks.")}
    sys.__stdout__.write(json.dumps(ours))
""")


class InstalledByTheFrontDoors(unittest.TestCase):
    """The guard installs the finder past its quiet path, and the modules of a judged line then
    load through it."""

    def setUp(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder, True)
        self.scripts = os.path.join(folder, "scripts")
        shutil.copytree(support.SCRIPTS, self.scripts, ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(self.scripts, quiet=1, optimize=[0, 2])  # as install.py does
        self.cwd = folder

    def loaders(self, command):
        payload = json.dumps({"session_id": "s", "cwd": self.cwd, "hook_event_name": "PreToolUse",
                              "tool_name": "Bash", "tool_input": {"command": command}})
        completed = subprocess.run(
            [sys.executable, "-S", "-c", FRONT_DOOR_PROBE, os.path.join(self.scripts, "git_index_guard.py"), payload],
            cwd=self.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=support.SCRIPT_TIMEOUT,
            env=dict(os.environ, HOME=self.cwd, CLAUDE_CONFIG_DIR=os.path.join(self.cwd, ".claude"),
                     PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return json.loads(completed.stdout)

    def test_a_line_without_git_is_answered_without_it(self):
        self.assertEqual(self.loaders("ls -la"), {"peerhooks.doors": "SourceFileLoader",
                                                  "peerhooks.guard_readonly": "SourceFileLoader"})

    def test_a_judged_lines_modules_load_through_it(self):
        loaders = self.loaders("git add -A")
        for before in ("peerhooks.doors", "peerhooks.guard_readonly", "peerhooks.pycache"):
            self.assertEqual(loaders.pop(before), "SourceFileLoader", before)
        self.assertIn("peerhooks.hook_git_guard", loaders)
        self.assertEqual(set(loaders.values()), {"_Loader"})

    def test_installing_again_adds_no_second_finder(self):
        pycache.install()
        pycache.install()
        self.assertEqual(len([f for f in sys.meta_path if isinstance(f, pycache.Finder)]), 1)


class AStandardExtension(unittest.TestCase):
    """standard_extension loads the very file `import` would, or leaves the import to `import`."""

    def where(self, code, cwd=None, extra_path=None):
        setup = "import sys; sys.path.insert(0, %r); " % support.SCRIPTS
        if extra_path:
            setup += "sys.path.insert(0, %r); " % extra_path
        completed = subprocess.run([sys.executable, "-S", "-c", setup + code], cwd=cwd, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return completed.stdout.decode().strip()

    def test_it_is_the_file_import_finds(self):
        loaded = self.where("from peerhooks import pycache; m = pycache.standard_extension('_json'); "
                            "import _json; print(m is _json, m.__file__)")
        imported = self.where("import _json; print(True, _json.__file__)")
        self.assertEqual(loaded, imported)

    def test_a_module_of_that_name_earlier_on_the_path_is_left_to_import(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "_json.py"), "w") as file:
                file.write("SHADOW = True\n")
            found = self.where("from peerhooks import pycache; print(pycache.standard_extension('_json'))",
                               extra_path=folder)
        self.assertEqual(found, "None")

    def test_a_builtin_or_missing_module_is_left_to_import(self):
        found = self.where("from peerhooks import pycache; "
                           "unloaded = [n for n in sys.builtin_module_names if n not in sys.modules]; "
                           "print(pycache.standard_extension('sys') is sys, "
                           "pycache.standard_extension(unloaded[0]), pycache.standard_extension('no_such_thing'))")
        self.assertEqual(found, "True None None")


if __name__ == "__main__":
    unittest.main()

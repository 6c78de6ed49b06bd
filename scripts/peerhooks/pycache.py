"""peerhooks' own modules load straight from their cached bytecode, past most of the import system.

A judged guard line imports ~33 of our modules, and the standard path finder and source loader
spend ~60 µs on each before a byte of ours runs (on the benchmark's machine: spec, loader and module
objects, the source path stat'd twice, the cache path worked out and the pyc read and checked in
pure Python): ~2 ms, a fifth of the interpreter's own start-up. This finder answers only for
modules of the package that installs it, in the folder the parent package says: it stats the
source once, reads the pyc with one open, fstat and read (a file object's readall costs a seek, a
second read and an object; listing the cache folder first, to skip a missing pyc, cost more than
the failed open it saves) and checks it exactly as importlib does (magic number, timestamp form,
source mtime and size); the module is then made as the import system makes it (RelativeImports,
below, makes it past importlib's bookkeeping while a hook runs), so its spec, `__file__`,
`__cached__` and loader are those of a source file. Anything else, a stale or missing pyc included,
is left to the standard finder, which compiles and writes it.

Where both are cached it takes the bytecode `-OO` compiles (`<name>.<tag>.opt-2.pyc`, which
install.py writes beside the plain one): the same code without docstrings and asserts, 11% less to
read and unmarshal (~0.35 ms of a judged guard line). Nothing of ours reads a docstring at run time
or asserts (records keep their documentation as an argument, not a docstring); the plain pyc is the
fallback, then the standard finder.

Not installed where the cache lives elsewhere or has another name (`-O`, PYTHONPYCACHEPREFIX), or
when this interpreter's import internals are not the ones it knows.
"""
import _imp
import marshal
import sys

_external = sys.modules.get("_frozen_importlib_external")  # importlib's own, loaded at start-up
TIMESTAMP_FLAGS = b"\0\0\0\0"  # PEP 552: a pyc checked against its source's mtime and size
HEADER_BYTES = 16
DOCSTRINGLESS = ".opt-2"  # the cache name `-OO` gives: docstrings and asserts left out


def valid_for(header, mtime, size, magic):
    """Whether a pyc's header says it was compiled from a source of this mtime and size (pure: the
    check importlib's _validate_timestamp_pyc makes, for the timestamp form only)."""
    return len(header) >= HEADER_BYTES and header[:4] == magic and header[4:8] == TIMESTAMP_FLAGS \
        and int.from_bytes(header[8:12], "little") == int(mtime) & 0xFFFFFFFF \
        and int.from_bytes(header[12:16], "little") == size & 0xFFFFFFFF


if _external is not None:
    class _Loader(_external.SourceFileLoader):
        """A source file's loader that already holds the module's code, read from its pyc."""

        def __init__(self, fullname, path, code):
            super().__init__(fullname, path)
            self._code = code

        def get_code(self, fullname):
            code, self._code = self._code, None  # once: a reload reads the files again
            if code is None or fullname != self.name:
                return super().get_code(fullname)
            return code

    class Finder:
        """A meta path finder for the submodules of one package, from their cached bytecode."""

        def __init__(self, package):
            self.prefix = package + "."
            tag = "." + sys.implementation.cache_tag
            self.suffixes = (tag + DOCSTRINGLESS + ".pyc", tag + ".pyc")

        def find_spec(self, fullname, path=None, target=None):
            if not fullname.startswith(self.prefix) or not path or len(path) != 1:
                return None
            try:
                return self._spec(fullname, path[0])
            except Exception:  # noqa: BLE001 - whatever went wrong, the standard finder decides
                return None

        def _spec(self, fullname, folder):
            name = fullname.rpartition(".")[2]
            source, package = _external._path_join(folder, name + ".py"), False
            try:
                stat = _external._path_stat(source)
            except OSError:
                folder = _external._path_join(folder, name)
                source, name, package = _external._path_join(folder, "__init__.py"), "__init__", True
                stat = _external._path_stat(source)  # neither: OSError, for the standard finder
            if stat.st_mode & 0o170000 != 0o100000:
                return None
            caches = _external._path_join(folder, "__pycache__")
            for suffix in self.suffixes:  # (a missing one costs a failed open: listing the folder cost more)
                cached = _external._path_join(caches, name + suffix)
                data = _read(cached)
                if data is not None and valid_for(data, stat.st_mtime, stat.st_size, _external.MAGIC_NUMBER):
                    break
            else:
                return None
            code = marshal.loads(memoryview(data)[HEADER_BYTES:])
            _imp._fix_co_filename(code, source)  # as importlib does for a pyc moved with its source
            spec = _external.spec_from_file_location(
                fullname, source, loader=_Loader(fullname, source, code),
                submodule_search_locations=[folder] if package else None)
            spec.cached = cached
            return spec


def _read(path):
    """The bytes of a regular file, or None: opened without blocking, so that a FIFO left in the
    cache folder cannot hang the hook (the standard loader then decides). safefiles.read_regular
    does the same, but this runs inside find_spec: importing safefiles from here would ask this
    finder for safefiles again, before it had an answer."""
    system = _external._os
    try:
        descriptor = system.open(path, system.O_RDONLY | getattr(system, "O_NONBLOCK", 0) | getattr(system, "O_BINARY", 0))
    except OSError:
        return None
    try:
        status = system.fstat(descriptor)
        if status.st_mode & 0o170000 != 0o100000:
            return None
        # One read of the size fstat gave, and a byte more: a file that grew or shrank since is
        # left to the standard loader (a file object's readall costs two reads, a seek and an object).
        data = system.read(descriptor, status.st_size + 1)
        return data if len(data) == status.st_size else None
    except OSError:
        return None
    finally:
        system.close(descriptor)


def standard_extension(name):
    """A C extension module of the standard library (`_json`), loaded from the first sys.path folder
    that holds it, or None (then it is imported as usual). The path finder would find the same
    file, but only after listing each folder before it (~0.2 ms for the standard library's 200
    files and its extension folder), for a hook that imports nothing else from either."""
    if name in sys.modules:
        return sys.modules[name]
    needed = ("ExtensionFileLoader", "EXTENSION_SUFFIXES", "_path_isfile", "_path_isdir")
    if name in sys.builtin_module_names or _external is None or not all(hasattr(_external, n) for n in needed):
        return None  # built in (some Windows builds), or internals not the ones known here
    bootstrap = sys.modules.get("_frozen_importlib")
    for folder in sys.path:  # (a zip on the path is not looked into: it holds no extension module)
        if _external._path_isfile(_external._path_join(folder or ".", name + ".py")) or \
                _external._path_isdir(_external._path_join(folder or ".", name)):
            return None  # a module or package of that name comes first: the import system's to load
        for suffix in _external.EXTENSION_SUFFIXES:
            path = _external._path_join(folder or ".", name + suffix)
            if not _external._path_isfile(path):
                continue
            try:
                spec = _external.spec_from_file_location(name, path, loader=_external.ExtensionFileLoader(name, path))
                module = bootstrap.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
            except Exception:  # noqa: BLE001 - not loadable here: the import system says why
                sys.modules.pop(name, None)
                return None
            return module
    return None


def install(package=__name__.rpartition(".")[0]):
    """Puts the finder first for `package`'s submodules (peerhooks'), once, and returns it; None
    where it cannot apply. A front door calls it before its hook's imports, past its quiet path: the
    guard's quiet path loads two small modules, where the finder would cost more than it saves."""
    if _external is None or sys.flags.optimize or getattr(sys, "pycache_prefix", None):
        return None
    for finder in sys.meta_path:
        if getattr(finder, "prefix", None) == package + "." and type(finder).__name__ == "Finder":
            return finder
    required = ("SourceFileLoader", "spec_from_file_location", "_path_join", "_path_stat", "_os", "MAGIC_NUMBER")
    if not all(hasattr(_external, name) for name in required):
        return None
    finder = Finder(package)
    sys.meta_path.insert(0, finder)
    return finder


def _import_times_asked():
    """Whether this run reports its imports (`-X importtime`, PYTHONPROFILEIMPORTTIME): importlib
    reports those it makes, and tests/test_quiet_paths.py and bench/run.py count them, so then every
    module is left to it."""
    if getattr(sys, "_xoptions", {}).get("importtime"):
        return True
    environ = getattr(_external._os, "environ", {})  # posix's (bytes) or nt's (str)
    asked = environ.get(b"PYTHONPROFILEIMPORTTIME") or environ.get("PYTHONPROFILEIMPORTTIME")
    return bool(asked) and not sys.flags.ignore_environment


class RelativeImports:
    """`from . import a, b` and `from .a import b` inside the package, answered without the import
    system's bookkeeping while a hook runs (a context manager around builtins.__import__).

    Past the finder, importlib still spends ~20 µs on each module (its lock, the search of the meta
    path, the module made from its spec attribute by attribute, the from-list walked in Python): a
    module of ours loads in ~11 µs when made directly, and a judged guard line loads ~36. Here a
    relative import of one of the package's modules not loaded yet is found by the finder and run
    at once: the module is in sys.modules while its body runs (a cycle sees it partly made, as
    importlib lets it), is taken out again if the body fails, and is bound on its parent when done,
    with the spec, loader, `__file__` and `__cached__` importlib would give it. Every other import,
    and anything this cannot answer (a pyc missing or stale, a name that is no module), goes to the
    import function that was there before, which is put back on leaving."""

    def __init__(self, finder):
        self.finder, self.root = finder, finder.prefix[:-1]
        self.original = None

    def __enter__(self):
        import builtins

        self.original = builtins.__import__
        if not _import_times_asked():
            builtins.__import__ = self
        return self

    def __exit__(self, *_):
        import builtins

        if builtins.__import__ is self:
            builtins.__import__ = self.original

    def __call__(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level and globals and fromlist:
            package = globals.get("__package__")
            if package and (package == self.root or package.startswith(self.finder.prefix)):
                answered = self._relative(name, package, fromlist, level)
                if answered is not None:
                    return answered
        return self.original(name, globals, locals, fromlist, level)

    def _relative(self, name, package, fromlist, level):
        """The module `from <level dots><name> import <fromlist>` returns, or None to ask importlib."""
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        if level > 1 and base.count(".") != package.count(".") - (level - 1) or "." in name:
            return None  # above the top package, or a dotted name: importlib's to answer or refuse
        target = base + "." + name if name else base
        module = self._module(target) if name else sys.modules.get(base)
        if module is None:
            return None
        for item in fromlist:  # each a name the module has, or a submodule of a package (loaded now)
            if item == "*" or not hasattr(module, item) and (
                    not hasattr(module, "__path__") or self._module(target + "." + item) is None):
                return None
        return module

    def _module(self, fullname):
        """The loaded module `fullname` (partly made, in a cycle), loading it now if needed; None
        when it is not the finder's to load."""
        module = sys.modules.get(fullname)
        if module is not None:
            return module
        parent_name, _, child = fullname.rpartition(".")
        parent = sys.modules.get(parent_name)
        path = getattr(parent, "__path__", None)
        spec = self.finder.find_spec(fullname, path) if path is not None else None
        if spec is None:
            return None
        module = type(sys)(fullname)
        module.__spec__, module.__loader__, module.__file__ = spec, spec.loader, spec.origin
        module.__cached__ = spec.cached
        if spec.submodule_search_locations is not None:
            module.__path__, module.__package__ = spec.submodule_search_locations, fullname
        else:
            module.__package__ = parent_name
        sys.modules[fullname] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(fullname, None)
            raise
        module = sys.modules[fullname]  # a module may put another object in its place, as importlib allows
        setattr(parent, child, module)
        return module

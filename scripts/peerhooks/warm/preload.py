"""Which modules the warm server loads before its first line: the guard's and every module of the
package a judged line may import later, found by reading the import statements of its sources
(most of them sit inside the functions that need them, so that a door judging a line itself loads
only what the line uses).

A spare child touches every object the server holds (peerhooks.warm.pages), so what the server
loads is paid on every line: loading the whole package drew in the other hooks' modules and what
they import (typing, inspect, ast, statistics: 39,000 objects, ~10 ms of touching); the guard's
closure is a third of that. A module the closure misses is imported by the child that needs it,
as the door would: slower, never wrong. The standard library's modules are left to the children,
but for those a judged line with a pattern or a big record loads (STANDARD_MODULES).
"""
import re

START = "peerhooks.hook_git_guard"
STANDARD_MODULES = ("re", "glob", "fnmatch")  # a pattern in a line, a record too big to probe by hand
# `from .x import a, b` / `from .. import a` / `from . import (a, b)`: where, and the names taken.
_RELATIVE = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)", re.M)


def closure(start, sources):
    """The package modules reachable from `start` through relative imports, wherever they stand in
    a module. sources.text(name): a module's source, or None when the name is no module of ours (a
    function or a constant taken from one); sources.is_package(name)."""
    found, waiting = [], [start]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        source = sources.text(name)
        if source is None:
            continue
        found.append(name)
        waiting.extend(_imported(name, source, sources.is_package(name)))
    return sorted(found)


def _imported(name, source, is_package):
    package = name if is_package else name.rpartition(".")[0]
    for dots, module, names in _RELATIVE.findall(source):
        base = package
        for _ in range(len(dots) - 1):
            base = base.rpartition(".")[0]
        target = base + "." + module if module else base
        yield target
        for word in names.split(","):
            word = word.split()[0] if word.split() else ""
            if word:
                yield target + "." + word


class PackageSources:
    """The sources of the package's folder: `peerhooks.a.b` is `<scripts>/peerhooks/a/b.py` or
    `<scripts>/peerhooks/a/b/__init__.py`."""

    def __init__(self, scripts_folder):
        self.scripts_folder = scripts_folder

    def _path(self, name):
        import os

        base = os.path.join(self.scripts_folder, *name.split("."))
        package = os.path.join(base, "__init__.py")
        return package if os.path.isfile(package) else base + ".py"

    def is_package(self, name):
        return self._path(name).endswith("__init__.py")

    def text(self, name):
        try:
            with open(self._path(name), encoding="utf-8") as handle:
                return handle.read()
        except (OSError, ValueError):
            return None


def load(scripts_folder):
    """Import the closure and the standard modules; the package modules now loaded."""
    import importlib
    import sys

    for name in STANDARD_MODULES + tuple(closure(START, PackageSources(scripts_folder))):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - another system's module (platform.windows) or a broken one:
            pass            # a line that needs it loads it, and fails, as in its own process
    return [name for name in sys.modules if name == "peerhooks" or name.startswith("peerhooks.")]

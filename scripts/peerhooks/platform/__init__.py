"""The platform a hook runs on, as Claude Code itself sees it: one place for every fact that differs
between Linux, macOS and Windows (issue 22), read from the client's own builds of 2.1.332
(fixtures/samples/platforms/README.md).

- `paths`: how paths are written, opened and compared (platform/paths.py);
- `processes`: which pids run, their start time in the client's `procStart` format, each process's
  parent, and the `pidDomain` (platform/linux.py, darwin.py, windows.py);
- `home_variables`: where the user's home folder is named (HOME; on Windows USERPROFILE first, as
  the client's `os.homedir()` reads it).

Everything else asks `current()`: nothing outside this package reads /proc or assumes `/`. The
native platform comes from sys.platform, and only its own module is imported: on Linux neither
ctypes nor subprocess. A test makes another platform current with `install()`: a simulated macOS
or Windows whose readers answer from this machine's processes in that platform's formats
(fixtures/platforms.py).
"""
import os
import sys


class Platform:
    """One platform's facts. name: `linux`, `darwin` or `win32`, as sys.platform and the client's
    pidDomain spell it. `processes` is made on first use from `make_processes` (or given): a hook
    that asks nothing about processes loads no reader (on Linux's quiet paths, not even /proc's)."""

    __slots__ = ("name", "paths", "_processes", "_make_processes", "home_variables")

    def __init__(self, name, paths, processes, home_variables, make_processes=None):
        self.name, self.paths, self.home_variables = name, paths, home_variables
        self._processes, self._make_processes = processes, make_processes

    @property
    def processes(self):
        if self._processes is None:
            self._processes = self._make_processes()
        return self._processes


# A hook runs a few processes below its session (claude -> sh -> python); the bound only stops a loop.
MAX_ANCESTRY = 64

_CURRENT = []  # [Platform]: the native one, built on first use, or the one a test installed


def native():
    """The platform this process runs on."""
    from . import paths

    if sys.platform.startswith("linux"):
        return Platform("linux", paths.Posix(), None, ("HOME",), _linux_processes)
    if sys.platform == "win32":
        return Platform("win32", paths.Windows(), None, ("USERPROFILE", "HOME"), _windows_processes)
    # macOS, and any other Unix: ps answers there alike
    return Platform("darwin", paths.Darwin(), None, ("HOME",), _darwin_processes)


def _linux_processes():
    from . import linux

    return linux.Processes()


def _darwin_processes():
    from . import darwin

    return darwin.Processes()


def _windows_processes():
    from . import windows

    return windows.Processes()


def current():
    if not _CURRENT:
        _CURRENT.append(native())
    return _CURRENT[0]


def install(platform):
    """Make `platform` the current one (a simulation, in tests); returns the one it replaces."""
    previous = current()
    _CURRENT[0] = platform
    return previous


def user_home(environ, platform=None):
    """The user's home folder, local, from the hook's environment as the client reads it; this
    process's own home when none is named."""
    platform = platform or current()
    for variable in platform.home_variables:
        folder = platform.paths.local(environ.get(variable) or "")
        if folder:
            return folder
    return platform.paths.local(os.path.expanduser("~")) or os.path.expanduser("~")


def shell_home(environ, platform=None):
    """The folder `~` and $HOME name in the Bash tool's shell: HOME, which Git Bash sets from
    USERPROFILE when it is unset; None when the environment names none."""
    platform = platform or current()
    for variable in ("HOME",) + tuple(v for v in platform.home_variables if v != "HOME"):
        folder = platform.paths.local(environ.get(variable) or "")
        if folder:
            return folder
    return None


def ancestors(platform=None):
    """This process's ancestors' pids, nearest (the parent) first."""
    platform = platform or current()
    parent_of = platform.processes.parent_lookup()
    chain = []
    pid = os.getppid()
    while pid and pid > 1 and pid not in chain and len(chain) < MAX_ANCESTRY:
        chain.append(pid)
        pid = parent_of(pid)
    return chain

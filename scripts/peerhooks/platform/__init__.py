"""The platform a hook runs on, as Claude Code itself sees it: one place for every fact that differs
between Linux, macOS and Windows (issue 22), read from the client's own builds of 2.1.332
(fixtures/samples/platforms/README.md).

- `paths`: how paths are written, opened and compared: `Posix` (posix.py), which every Unix
  shares, refined in darwin.py (NFC) and windows.py (drives, `\\`, Git Bash's `/c/`);
- `processes`: which pids run, their start time in the client's `procStart` format, each process's
  parent, and the `pidDomain` (linux.py, darwin.py, windows.py);
- `home_variables`: where the user's home folder is named (HOME; on Windows USERPROFILE first, as
  the client's `os.homedir()` reads it).

Everything else asks `current()`: nothing outside this package reads /proc or assumes `/`. The
native platform comes from sys.platform, and only what it needs is imported: on Linux a hook's quiet
path loads this module and posix.py (the POSIX spelling), and a hook that asks about processes
linux.py, never ctypes or subprocess. A test makes another platform current with `install()`: a
simulated macOS or Windows whose readers answer from this machine's processes in that platform's
formats (fixtures/platforms.py).

Two spellings of a path meet in a hook. *Written* is what the client or a shell gives us: a registry
`cwd`, a payload's `cwd` and `transcript_path`, history's `project`, a transcript's `file_path`, a
folder named in a command line. *Local* is what this process hands to `open()` and compares. On
Linux and macOS they are the same `/`-rooted string; on Windows the client writes `C:\\Users\\me\\repo`
and local is `C:/Users/me/repo` (windows.py). Every decision about a path goes through the flavour:
whether a word names an absolute folder, where a relative one lands, what a command's program is
called, the text the projects/ slug is made of and whether its folders match in any case (on
Windows only, as the client matches them; not on APFS), and what a resolved path is. Paths compared
with each other are realpaths, which Windows gives in the case the disk holds and macOS here in NFC,
so equality is the comparison.
"""
import sys

from ..startup import oscalls
from .posix import Posix


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
    if sys.platform.startswith("linux"):
        return Platform("linux", Posix(), None, ("HOME",), _linux_processes)
    if sys.platform == "win32":
        from . import windows  # seam: the native platform's module alone, chosen as the process runs

        return Platform("win32", windows.Windows(), windows.Processes(), ("USERPROFILE", "HOME"))
    from . import darwin  # seam: the native platform's alone; macOS, and any other Unix: ps answers there alike

    return Platform("darwin", darwin.Darwin(), darwin.Processes(), ("HOME",))


def _linux_processes():
    from . import linux  # seam: /proc's reader, only for a hook that asks about processes

    return linux.Processes()


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
    return platform.paths.local(oscalls.path.expanduser("~")) or oscalls.path.expanduser("~")


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
    pid = oscalls.getppid()
    while pid and pid > 1 and pid not in chain and len(chain) < MAX_ANCESTRY:
        chain.append(pid)
        pid = parent_of(pid)
    return chain

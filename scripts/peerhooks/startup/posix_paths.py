"""posixpath's functions the hooks use, for str paths, over the built-in `posix` module alone.

The standard posixpath imports `os`, and `os` builds its environ as a MutableMapping: importing
them costs ~1.2 ms under -S (`_collections_abc` alone ~0.7 ms), a tenth of a judged guard line
(docs/performance.md). These functions answer as posixpath's do for every str path (tests/
test_oscalls.py compares them on generated paths and on a tree of links, loops included); they are
reached through peerhooks.startup.oscalls, which is where a module asks for them. Only a POSIX system
imports this module: on Windows oscalls hands out the standard modules.
"""
import sys
from posix import environ as _raw_environ, fspath, getcwd, lstat, readlink, stat

try:
    from posix import _path_normpath  # 3.11+: posixpath's own normpath is this C function
except ImportError:  # 3.9, 3.10
    _path_normpath = None

SEP = "/"
CURRENT = "."
PARENT = ".."
_S_IFMT = 0o170000
_S_IFDIR, _S_IFREG, _S_IFLNK = 0o040000, 0o100000, 0o120000


def _decoded_environment(raw):
    """posix's environment (bytes, as the process started) as os.environ spells it."""
    encoding = sys.getfilesystemencoding()
    return {name.decode(encoding, "surrogateescape"): value.decode(encoding, "surrogateescape")
            for name, value in raw.items()}


# The process's environment, which expanduser reads as posixpath reads os.environ (oscalls hands
# it out as os.environ's stand-in): os's own when something imported os (a test running a hook in
# its own process changes it); else posix's, which is all a hook process ever has: it never sets a
# variable of its own.
environ = sys.modules["os"].environ if "os" in sys.modules else _decoded_environment(_raw_environ)


def join(first, *rest):
    path = fspath(first)
    for part in rest:
        part = fspath(part)
        if part.startswith(SEP):
            path = part
        elif not path or path.endswith(SEP):
            path += part
        else:
            path += SEP + part
    return path


def split(path):
    path = fspath(path)
    cut = path.rfind(SEP) + 1
    head, tail = path[:cut], path[cut:]
    if head and head != SEP * len(head):
        head = head.rstrip(SEP)
    return head, tail


def dirname(path):
    return split(path)[0]


def basename(path):
    path = fspath(path)
    return path[path.rfind(SEP) + 1:]


def splitext(path):
    """(root, extension): the extension is from the last dot of the last part on, unless that part
    is only dots before it (`.bashrc` has none)."""
    path = fspath(path)
    last_sep, last_dot = path.rfind(SEP), path.rfind(".")
    if last_dot > last_sep:
        for position in range(last_sep + 1, last_dot):
            if path[position] != ".":
                return path[:last_dot], path[last_dot:]
    return path, ""


def isabs(path):
    return fspath(path).startswith(SEP)


def _python_normpath(path):
    """posixpath.normpath before 3.11 made it C: `.` and empty parts dropped, `..` folded where it
    can be, `//` kept at the start (POSIX leaves its meaning to the system), `///` made `/`."""
    if not path:
        return CURRENT
    slashes = 0
    if path.startswith(SEP):
        slashes = 2 if path.startswith(SEP * 2) and not path.startswith(SEP * 3) else 1
    kept = []
    for part in path.split(SEP):
        if part in ("", CURRENT):
            continue
        if part != PARENT or (not slashes and not kept) or (kept and kept[-1] == PARENT):
            kept.append(part)
        elif kept:
            kept.pop()
    return (SEP * slashes + SEP.join(kept)) or CURRENT


def normpath(path):
    path = fspath(path)
    return _path_normpath(path) or CURRENT if _path_normpath is not None else _python_normpath(path)


def abspath(path):
    path = fspath(path)
    if not path.startswith(SEP):
        path = join(getcwd(), path)
    return normpath(path)


def relpath(path, start=None):
    path = fspath(path)
    if not path:
        raise ValueError("no path specified")
    start = CURRENT if start is None else fspath(start)
    start_parts = [part for part in abspath(start).split(SEP) if part]
    path_parts = [part for part in abspath(path).split(SEP) if part]
    common = 0
    for mine, theirs in zip(start_parts, path_parts):
        if mine != theirs:
            break
        common += 1
    parts = [PARENT] * (len(start_parts) - common) + path_parts[common:]
    return join(*parts) if parts else CURRENT


def realpath(path):
    """The path with every link resolved, as posixpath.realpath(path) without strict: a part that
    does not exist is kept as written, and a loop of links stops at the link that closes it."""
    resolved, _ = _joined_realpath("", fspath(path), {})
    return abspath(resolved)


def _joined_realpath(path, rest, seen):
    """(path joined with rest, links resolved, whether it resolved without a loop); seen: {link:
    what it resolved to, or None while it is being resolved}, shared through the recursion."""
    if rest.startswith(SEP):
        rest, path = rest[1:], SEP
    while rest:
        name, _, rest = rest.partition(SEP)
        if not name or name == CURRENT:
            continue
        if name == PARENT:
            if not path:
                path = PARENT
            else:
                path, name = split(path)
                if name == PARENT:
                    path = join(path, PARENT, PARENT)
            continue
        candidate = join(path, name)
        try:
            is_link = lstat(candidate).st_mode & _S_IFMT == _S_IFLNK
        except OSError:
            is_link = False
        if not is_link:
            path = candidate
            continue
        if candidate in seen:
            if seen[candidate] is not None:
                path = seen[candidate]
                continue
            return join(candidate, rest), False  # a loop: the rest is kept as written
        seen[candidate] = None
        path, resolved = _joined_realpath(path, readlink(candidate), seen)
        if not resolved:
            return join(path, rest), False
        seen[candidate] = path
    return path, True


def expanduser(path):
    path = fspath(path)
    if not path.startswith("~"):
        return path
    cut = path.find(SEP, 1)
    cut = len(path) if cut < 0 else cut
    if cut == 1:
        home = environ.get("HOME")
        if home is None:
            home = _home_of(None)
    else:
        home = _home_of(path[1:cut])
    if home is None:
        return path
    return (home.rstrip(SEP) + path[cut:]) or SEP


def _home_of(user):
    """A user's home from the password database (this process's user for None), None if unknown."""
    try:
        import pwd  # only `~user`, or a process without HOME, asks the password database

        from posix import getuid

        return (pwd.getpwuid(getuid()) if user is None else pwd.getpwnam(user)).pw_dir
    except (ImportError, KeyError):
        return None


def _mode(path, follow):
    try:
        return (stat(path) if follow else lstat(path)).st_mode & _S_IFMT
    except (OSError, ValueError):
        return None


def isdir(path):
    return _mode(path, True) == _S_IFDIR


def isfile(path):
    return _mode(path, True) == _S_IFREG


def islink(path):
    return _mode(path, False) == _S_IFLNK


def exists(path):
    return _mode(path, True) is not None


def lexists(path):
    return _mode(path, False) is not None


"""The operating-system calls and path arithmetic of the modules a judged guard line loads, without
importing `os`.

`import os` costs ~1.2 ms under -S, a tenth of a judged guard line over the interpreter's own start:
os builds its environ as a MutableMapping, which loads `_collections_abc` (~0.7 ms), then
`posixpath`, `genericpath` and `stat`. Every call os makes for us is in the built-in `posix` module,
loaded at every start, and peerhooks.startup.posix_paths does posixpath's arithmetic over it (and
holds the environment, decoded as os.environ would be, which its expanduser reads). On Windows,
which has no `posix`, this hands out os, os.path and posixpath themselves.

A module asks here for what it would ask os: `oscalls.lstat`, `oscalls.path.join` (the platform's
path arithmetic, as os.path) and `oscalls.posixpath.join` (`/`-separated whatever the platform, as
git's pathspecs are). docs/performance.md ("Keeping it fast") says which modules must.
"""

try:
    import posix
except ImportError:  # Windows: `nt`, which os wraps
    posix = None

try:
    from _stat import S_ISDIR, S_ISLNK, S_ISREG  # built in, where the stat module is a file to load
except ImportError:
    from stat import S_ISDIR, S_ISLNK, S_ISREG

# The names taken as they are from posix (or os): those the hooks call, and the open flags and spawn
# actions they pass; a flag this system lacks is left out, as os leaves it out (getattr(..., 0)).
CALLS = (
    "access", "close", "fstat", "fsync", "getcwd", "getpid", "getppid", "kill", "listdir", "lseek", "lstat",
    "mkdir", "open", "pipe", "posix_spawnp", "read", "readlink", "rename", "replace", "scandir",
    "set_blocking", "stat", "unlink", "urandom", "waitpid", "waitstatus_to_exitcode", "_exit",
    "O_BINARY", "O_CLOEXEC", "O_CREAT", "O_EXCL", "O_NOFOLLOW", "O_NONBLOCK", "O_RDONLY", "O_RDWR",
    "O_WRONLY", "POSIX_SPAWN_DUP2", "X_OK",
)


if posix is not None:
    from . import posix_paths

    _source = posix
    path = posixpath = posix_paths
    sep, name, devnull = "/", "posix", "/dev/null"
    environ = posix_paths.environ  # where its expanduser reads HOME, as posixpath reads os.environ

    def fdopen(descriptor, mode="r", buffering=-1, encoding=None, *args, **kwargs):
        """os.fdopen: a file object over an open descriptor."""
        if not isinstance(descriptor, int):
            raise TypeError("invalid fd type (%s, expected integer)" % type(descriptor))
        import io  # loaded at every start: no file is read

        text_encoding = getattr(io, "text_encoding", None)  # 3.10 on, as os.fdopen calls it; 3.9 has none
        if "b" not in mode and text_encoding is not None:
            encoding = text_encoding(encoding)
        return io.open(descriptor, mode, buffering, encoding, *args, **kwargs)
else:
    import os as _source
    import posixpath

    path, environ, fdopen = _source.path, _source.environ, _source.fdopen
    sep, name, devnull = _source.sep, _source.name, _source.devnull

globals().update((call, getattr(_source, call)) for call in CALLS if hasattr(_source, call))

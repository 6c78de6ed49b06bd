"""Where the warm guard of one install lives, and whether that folder can be trusted.

One server per user, per scripts folder and per interpreter: a server answers with the code and
the bytecode it loaded, so a second install (another checkout, a plugin copy) or another Python
gets a server of its own. Its folder is `<TMPDIR or /tmp>/peerhooks-warm-<uid>/<key>`: the
temporary folder rather than the Claude home, because the folder holds named pipes (which some
synced or network home folders refuse) and because a test's temporary home may be removed while a
server is still making its pipe there. Both levels must be directories of this user that nobody
else can enter (mode 0700), and never links: in a shared /tmp another user could make the name
first. Built-in modules only (the front door uses this before the library loads).
"""
ROOT_PREFIX = "peerhooks-warm-"
REQUESTS = "requests"  # the named pipe a server reads requests' names from
STARTING = "starting"  # made by the front door that starts a server; the server removes it
PID = "pid"  # the server's process id, for `stop` (bench, tests)
DEFAULT_TMP = "/tmp"

_FNV_OFFSET, _FNV_PRIME, _MASK = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1
_TYPE_MASK, _DIRECTORY, _FIFO, _REGULAR = 0o170000, 0o040000, 0o010000, 0o100000


def key(scripts_folder, executable, version):
    """The name of one install's folder: a 64-bit FNV-1a of what makes its answers its own (zlib's
    crc32 would cost a shared library's load on every judged line)."""
    value = _FNV_OFFSET
    for byte in ("%s\0%s\0%x" % (scripts_folder, executable, version)).encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * _FNV_PRIME) & _MASK
    return "%016x" % value


def root(tmpdir, uid):
    """The user's folder of servers under the temporary folder named by TMPDIR (bytes or text, as
    the environment gives it), or /tmp where TMPDIR is unset or not an absolute path."""
    if isinstance(tmpdir, bytes):
        tmpdir = tmpdir.decode("utf-8", "surrogateescape")
    base = (tmpdir or "").rstrip("/")
    if not tmpdir or not tmpdir.startswith("/"):
        base = DEFAULT_TMP
    return "%s/%s%d" % (base, ROOT_PREFIX, uid)


def is_private_folder(status, uid):
    """A folder only `uid` can enter: a directory (lstat: a link is not one), owned by uid, with no
    permission for group or others."""
    return (status.st_mode & _TYPE_MASK == _DIRECTORY and status.st_uid == uid
            and not status.st_mode & 0o077)


def is_own_pipe(status, uid):
    return status.st_mode & _TYPE_MASK == _FIFO and status.st_uid == uid


def is_own_file(status, uid):
    return status.st_mode & _TYPE_MASK == _REGULAR and status.st_uid == uid


def private_folder(path, uid, lstat):
    """Whether path is a private folder of uid now (lstat: the call to use, posix.lstat or os.lstat)."""
    try:
        return is_private_folder(lstat(path), uid)
    except (OSError, ValueError):
        return False

"""peerhooks' own state files: replaced so that a reader sees the old bytes or the new, never a torn
or empty file, and read back as JSON objects, with anything else (missing, torn, foreign) as None.

A state file is only ever read as a regular file opened without blocking (a FIFO in its place
would hang the hook), and a file that is there but cannot be used is set aside as
`<name>.corrupt-<UTC stamp>` rather than silently overwritten, so what was in it can be looked at.
"""
import time

from ..startup import oscalls
from ..startup.jsonfast import dumps, loads
from .safefiles import NotRegular, is_private_folder, open_lock_file, private_folder, read_regular

TEMP_SUFFIX = ".tmp"  # temporary files are `.<name>.<pid>.<random>.tmp` beside the target
QUARANTINE_STAMP = "%Y%m%dT%H%M%SZ"
MAX_STATE_BYTES = 64 * 1024 * 1024  # far above any state file; a larger one is not ours


class UnusableJSON(ValueError):
    """Bytes that are not standard JSON we can use (torn, NaN, a number too long, too deep)."""


def parse_json(raw):
    """Decode standard JSON from bytes or text (a UTF-8 BOM allowed); raises UnusableJSON for
    anything else, including nesting too deep to decode (jsonfast.TooDeep)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw
        if text.startswith("\ufeff"):
            text = text[1:]
        return loads(text, standard=True)
    except ValueError as error:  # NotStandard, TooDeep and UnicodeDecodeError are ValueErrors
        raise UnusableJSON(str(error) or type(error).__name__) from None


def versioned_object(raw, version):
    """The JSON object in a state file's bytes when it carries `version`, else None: torn, foreign,
    too deep, or written by another release (which the next write replaces)."""
    try:
        value = parse_json(raw)
    except UnusableJSON:
        return None
    return value if isinstance(value, dict) and value.get("version") == version else None


def quarantine_name(path, now_seconds):
    return "%s.corrupt-%s" % (path, time.strftime(QUARANTINE_STAMP, time.gmtime(now_seconds)))


def quarantine(path, now_seconds=None):
    """Move an unusable file (or a symlink in its place) aside; its new path, None if it stayed."""
    target = quarantine_name(path, time.time() if now_seconds is None else now_seconds)
    candidate, n = target, 1
    while oscalls.path.lexists(candidate):
        n += 1
        candidate = "%s-%d" % (target, n)
    try:
        oscalls.rename(path, candidate)
    except OSError:
        return None
    return candidate


def write_atomically(path, payload, durable=False, levels=1):
    """Write bytes to a temporary file beside `path` and rename it into place.

    durable=True also fsyncs the data, for state whose loss would mislead (caches skip it: losing
    one only costs a re-read). The rename replaces a symlink at `path` rather than writing through it.
    levels: how many of the folders holding `path` are peerhooks' own (`<Claude home>/peerhooks`
    is 1, `.claude/state` 2): made without following a link, and UnsafeFolder (an OSError) when
    one is a link, so a `peerhooks -> elsewhere` link is never written through.
    """
    folder = oscalls.path.dirname(path) or "."
    private_folder(folder, levels)
    # A unique name without `tempfile`, whose import costs ~10 ms of a hook's start-up on 3.9.
    temporary = oscalls.path.join(folder, ".%s.%d.%s%s" % (oscalls.path.basename(path), oscalls.getpid(),
                                                      oscalls.urandom(4).hex(), TEMP_SUFFIX))
    handle = oscalls.open(temporary, oscalls.O_WRONLY | oscalls.O_CREAT | oscalls.O_EXCL, 0o600)
    try:
        with oscalls.fdopen(handle, "wb") as stream:
            stream.write(payload)
            if durable:
                stream.flush()
                oscalls.fsync(stream.fileno())
        oscalls.replace(temporary, path)
    except BaseException:
        try:
            oscalls.unlink(temporary)
        except OSError:
            pass
        raise


def read_state(path, limit, decode, levels=1):
    """What `decode` makes of a small state file's bytes (None when they are not one), or None; a
    file that is not one (torn, foreign, too large, a link or FIFO in its place) is set aside, so
    the next write starts clean and nothing blocks. In a folder that is a link (among `levels` of
    peerhooks' own) nothing is read or set aside."""
    if not is_private_folder(oscalls.path.dirname(path), levels):
        return None
    try:
        raw = read_regular(path, limit + 1, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except NotRegular:
        raw = b""
    except (OSError, ValueError):
        return None
    found = decode(raw) if len(raw) <= limit else None
    if found is None:
        quarantine(path)
    return found


def read_json_object(path):
    """The JSON object stored at path, or None when the file is missing or unusable; an unusable
    one (torn, foreign, a symlink, a FIFO) is set aside first so the next write starts clean.
    In a folder that is a link (`<Claude home>/peerhooks -> elsewhere`) nothing is read or set aside."""
    return read_state(path, MAX_STATE_BYTES, _json_object)


def _json_object(raw):
    try:
        value = parse_json(raw)
    except UnusableJSON:
        return None
    return value if isinstance(value, dict) else None


def write_json(path, value, levels=1):
    """Store a JSON value compactly, atomically, in a folder of peerhooks' own (levels as
    write_atomically); a state file we cannot write only costs a re-read next time, so OSError is
    left to the caller to ignore."""
    write_atomically(path, dumps(value).encode("utf-8"), levels=levels)


def remove_older_than(folder, suffixes, max_age_ms, now_ms):
    """Delete the files in a folder (names ending in one of suffixes, links included, never
    followed) untouched for max_age_ms: per-session state of sessions long finished."""
    try:
        entries = list(oscalls.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not entry.name.endswith(tuple(suffixes)):
            continue
        try:
            if now_ms - entry.stat(follow_symlinks=False).st_mtime_ns // 1000000 > max_age_ms:
                oscalls.unlink(entry.path)
        except OSError:
            continue


LOCK_POLL_SECONDS = 0.005


class LockBusy(OSError):
    """The lock stayed held by another process for the whole timeout."""


class FileLock:
    """An exclusive lock on a lock file beside a state file (fcntl on POSIX, msvcrt on Windows),
    released when closed or when its holder dies. A symlink or anything else that is not a regular
    file in the lock's place (a committed `<state>.lock` link) is moved aside, never followed."""

    def __init__(self, path, timeout):
        self.path = path
        self.timeout = timeout
        self.handle = None

    def _open(self, now_seconds):
        try:
            return open_lock_file(self.path)
        except NotRegular:
            quarantine(self.path, now_seconds)
            return open_lock_file(self.path)

    def acquire(self, now_seconds=None):
        """Wait up to the timeout for the lock; LockBusy when it stays held."""
        handle = self._open(now_seconds)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                _lock(handle)
                self.handle = handle
                return self
            except OSError:
                if time.monotonic() >= deadline:
                    handle.close()
                    raise LockBusy("%s is held by another process" % self.path)
                time.sleep(LOCK_POLL_SECONDS)

    def release(self):
        if self.handle is not None:
            try:
                _unlock(self.handle)
            finally:
                self.handle.close()
                self.handle = None

    def __enter__(self):
        return self if self.handle is not None else self.acquire()

    def __exit__(self, *exc):
        self.release()
        return False


# Imported when a lock is taken, not with this module: most hooks that read state never lock.
if oscalls.name == "nt":  # pragma: no cover - exercised on Windows only
    def _lock(handle):
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(handle):
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
else:
    def _lock(handle):
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(handle):
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

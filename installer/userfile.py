"""Change a file the user owns without losing anything of theirs: their concurrent edits, their symlink,
their original bytes.

- Read, compute, then replace only if the file is still what was read (bytes, size, mtime, inode),
  checked under a lock file beside it; if it changed meanwhile, compute again from the new content.
  An editor does not honour our lock, but the window left is the few microseconds between the check
  and the rename, instead of the whole run.
- A symlinked file (a dotfiles repository) is written through: the new content replaces the link's
  target, by a temporary file in the target's folder and an atomic rename; the link stays a link.
- Before each change the old bytes go to a backup folder outside the user's checkout; only the newest
  KEEP_BACKUPS per file are kept.
- An install record (per file, in the same folder) keeps the bytes from before peerhooks was first
  installed there and a hash of what the installer last wrote, so an uninstall of an untouched file
  gives back exactly the original bytes, or removes the file (and folders) the install created.
"""
import base64
import contextlib
import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass
from typing import Optional, Tuple

from installer import InstallError

LOCK_SUFFIX = ".peerhooks-lock"
TEMP_SUFFIX = ".peerhooks-tmp"
BACKUPS = os.path.join("peerhooks", "backups")  # under the Claude (or Codex) home, never in a checkout
KEEP_BACKUPS = 5  # per file: enough to step back through a few runs, few enough not to pile up
ATTEMPTS = 3  # the file changed under us this many times in a row: someone is busy with it, stop
LOCK_WAIT_SECONDS = 10.0  # another installer run holds the lock; a run takes well under a second
LOCK_STALE_SECONDS = 60.0  # a lock this old was left by a killed run
LOCK_POLL_SECONDS = 0.05
NEW_FILE_MODE = 0o666  # before the umask, as an editor would create it
PRIVATE_MODE = 0o600  # backups and records: settings files can hold API keys in "env"
_SLUG_LIMIT = 120  # characters of a path kept in a backup's name


@dataclass(frozen=True)
class Snapshot:
    """A file as read at one moment."""

    path: str  # as the user names it (may be a symlink)
    real_path: str  # where the bytes live
    data: Optional[bytes]  # None: no file
    fingerprint: Optional[Tuple[int, int, int]]  # (mtime_ns, size, inode)
    mode: Optional[int]


REMOVE = object()  # what compute returns to delete the file instead of writing it


@dataclass(frozen=True)
class Outcome:
    before: Snapshot
    after: Optional[bytes]  # None: the file was removed (or never existed)
    changed: bool
    backup: Optional[str]
    created_folders: Tuple[str, ...]


@dataclass(frozen=True)
class InstallRecord:
    original: Optional[bytes]  # the file before the first install; None: there was none
    installed_sha256: str  # of the bytes the installer wrote last
    created_folders: Tuple[str, ...]  # folders the first install created, innermost first


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def resolve(path):
    """Where a file's bytes live: a symlink's final target. A dangling link is refused, since writing
    would create a file somewhere the user did not ask for."""
    if os.path.islink(path):
        target = os.path.realpath(path)
        if not os.path.exists(target):
            raise InstallError("%s is a symlink to %s, which does not exist; nothing was changed" % (path, target))
        return target
    return os.path.abspath(path)


def snapshot(path):
    real = resolve(path)
    try:
        with open(real, "rb") as handle:
            data = handle.read()
            status = os.fstat(handle.fileno())
    except (FileNotFoundError, NotADirectoryError):
        return Snapshot(path, real, None, None, None)
    except OSError as error:
        raise InstallError("cannot read %s: %s" % (real, error.strerror or error))
    return Snapshot(path, real, data, (status.st_mtime_ns, status.st_size, status.st_ino),
                    status.st_mode & 0o7777)


def still_the_same(before, now):
    return (now.real_path, now.data, now.fingerprint) == (before.real_path, before.data, before.fingerprint)


@contextlib.contextmanager
def locked(real_path, clock=time.monotonic, sleep=time.sleep, wall=time.time):
    """Hold `<file>.peerhooks-lock` (created exclusively) while the block runs: two installer runs on
    one file take turns. A lock older than LOCK_STALE_SECONDS is a killed run's and is taken over."""
    lock = real_path + LOCK_SUFFIX
    deadline = clock() + LOCK_WAIT_SECONDS
    while True:
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.write(descriptor, str(os.getpid()).encode())
            os.close(descriptor)
            break
        except FileExistsError:
            try:
                if wall() - os.stat(lock).st_mtime > LOCK_STALE_SECONDS:
                    os.remove(lock)
                    continue
            except OSError:
                continue
            if clock() > deadline:
                raise InstallError("%s is locked by another install.py run (%s); if none is running, remove "
                                   "that file; nothing was changed" % (real_path, lock))
            sleep(LOCK_POLL_SECONDS)
        except OSError as error:
            raise InstallError("cannot write %s: %s; nothing was changed" % (lock, error.strerror or error))
    try:
        yield
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass


def missing_folders(folder):
    """The folders that would have to be created for `folder` to exist, innermost first."""
    missing = []
    while folder and not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return tuple(missing)


def remove_empty_folders(folders):
    for folder in folders:  # innermost first
        try:
            os.rmdir(folder)
        except OSError:
            return


def write_atomically(real_path, data, mode):
    """Replace real_path with data: temporary file in the same folder, fsync, chmod, rename."""
    folder = os.path.dirname(real_path)
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(real_path) + ".",
                                             suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode if mode is not None else NEW_FILE_MODE & ~_umask())
        os.replace(temporary, real_path)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise


def _umask():
    current = os.umask(0)
    os.umask(current)
    return current


def change(path, compute, backups, now):
    """Apply compute(snapshot) -> new bytes | REMOVE | None (nothing to do) to the file at path, so
    that no edit made meanwhile is lost: the replacement happens only while the file is still what
    compute saw; otherwise compute runs again on the new content (ATTEMPTS times at most)."""
    for _ in range(ATTEMPTS):
        before = snapshot(path)
        wanted = compute(before)
        if wanted is None or (wanted is not REMOVE and wanted == before.data) or (
                wanted is REMOVE and before.data is None):
            return Outcome(before, before.data, False, None, ())
        created = missing_folders(os.path.dirname(before.real_path)) if wanted is not REMOVE else ()
        try:
            if created:
                os.makedirs(created[0])
            with locked(before.real_path):
                if not still_the_same(before, snapshot(path)):
                    remove_empty_folders(created)
                    continue
                backup = backups.keep(path, before.data, now) if before.data is not None else None
                if wanted is REMOVE:
                    os.remove(before.real_path)
                    return Outcome(before, None, True, backup, ())
                write_atomically(before.real_path, wanted, before.mode)
                return Outcome(before, wanted, True, backup, created)
        except OSError as error:
            remove_empty_folders(created)
            where = error.filename or before.real_path
            raise InstallError("cannot write %s: %s; nothing was changed" % (where, error.strerror or error))
        except InstallError:
            remove_empty_folders(created)
            raise
    raise InstallError("%s changed %d times while install.py was working on it; nothing was changed, "
                       "run it again when nobody is editing it" % (path, ATTEMPTS))


def slug(path):
    """A file name that says which file a backup is of: the absolute path with separators as '-'."""
    text = re.sub(r"[^A-Za-z0-9._]", "-", os.path.abspath(path))
    if len(text) > _SLUG_LIMIT:
        text = text[-_SLUG_LIMIT:] + "-" + sha256(path.encode("utf-8", "surrogateescape"))[:10]
    return text


class BackupFolder:
    """Backups and install records, one folder per host home (never inside the user's checkout)."""

    def __init__(self, folder):
        self.folder = folder

    def keep(self, path, data, now):
        """Save data as the newest backup of path; drop all but the newest KEEP_BACKUPS. Returns its path."""
        os.makedirs(self.folder, exist_ok=True)
        prefix = slug(path) + ".backup-"
        stamp = now.strftime("%Y%m%dT%H%M%S") + ".%06dZ" % now.microsecond
        # Two backups within one microsecond (a clock passed in by a test) are numbered so that they
        # still sort oldest first: a later one never takes a pruned one's name.
        same_stamp = [name for name in map(os.path.basename, self.backups_of(path))
                      if name.startswith(prefix + stamp)]
        number = max([int(name.rsplit("-", 1)[1]) for name in same_stamp if name != prefix + stamp] + [1])
        candidate = os.path.join(self.folder, prefix + stamp)
        if same_stamp:
            number += 1
            candidate = os.path.join(self.folder, "%s%s-%03d" % (prefix, stamp, number))
        while True:
            try:
                descriptor = os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_MODE)
                with os.fdopen(descriptor, "wb") as handle:
                    handle.write(data)
                break
            except FileExistsError:
                number += 1
                candidate = os.path.join(self.folder, "%s%s-%03d" % (prefix, stamp, number))
        for old in self.backups_of(path)[:-KEEP_BACKUPS]:
            try:
                os.remove(old)
            except OSError:
                pass
        return candidate

    def backups_of(self, path):
        """Backups of path, oldest first."""
        prefix = slug(path) + ".backup-"
        try:
            names = sorted(name for name in os.listdir(self.folder) if name.startswith(prefix))
        except OSError:
            return []
        return [os.path.join(self.folder, name) for name in names]

    def _record_path(self, path):
        return os.path.join(self.folder, slug(path) + ".install-record.json")

    def record(self, path):
        """The install record of path, or None (none kept, or unreadable: then bytes cannot be promised)."""
        try:
            with open(self._record_path(path), encoding="utf-8") as handle:
                value = json.load(handle)
            original = value["original"]
            return InstallRecord(None if original is None else base64.b64decode(original),
                                 str(value["installed_sha256"]), tuple(value.get("created_folders", ())))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save_record(self, path, record):
        os.makedirs(self.folder, exist_ok=True)
        value = {"file": os.path.abspath(path),
                 "original": None if record.original is None else base64.b64encode(record.original).decode(),
                 "installed_sha256": record.installed_sha256,
                 "created_folders": list(record.created_folders)}
        write_atomically(self._record_path(path), (json.dumps(value, indent=2) + "\n").encode(), PRIVATE_MODE)

    def recorded_files(self):
        """The files this folder keeps install records of: where install.py wired the hooks and no
        uninstall has run since."""
        files = []
        for name in sorted(_listdir(self.folder)):
            if name.endswith(".install-record.json"):
                try:
                    with open(os.path.join(self.folder, name), encoding="utf-8") as handle:
                        path = json.load(handle).get("file")
                except (OSError, ValueError, AttributeError):
                    continue
                if isinstance(path, str):
                    files.append(path)
        return files

    def drop_record(self, path):
        try:
            os.remove(self._record_path(path))
        except OSError:
            pass


def _listdir(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []

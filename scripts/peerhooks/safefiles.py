"""Opening files that a repository, a peer or a stray program may have made hostile.

A checkout is other people's data: a committed `.claude/state -> ../../other` symlink, a HANDOFF.md
that is a FIFO, a `MEMORY.md -> /dev/zero` all reached these hooks (issue 14). A FIFO blocks an open
for reading until a writer comes, so the hook hung until the client's timeout; a followed symlink
made the hook write into another checkout. Here every read opens without blocking and keeps only
regular files, and the folders peerhooks writes into are made and checked without following links.
"""
import os
import stat

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # Windows has none; its symlinks need privileges to make
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class NotRegular(OSError):
    """The path exists but is not a regular file (a FIFO, device, folder or, unfollowed, a link)."""


class UnsafeFolder(OSError):
    """A folder peerhooks writes into is a symlink or not a folder: nothing is written there."""


def open_regular(path, follow_symlinks=True):
    """A binary file object for a regular file, opened without blocking; FileNotFoundError when
    absent, NotRegular for anything else (a symlink too when follow_symlinks is False)."""
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_symlinks else _NOFOLLOW)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if not follow_symlinks and os.path.islink(path):
            raise NotRegular("%s is a symlink" % path) from error
        raise
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegular("%s is not a regular file" % path)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path, limit=-1, follow_symlinks=True):
    """The bytes of a regular file (at most `limit`); raises like open_regular."""
    with open_regular(path, follow_symlinks) as handle:
        return handle.read(limit)


def read_text_head(path, max_lines, max_chars):
    """The first lines of a regular text file (BOM dropped, invalid UTF-8 replaced, newlines
    normalised), at most max_lines and about max_chars; None when absent or not a regular file."""
    import io

    try:
        raw = open_regular(path)
    except (OSError, ValueError):
        return None
    taken, size = [], 0
    try:
        with io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace") as handle:
            for _ in range(max_lines):
                line = handle.readline(max_chars + 1)
                if not line:
                    break
                taken.append(line)
                size += len(line)
                if size > max_chars:
                    break
    except (OSError, ValueError):
        return None
    return "".join(taken)


def private_folder(folder, levels):
    """Make `folder` and up to `levels - 1` of its parents as real folders, never following a
    symlink among those `levels` components; raises UnsafeFolder when one is a link or a file.
    The components above (the workspace root, resolved by the caller) are trusted."""
    parts = []
    current = folder
    for _ in range(levels):
        parts.append(current)
        current = os.path.dirname(current)
    for path in reversed(parts):
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            try:
                os.mkdir(path)
            except FileExistsError:
                pass  # made by a concurrent start; checked just below
            info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeFolder("%s is a symlink; peerhooks writes nothing through it" % path)
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafeFolder("%s is not a folder" % path)


def create_new(path, data):
    """Write a file that must not exist yet (no symlink is followed); False when it exists."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
                             | _BINARY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    return True


def open_lock_file(path):
    """A lock file opened for locking without following a symlink (a committed `<state>.lock`
    symlink would make us create or lock another checkout's file); NotRegular otherwise."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
                             | _BINARY, 0o600)
    except OSError as error:
        if os.path.islink(path):
            raise NotRegular("%s is a symlink" % path) from error
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise NotRegular("%s is not a regular file" % path)
    return os.fdopen(descriptor, "r+b")

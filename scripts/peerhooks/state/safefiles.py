"""Opening files that a repository, a peer or a stray program may have made hostile.

A checkout is other people's data: a committed `.claude/state -> ../../other` symlink, a HANDOFF.md
that is a FIFO, a `MEMORY.md -> /dev/zero` all reached these hooks (issue 14), and a committed
`HANDOFF.md -> ~/.aws/credentials` was printed into the model's context (issue 21). A FIFO blocks an
open for reading until a writer comes, so the hook hung until the client's timeout; a followed
symlink made the hook write into another checkout. Here every read opens without blocking and keeps
only regular files; a file read for context is read only inside its own folder (the workspace, the
memory folder, the Claude home: `confined`), a link that stays inside still followed; and the folders
peerhooks writes into are made and checked without following links.
"""

from ..startup import oscalls

_NONBLOCK = getattr(oscalls, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(oscalls, "O_NOFOLLOW", 0)  # Windows has none; its symlinks need privileges to make
_CLOEXEC = getattr(oscalls, "O_CLOEXEC", 0)
_BINARY = getattr(oscalls, "O_BINARY", 0)


class NotRegular(OSError):
    """The path exists but is not a regular file (a FIFO, device, folder or, unfollowed, a link)."""


class UnsafeFolder(OSError):
    """A folder peerhooks writes into is a symlink or not a folder: nothing is written there."""


class OutsideRoot(OSError):
    """The path leads, through a symlink, out of the folder it must stay in (a committed
    `HANDOFF.md -> ~/.aws/credentials`), or does not lie in it at all: it is not read."""


def _own_root(path, roots):
    """The deepest of roots that `path` is named under (a file under a workspace inside the
    Claude home is the workspace's), or None."""
    best = None
    for root in roots:
        if root and _within(path, root) and path != root and (best is None or len(root) > len(best)):
            best = root
    return best


def _has_link_below(root, path):
    """Whether the file, or a folder between root and it (root itself trusted), is a symlink."""
    top = root.rstrip(oscalls.sep)
    while len(path) > len(top):
        if oscalls.path.islink(path):
            return True
        path = oscalls.path.dirname(path)
    return False


def _within(path, root):
    return path == root or path.startswith(root.rstrip(oscalls.sep) + oscalls.sep)


def confined(path, roots):
    """The path to open, without following a link, for a file that must stay inside one of
    roots (the deepest it is named under): `path` itself when no link lies below that root, else
    its resolved form when that stays inside the resolved root; OutsideRoot otherwise.

    The usual case costs one lstat per component below the root, no realpath; a link is
    followed only where it stays in (`CLAUDE.md -> AGENTS.md` still reads). Where the platform
    cannot open without following (Windows, no O_NOFOLLOW), every path is resolved."""
    root = _own_root(path, roots)
    if root is None:
        raise OutsideRoot("%s is outside %s" % (path, ", ".join(r for r in roots if r)))
    if _NOFOLLOW and oscalls.sep + ".." not in path and not _has_link_below(root, path):
        return path  # `..` is resolved below: `root/../x` is not under root, whatever it reads like
    real = oscalls.path.realpath(path)
    if not _within(real, oscalls.path.realpath(root)):
        raise OutsideRoot("%s leads out of %s" % (path, root))
    return real


READ_CHUNK_BYTES = 64 * 1024  # past the size fstat gave: a file that grows while it is read


def open_regular(path, follow_symlinks=True, inside=None, buffering=-1):
    """A binary file object for a regular file, opened without blocking; FileNotFoundError when
    absent, NotRegular for anything else (a symlink too when follow_symlinks is False).

    inside: the folders the file may lie in (a tuple); a link is followed only to a place within
    the one it is named under, and OutsideRoot raised for one that leads out (see confined)."""
    descriptor, _info = regular_descriptor(path, follow_symlinks, inside)
    try:
        return oscalls.fdopen(descriptor, "rb", buffering)
    except BaseException:
        oscalls.close(descriptor)
        raise


def regular_descriptor(path, follow_symlinks=True, inside=None):
    """(descriptor, its os.stat) of a regular file opened as open_regular opens it, for a caller
    that reads a byte or two itself; raises as open_regular does. The caller closes it."""
    if inside is not None:
        path, follow_symlinks = confined(path, inside), False
    flags = oscalls.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_symlinks else _NOFOLLOW)
    try:
        descriptor = oscalls.open(path, flags)
    except OSError as error:
        if not follow_symlinks and oscalls.path.islink(path):
            raise NotRegular("%s is a symlink" % path) from error
        raise
    try:
        info = oscalls.fstat(descriptor)
        if not oscalls.S_ISREG(info.st_mode):
            raise NotRegular("%s is not a regular file" % path)
        return descriptor, info
    except BaseException:
        oscalls.close(descriptor)
        raise


def regular_stat(path, inside):
    """The os.stat of a regular file that stays inside its root (see confined), else None."""
    try:
        info = oscalls.stat(confined(path, inside))
    except (OSError, ValueError):
        return None
    return info if oscalls.S_ISREG(info.st_mode) else None


def read_regular(path, limit=-1, follow_symlinks=True, inside=None):
    """The bytes of a regular file (at most `limit`, all for -1); raises like open_regular.

    Read from the descriptor, as a file object's read would, without the object: the size fstat
    gave and a byte more in the first read, which ends a file that did not grow since (a hook reads
    a dozen registry entries and state files per run)."""
    descriptor, info = regular_descriptor(path, follow_symlinks, inside)
    size = info.st_size
    try:
        chunks, total = [], 0
        while limit < 0 or total < limit:
            wanted = size + 1 - total if total <= size else READ_CHUNK_BYTES
            data = oscalls.read(descriptor, wanted if limit < 0 else min(wanted, limit - total))
            if not data:
                break
            chunks.append(data)
            total += len(data)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        oscalls.close(descriptor)


def read_text_head(path, max_lines, max_chars, inside=None):
    """The first lines of a regular text file (BOM dropped, invalid UTF-8 replaced, newlines
    normalised), at most max_lines and about max_chars; None when absent, not a regular file or,
    with `inside`, a link out of its root."""
    import io

    try:
        raw = open_regular(path, inside=inside)
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


def _folders(folder, levels):
    """`folder` and its parents, `levels` of them, outermost first."""
    parts = []
    for _ in range(levels):
        parts.append(folder)
        folder = oscalls.path.dirname(folder)
    return parts[::-1]


def private_folder(folder, levels):
    """Make `folder` and up to `levels - 1` of its parents as real folders, never following a
    symlink among those `levels` components; raises UnsafeFolder when one is a link or a file.
    The components above (the workspace root, resolved by the caller) are trusted."""
    for path in _folders(folder, levels):
        try:
            info = oscalls.lstat(path)
        except FileNotFoundError:
            try:
                oscalls.mkdir(path)
            except FileExistsError:
                pass  # made by a concurrent start; checked just below
            info = oscalls.lstat(path)
        if oscalls.S_ISLNK(info.st_mode):
            raise UnsafeFolder("%s is a symlink; peerhooks writes nothing through it" % path)
        if not oscalls.S_ISDIR(info.st_mode):
            raise UnsafeFolder("%s is not a folder" % path)


def is_private_folder(folder, levels):
    """Whether `folder` and its `levels - 1` parents all exist as real folders (none a link):
    where a file may be read back, renamed aside or removed as peerhooks' own."""
    for path in _folders(folder, levels):
        try:
            if not oscalls.S_ISDIR(oscalls.lstat(path).st_mode):
                return False
        except OSError:
            return False
    return True


def create_new(path, data):
    """Write a file that must not exist yet (no symlink is followed); False when it exists."""
    try:
        descriptor = oscalls.open(path, oscalls.O_WRONLY | oscalls.O_CREAT | oscalls.O_EXCL | _NOFOLLOW | _CLOEXEC
                             | _BINARY, 0o644)
    except FileExistsError:
        return False
    with oscalls.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    return True


def open_lock_file(path):
    """A lock file opened for locking without following a symlink (a committed `<state>.lock`
    symlink would make us create or lock another checkout's file); NotRegular otherwise."""
    try:
        descriptor = oscalls.open(path, oscalls.O_RDWR | oscalls.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
                             | _BINARY, 0o600)
    except OSError as error:
        if oscalls.path.islink(path):
            raise NotRegular("%s is a symlink" % path) from error
        raise
    if not oscalls.S_ISREG(oscalls.fstat(descriptor).st_mode):
        oscalls.close(descriptor)
        raise NotRegular("%s is not a regular file" % path)
    return oscalls.fdopen(descriptor, "r+b")

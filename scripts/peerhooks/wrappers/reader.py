"""Reading the files a wrapper runs, for the Follower: regular files inside the checkout their path
is in, never through a link out of it, never blocking, at most MAX_FILE_BYTES each.

Why: a Makefile, package.json or script is checkout content, which a repository (or a stray
program) may have made hostile: a `Makefile -> /dev/zero`, a FIFO named `commit.sh`, a link to
another checkout's file (issue 14's lessons, peerhooks.state.safefiles). The checkout is found from the
path as written (its nearest folder holding `.git`), so a folder link out of it is caught too. A
file outside every checkout (`~/bin/x.sh`) is not read (Outside); one inside that cannot be read
makes what it runs unknown (Unreadable: the guard asks beside a live peer rather than let it through).
"""
from ..startup import oscalls
from ..state import safefiles
from .files import MAX_FILE_BYTES, Outside, OverBound, Unreadable

BINARY_PROBE_BYTES = 1024  # a NUL byte this early marks a compiled program (`./build/app`), not a script
MAX_FOLDER_ENTRIES = 2048  # entries of one folder a workspace glob lists (`packages/*`)


class CheckoutReader:
    """read(path) -> text, None when absent; Outside or Unreadable when it is not read."""

    def __call__(self, path):
        real = _inside(path)
        try:
            data = safefiles.read_regular(real, MAX_FILE_BYTES + 1, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except (safefiles.NotRegular, IsADirectoryError):
            raise Unreadable("not a regular file") from None
        except OSError as error:
            raise Unreadable(error.strerror or "cannot be read") from None
        if len(data) > MAX_FILE_BYTES:
            if b"\0" in data[:BINARY_PROBE_BYTES]:
                return data[:BINARY_PROBE_BYTES].decode("utf-8", "replace")  # a program, not a script
            raise OverBound("larger than %d KB" % (MAX_FILE_BYTES // 1024))
        return data.decode("utf-8", "replace")

    def folders(self, path):
        """The names of the folders in a folder inside the checkout (not links), sorted; none when
        it is absent or not a folder."""
        real = _inside(path.rstrip(oscalls.sep) + oscalls.sep + ".")
        names = []
        try:
            with oscalls.scandir(real) as entries:
                for count, entry in enumerate(entries):
                    if count >= MAX_FOLDER_ENTRIES:
                        raise OverBound("a folder of more than %d entries" % MAX_FOLDER_ENTRIES)
                    if entry.is_dir(follow_symlinks=False):
                        names.append(entry.name)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as error:
            raise Unreadable(error.strerror or "cannot be listed") from None
        return sorted(names)


def _inside(path):
    """The path's realpath, when it is inside the checkout its path as written is in (Outside when
    in none, Unreadable through a link out of it)."""
    top = _toplevel_as_written(oscalls.path.dirname(path))
    if top is None:
        raise Outside("outside every checkout")
    real = oscalls.path.realpath(path)
    if not real.startswith(top.rstrip(oscalls.sep) + oscalls.sep) and real != top:
        raise Unreadable("a link out of the checkout")
    return real


def _toplevel_as_written(folder):
    """The realpath of the nearest folder, walking up the path as written, that holds `.git`."""
    current = oscalls.path.normpath(folder)
    while True:
        if oscalls.path.lexists(oscalls.path.join(current, ".git")):
            return oscalls.path.realpath(current)
        parent = oscalls.path.dirname(current)
        if parent == current:
            return None
        current = parent

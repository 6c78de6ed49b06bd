"""Reading the files a wrapper runs, for the Follower: regular files inside the checkout they are
in, never through a link out of it, never blocking, at most MAX_FILE_BYTES each.

Why: a Makefile, package.json or script is checkout content, which a repository (or a stray
program) may have made hostile: a `Makefile -> /dev/zero`, a FIFO named `commit.sh`, a link to
another checkout's file (issue 14's lessons, peerhooks.safefiles). A file outside every checkout
(`~/bin/x.sh`) is not read and not followed; one that cannot be read inside it makes what it runs
unknown (the guard asks beside a live peer rather than let it through).
"""
import os

from .. import gitrepo, safefiles
from . import MAX_FILE_BYTES, Unreadable

BINARY_PROBE_BYTES = 1024  # a NUL byte this early marks a compiled program (`./build/app`), not a script


class CheckoutReader:
    """read(path) -> text, None (absent, or outside any checkout), or Unreadable."""

    def __init__(self, toplevel=gitrepo.toplevel):
        self.toplevel = toplevel

    def __call__(self, path):
        top = self.toplevel(os.path.dirname(path))
        if top is None:
            return None
        real = os.path.realpath(path)
        if not real.startswith(top.rstrip(os.sep) + os.sep):
            raise Unreadable("a link out of the checkout")
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
            raise Unreadable("larger than %d KB" % (MAX_FILE_BYTES // 1024))
        return data.decode("utf-8", "replace")

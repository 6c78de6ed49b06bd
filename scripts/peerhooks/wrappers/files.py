"""The files one judgement reads for the wrappers its line runs (a Makefile and its includes,
package.json, a script), the two ways a file stays unread, and the first question asked of any text
a wrapper runs: does it mention git at all.

A file is read at most once per judgement, at most MAX_FILES of them, each at most MAX_FILE_BYTES
(peerhooks.wrappers.reader reads the checkout; tests hand a dict); a file the line itself wrote is
taken as the line wrote it.
"""

MAX_FILES = 32  # paths looked up in one judgement: a Makefile's three names, its includes, scripts

# A hand-written Makefile, package.json or script is far smaller; the interpreter walks dense shell
# at ~170 KB/s on a 2-core machine, so what one judgement follows is bounded in text too (follower).
MAX_FILE_BYTES = 128 * 1024


class Unreadable(Exception):
    """A file that exists but is not read (a link out of the checkout, not a regular file, too big,
    beyond the files a judgement reads): what it runs cannot be known."""


class OverBound(Unreadable):
    """A file not read because a bound of the judgement was reached (its size, the files read):
    what it holds is unknown wherever it is used, an include defining a goal elsewhere too."""


class Outside(Unreadable):
    """A file outside every checkout (`~/bin/x.sh`, `/usr/share/mk/x.mk`): not read, and a script or
    makefile there is not followed (an include there leaves what it defines unknown)."""


class Files:
    """The files one judgement reads: each at most once, at most `limit` (MAX_FILES, and more for a
    run across workspaces), a file the line itself wrote as the line wrote it; and the folders a
    workspace glob lists, counted as files."""

    def __init__(self, read):
        self._read = read.get if isinstance(read, dict) else read
        self._folders = _folders_of_keys(read) if isinstance(read, dict) else getattr(read, "folders", None)
        self._texts = {}
        self.count = 0
        self.limit = MAX_FILES

    def text(self, path, written=None):
        """The file's text; None when absent; Unreadable when it cannot or must not be read."""
        if written is not None and path in written:
            if written[path] is None:
                raise Unreadable("the line writes it with text it does not show")
            return written[path]
        return self._remembered(path, self._read, path)

    def folders(self, path):
        """The names of the folders in a folder, sorted (Unreadable past the limit, or when it
        cannot be listed; none when absent)."""
        return self._remembered(path.rstrip("/") + "/", self._folders, path)

    def _remembered(self, key, load, path):
        """What load(path) gave for key, loaded once; each load counts against the limit, past which
        (or with no loader) it is OverBound. Unreadable is raised every time it is asked for."""
        if key not in self._texts:
            self.count += 1
            if load is None or self.count > self.limit:
                self._texts[key] = OverBound("more than %d files in one judgement" % self.limit)
            else:
                try:
                    self._texts[key] = load(path)
                except Unreadable as error:
                    self._texts[key] = error
        found = self._texts[key]
        if isinstance(found, Unreadable):
            raise found
        return found


def _folders_of_keys(files):
    """folders(path) over a dict of {path: text} (tests): the folders its paths pass through."""
    def folders(path):
        prefix = path.rstrip("/") + "/"
        return sorted({key[len(prefix):].split("/")[0] for key in files
                       if key.startswith(prefix) and "/" in key[len(prefix):]})
    return folders


def mentions_git(text):
    """True when the text holds `git` as a word of its own (not `.git`, `github`, `digit`)."""
    start = text.find("git")
    while start >= 0:
        before, after = text[start - 1:start], text[start + 3:start + 4]
        if not (before.isalnum() or before in ("_", ".")) and not (after.isalnum() or after == "_"):
            return True
        start = text.find("git", start + 3)
    return False

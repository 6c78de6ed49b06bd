"""The POSIX path flavour: how Linux writes, opens and compares paths, and the base that macOS'
(darwin.Darwin: NFC) and Windows' (windows.Windows: drives, `\\`, Git Bash's `/c/`) refine.

A module of its own so that the flavours below it import it, while peerhooks.platform, which
chooses among them, imports them: arrows down only.
"""
from ..startup import oscalls

SEP = "/"
# Links one write follows through a path's last component before the kernel gives up (ELOOP):
# Linux's MAXSYMLINKS (macOS stops at 32, Windows at 63). A longer chain, or a loop, writes nothing.
MAX_LINKS = 40


def nfc(text):
    """Unicode text in NFC, as the client normalises its Claude home and (on macOS) its cwd."""
    if text.isascii():  # NFC leaves ASCII as it is, so only other paths load the tables
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


class Posix:
    """The POSIX path flavour: Linux's, and the base of macOS' (darwin.Darwin) and Windows'
    (windows.Windows). One spelling, `/`-rooted, bytes as they are."""

    case_insensitive = False

    def local(self, written):
        """The path a client or a shell wrote, as this process opens it; None when it is not an
        absolute path here (a relative cwd tells nothing about where a session is)."""
        return written if isinstance(written, str) and written.startswith(SEP) else None

    def native(self, local):
        """A local path as the client writes it (registry `cwd`, history `project`)."""
        return local

    def is_absolute(self, local):
        return local.startswith(SEP)

    def names_absolute(self, word):
        """Whether a shell word names an absolute path, known or not (`/tmp` under Git Bash is the
        Git folder's, which this process cannot tell)."""
        return word.startswith(SEP)

    def resolve(self, value, cwd):
        """The local path a shell word names from the folder `cwd` (local); None when unknowable."""
        if self.names_absolute(value):
            known = self.local(value)
            return self.normpath(known) if known is not None else None
        if cwd is None:
            return None
        return self.normpath(self.join(cwd, value))

    # posixpath's own functions, not wrappers: a hook calls them hundreds of times (each peer's
    # edited files), and on Linux the flavour must cost nothing over what it replaced.
    normpath = staticmethod(oscalls.posixpath.normpath)
    join = staticmethod(oscalls.posixpath.join)
    dirname = staticmethod(oscalls.posixpath.dirname)
    basename = staticmethod(oscalls.posixpath.basename)
    program = staticmethod(oscalls.posixpath.basename)  # the program a command word runs (`/usr/bin/git` is git)

    def relative_spelling(self, word):
        """A relative path a shell word names, `/`-separated as git's pathspecs and our lists are."""
        return word

    def shell_spelling(self, local):
        """A local folder as the Bash tool's shell prints it ($PWD, ~), None kept as None."""
        return local

    def slug_text(self, local):
        """The text Claude Code's slug rule runs on: the start folder as the client spells it,
        NFC-normalised (2.1.332 normalises the Claude home and, on macOS, the cwd)."""
        return nfc(self.native(local))

    realpath = staticmethod(oscalls.path.realpath)

    def landing(self, path, inside):
        """The file a write opening `path` reaches: where the link the last component of `path` is
        leads (a chain of links followed, each hop's folder resolved as realpath resolves it),
        while every hop stays under `inside` (the realpath of the workspace); `path` itself when
        it is no link, a hop leads out of `inside`, a link names a folder, or the chain loops or
        is longer than MAX_LINKS. A dangling link lands on the file a write would create. Only
        lstat and readlink: nothing is opened (a FIFO never blocks), and nothing raises."""
        current = path
        for _hop in range(MAX_LINKS + 1):
            try:
                mode = oscalls.lstat(current).st_mode
            except (OSError, ValueError):
                return current  # nothing there: the write creates it (a dangling link's target)
            if not oscalls.S_ISLNK(mode):
                return current
            try:
                written = oscalls.readlink(current)
            except (OSError, ValueError):
                return path
            # relative to the link's folder as the kernel reads it (no lexical `..`: realpath's)
            following = self.join(self.dirname(current), self.local(written) or written)
            name = self.basename(following)
            if name in ("", ".", ".."):
                return path  # a link to a folder: nothing is written through it
            folder = self.realpath(self.dirname(following))
            if not self._under(folder, inside):
                return path
            current = self.join(folder, name)
        return path

    def _under(self, folder, root):
        """Whether a resolved folder is root or lies below it (in any case where case does not count)."""
        if not root:
            return False
        if self.case_insensitive:
            folder, root = folder.lower(), root.lower()
        return folder == root or folder.startswith(root.rstrip(SEP) + SEP)

"""The POSIX path flavour: how Linux writes, opens and compares paths, and the base that macOS'
(darwin.Darwin: NFC) and Windows' (windows.Windows: drives, `\\`, Git Bash's `/c/`) refine.

A module of its own so that the flavours below it import it, while peerhooks.platform, which
chooses among them, imports them: arrows down only.
"""
from ..startup import oscalls

SEP = "/"


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

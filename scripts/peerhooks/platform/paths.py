"""How paths are written, joined and compared on each platform: one flavour per platform, pure.

Two spellings of a path meet in a hook. *Written* is what the client or a shell gives us: a registry
`cwd`, a payload's `cwd` and `transcript_path`, history's `project`, a transcript's `file_path`, a
folder named in a command line. *Local* is what this process hands to `open()` and compares. On
Linux and macOS they are the same `/`-rooted string. On Windows Claude Code 2.1.332 writes native
paths (`C:\\Users\\me\\repo`, realpath without NFC), passes `CLAUDE_PROJECT_DIR` to a Git Bash hook as
`C:/Users/me/repo`, and Git Bash itself spells the folder `/c/Users/me/repo`; local is
`C:/Users/me/repo` (forward slashes, git's own spelling, which Windows opens too), so that the guard's
`/`-based path logic holds unchanged (docs/clients.md, "macOS and Windows").

Every decision about a path goes through a flavour: whether a word names an absolute folder, where a
relative one lands, what a command's program is called (`git.exe` is git), the text the projects/
slug is made of and whether its folders match in any case (on Windows only, as the client matches
them; not on APFS), and what a resolved path is. Paths compared with each other are realpaths, which
Windows gives in the case the disk holds and macOS here in NFC, so equality is the comparison.
"""
import os
import posixpath

SEP = "/"
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _nfc(text):
    if text.isascii():  # NFC leaves ASCII as it is, so only other paths load the tables
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


class Posix:
    """Linux: one spelling, `/`-rooted, bytes as they are."""

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

    def normpath(self, local):
        return posixpath.normpath(local)

    def join(self, folder, *names):
        return posixpath.join(folder, *names)

    def dirname(self, local):
        return posixpath.dirname(local)

    def basename(self, local):
        return posixpath.basename(local)

    def program(self, word):
        """The program a command word runs, by name (`/usr/bin/git` is git)."""
        return posixpath.basename(word)

    def relative_spelling(self, word):
        """A relative path a shell word names, `/`-separated as git's pathspecs and our lists are."""
        return word

    def shell_spelling(self, local):
        """A local folder as the Bash tool's shell prints it ($PWD, ~), None kept as None."""
        return local

    def slug_text(self, local):
        """The text Claude Code's slug rule runs on: the start folder as the client spells it,
        NFC-normalised (2.1.332 normalises the Claude home and, on macOS, the cwd)."""
        return _nfc(self.native(local))

    def realpath(self, path):
        return os.path.realpath(path)


class Darwin(Posix):
    """macOS: as Linux, with resolved paths in NFC, as the client keeps its cwd
    (`realpathSync(cwd).normalize("NFC")`): APFS looks names up normalisation-insensitively, so a
    folder created decomposed is the same folder, and its realpath must compare equal to the
    registry's. Case is kept as written: the client does not fold project folders on a
    case-insensitive APFS disk either. `/tmp` and `/var` are links to `/private/…`: realpath (the
    client's and ours) resolves them."""

    def realpath(self, path):
        return _nfc(os.path.realpath(path))


class Windows(Posix):
    """Windows: drive (`C:/…`) and UNC (`//server/share/…`) roots, `\\` and `/` both separators,
    project folders matched in any case; written as the client writes (`C:\\Users\\me\\repo`) or as Git Bash
    does (`/c/Users/me/repo`), local as `C:/Users/me/repo`."""

    case_insensitive = True

    # -- written -> local ------------------------------------------------------------------------
    def local(self, written):
        rooted = self.rooted(written) if isinstance(written, str) else None
        return self.place(rooted) if rooted is not None else None

    def rooted(self, written):
        """`C:/rest` or `//server/share/rest` from any spelling of an absolute Windows path, or None
        (relative, drive-relative `C:x`, a device such as a named pipe, or a Git Bash path under
        its own root such as `/tmp`, whose Windows folder only the running shell knows)."""
        text = written.replace("\\", SEP)
        if text.startswith(("//?/", "//./")):
            if text[4:5] in _LETTERS and text[5:6] == ":":
                text = text[4:]  # \\?\C:\… is C:\… without the length limit
            elif text[4:8].upper() == "UNC/":
                text = "//" + text[8:]
            else:
                return None  # \\.\pipe\…: a device, no folder
        elif len(text) >= 2 and text[0] == SEP and text[1] in _LETTERS and text[2:3] in ("", SEP):
            text = text[1].upper() + ":" + (text[2:] or SEP)  # Git Bash: /c/Users is C:/Users
        anchor = _anchor(text)
        return _normalised(anchor, text[len(anchor):]) if anchor else None

    def place(self, rooted):
        """Where a rooted Windows path is opened from this process: as it is (a simulation maps it
        onto this machine's folders)."""
        return rooted

    def unplace(self, local):
        """The rooted Windows path of a local one (the inverse of place)."""
        return local

    def native(self, local):
        return self.unplace(local).replace(SEP, "\\")

    # -- shell words ------------------------------------------------------------------------------
    def names_absolute(self, word):
        text = word.replace("\\", SEP)
        return text.startswith(SEP) or bool(_anchor(text))

    def resolve(self, value, cwd):
        if self.names_absolute(value):
            return self.local(value)
        if cwd is None or value[1:2] == ":":
            return None  # `C:docs` is relative to drive C's own current folder, unknown here
        return self.normpath(self.join(cwd, value.replace("\\", SEP)))

    def program(self, word):
        name = word.replace("\\", SEP).rpartition(SEP)[2].lower()
        return name[:-4] if name.endswith(".exe") else name

    def relative_spelling(self, word):
        return word.replace("\\", SEP)  # git for Windows reads `\\` in a path as a separator

    def shell_spelling(self, local):
        """Git Bash's: `/c/Users/me` for C:/Users/me; a share stays `//server/share`."""
        if local is None:
            return None
        rooted = self.unplace(local)
        if rooted[1:2] == ":":
            return SEP + rooted[0].lower() + rooted[2:].rstrip(SEP)
        return rooted

    def basename(self, local):
        return local.replace("\\", SEP).rpartition(SEP)[2]

    # -- local paths ------------------------------------------------------------------------------
    def is_absolute(self, local):
        return bool(_anchor(local))

    def normpath(self, local):
        anchor = _anchor(local)
        return _normalised(anchor, local[len(anchor):]) if anchor else posixpath.normpath(local)

    def join(self, folder, *names):
        path = folder
        for name in names:
            name = name.replace("\\", SEP)
            path = name if _anchor(name) else (path.rstrip(SEP) + SEP + name if path else name)
        return path

    def dirname(self, local):
        return self.normpath(posixpath.dirname(local)) if _anchor(local) else posixpath.dirname(local)

    def slug_text(self, local):
        return self.native(local)  # the win32 build keeps the cwd as realpath gives it: no NFC

    def realpath(self, path):
        return self.local(os.path.realpath(path)) or path


def _anchor(text):
    """The root of a `/`-separated Windows path: `C:` (followed by `/` or nothing) or
    `//server/share`; "" when the path is not rooted."""
    if len(text) >= 2 and text[0] in _LETTERS and text[1] == ":" and text[2:3] in ("", SEP):
        return text[0].upper() + ":"
    if text.startswith("//") and not text.startswith("///"):
        server_end = text.find(SEP, 2)
        if server_end > 2:
            share_end = text.find(SEP, server_end + 1)
            share_end = len(text) if share_end < 0 else share_end
            if share_end > server_end + 1:
                return text[:share_end]
    return ""


def _normalised(anchor, rest):
    """anchor + rest with `.`, `..` and doubled separators resolved, never above the root; a root
    alone ends in `/` (`C:/`, `//server/share/`)."""
    return anchor + "/" + posixpath.normpath("/" + rest).lstrip(SEP)

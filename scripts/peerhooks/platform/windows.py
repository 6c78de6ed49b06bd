"""Windows: its processes, read from the kernel through ctypes (standard library) as Claude Code
reads them, and its paths: drives, UNC shares, `\\` and Git Bash's `/c/` (the `Windows` flavour below).

- `procStart` is the process's creation time as a FILETIME decimal (100 ns units since 1601 UTC,
  18 digits, ~1.34e17): what Bun's `windowsProcessCreationTime` gives the client, and what
  GetProcessTimes gives us. Where Bun's call is missing, the client writes PowerShell's
  `(Get-CimInstance Win32_Process …).CreationDate.Ticks` instead (since year 1, local time, ~6.4e17),
  and treats one of each as the same process because the clocks cannot be compared
  (`function Hnt(e,t){if(t===e)return!0;let n=Number(e),r=Number(t);return …n>3e17!==r>3e17}`): so
  do we. Two FILETIMEs (or two tick counts) must be equal.
- Liveness is OpenProcess + GetExitCodeProcess: `os.kill(pid, 0)` would send Ctrl+C there
  (`signal.CTRL_C_EVENT == 0`).
- The ancestry comes from one Toolhelp32 snapshot of every process's parent. (Git Bash's `ps` has no
  `-o`, so asking it would find the parent alone.)
- `pidDomain` is `win32:<host name in lower case>` (`win32:${os.hostname().toLowerCase()}`; libuv's
  hostname is Winsock's gethostname, as Python's socket.gethostname).
"""
import os
import posixpath

from .posix import SEP, Posix

# Above this a start time counts from year 1 (PowerShell's .NET ticks), below it from 1601
# (FILETIME): the client's own threshold.
TICKS_FLOOR = 300000000000000000
PROCESS_QUERY_LIMITED_INFORMATION = 0x1000  # enough for exit code and times, granted for most processes
STILL_ACTIVE = 259
ERROR_ACCESS_DENIED = 5  # a process that exists but is not ours to open (an elevated one)
TH32CS_SNAPPROCESS = 0x2
INVALID_HANDLE = -1


def process_times(pid):
    """(still running, creation time as a FILETIME int or None) of a process, or None when there is
    no such process."""
    import ctypes  # only on Windows
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.OpenProcess.restype = wintypes.HANDLE
    handle = kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        return (True, None) if ctypes.get_last_error() == ERROR_ACCESS_DENIED else None
    try:
        code = wintypes.DWORD()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return None
        created, exited, kernel, user = (wintypes.FILETIME() for _ in range(4))
        if not kernel32.GetProcessTimes(handle, ctypes.byref(created), ctypes.byref(exited),
                                        ctypes.byref(kernel), ctypes.byref(user)):
            return code.value == STILL_ACTIVE, None
        return code.value == STILL_ACTIVE, (created.dwHighDateTime << 32) | created.dwLowDateTime
    finally:
        kernel32.CloseHandle(handle)


def process_parents():
    """{pid: parent pid} of every process, from one Toolhelp32 snapshot; {} when it fails."""
    import ctypes  # only on Windows
    from ctypes import wintypes

    class ProcessEntry(ctypes.Structure):  # PROCESSENTRY32W
        _fields_ = [("dwSize", wintypes.DWORD), ("cntUsage", wintypes.DWORD),
                    ("th32ProcessID", wintypes.DWORD), ("th32DefaultHeapID", ctypes.c_size_t),
                    ("th32ModuleID", wintypes.DWORD), ("cntThreads", wintypes.DWORD),
                    ("th32ParentProcessID", wintypes.DWORD), ("pcPriClassBase", wintypes.LONG),
                    ("dwFlags", wintypes.DWORD), ("szExeFile", wintypes.WCHAR * 260)]

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.CreateToolhelp32Snapshot.restype = wintypes.HANDLE
    snapshot = kernel32.CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0)
    if not snapshot or snapshot == wintypes.HANDLE(INVALID_HANDLE).value:
        return {}
    parents = {}
    try:
        entry = ProcessEntry()
        entry.dwSize = ctypes.sizeof(ProcessEntry)
        more = kernel32.Process32FirstW(snapshot, ctypes.byref(entry))
        while more:
            parents[entry.th32ProcessID] = entry.th32ParentProcessID
            more = kernel32.Process32NextW(snapshot, ctypes.byref(entry))
    finally:
        kernel32.CloseHandle(snapshot)
    return parents


def host_name():
    import socket  # only on Windows

    return socket.gethostname()


class Processes:
    """Liveness, start times, ancestry and the pid domain; `times`, `parents` and `host` are the
    readers (the simulated Windows passes its own)."""

    def __init__(self, times=process_times, parents=process_parents, host=host_name):
        self._times = times
        self._parents = parents
        self._host = host
        self._domain = None

    def running(self, pids):
        found = {}
        for pid in set(pids):
            known = self._times(pid)
            if known is not None and known[0]:
                found[pid] = str(known[1]) if known[1] is not None else None
        return found

    @staticmethod
    def same_start(recorded, observed):
        if recorded == observed:
            return True
        if not (recorded.isdigit() and observed.isdigit()):
            return False
        return (int(recorded) > TICKS_FLOOR) != (int(observed) > TICKS_FLOOR)

    def parent_lookup(self):
        return self._parents().get

    def pid_domain(self):
        if self._domain is None:
            self._domain = "win32:" + self._host().lower()
        return self._domain

    def exists_marker(self, pid):
        return None  # no file stands for a process on Windows


# -- paths ------------------------------------------------------------------------------------------

_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


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

"""Processes on Windows, read from the kernel through ctypes (standard library), as Claude Code
reads them.

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

"""Linux: its processes, read from /proc as Claude Code reads them (its paths are posix.py's `Posix`).

- `procStart` is field 22 of /proc/<pid>/stat (clock ticks since boot), compared as written: a pid
  the kernel gave to another process since has another start.
- A process that exited but is not yet reaped (state Z or X) is not live.
- The ancestry is the chain of field-4 parents.
- `pidDomain` is `linux:<contents of /etc/machine-id>:<link of /proc/self/ns/pid>`, e.g.
  `linux:0123…cdef:pid:[4026531836]`: the pid namespace the pids mean something in. (It names the
  machine by its machine id, not a boot id.)
"""

from ..startup import oscalls

PROC = "/proc"
MACHINE_ID = "/etc/machine-id"
START_FIELD = 19  # field 22 of stat, counted from field 3 (the first after the command's parenthesis)
PARENT_FIELD = 1  # field 4
DEAD_STATES = ("Z", "X")  # exited, not yet reaped: the pid is not a session any more
STAT_BYTES = 4096  # /proc/<pid>/stat is a few hundred bytes, even with a 64-character command name


def stat_fields(pid):
    """Fields 3.. of /proc/<pid>/stat (after the parenthesised command name, which may hold blanks
    and parentheses itself), or None when the process is gone."""
    try:  # one read of the raw descriptor: a hook reads a dozen of these, and a file object costs twice
        descriptor = oscalls.open("%s/%d/stat" % (PROC, pid), oscalls.O_RDONLY)
    except (OSError, ValueError):
        return None
    try:
        raw = oscalls.read(descriptor, STAT_BYTES).decode("ascii", errors="replace")
    except OSError:
        return None
    finally:
        oscalls.close(descriptor)
    close = raw.rfind(")")
    return raw[close + 2:].split() if close >= 0 else None


def read_domain():
    """This process's pidDomain as 2.1.332 writes it, or None when the machine id is missing."""
    try:
        with open(MACHINE_ID, encoding="ascii") as handle:
            machine = handle.read().strip()
        namespace = oscalls.readlink(PROC + "/self/ns/pid")
    except (OSError, ValueError):
        return None
    return "linux:%s:%s" % (machine, namespace) if machine else None


class Processes:
    """Liveness, start times, ancestry and the pid domain; `stat` and `domain` are the readers (a
    test passes its own)."""

    def __init__(self, stat=stat_fields, domain=read_domain):
        self._stat = stat
        self._read_domain = domain
        self._domain = []  # [domain or None], read once: it cannot change while the process runs

    def running(self, pids):
        """{pid: its start in the client's procStart format, or None where unreadable} for those
        of the pids whose process runs."""
        found = {}
        for pid in pids:
            fields = self._stat(pid)
            if fields and fields[0] not in DEAD_STATES:
                found[pid] = fields[START_FIELD] if len(fields) > START_FIELD else None
        return found

    @staticmethod
    def same_start(recorded, observed):
        """Whether a recorded procStart is the running process's; a value in another format (no
        digits) says nothing, so the pid alone counts, as before start times were written."""
        return not recorded.isdigit() or recorded == observed

    def parent_lookup(self):
        """A function from a pid to its parent's (None when unknown), reading one process at a
        time: a hook's chain is a few processes long and /proc holds hundreds."""
        return self._parent

    def _parent(self, pid):
        fields = self._stat(pid)
        try:
            return int(fields[PARENT_FIELD]) if fields and len(fields) > PARENT_FIELD else None
        except ValueError:
            return None

    def pid_domain(self):
        if not self._domain:
            self._domain.append(self._read_domain())
        return self._domain[0]

    def exists_marker(self, pid):
        """A file that exists exactly while the process does (for cold start's quiet path)."""
        return "%s/%d" % (PROC, pid)

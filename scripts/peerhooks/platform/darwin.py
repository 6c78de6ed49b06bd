"""macOS: its processes, read with `ps` as Claude Code reads them, and its paths.

- `procStart` is what `LC_ALL=C TZ=UTC ps -o lstart= -p <pid>` prints, trimmed: a UTC date such as
  `Tue Dec  1 17:43:12 2026`, compared as written (the darwin build of 2.1.332:
  `ut(r,["-o","lstart=","-p",String(e)],{…env:{…,LC_ALL:"C",TZ:"UTC"}})` and
  `function Znt(e,t){if(t===e)return!0;return!1}`). Reading it the same way makes the two strings
  comparable; only the blanks ps pads a column with are ignored.
- A process in state Z has exited (the client checks `ps -o stat=` for a leading Z too).
- The ancestry comes from one `ps -A -o pid= -o ppid=`: one process per hook that needs it.
- `pidDomain` is the constant `darwin`: the client reads no machine id there.

ps is one process start (a few ms) that subprocess costs a further ~6 ms to import, so each
question is one call: all candidates' liveness in one `-p a,b,c`, the whole table for ancestry.
"""
import os

from .posix import Posix, nfc

PS = "/bin/ps"  # the client runs `ps` from /bin only (its PATH filter keeps /bin)
PS_TIMEOUT_S = 1  # the client's own timeout for the same call
DOMAIN = "darwin"


def run_ps(arguments):
    """ps's output with the client's locale and time zone, or None when it could not run."""
    import subprocess  # only where ps is asked: never on Linux

    environment = dict(os.environ, LC_ALL="C", TZ="UTC")
    try:
        completed = subprocess.run([PS] + list(arguments), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=environment, timeout=PS_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout.decode("ascii", errors="replace")  # ps exits 1 when a pid is gone


def signal_reaches(pid):
    """Whether a process exists, from signal 0 (when ps cannot run): True also for one we may not
    signal."""
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def lstart(words):
    """The five words of an lstart column as `ps -o lstart=` alone prints them, which is what the
    client stores: C's `%c`, `%a %b %e %T %Y`, the day padded to two places (`Tue Dec  1 …`)."""
    weekday, month, day, clock, year = words
    return "%s %s %2s %s %s" % (weekday, month, day, clock, year)


class Processes:
    """Liveness, start times, ancestry and the pid domain; `ps` and `exists` are the readers (the
    simulated macOS passes its own)."""

    def __init__(self, ps=run_ps, exists=signal_reaches):
        self._ps = ps
        self._exists = exists

    def running(self, pids):
        pids = sorted(set(pids))
        if not pids:
            return {}
        out = self._ps(["-o", "pid=", "-o", "stat=", "-o", "lstart=", "-p", ",".join(str(p) for p in pids)])
        if out is None:
            return {pid: None for pid in pids if self._exists(pid)}
        found = {}
        for line in out.splitlines():
            words = line.split()
            if len(words) >= 7 and words[0].isdigit() and not words[1].startswith("Z"):
                found[int(words[0])] = lstart(words[2:7])
        return {pid: start for pid, start in found.items() if pid in pids}

    @staticmethod
    def same_start(recorded, observed):
        """The client compares the two strings as they are; the blanks are not its to pad."""
        return recorded.split() == observed.split()

    def parent_lookup(self):
        out = self._ps(["-A", "-o", "pid=", "-o", "ppid="])
        parents = {}
        for line in (out or "").splitlines():
            words = line.split()
            if len(words) == 2 and words[0].isdigit() and words[1].isdigit():
                parents[int(words[0])] = int(words[1])
        return parents.get  # without ps, nothing beyond the parent (the walk's start) is known

    def pid_domain(self):
        return DOMAIN

    def exists_marker(self, pid):
        return None  # no file stands for a process on macOS


class Darwin(Posix):
    """macOS: as Linux, with resolved paths in NFC, as the client keeps its cwd
    (`realpathSync(cwd).normalize("NFC")`): APFS looks names up normalisation-insensitively, so a
    folder created decomposed is the same folder, and its realpath must compare equal to the
    registry's. Case is kept as written: the client does not fold project folders on a
    case-insensitive APFS disk either. `/tmp` and `/var` are links to `/private/…`: realpath (the
    client's and ours) resolves them."""

    def realpath(self, path):
        return nfc(os.path.realpath(path))

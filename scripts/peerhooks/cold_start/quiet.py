"""The cold start's quiet path: where the state lives, which agent key a start runs under, and
whether every file the last comparison read is as it was then.

Most starts change nothing, and gathering the sections to find that out (rule files, git refs,
transcripts, the registry) cost ~30 ms of imports and reads. So when a start ends with nothing
pending for its key, it writes beside the state file the list of files its gathering depended on,
with a token per file (type, mtime, size, inode; for a folder its mtime, which moves when an entry
is added or removed; for a registry file or a /proc/<pid> only whether it exists; for a session's
process where no file stands for it, whether it runs), the state file's own token and a
time after which the answer expires (an ended session leaving the 7-day window, the partition's
30-day re-stamp). The next start of that key stats those files; if every token matches it says
nothing, and the comparison (cold_start.compare) is never loaded. Any difference, a missing or odd
inputs file, a key that needs deriving: the full comparison runs, under the lock, as before.

Kept light on purpose: os and stat, and of ours only what finding the workspace and the registry
need (hashlib is imported when a key must be derived).
"""
import os

from .. import hookio, platform
from ..claude import registry
from ..git import gitrepo
from ..claude.home import transcript_entries
from ..state.safefiles import NotRegular, read_regular
from ..state.statefiles import write_atomically

STATE_FILENAME = "last-cold-start-emit.json"
INPUTS_FILENAME = "cold-start-inputs.txt"  # beside the state file; one line per agent key
HOST_FOLDERS = {"claude": ".claude", "codex": ".codex"}  # the host's own per-workspace folder
DEFAULT_KEY = "default"  # unset variable: one partition, the single-agent behaviour of old
MAX_KEY_CHARS = 128  # a key is a short label set once in a launch profile; longer is a mistake
DERIVED_KEY_PREFIX = "key-sha256-"  # a key we cannot store as written gets a stable name of its own
DERIVED_KEY_HEX = 32  # 128 bits: two distinct raw keys never share a partition
MAX_INPUTS_BYTES = 1024 * 1024  # a few hundred paths per key; larger is not ours
ABSENT = "-"
EXISTS_ONLY = "?"  # a listed path with this prefix counts by its existence alone
TRANSCRIPTS = "~"  # a transcript folder: nothing counts but a transcript written since of a session not live
PROCESS = "!"  # `!<pid> <start>`: a session's process, where no file stands for it (macOS, Windows)
TRANSCRIPTS_TOKEN = "no ended session since"
RACY_NS = 2 * 10 ** 9  # mtimes are coarse (a kernel tick; 2 s on FAT): newer files are not trusted
CONTINUES = ("Session continues (%s): orientation material was given at its start; "
             "that context remains authoritative.")


def continues_line(source):
    return CONTINUES % source + "\n"


def start_folder(folder, environ):
    """Where the session started: CLAUDE_PROJECT_DIR (fixed at start), else the folder given."""
    project_dir = hookio.project_dir(environ)
    folder = folder if folder and os.path.isdir(folder) else None
    return project_dir or folder


def workspace_root(folder, environ):
    """(root, git toplevel): the root is the checkout the session started in (a session started
    in a subfolder loads the checkout's rules, so its workspace is the checkout), else the folder
    it started in; root None when there is nothing to compare."""
    start = start_folder(folder, environ)
    toplevel = gitrepo.toplevel(start)
    root = toplevel or start
    return (platform.current().paths.realpath(root) if root else None), toplevel


class AgentKey(tuple):
    """(key, warning): the partition key, and one stderr line when the raw value could not be
    used as written."""
    __slots__ = ()

    def __new__(cls, key, warning):
        return tuple.__new__(cls, (key, warning))

    key = property(lambda self: self[0])
    warning = property(lambda self: self[1])


def agent_key(raw):
    """The partition key from the variable's raw value (None when unset).

    A value that cannot be stored as written (over 128 characters, control characters, not valid
    UTF-8) still gets a partition of its own, named by a hash of its bytes: falling back to
    `default` made two such agents share one partition, the #1811 split again."""
    key = (raw or "").strip()
    if not key:
        return AgentKey(DEFAULT_KEY, None)
    problem = None
    if len(key) > MAX_KEY_CHARS:
        problem = "is longer than %d characters" % MAX_KEY_CHARS
    elif any(_is_control(char) for char in key):
        problem = "contains control characters"
    elif not _is_utf8(key):
        problem = "is not valid UTF-8"
    if problem is None:
        return AgentKey(key, None)
    derived = derived_key(key)
    return AgentKey(derived, "LI_PLUS_AGENT_KEY %s; its partition is named %s" % (problem, derived))


def derived_key(key):
    import hashlib

    try:
        data = key.encode("utf-8", "surrogateescape")  # the bytes of a POSIX environment value
    except UnicodeEncodeError:
        data = key.encode("utf-8", "surrogatepass")
    return DERIVED_KEY_PREFIX + hashlib.sha256(data).hexdigest()[:DERIVED_KEY_HEX]


def _is_utf8(text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_control(char):
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F


def state_path(root, host="claude"):
    return os.path.join(root, HOST_FOLDERS[host], "state", STATE_FILENAME)


def inputs_path(state_file):
    return os.path.join(os.path.dirname(state_file), INPUTS_FILENAME)


def exists_only(path):
    """A path whose existence is all that counts (a registry file, rewritten on every status
    change of its session; a /proc/<pid> entry)."""
    return EXISTS_ONLY + path


def process(pid, start):
    """A session's process as a listed input, where no file exists exactly while it runs (macOS,
    Windows; Linux has /proc/<pid>): its token says whether that pid still runs with that start."""
    return "%s%d %s" % (PROCESS, pid, start or "")


def transcripts(folder):
    """A transcript folder (`<home>/projects/<slug>`) as a listed input: each new session writes
    its transcript there, so its mtime moves at every start; what changes the ended sessions is a
    transcript written since the comparison by a session that is not live any more."""
    return TRANSCRIPTS + folder


def token(path):
    """What must stay the same for a file's contribution to stay the same."""
    if path.startswith(PROCESS):
        return _process_tokens([path])[path]
    if path.startswith(TRANSCRIPTS):
        return TRANSCRIPTS_TOKEN
    if path.startswith(EXISTS_ONLY):
        return "1" if os.path.lexists(path[len(EXISTS_ONLY):]) else ABSENT
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return ABSENT
    if (info.st_mode & 0o170000) == 0o120000:  # a symlink: what it points at counts too
        try:
            target = os.stat(path)
        except (OSError, ValueError):
            return "l:" + ABSENT
        return "l:%o:%d:%d:%d" % (target.st_mode, target.st_mtime_ns, target.st_size, target.st_ino)
    return "%o:%d:%d:%d" % (info.st_mode, info.st_mtime_ns, info.st_size, info.st_ino)


def _process_tokens(listed):
    """{listed process: "1" while it runs, else ABSENT}, asking the platform once for all of them
    (on macOS one `ps`)."""
    if not listed:
        return {}
    processes = platform.current().processes
    wanted = {}
    for item in listed:
        pid, _blank, start = item[len(PROCESS):].partition(" ")
        wanted[item] = (int(pid) if pid.isdigit() else 0, start)
    running = processes.running([pid for pid, _start in wanted.values() if pid])
    return {item: "1" if pid in running and (not start or running[pid] is None
                                             or processes.same_start(start, running[pid])) else ABSENT
            for item, (pid, start) in wanted.items()}


def _fits(text):
    return "\t" not in text and "\n" not in text and "\r" not in text


def tokens(paths, now_ns):
    """[(path, token)], taken before gathering: a file that changes while it is read then no
    longer matches, and the next start compares again. None when a file changed within the last
    RACY_NS: two writes inside one tick of the file system's clock can leave the same mtime and
    size, so such a token would not tell them apart (git's "racily clean" index entries)."""
    taken = []
    processes = _process_tokens([path for path in paths if path.startswith(PROCESS)])
    for path in paths:
        value = processes[path] if path in processes else token(path)
        mtime = value.split(":")[-3] if value.count(":") >= 3 else None
        if mtime is not None and now_ns - int(mtime) < RACY_NS:
            return None
        taken.append((path, value))
    return taken


def entry_line(key, valid_until_ms, state_token, since_ns, taken):
    """The key's line: key, expiry, the state file's token, when the tokens were taken, then path
    and token pairs; None when a path cannot be written on one line (then the key simply has no
    quiet path)."""
    if not _fits(key) or not all(_fits(path) for path, _ in taken):
        return None
    fields = [key, str(int(valid_until_ms)), state_token, str(int(since_ns))]
    for path, value in taken:
        fields += [path, value]
    return "\t".join(fields)


def _lines(inputs_file):
    try:
        raw = read_regular(inputs_file, MAX_INPUTS_BYTES + 1, follow_symlinks=False)
    except (OSError, ValueError, NotRegular):
        return []
    if len(raw) > MAX_INPUTS_BYTES:
        return []
    # An older version on Windows wrote this file in text mode: its lines end in CRLF.
    return [line[:-1] if line.endswith("\r") else line for line in raw.decode("utf-8", "replace").split("\n")]


def is_quiet(state_file, key, now_ms, own_session_id=None):
    """Whether the key's last full comparison found nothing pending and nothing it read, the
    state file included, has changed since."""
    folder = os.path.dirname(state_file)
    if os.path.islink(folder) or os.path.islink(os.path.dirname(folder)):
        return False  # not our folder: its files prove nothing (and the slow path says why)
    prefix = key + "\t"
    for line in _lines(inputs_path(state_file)):
        if not line.startswith(prefix):
            continue
        fields = line.split("\t")
        if len(fields) < 4 or len(fields) % 2 != 0:
            return False
        try:
            valid_until_ms, since_ns = int(fields[1]), int(fields[3])
        except ValueError:
            return False
        if valid_until_ms <= now_ms or token(state_file) != fields[2]:
            return False
        pairs = [(fields[i], fields[i + 1]) for i in range(4, len(fields), 2)]
        processes = _process_tokens([path for path, _value in pairs if path.startswith(PROCESS)])
        if not all((processes[path] if path in processes else token(path)) == value for path, value in pairs):
            return False
        folders = [path[len(TRANSCRIPTS):] for path, _ in pairs if path.startswith(TRANSCRIPTS)]
        # RACY_NS earlier: a write just after the tokens may carry a coarse mtime just before them
        return not folders or _no_session_ended_since(folders, since_ns - RACY_NS, own_session_id)
    return False


def _no_session_ended_since(folders, since_ns, own_session_id):
    """No transcript in these folders was written since since_ns, except by live sessions."""
    written = set()
    for folder in folders:
        for session_id, entry in transcript_entries(folder):
            try:
                if entry.stat(follow_symlinks=False).st_mtime_ns > since_ns:
                    written.add(session_id)
            except OSError:
                continue
    written.discard(own_session_id)
    if not written:
        return True
    return written <= _live_session_ids(os.path.dirname(os.path.dirname(folders[0])))


def _live_session_ids(home):
    """Session ids of registry entries whose process still runs (the same process: its start time
    is the one the entry records)."""
    return {session.session_id for session in registry.live_sessions(home)}


def remember(state_file, key, line, now_ms):
    """Replace the key's line (None removes it) in the inputs file, dropping expired lines; called
    under the state lock, after the state file was written."""
    prefix = key + "\t"
    kept = []
    for old in _lines(inputs_path(state_file)):
        fields = old.split("\t")
        if not old or old.startswith(prefix) or len(fields) < 3:
            continue
        try:
            if int(fields[1]) <= now_ms:
                continue
        except ValueError:
            continue
        kept.append(old)
    if line is not None:
        kept.append(line)
    write_atomically(inputs_path(state_file), ("\n".join(kept) + "\n").encode("utf-8"), levels=2)  # .claude/state

"""The partitioned cold-start state: which section fingerprints each agent has already been shown.

Several agents can share one workspace. With a single "last emit" pointer two agents starting close
together each receive a disjoint part of the changes and neither can tell, so the file keeps one
partition per agent key (`LI_PLUS_AGENT_KEY`, else `default`):

    {"agents": {"<key>": {"sections": {"<section key>": "<sha256 hex>"},
                          "last_emit_at": "YYYY-MM-DDTHH:MM:SSZ"}}}

The shell original lost one partition in 18% of simulated concurrent rounds and erased every
partition after a torn write. Here every read-compare-write happens under an exclusive lock on a
lock file beside the state file (fcntl on POSIX, msvcrt on Windows), the new file is written to a
temporary file, fsynced and renamed into place, and a file we cannot read is set aside as
`<name>.corrupt-<UTC stamp>` instead of being overwritten. Other partitions are carried over
untouched; partitions not written for 90 days are pruned.

Nothing here reads the clock or the environment: `now` (an aware UTC datetime) and the raw key are
parameters, and the caller resolves the workspace root.
"""
import json
import os
import re
import time
from datetime import datetime, timedelta, timezone
from typing import Dict, Mapping, NamedTuple, Optional

from .atomic import TEMP_SUFFIX, write_atomically

STATE_FILENAME = "last-cold-start-emit.json"
HOST_FOLDERS = {"claude": ".claude", "codex": ".codex"}  # the host's own per-workspace folder
DEFAULT_KEY = "default"  # unset variable: one partition, the single-agent behaviour of old
MAX_KEY_CHARS = 128  # a key is a short label set once in a launch profile; longer is a mistake
PRUNE_AFTER = timedelta(days=90)  # an agent silent for a quarter has been retired
RESTAMP_AFTER = timedelta(days=30)  # nothing new for a month: re-stamp so it is not taken for retired
STAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
QUARANTINE_STAMP = "%Y%m%dT%H%M%SZ"
LOCK_TIMEOUT_SECONDS = 3.0  # a holder does a few ms of work; waiting longer would eat the hook's budget
LOCK_POLL_SECONDS = 0.005
GITIGNORE_TEXT = "# peerhooks cold-start state: per-machine, never committed\n*\n"

# Why a start gets everything instead of a diff, printed with the material.
REASON_ABSENT = "no state file yet"
REASON_LEGACY = "the state file had the old single-partition shape; rebuilt, nothing carried over"
REASON_NO_PARTITION = "no partition yet for agent key %r"
REASON_CORRUPT = "the state file was unreadable and was set aside as %s"
REASON_CORRUPT_KEPT = "the state file is unreadable and could not be set aside, so it was left as it is"


class StateError(Exception):
    """The state could not be locked or written; the material was still shown."""


class AgentKey(NamedTuple):
    key: str
    warning: Optional[str]  # one line for stderr when the raw value was refused


class Partition(NamedTuple):
    sections: Mapping[str, str]
    last_emit_at: str


class Baseline(NamedTuple):
    """What this key has seen: a partition, or the reason it gets a full emit."""
    partition: Optional[Partition]
    full_reason: Optional[str]


def agent_key(raw):
    """The partition key from the variable's raw value (None when unset)."""
    key = (raw or "").strip()
    if not key:
        return AgentKey(DEFAULT_KEY, None)
    if len(key) > MAX_KEY_CHARS:
        return AgentKey(DEFAULT_KEY, "LI_PLUS_AGENT_KEY is longer than %d characters; using %r"
                        % (MAX_KEY_CHARS, DEFAULT_KEY))
    if any(_is_control(char) for char in key):
        return AgentKey(DEFAULT_KEY, "LI_PLUS_AGENT_KEY contains control characters; using %r"
                        % DEFAULT_KEY)
    return AgentKey(key, None)


def _is_control(char):
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F


def workspace_root(project_dir, cwd, git_toplevel):
    """CLAUDE_PROJECT_DIR if set, else the git toplevel of the payload's cwd, else that cwd."""
    return project_dir or git_toplevel or cwd


def state_path(root, host="claude"):
    return os.path.join(root, HOST_FOLDERS[host], "state", STATE_FILENAME)


def format_stamp(now):
    return now.astimezone(timezone.utc).strftime(STAMP_FORMAT)


def parse_stamp(text):
    """`YYYY-MM-DDTHH:MM:SSZ` -> aware datetime, None otherwise. By hand: the first strptime
    call imports _strptime, a few ms of a hook's budget."""
    if not isinstance(text, str) or not _STAMP.match(text):
        return None
    try:
        return datetime(int(text[0:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]),
                        int(text[14:16]), int(text[17:19]), tzinfo=timezone.utc)
    except ValueError:
        return None


# ---- the document: pure --------------------------------------------------------------------

class Document(NamedTuple):
    """A state file as read: its agents, or why it could not be used."""
    agents: Dict[str, object]
    problem: Optional[str]  # "absent", "legacy" or "corrupt"


def parse_document(raw):
    """Bytes of a state file (None when absent) -> Document."""
    if raw is None:
        return Document({}, "absent")
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return Document({}, "corrupt")
    if not isinstance(value, dict):
        return Document({}, "corrupt")
    if "agents" not in value:
        if "sections" in value or "last_emit_at" in value:
            return Document({}, "legacy")
        return Document({}, "corrupt")
    agents = value["agents"]
    if not isinstance(agents, dict):
        return Document({}, "corrupt")
    return Document(dict(agents), None)


def read_partition(entry):
    """One agent's entry -> Partition, or None when it is not in the expected shape."""
    if not isinstance(entry, dict):
        return None
    sections = entry.get("sections")
    stamp = entry.get("last_emit_at")
    if not isinstance(sections, dict) or not isinstance(stamp, str):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in sections.items()):
        return None
    return Partition(dict(sections), stamp)


def baseline_for(document, key, quarantined_as=None):
    """The key's baseline, or the reason for a full emit."""
    if document.problem == "absent":
        return Baseline(None, REASON_ABSENT)
    if document.problem == "legacy":
        return Baseline(None, REASON_LEGACY)
    if document.problem == "corrupt":
        return Baseline(None, REASON_CORRUPT % os.path.basename(quarantined_as)
                        if quarantined_as else REASON_CORRUPT_KEPT)
    partition = read_partition(document.agents.get(key))
    if partition is None:
        return Baseline(None, REASON_NO_PARTITION % key)
    return Baseline(partition, None)


def merged_agents(agents, key, sections, now):
    """The agents after this key wrote: its partition replaced, others kept, the stale pruned."""
    cutoff = now - PRUNE_AFTER
    own = {"sections": dict(sorted(sections.items())), "last_emit_at": format_stamp(now)}
    kept = {}
    for other, entry in agents.items():
        if other == key:
            kept[key] = own  # keeps its place, so a write does not reshuffle the file
            continue
        stamp = parse_stamp(entry.get("last_emit_at")) if isinstance(entry, dict) else None
        if stamp is not None and stamp < cutoff:
            continue
        kept[other] = entry  # carried over untouched, even a shape we do not understand
    kept.setdefault(key, own)
    return kept


def needs_record(partition, sections, now):
    """Whether a start must write: the fingerprints moved, or the partition would soon look
    retired. A start that saw nothing new skips the write (and its fsync)."""
    if partition is None or dict(partition.sections) != dict(sections):
        return True
    stamp = parse_stamp(partition.last_emit_at)
    return stamp is None or now - stamp >= RESTAMP_AFTER


def render_document(agents):
    return (json.dumps({"agents": agents}, indent=2, ensure_ascii=False, sort_keys=False)
            + "\n").encode("utf-8")


# ---- the file: I/O -------------------------------------------------------------------------

def _read_bytes(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def quarantine_name(path, now):
    return "%s.corrupt-%s" % (path, now.astimezone(timezone.utc).strftime(QUARANTINE_STAMP))


def _quarantine(path, now):
    """Move an unreadable state file aside; returns its new path (None if it could not move)."""
    target = quarantine_name(path, now)
    candidate, n = target, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = "%s-%d" % (target, n)
    try:
        os.rename(path, candidate)
    except OSError:
        return None
    return candidate


class _FileLock:
    """An exclusive lock on `<state>.lock`, released when closed (or when the holder dies)."""

    def __init__(self, path, timeout):
        self.path = path
        self.timeout = timeout
        self.handle = None

    def acquire(self):
        handle = open(self.path, "a+b")
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                _lock(handle)
                self.handle = handle
                return
            except OSError:
                if time.monotonic() >= deadline:
                    handle.close()
                    raise StateError("the state lock is held by another start; not recorded")
                time.sleep(LOCK_POLL_SECONDS)

    def release(self):
        if self.handle is not None:
            try:
                _unlock(self.handle)
            finally:
                self.handle.close()
                self.handle = None


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(handle):
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(handle):
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock(handle):
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(handle):
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Ledger:
    """The state file held under its lock for one start: read once, compared, written once.

    `Ledger.open(path, now)` locks and reads; use the result as a context manager, which
    releases the lock. `baseline(key)` says what the key has seen; `record(key, sections)`
    merges the key's new partition into what is on disk and replaces the file atomically.
    Holding the lock from the read to the write is what makes two starts with the same key never
    both show one change, and two keys never lose each other's partition.
    """

    def __init__(self, path, now, timeout=LOCK_TIMEOUT_SECONDS):
        # now: an aware UTC datetime; it stamps the partition and names a quarantined file
        self.path = path
        self.now = now
        self._lock = _FileLock(path + ".lock", timeout)
        self.document = None
        self.quarantined_as = None

    @classmethod
    def open(cls, path, now, timeout=LOCK_TIMEOUT_SECONDS):
        """Lock and read; raises OSError or StateError when the folder cannot be used."""
        ledger = cls(path, now, timeout)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        ledger._lock.acquire()
        try:
            ledger.document = parse_document(_read_bytes(path))
            if ledger.document.problem == "corrupt":
                ledger.quarantined_as = _quarantine(path, now)
        except BaseException:
            ledger.close()
            raise
        return ledger

    def close(self):
        self._lock.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def baseline(self, key):
        return baseline_for(self.document, key, self.quarantined_as)

    def record(self, key, sections):
        if self.document.problem == "corrupt" and self.quarantined_as is None:
            raise StateError("the unreadable state file could not be set aside; not overwritten")
        folder = os.path.dirname(self.path)
        _ensure_gitignore(folder)
        _remove_orphan_temps(folder)
        agents = merged_agents(self.document.agents, key, sections, self.now)
        write_atomically(self.path, render_document(agents), durable=True)
        self.document = Document(agents, None)


def read_baseline(path, key):
    """The key's baseline without the lock, for when the folder cannot be written at all."""
    try:
        raw = _read_bytes(path)
    except OSError:
        raw = b"\0"  # unreadable: treated as corrupt, but left where it is
    return baseline_for(parse_document(raw), key)


def _ensure_gitignore(folder):
    path = os.path.join(folder, ".gitignore")
    if os.path.exists(path):
        return
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(GITIGNORE_TEXT)


def _remove_orphan_temps(folder):
    """Temporary files left by a writer killed mid-write (only a lock holder writes them)."""
    prefix = "." + STATE_FILENAME + "."
    for name in os.listdir(folder):
        if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass

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
`<name>.corrupt-<UTC stamp>` instead of being overwritten. Partitions not written for 90 days are
pruned.

Other partitions are carried over byte for byte: the file is walked member by member and each
partition's text is kept as written, so one foreign entry (a lone surrogate, a 5,000-digit number,
an invalid UTF-8 byte, NaN, nesting a thousand deep) costs only that entry, which is set aside
with a copy of the file, and never stops the other keys from writing (issue 14).

Nothing here reads the clock or the environment: `now` (an aware UTC datetime) and the raw key are
parameters, and the caller resolves the workspace root.
"""
import json
import os
import re
from datetime import datetime, timedelta, timezone
from json.decoder import scanstring
from typing import Mapping, NamedTuple, Optional, Tuple

from ..state.safefiles import NotRegular, create_new, private_folder, read_regular
from ..state.statefiles import (TEMP_SUFFIX, FileLock, LockBusy, UnusableJSON, parse_json, quarantine,
                                quarantine_name, write_atomically)
from .quiet import STATE_FILENAME

STATE_LEVELS = 2  # `.claude/state`: the two folders below the workspace root that we create
PRUNE_AFTER = timedelta(days=90)  # an agent silent for a quarter has been retired
RESTAMP_AFTER = timedelta(days=30)  # nothing new for a month: re-stamp so it is not taken for retired
STAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
MAX_STATE_BYTES = 16 * 1024 * 1024  # a partition is a few KB; a file this big is not ours
MAX_DEPTH = 32  # ours nest 3 deep; deeper is foreign, and deep enough would exhaust the recursion limit
LOCK_TIMEOUT_SECONDS = 3.0  # a holder gathers and writes in tens of ms; longer would eat the hook's budget
GITIGNORE_TEXT = "# peerhooks cold-start state: per-machine, never committed\n*\n"

# Why a start gets everything instead of a diff, printed with the material.
REASON_ABSENT = "no state file yet"
REASON_LEGACY = "the state file had the old single-partition shape; rebuilt, nothing carried over"
REASON_NO_PARTITION = "no partition yet for agent key %r"
REASON_FOREIGN = "this agent key's partition was unreadable and was set aside"
REASON_CORRUPT = "the state file was unreadable and was set aside as %s"
REASON_CORRUPT_KEPT = "the state file is unreadable and could not be set aside, so it was left as it is"
REASON_UNSAFE = "the state folder cannot be used (%s)"


class StateError(Exception):
    """The state could not be locked or written; the material was still shown."""


class Partition(NamedTuple):
    sections: Mapping[str, str]
    last_emit_at: Optional[str]  # None when the stored stamp is not one: never echoed


class Baseline(NamedTuple):
    """What this key has seen: a partition, or the reason it gets a full emit."""
    partition: Optional[Partition]
    full_reason: Optional[str]


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

class Entry(NamedTuple):
    """One member of `agents` as it stands in the file."""
    key: str
    raw_key: str  # the key's JSON text, escapes and all
    raw: str  # the value's JSON text
    value: object  # the parsed value; None when the entry is foreign
    usable: bool  # standard JSON that can be written back as it is


class Document(NamedTuple):
    """A state file as read: its partitions, or why it could not be used."""
    entries: Tuple[Entry, ...]
    problem: Optional[str]  # "absent", "legacy" or "corrupt"
    others: Tuple[Tuple[str, str], ...] = ()  # other top-level members (raw key, raw value), kept

    @property
    def agents(self):
        """{key: value} of the usable partitions (the last of a repeated key, as JSON reads it)."""
        return {entry.key: entry.value for entry in self.entries if entry.usable}

    @property
    def foreign(self):
        return [entry.key for entry in self.entries if not entry.usable]


_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR_END = re.compile(r"[,}\] \t\n\r]")
_STRUCTURE = re.compile(r'["{}\[\]]')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_UNDECODABLE = re.compile("[\udc80-\udcff]")  # invalid UTF-8 bytes, kept by surrogateescape


def _skip(text, index):
    return _SPACE.match(text, index).end()


def _value_end(text, index):
    """(end, depth) of the JSON value starting at index, without recursion: strings are skipped
    whole, brackets counted. The value itself is validated later, by the decoder."""
    depth = deepest = 0
    while True:
        if index >= len(text):
            raise ValueError("unterminated value")
        char = text[index]
        if char == '"':
            match = _STRING.match(text, index)
            if match is None:
                raise ValueError("unterminated string")
            index = match.end()
        elif char in "{[":
            depth += 1
            deepest = max(deepest, depth)
            index += 1
        elif char in "}]":
            if depth == 0:
                raise ValueError("unexpected %r" % char)
            depth -= 1
            index += 1
        elif depth == 0:
            match = _SCALAR_END.search(text, index)
            return (match.start() if match else len(text)), 0
        else:
            match = _STRUCTURE.search(text, index)
            if match is None:
                raise ValueError("unterminated value")
            index = match.start()
            continue
        if depth == 0:
            return index, deepest


def _members(text, index):
    """[(key, raw key, value start, value end, depth)] of the object at index, and its end."""
    if index >= len(text) or text[index] != "{":
        raise ValueError("not an object")
    members = []
    index = _skip(text, index + 1)
    if text[index:index + 1] == "}":
        return members, index + 1
    while True:
        if text[index:index + 1] != '"':
            raise ValueError("expected a key")
        key, key_end = scanstring(text, index + 1, True)
        raw_key = text[index:key_end]
        index = _skip(text, key_end)
        if text[index:index + 1] != ":":
            raise ValueError("expected ':'")
        start = _skip(text, index + 1)
        end, depth = _value_end(text, start)
        members.append((key, raw_key, start, end, depth))
        index = _skip(text, end)
        if text[index:index + 1] == ",":
            index = _skip(text, index + 1)
            continue
        if text[index:index + 1] == "}":
            return members, index + 1
        raise ValueError("expected ',' or '}'")


def _entry(text, key, raw_key, start, end, depth):
    raw = text[start:end]
    if depth > MAX_DEPTH or _UNDECODABLE.search(raw_key) or _UNDECODABLE.search(raw):
        return Entry(key, raw_key, raw, None, False)
    try:
        value = parse_json(raw)
    except UnusableJSON:
        return Entry(key, raw_key, raw, None, False)
    return Entry(key, raw_key, raw, value, True)


def parse_document(raw):
    """Bytes of a state file (None when absent) -> Document."""
    if raw is None:
        return Document((), "absent")
    text = raw.decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        members, end = _members(text, _skip(text, 0))
        if _skip(text, end) != len(text):
            raise ValueError("text after the document")
        top = {key: (raw_key, start, stop) for key, raw_key, start, stop, _ in members}
        if "agents" not in top:
            legacy = "sections" in top or "last_emit_at" in top
            return Document((), "legacy" if legacy else "corrupt")
        _, start, _ = top["agents"]
        agents, _ = _members(text, start)
    except ValueError:
        return Document((), "corrupt")
    entries = tuple(_entry(text, *member) for member in agents)
    others = tuple((raw_key, text[start:stop]) for key, raw_key, start, stop, depth in members
                   if key != "agents" and depth <= MAX_DEPTH
                   and not _UNDECODABLE.search(raw_key + text[start:stop]))
    return Document(entries, None, others)


def read_partition(entry):
    """One agent's value -> Partition, or None when it is not in the expected shape."""
    if not isinstance(entry, dict):
        return None
    sections = entry.get("sections")
    if not isinstance(sections, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in sections.items()):
        return None
    stamp = entry.get("last_emit_at")
    return Partition(dict(sections), stamp if parse_stamp(stamp) is not None else None)


def baseline_for(document, key, quarantined_as=None):
    """The key's baseline, or the reason for a full emit."""
    if document.problem == "absent":
        return Baseline(None, REASON_ABSENT)
    if document.problem == "legacy":
        return Baseline(None, REASON_LEGACY)
    if document.problem == "corrupt":
        return Baseline(None, REASON_CORRUPT % os.path.basename(quarantined_as)
                        if quarantined_as else REASON_CORRUPT_KEPT)
    own = [entry for entry in document.entries if entry.key == key]
    if own and not own[-1].usable:
        return Baseline(None, REASON_FOREIGN)
    partition = read_partition(own[-1].value) if own else None
    if partition is None:
        return Baseline(None, REASON_NO_PARTITION % key)
    return Baseline(partition, None)


def own_partition(sections, now):
    return {"sections": dict(sorted(sections.items())), "last_emit_at": format_stamp(now)}


def _is_stale(entry, cutoff):
    value = entry.value
    stamp = parse_stamp(value.get("last_emit_at")) if isinstance(value, dict) else None
    return stamp is not None and stamp < cutoff


def _indented(value):
    """A value's JSON text as it sits inside `agents` (4 spaces in), ASCII-escaped only when it
    cannot be UTF-8 (a section key from a file name that is not)."""
    for ascii_only in (False, True):
        text = json.dumps(value, indent=2, ensure_ascii=ascii_only)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            continue
        return text.replace("\n", "\n    ")
    raise StateError("cannot encode the partition")


def render_document(document, key, sections, now):
    """The file after this key wrote: its partition replaced where it stood, every other usable
    partition byte for byte, stale ones pruned, foreign ones dropped (the caller keeps a copy)."""
    cutoff = now - PRUNE_AFTER
    own = '    %s: %s' % (_indented(key), _indented(own_partition(sections, now)))
    lines, placed = [], False
    for entry in document.entries:
        if entry.key == key:
            if not placed:
                lines.append(own)  # keeps its place, so a write does not reshuffle the file
                placed = True
        elif entry.usable and not _is_stale(entry, cutoff):
            lines.append("    %s: %s" % (entry.raw_key, entry.raw))
    if not placed:
        lines.append(own)
    others = "".join(",\n  %s: %s" % member for member in document.others)
    text = '{\n  "agents": {\n' + ",\n".join(lines) + "\n  }" + others + "\n}\n"
    return text.encode("utf-8")


def needs_record(partition, sections, now):
    """Whether a start must write: the fingerprints moved, or the partition would soon look
    retired. A start that saw nothing new skips the write (and its fsync)."""
    if partition is None or dict(partition.sections) != dict(sections):
        return True
    stamp = parse_stamp(partition.last_emit_at)
    return stamp is None or now - stamp >= RESTAMP_AFTER


# ---- the file: I/O -------------------------------------------------------------------------

def _read_state(path):
    """The state file's bytes (None when absent); a symlink, FIFO or device in its place, or a
    file too big to be ours, reads as garbage so that it is set aside, never followed."""
    try:
        raw = read_regular(path, MAX_STATE_BYTES + 1, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except NotRegular:
        return b"\0"
    return raw if len(raw) <= MAX_STATE_BYTES else b"\0"


def _timestamp(now):
    return now.timestamp()


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
        self._lock = FileLock(path + ".lock", timeout)
        self.document = None
        self.raw = None
        self.quarantined_as = None

    @classmethod
    def open(cls, path, now, timeout=LOCK_TIMEOUT_SECONDS):
        """Lock and read; raises OSError or StateError when the folder cannot be used (a
        symlinked `.claude` or `state` folder among them: nothing is written through it)."""
        ledger = cls(path, now, timeout)
        private_folder(os.path.dirname(path), STATE_LEVELS)
        try:
            ledger._lock.acquire(_timestamp(now))
        except LockBusy:
            raise StateError("the state lock is held by another start; not recorded") from None
        try:
            ledger.raw = _read_state(path)
            ledger.document = parse_document(ledger.raw)
            if ledger.document.problem == "corrupt":
                ledger.quarantined_as = quarantine(path, _timestamp(now))
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
        create_new(os.path.join(folder, ".gitignore"), GITIGNORE_TEXT.encode("utf-8"))
        _remove_orphan_temps(folder)
        if self.document.foreign:
            self._keep_copy()  # the foreign entries leave the file; what they held stays here
        written = render_document(self.document, key, sections, self.now)
        write_atomically(self.path, written, durable=True, levels=STATE_LEVELS)
        self.raw, self.document = written, parse_document(written)

    def _keep_copy(self):
        target = quarantine_name(self.path, _timestamp(self.now))
        candidate, n = target, 1
        while not create_new(candidate, self.raw):
            n += 1
            candidate = "%s-%d" % (target, n)


def read_baseline(path, key):
    """The key's baseline without the lock, for when the folder cannot be written at all; a
    symlinked state folder is not read either (its diff would be another checkout's)."""
    folder = os.path.dirname(path)
    for component in (folder, os.path.dirname(folder)):
        if os.path.islink(component):
            return Baseline(None, REASON_UNSAFE % ("%s is a symlink" % component))
    try:
        raw = _read_state(path)
    except OSError:
        raw = b"\0"  # unreadable: treated as corrupt, but left where it is
    return baseline_for(parse_document(raw), key)


def _remove_orphan_temps(folder):
    """Temporary files left by a writer killed mid-write (only a lock holder writes them)."""
    prefix = "." + STATE_FILENAME + "."
    for name in os.listdir(folder):
        if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass

"""The streaming transcript scan behind `peers.py --stats`: what each transcript says, read fast.

Thirty days of transcripts are gigabytes, mostly tool output and whole files carried by `Write`.
So each top-level transcript (`projects/<slug>/<session>.jsonl`) is read once and nothing is decoded
unless it can matter: the file is streamed and walked line by line with `find(b"\\n")`
(memchr, in C) through one reused buffer; only the first few KB of a line are searched, because that is where a record says
what it is (a tool call and its name, a tool result and how it opens); the few lines that can
matter are decoded (records.py says what they add). First and last times come from the first and
last records, the last from a recorded end when it is later (2.1.332's end record: an idle session
that exited later lived until then). Files not modified since the window began are not opened at
all. Measured: about 0.5 s per GB (bench/stats_gb.py).

Since 2.1.332 a transcript also holds `api-request-blob` records that repeat the messages of each
request, tool calls and tool results included: those are never decoded here (one SendMessage call
was reported as two messages).

A fork (`--fork-session`, SessionStart source `fork`) starts its transcript with a copy of its
parent's records, uuids and times unchanged: a record counted in one transcript is not counted
again in another (it stays with the session that started first, the parent).

What comes out is one SessionScan per transcript, before any windowing: figures.py does the sums.
"""
import json
import os
import re
from dataclasses import dataclass
from typing import List

from ...claude.formats import EDIT_TOOLS, PARSE_LINE_LIMIT, PROJECTS_FOLDER, REPEAT_RECORD_TYPE, SUBAGENTS_FOLDER
from ...claude.home import transcript_entries
from ...claude.ends import end_of_record
from ...claude.transcripts import BIG_HEAD_BYTES, BIG_TAIL_BYTES, json_string, timestamp_of_big
from ...state.safefiles import open_regular
from ...text.timeutil import iso_to_ms
from .records import (HOOK_ERROR_PHRASE, LIST_TOOLS, RECEIVED_MARK, SEND_TOOLS, SPAWN_TOOLS, Send, SessionScan,
                      is_handoff_path, is_received_message, note_record)

BUFFER_BYTES = 1024 * 1024  # one buffer, reused: fresh big reads page-fault, and before Python 3.10
# mmap.find is a byte-by-byte loop (measured 1 s/GB) where bytearray.find is memchr
TAIL_BYTES = 256 * 1024  # the last records, read again for the last time (a `last-prompt` has none)
HEAD_RECORDS = 20  # the first records carry cwd; past this many without it, group by project folder
# (the first time is looked for until found: the first record of a transcript may have none)
# A head/tail record larger than claude_formats.PARSE_LINE_LIMIT is a Write or tool output: its time
# is read by pattern from its end or head (transcripts.timestamp_of_big), not decoded.
# Where, in a record's line, the things that matter sit. Claude Code writes one content block per
# record, compact JSON, keys in a fixed order: `{..."cwd":...,"gitBranch":...,"message":{...,
# "content":[{"type":"tool_use","id":...,"name":"Write","input":{"file_path":...` and
# `..."content":[{"tool_use_id":...,"type":"tool_result","content":"PreToolUse:Bash hook error...`.
# So only a line's head is searched; the bulk of a big record is skipped at memchr speed.
HEAD_WINDOW = 8 * 1024  # the block type comes after cwd and branch, a few hundred bytes in
NAME_REACH = 512  # the tool name follows "type":"tool_use" after the block's id
RESULT_REACH = 1024  # a hook's refusal opens the tool result's content
TOOL_ID_REACH = 128  # a tool_use id is ~30 characters
RECEIVED_REACH = 1024  # `<cross-session-message` sits ~210 bytes into its user record (2.1.332)
INPUT_REACH = 4 * 1024  # a Bash command's `claude agents`, an edit's file_path: early in the input

_DECODED_TOOLS = frozenset(n.encode() for n in LIST_TOOLS + SEND_TOOLS + SPAWN_TOOLS)
_EDIT_TOOLS = frozenset(n.encode() for n in EDIT_TOOLS)
_BLOCK_TYPE = b'"type":"tool_'
_USE = ord("u")  # "type":"tool_use, not tool_result
_INITIALS = frozenset(n[0] for n in _DECODED_TOOLS | _EDIT_TOOLS)  # a cheap first filter on tool names
_BASH_INITIAL = ord("B")
_CLAUDE_AGENTS_TEXT = b"claude agents"
_HOOK_ERROR = HOOK_ERROR_PHRASE.encode()
_NAME = b'"name":"'
_FILE_PATH = b'"file_path":"'
_CWD = re.compile(rb'"cwd"\s*:\s*"((?:[^"\\]|\\.)*)"')
_SUBAGENT_FILE = re.compile(r"^agent-(.+)\.jsonl$")
_REPEAT_TYPE = b'"type":"' + REPEAT_RECORD_TYPE.encode() + b'"'
_RECEIVED = RECEIVED_MARK.encode()
_TOOL_USE_ID = b'"tool_use_id":"'
_UUID = re.compile(rb'"uuid"\s*:\s*"([0-9a-fA-F-]{8,64})"')
EVENT_LISTS = ("listings", "sends", "refusals", "handoffs", "received")  # what a record can add to


# ---------------------------------------------------------------------------------------------
# What a transcript says


@dataclass(frozen=True)
class Scan:
    sessions: List[SessionScan]
    malformed: int  # records that were read but were not JSON objects, plus transcripts without a time
    bytes_read: int


def _event_counts(session):
    return [len(getattr(session, name)) for name in EVENT_LISTS]


def note_origins(session, record_uuid, before):
    """Remember which record added the events past the counts `before` (from _event_counts)."""
    if not isinstance(record_uuid, str) or not record_uuid:
        return
    for name, count in zip(EVENT_LISTS, before):
        for index in range(count, len(getattr(session, name))):
            session.origins.append((record_uuid, name, index))


def drop_inherited(sessions):
    """Count each record once across transcripts: events whose record was already counted in a
    session that started earlier (a fork's copy of its parent's records) are dropped."""
    counted = set()
    for session in sorted(sessions, key=lambda s: (s.first_ms, s.session_id)):
        dropped = {}
        for record_uuid, name, index in session.origins:
            if record_uuid in counted:
                dropped.setdefault(name, set()).add(index)
        counted.update(record_uuid for record_uuid, _, _ in session.origins)
        for name, indexes in dropped.items():
            events = getattr(session, name)
            events[:] = [e for i, e in enumerate(events) if i not in indexes]
    return sessions


# ---------------------------------------------------------------------------------------------
# The file scan


_DECODE = object()  # a line whose head says it must be decoded whole


class _TranscriptReader:
    """Streams one transcript through a reused buffer: the first time and the cwd from its first
    records, the events of the few lines whose head says they can matter, and the last time from
    its last records."""

    def __init__(self, handle, session_id, project):
        self.handle = handle
        self.session = SessionScan(session_id, project, None, 0, 0)
        self.first_ms = None
        self.latest_ms = None  # newest time seen anywhere, for when the last records have none
        self.head_left = HEAD_RECORDS
        self.head_open = True  # until the first time is known, and the cwd (or HEAD_RECORDS read)
        self.agent_names = set()
        self.bad_offsets = set()  # file offsets of lines that did not decode (a line may be read twice)

    # -- decoding ------------------------------------------------------------------------------

    def _decode(self, line, offset):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict):
            self.bad_offsets.add(offset)
            return None
        return record

    def _seen(self, at_ms):
        if at_ms is not None and (self.latest_ms is None or at_ms > self.latest_ms):
            self.latest_ms = at_ms
        return at_ms

    def _note(self, line, offset):
        record = self._decode(line, offset)
        if record is not None:
            before = _event_counts(self.session)
            note_record(record, self._seen(iso_to_ms(record.get("timestamp"))), self.session, self.agent_names)
            note_origins(self.session, record.get("uuid"), before)

    def _head_line(self, line, offset):
        """One of the first records, whole in memory: its time and cwd."""
        if len(line) > PARSE_LINE_LIMIT:
            self._head_fields(timestamp_of_big(line, 0, len(line)), _cwd_of_big(line))
            return
        record = self._decode(line, offset)
        if record is not None:
            self._head_fields(iso_to_ms(record.get("timestamp")), record.get("cwd"))
        else:
            self._head_fields(None, None)

    def _head_fields(self, at_ms, cwd):
        self.head_left -= 1
        if self.first_ms is None:
            self.first_ms = self._seen(at_ms)
        if self.session.cwd is None and isinstance(cwd, str) and cwd:
            self.session.cwd = cwd
        self.head_open = self.first_ms is None or (self.session.cwd is None and self.head_left > 0)

    def _head(self, buf, lo, end, offset):
        """The first records, from whole lines of the buffer (one longer than the buffer is read
        by _long_line)."""
        while self.head_open:
            hi = buf.find(b"\n", lo, end)
            if hi == -1:
                return
            self._head_line(buf[lo:hi], offset + lo)
            lo = hi + 1

    # -- what a line's head says ---------------------------------------------------------------

    def _kind(self, data, lo, hi):
        """_DECODE, the file_path of an edit tool call, or None, from the head of data[lo:hi]."""
        block = data.find(_BLOCK_TYPE, lo, hi if hi - lo < HEAD_WINDOW else lo + HEAD_WINDOW)
        return None if block == -1 else self._kind_at(data, lo, hi, block)

    def _kind_at(self, data, lo, hi, block):
        """_kind, given where the line's first content block says `"type":"tool_`."""
        if data.find(_REPEAT_TYPE, lo, block) != -1:  # an api-request-blob: says it all again
            return None
        if data[block + len(_BLOCK_TYPE)] != _USE:
            wanted = (data.find(_HOOK_ERROR, block, min(hi, block + RESULT_REACH)) != -1
                      or self._answers_a_send(data, lo, min(hi, block + NAME_REACH)))
            return _DECODE if wanted else None
        at = data.find(_NAME, block, min(hi, block + NAME_REACH))
        if at == -1:  # keys in another order: the name before the type
            at = data.find(_NAME, lo, block)
            if at == -1:
                return None
        start = at + len(_NAME)
        name = bytes(data[start:data.find(b'"', start, start + 64)])
        reach = min(hi, start + INPUT_REACH)
        if name in _DECODED_TOOLS:
            return _DECODE
        if name == b"Bash":
            return _DECODE if data.find(_CLAUDE_AGENTS_TEXT, start, reach) != -1 else None
        if name in _EDIT_TOOLS:
            # input keys come in the model's order: a small record is searched whole for file_path
            return _quoted_after(data, _FILE_PATH, start, hi if hi - lo <= PARSE_LINE_LIMIT else reach)
        return None

    def _answers_a_send(self, data, lo, hi):
        """Whether data[lo:hi] holds the tool result of a SendMessage call not yet answered (its
        `tool_use_id` comes first in the block). Looked for only while such a call is pending."""
        if not self.session.pending_sends:
            return False
        at = data.find(_TOOL_USE_ID, lo, hi)
        if at == -1:
            return False
        start = at + len(_TOOL_USE_ID)
        end = data.find(b'"', start, start + TOOL_ID_REACH)
        # ids are ASCII (`toolu_…`): compared without decoding JSON, on every result while a call waits
        return end != -1 and bytes(data[start:end]).decode("ascii", "replace") in self.session.pending_sends

    def _received(self, data, lo, hi, offset):
        """A line holding the cross-session mark: counted when it is the user record (decoded)."""
        if data.find(_REPEAT_TYPE, lo, min(hi, lo + HEAD_WINDOW)) == -1:
            record = self._decode(data[lo:hi], offset)
            if record is not None and is_received_message(record):
                before = _event_counts(self.session)
                self.session.received.append(self._seen(iso_to_ms(record.get("timestamp"))))
                note_origins(self.session, record.get("uuid"), before)

    def _act(self, kind, line_of, time_of, offset, tail_of):
        """Act on a line's kind; tail_of() gives the line's last bytes, where its uuid sits."""
        if kind is _DECODE:
            self._note(line_of(), offset)
        elif kind is not None and is_handoff_path(kind):
            before = _event_counts(self.session)
            self.session.handoffs.append(self._seen(time_of()))
            found = None
            for found in _UUID.finditer(tail_of()):
                pass
            note_origins(self.session, json_string(found.group(1)) if found else None, before)

    # -- the walk ------------------------------------------------------------------------------

    def walk(self):
        """Read the file once, front to back, in BUFFER_BYTES reads into one buffer."""
        buf = bytearray(BUFFER_BYTES)
        view = memoryview(buf)
        readinto = self.handle.readinto
        find = buf.find
        offset, start, end = 0, 0, readinto(view)  # buf[0] is at file offset `offset`
        while end:
            if self.head_open:
                self._head(buf, start, end, offset)
            lo = start
            while True:
                hi = find(b"\n", lo, end)
                if hi == -1:
                    break
                # the hot path, run for every line: a bounded search of its head, and for a tool
                # call or result a look at a few bytes, before anything costs a Python call
                block = find(_BLOCK_TYPE, lo, hi if hi - lo < HEAD_WINDOW else lo + HEAD_WINDOW)
                if block == -1:
                    # no tool block: maybe a message from another session, whose mark opens the content
                    if find(_RECEIVED, lo, hi if hi - lo < RECEIVED_REACH else lo + RECEIVED_REACH) != -1:
                        self._received(buf, lo, hi, offset + lo)
                else:
                    if buf[block + len(_BLOCK_TYPE)] == _USE:
                        at = find(_NAME, block, block + NAME_REACH)
                        if at == -1 or at > hi:
                            wanted = True  # an unusual key order: let _kind_at look harder
                        elif buf[at + len(_NAME)] == _BASH_INITIAL:  # Bash, the commonest call
                            wanted = find(_CLAUDE_AGENTS_TEXT, at, min(hi, at + INPUT_REACH)) != -1
                        else:
                            wanted = buf[at + len(_NAME)] in _INITIALS
                    else:
                        wanted = (find(_HOOK_ERROR, block, min(hi, block + RESULT_REACH)) != -1
                                  or bool(self.session.pending_sends))  # maybe a SendMessage's answer
                    if wanted:
                        kind = self._kind_at(buf, lo, hi, block)
                        if kind is not None:
                            self._act(kind, lambda: buf[lo:hi], lambda: timestamp_of_big(buf, lo, hi), offset + lo,
                                      lambda: bytes(buf[max(lo, hi - BIG_TAIL_BYTES):hi]))
                lo = hi + 1
            if lo == 0 and end == len(buf):
                offset, start, end = self._long_line(buf, view, offset)
                continue
            rest = end - lo
            buf[:rest] = buf[lo:end]
            offset += lo
            got = readinto(view[rest:])
            if not got:
                if rest:  # a last line without a newline: a record being written, or a cut file
                    line = bytes(buf[:rest])
                    if self.head_open:
                        self._head_line(line, offset)
                    self._act(self._kind(line, 0, rest), lambda: line,
                              lambda: timestamp_of_big(line, 0, rest), offset, lambda: line[-BIG_TAIL_BYTES:])
                return
            start, end = 0, rest + got

    def _long_line(self, buf, view, offset):
        """A line longer than the buffer, which holds its first BUFFER_BYTES: judge it by its head,
        read on to its end (keeping it only if it must be decoded, else only its last few KB),
        and return (offset, start, end) for the walk to go on after it."""
        kind = self._kind(buf, 0, len(buf))
        head = bytes(buf[:BIG_HEAD_BYTES])
        line_at = offset
        pieces = [bytes(buf)] if kind is _DECODE else None
        tail = bytes(buf[-BIG_TAIL_BYTES:])
        offset += len(buf)
        while True:
            end = self.handle.readinto(view)
            if not end:
                stop, after = 0, 0
                break
            stop = buf.find(b"\n", 0, end)
            if stop != -1:
                after = stop + 1
                break
            if pieces is not None:
                pieces.append(bytes(buf[:end]))
            tail = (tail + bytes(buf[max(0, end - BIG_TAIL_BYTES):end]))[-BIG_TAIL_BYTES:]
            offset += end
        if pieces is not None:
            pieces.append(bytes(buf[:stop]))
        tail = (tail + bytes(buf[max(0, stop - BIG_TAIL_BYTES):stop]))[-BIG_TAIL_BYTES:]
        at_ms = self._seen(timestamp_of_big(tail, 0, len(tail)) or timestamp_of_big(head, 0, len(head)))
        if self.head_open:
            self._head_fields(at_ms, _cwd_of_big(head))
        self._act(kind, lambda: b"".join(pieces), lambda: at_ms, line_at, lambda: tail)
        return offset, after, end

    def last_time(self, size):
        """The time of the last record that has one, or the session's recorded end when that is later
        (an end record follows the last turn and has no time of its own), from the file's last
        TAIL_BYTES (read again)."""
        base = max(0, size - TAIL_BYTES)
        self.handle.seek(base)
        data = self.handle.read(size - base).rstrip(b"\r\n")
        floor = 0
        if base:  # the first piece is cut: skip it, unless it is all there is (one huge last line)
            floor = data.find(b"\n") + 1
            if floor == 0:
                return timestamp_of_big(data, 0, len(data)) or self.latest_ms
        ended_ms, hi = None, len(data)
        while hi > floor:
            lo = max(floor, data.rfind(b"\n", 0, hi) + 1)
            if hi > lo:
                at_ms, ended_ms = self._time_at(data, lo, hi, base, ended_ms)
                if at_ms is not None:
                    return max(at_ms, ended_ms or at_ms)
            hi = lo - 1
        return self.latest_ms

    def _time_at(self, data, lo, hi, base, ended_ms):
        """(the time of the record at data[lo:hi] or None, the recorded end seen so far or None)."""
        if hi - lo > PARSE_LINE_LIMIT:
            return timestamp_of_big(data, lo, hi), ended_ms
        record = self._decode(data[lo:hi], base + lo)
        if record is None:
            return None, ended_ms
        if ended_ms is None:
            ended_ms = (end_of_record(record) or (None, None))[1]
        return iso_to_ms(record.get("timestamp")), ended_ms

    def finish(self, last_ms, own_ids):
        """The session, or None when no record carried a time."""
        first = self.first_ms
        last = last_ms if last_ms is not None else self.latest_ms
        if first is None or last is None:
            return None
        session = self.session
        session.first_ms, session.last_ms = first, max(first, last)
        for events in (session.listings, session.refusals, session.handoffs, session.received):
            events[:] = [first if t is None else t for t in events]
        session.sends[:] = [Send(first, s.recipient, s.tool_use_id) if s.at_ms is None else s
                            for s in session.sends]
        session.own_agents = frozenset(self.agent_names) | frozenset(own_ids)
        return session


def _cwd_of_big(data):
    found = _CWD.search(data, 0, BIG_HEAD_BYTES)
    return json_string(found.group(1)) if found else None


def _quoted_after(data, key, lo, hi):
    """The JSON string value that follows `key` (which ends in an opening quote) in data[lo:hi]."""
    at = data.find(key, lo, hi)
    if at == -1:
        return None
    start = at + len(key)
    end = data.find(b'"', start, hi)
    while end != -1 and data[end - 1:end] == b"\\":  # an escaped quote inside the value
        end = data.find(b'"', end + 1, hi)
    return json_string(bytes(data[start:end])) if end != -1 else None


def subagent_ids(folder, session_id):
    """Ids of the subagents a session spawned, from `<session>/subagents/agent-<id>.jsonl`."""
    try:
        names = os.listdir(os.path.join(folder, session_id, SUBAGENTS_FOLDER))
    except OSError:
        return []
    return [m.group(1) for m in map(_SUBAGENT_FILE.match, names) if m]


def scan_transcript(path, session_id, project, own_ids=()):
    """(SessionScan or None, malformed count, bytes read) for one transcript, read once front to
    back (and its last TAIL_BYTES again, for the last time).

    Malformed: the lines read that did not decode; a transcript that cannot be read, or whose
    records all lack a time, counts at least once."""
    try:
        with open_regular(path, follow_symlinks=False, buffering=0) as handle:  # never a FIFO
            size = os.fstat(handle.fileno()).st_size
            if size == 0:
                return None, 0, 0
            reader = _TranscriptReader(handle, session_id, project)
            reader.walk()
            session = reader.finish(reader.last_time(size), own_ids)
    except OSError:
        return None, 1, 0
    return session, len(reader.bad_offsets) or (1 if session is None else 0), size


def transcripts(home):
    """(path, session id, project folder name, folder) of each top-level transcript."""
    projects = os.path.join(home, PROJECTS_FOLDER)
    try:
        folders = sorted(os.listdir(projects))
    except OSError:
        return
    for project in folders:
        folder = os.path.join(projects, project)
        for session_id, entry in sorted(transcript_entries(folder), key=lambda found: found[1].name):
            yield entry.path, session_id, project, folder


def scan_home(home, since_ms):
    """Scan every top-level transcript that may hold a record at or after since_ms."""
    sessions, malformed, total = [], 0, 0
    for path, session_id, project, folder in transcripts(home):
        try:
            modified_ms = os.stat(path).st_mtime * 1000
        except OSError:
            continue
        if modified_ms < since_ms:  # its last record is older than its mtime, so older than the window
            continue
        session, bad, size = scan_transcript(path, session_id, project, subagent_ids(folder, session_id))
        malformed += bad
        total += size
        if session is not None:
            sessions.append(session)
    return Scan(drop_inherited(sessions), malformed, total)

"""Heads and tails of transcripts (`projects/<slug>/<session>.jsonl`), never whole files.

A transcript is tens of MB of mostly tool output, and a single `Write` record carries a whole file,
so one line can be many MB. The tail is read through a memory map, backwards (peerhooks.claude.jsonl): small
records are parsed as JSON, and big ones are read only at their head (where the tool name and
`file_path` sit) and their end (where `timestamp` sits). A record that straddles any read boundary
does not exist here: we always work on whole lines.

Since 2.1.332 a transcript also holds `api-request-blob` records that repeat each request's messages,
tool calls included: only `assistant` records say what the session did, so a blob is never read as
an edit or a tool call (decoded records are checked by type, big ones by the head's type).

Paths in records (`cwd`, an edit's `file_path`) are the client's (native on Windows) and are kept in
this process's spelling (peerhooks/platform).
"""
from .. import platform
from ..startup import oscalls
from ..startup.jsonfast import loads
from ..startup.records import record as _record  # `record` names a transcript record below
from ..state.safefiles import open_regular
from ..text.timeutil import iso_to_ms
from .editscan import Edit, EditScan, inode_of, unchanged_since
from .ends import end_of_record, is_turn, records_every_end
from .formats import BASH_TOOL, EDIT_TOOLS, PARSE_LINE_LIMIT, REPEAT_RECORD_TYPE, edit_target, tool_uses
from .home import transcript_entries, transcript_folders
from .intent import is_substantive
from .jsonl import line_at, lines_backward, open_map, whole_lines_end

BIG_HEAD_BYTES = 64 * 1024  # a record's tool name and file_path come within its first few hundred bytes
BIG_TAIL_BYTES = 4 * 1024  # ...and its timestamp within its last few hundred
TAIL_SCAN_BYTES = 8 * 1024 * 1024  # how far back from the end edits are looked for; said when hit
HEAD_BYTES = 256 * 1024  # the opening prompt is within the first records
# Distinct files kept per transcript: peers.py shows 5; the guard judges adds and commits against all
# of a peer's changes, so no small window (issue 13: a 12-file window let older edits be swept up).
MAX_EDITED_FILES = 200

_TOOL_USE_MARK = b'"tool_use"'
# Patterns are compiled on first use: `re` costs a hook ~6 ms of start-up under -S, and a warm
# peers.py run resumes every scan where it stopped without matching anything. Only records too big
# to parse need them: the role every scanned line is probed for is matched by hand (says_assistant).
_REPEAT_TYPE = rb'"type"\s*:\s*"' + REPEAT_RECORD_TYPE.encode() + rb'"'
_ROLE_KEY, _ASSISTANT_VALUE = b'"role"', b'"assistant"'
_SPACE_BYTES = b" \t\n\r\x0b\x0c"  # what the bytes pattern \s matches
# A record the client writes has its role key once or twice in its first few hundred bytes (a quote
# inside a JSON string is escaped, so `"role"` is structure, never content); a file repeating it
# thousands of times is looked at this many times and no more (~2 µs each).
MAX_ROLE_KEYS = 32
SPACES_WINDOW = 64  # the first window spaces are measured in (in C), doubling while it is all spaces
PROBE_BYTES = 4 * 1024  # the message's role sits within the first few hundred bytes of a record
_EDIT_IN_BIG = (
    rb'"name"\s*:\s*"(' + "|".join(EDIT_TOOLS).encode() + rb')"\s*,\s*"input"\s*:\s*\{\s*'
    rb'"(?:file_path|notebook_path)"\s*:\s*"((?:[^"\\]|\\.)*)"'
)
_TIMESTAMP = rb'"timestamp"\s*:\s*"([0-9T:.\-+Z]{19,40})"'
_compiled = {}


def _pattern(source):
    """The compiled pattern for one of the sources above."""
    compiled = _compiled.get(source)
    if compiled is None:
        import re

        compiled = _compiled[source] = re.compile(source)
    return compiled


def transcripts_in(home, folder, since_ms):
    """[(mtime ms, session id, path)] of the top-level transcripts of sessions started in `folder`
    or below it (see home.transcript_folders), modified since since_ms, newest first."""
    found = []
    for project in transcript_folders(home, folder):
        for session_id, entry in transcript_entries(project):
            try:
                mtime_ms = entry.stat().st_mtime_ns // 1000000
            except OSError:
                continue
            if mtime_ms >= since_ms:
                found.append((mtime_ms, session_id, entry.path))
    found.sort(reverse=True)
    return found


def json_string(raw):
    """The value of a JSON string literal's raw bytes (without quotes), or None."""
    try:
        value = loads(b'"' + raw + b'"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def says_assistant(probe):
    """Whether the bytes hold `"role"`, a colon and `"assistant"`, spaces allowed between them (the
    pattern `"role"\\s*:\\s*"assistant"`, matched by hand: every line a scan reads is probed, and
    importing `re` for it cost a judged guard line beside a busy peer ~6 ms under -S). The first
    MAX_ROLE_KEYS keys are looked at; the runs of spaces after them never overlap, and are measured
    in C, so a probe costs a few µs however a hostile transcript fills it."""
    at = probe.find(_ROLE_KEY)
    for _ in range(MAX_ROLE_KEYS):
        if at < 0:
            return False
        colon = _past_spaces(probe, at + len(_ROLE_KEY))
        if probe[colon:colon + 1] == b":" and probe.startswith(_ASSISTANT_VALUE, _past_spaces(probe, colon + 1)):
            return True
        at = probe.find(_ROLE_KEY, at + 1)
    return False


def _past_spaces(data, index):
    """The index past the run of \\s bytes that starts at index (bytes.isspace is \\s's set)."""
    if not data[index:index + 1].isspace():
        return index  # the client's compact JSON: no space at all
    size = SPACES_WINDOW
    while True:
        window = data[index:index + size]
        rest = window.lstrip(_SPACE_BYTES)
        index += len(window) - len(rest)
        if rest or not window:
            return index
        size *= 2  # a long run is read in a few growing windows: each byte copied at most twice


def timestamp_of_big(data, start, end):
    """A big record's time, by pattern, from its end (where Claude Code puts it) or its head."""
    for lo, hi in ((max(start, end - BIG_TAIL_BYTES), end), (start, min(end, start + BIG_HEAD_BYTES))):
        match = None
        for match in _pattern(_TIMESTAMP).finditer(data[lo:hi]):
            pass
        if match:
            return iso_to_ms(match.group(1).decode("ascii", errors="replace"))
    return None


def local_path(written):
    """A path a record holds, in this process's spelling (kept as written when it is not absolute)."""
    if not written:
        return written
    return platform.current().paths.local(written) or written


def edits_in_record(record):
    """Paths a decoded assistant record writes with an edit tool or a Bash command, in order."""
    paths = []
    for name, tool_input in tool_uses(record):
        if name in EDIT_TOOLS:
            path = edit_target(tool_input)
            if path:
                paths.append(local_path(path))
        elif name == BASH_TOOL and isinstance(tool_input.get("command"), str):
            paths.extend(bash_writes(tool_input["command"], record.get("cwd")))
    return paths


def bash_writes(command, cwd):
    """The files a Bash tool_use wrote, by the shared command-line interpreter (peerhooks.shell.cmdline);
    glob patterns and paths only the shell could expand are left out."""
    from ..shell.cmdline import write_targets  # seam: only a Bash command not scanned before (the shell model: 6 modules, ~1.5 ms)
    from ..wrappers import code_writes  # seam: and the reader of code it hands an interpreter, which needs the model

    paths = platform.current().paths
    cwd = paths.local(cwd) if isinstance(cwd, str) else None
    return [path for path, pattern in write_targets(command, cwd, paths=paths, code_writes=code_writes) if not pattern]


def _edits_in_line(data, start, end):
    """(paths, timestamp) for one transcript line, where timestamp() gives the record's time.
    Only assistant records can edit, and Claude Code writes the message (with its role) before
    anything big, so a few KB tell; big records are then read at their head and end only."""
    probe = data[start:min(end, start + PROBE_BYTES)]
    if not says_assistant(probe):
        return [], None
    if end - start <= PARSE_LINE_LIMIT:
        line = data[start:end]
        if _TOOL_USE_MARK not in line:
            return [], None
        try:
            record = loads(line)
        except ValueError:
            return [], None
        return edits_in_record(record), lambda: iso_to_ms(record.get("timestamp"))
    head = data[start:min(end, start + BIG_HEAD_BYTES)]
    if _TOOL_USE_MARK not in head or _is_repeat(probe):
        return [], None
    paths = [local_path(p) for p in (json_string(m.group(2)) for m in _pattern(_EDIT_IN_BIG).finditer(head)) if p]
    return paths, lambda: timestamp_of_big(data, start, end)


def recent_edits(path, max_files=MAX_EDITED_FILES, scan_bytes=TAIL_SCAN_BYTES, known=None):
    """Files a transcript's session wrote, newest first, from the tail of the file.

    With `known` (an earlier scan of the same file) only the lines appended since are read, and
    the earlier edits fill the list: a transcript only grows, so its old lines say the same."""
    if path and unchanged_since(path, known):
        return known
    data = open_map(path) if path else None
    if data is None:
        return EditScan([], False)
    try:
        inode = inode_of(path)
        complete = whole_lines_end(data)
        resume = (known is not None and known.inode == inode and 0 < known.scanned_to <= complete
                  and complete - known.scanned_to <= scan_bytes)
        floor = known.scanned_to if resume else 0
        if resume and floor == complete:
            return known
        edits, seen = [], set()
        reached_floor = False
        for start, end in lines_backward(data, max(floor, len(data) - scan_bytes)):
            if start < floor:
                reached_floor = True
                break
            paths, timestamp = _edits_in_line(data, start, end)
            fresh = [p for p in reversed(paths) if p not in seen]
            if fresh:
                at_ms = timestamp()  # parsed only for records that add a file
                for file_path in fresh:
                    if file_path not in seen:
                        seen.add(file_path)
                        edits.append(Edit(file_path, at_ms))
            if start == floor:
                reached_floor = True
            if len(edits) >= max_files:
                return EditScan(edits, False, complete, inode)
        if resume:
            older = [e for e in known.edits if e.path not in seen]
            merged = (edits + older)[:max_files]
            return EditScan(merged, known.truncated and len(merged) < max_files, complete, inode)
        return EditScan(edits, not reached_floor, complete, inode)
    finally:
        data.close()


EDIT_INPUT_SCAN_BYTES = 8 * 1024 * 1024  # a shared file's edits are this session's recent ones


def edit_inputs(path, target, scan_bytes=EDIT_INPUT_SCAN_BYTES):
    """[(tool, input)] of the tool calls in a transcript that changed the file `target` (a realpath),
    oldest first: Edit, MultiEdit, Write, NotebookEdit, and ("Bash", {}) for a Bash command that
    wrote it. None when the scan could not see them all (the bound was hit before the file's start,
    or a record naming it was too big to read whole)."""
    data = open_map(path) if path else None
    if data is None:
        return []
    try:
        found, needle = [], oscalls.path.basename(target).encode("utf-8", "surrogateescape")
        lowest = max(0, len(data) - scan_bytes)
        for start, end in lines_backward(data, lowest):
            if start < lowest:
                return None
            if data.find(needle, start, end) < 0 or data.find(_TOOL_USE_MARK, start, end) < 0:
                continue
            if end - start > PARSE_LINE_LIMIT:
                if not _is_repeat(data[start:min(end, start + PROBE_BYTES)]):
                    return None  # a Write carrying a whole file: its content is not read here
                continue
            try:
                record = loads(data[start:end])
            except ValueError:
                continue
            realpath = platform.current().paths.realpath
            for name, tool_input in reversed(list(tool_uses(record))):
                if name in EDIT_TOOLS and edit_target(tool_input) and \
                        realpath(local_path(edit_target(tool_input))) == target:
                    found.append((name, tool_input))
                elif name == BASH_TOOL and isinstance(tool_input.get("command"), str) and \
                        target in (realpath(p) for p in bash_writes(tool_input["command"], record.get("cwd"))):
                    found.append((BASH_TOOL, {}))
        found.reverse()
        return found
    finally:
        data.close()


def tail_contains(path, needle, scan_bytes):
    """Whether the last scan_bytes of a transcript hold these bytes (one search in C, no parse)."""
    data = open_map(path) if path else None
    if data is None:
        return False
    try:
        return data.find(needle, max(0, len(data) - scan_bytes)) >= 0
    finally:
        data.close()


def head_records(path, limit=HEAD_BYTES):
    """Decoded records from the start of a transcript (whole lines within `limit` bytes)."""
    for _, record in head_lines(path, limit):
        yield record


def head_lines(path, limit=HEAD_BYTES):
    """(byte offset, decoded record) of each whole line within a transcript's first `limit` bytes."""
    try:
        with open_regular(path, follow_symlinks=False) as handle:  # never a FIFO or a link
            raw = handle.read(limit)
    except (OSError, TypeError, ValueError):
        return
    lines = raw.split(b"\n")
    if len(raw) == limit:
        lines = lines[:-1]  # the last piece may be cut
    offset = 0
    for line in lines:
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        try:
            record = loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict):
            yield start, record


# 2.1.332 marks who a user record comes from: `origin.kind` is `human` for a typed prompt, `peer`
# for another session's message, `task-notification` for a background subagent's report (-p prompts
# have no origin). Only a person's words say what a session is for.
PROMPT_ORIGINS = (None, "human")


def prompt_text(record):
    """The typed text of a user prompt record, or None (tool results, command wrappers, meta, and
    records of another origin than a person: other sessions' messages, task notifications)."""
    if not isinstance(record, dict) or record.get("type") != "user" or record.get("isMeta"):
        return None
    origin = record.get("origin")
    if isinstance(origin, dict) and origin.get("kind") not in PROMPT_ORIGINS:
        return None
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [i.get("text") for i in content if isinstance(i, dict) and i.get("type") == "text"]
        if texts and not any(isinstance(i, dict) and i.get("type") == "tool_result" for i in content):
            return "\n".join(t for t in texts if isinstance(t, str))
    return None


Head = _record("Head", [  # each None when the head does not tell
    "started_at_ms",
    "cwd",
    "opening",  # first substantive prompt within the head
    "entrypoint",  # `cli` interactive, `sdk-cli` for `claude -p`, ...
    "opening_at",  # the byte offset of the opening prompt's record (see prompt_at)
], defaults=(None,))


def read_head(path):
    started, cwd, opening, entrypoint, opening_at = None, None, None, None, None
    for offset, record in head_lines(path):
        if started is None:
            started = iso_to_ms(record.get("timestamp"))
        if cwd is None and isinstance(record.get("cwd"), str):
            cwd = platform.current().paths.local(record["cwd"])
        if entrypoint is None and isinstance(record.get("entrypoint"), str):
            entrypoint = record["entrypoint"]
        if opening is None:
            text = prompt_text(record)
            if is_substantive(text):
                opening, opening_at = text, offset
        if None not in (started, cwd, opening, entrypoint):
            break
    return Head(started, cwd, opening, entrypoint, opening_at)


Tail = _record("Tail", [  # each None when the tail does not tell
    "ended_at_ms",  # timestamp of the last record that has one
    "latest",  # latest substantive prompt seen in the tail
    "latest_at",  # the byte offset of its record (see prompt_at)
    "exited",  # True: a clean end recorded after the last turn; False: none, from a client that
    # records every clean end (formats.END_RECORDS_SINCE): the process was killed; None: cannot tell
    "exited_ms",  # when that clean end was, or None
], defaults=(None, None, None))


TAIL_PROMPT_BYTES = 2 * 1024 * 1024  # how far back the latest prompt is looked for


def read_tail(path, scan_bytes=TAIL_PROMPT_BYTES):
    """The last record's time, the latest substantive prompt (a `last-prompt` record or a user
    prompt) and how the session ended, from the end of a transcript."""
    data = open_map(path) if path else None
    if data is None:
        return Tail(None, None)
    try:
        found = _TailFacts()
        for start, end in lines_backward(data, max(0, len(data) - scan_bytes)):
            if found.take(data, start, end):
                break
        return found.tail()
    finally:
        data.close()


_TURN = "turn"  # a turn was met, from the last record backwards, before any end record


class _TailFacts:
    """What read_tail has found so far, reading lines from the last backwards."""
    __slots__ = ("ended", "latest", "latest_at", "end", "version")

    def __init__(self):
        self.ended = self.latest = self.latest_at = self.end = self.version = None

    def take(self, data, start, end):
        """Take one whole line; True once nothing more is wanted."""
        if end - start > PARSE_LINE_LIMIT:  # a Write or a tool's output: part of a turn
            if self.ended is None:
                self.ended = timestamp_of_big(data, start, end)
            self.end = self.end or _TURN
            return False
        try:
            record = loads(data[start:end])
        except ValueError:
            return False
        if not isinstance(record, dict):
            return False
        self._take_record(record, start)
        return (self.ended is not None and self.latest is not None and self.end is not None
                and (self.version is not None or self.end is not _TURN))

    def _take_record(self, record, start):
        if self.ended is None:
            self.ended = iso_to_ms(record.get("timestamp"))
        if self.version is None and isinstance(record.get("version"), str):
            self.version = record["version"]
        if self.end is None:
            self.end = end_of_record(record) or (_TURN if is_turn(record) else None)
        if self.latest is None:
            text = _prompt_of(record)
            if is_substantive(text):
                self.latest, self.latest_at = text, start

    def tail(self):
        if self.end is _TURN:
            exited, exited_ms = (False if records_every_end(self.version) else None), None
        else:
            exited, exited_ms = self.end or (None, None)
        if exited_ms is not None and self.ended is not None and exited_ms < self.ended:
            exited_ms = None  # a fork's end record counts from its parent's start: the moment is unknown
        return Tail(self.ended, self.latest, self.latest_at, exited, exited_ms)


def _prompt_of(record):
    return record.get("lastPrompt") if record.get("type") == "last-prompt" else prompt_text(record)


def prompt_at(path, offset):
    """The prompt of the record at a byte offset that read_head or read_tail reported, or None
    (the file gone, or no longer holding that record there)."""
    try:
        with open_regular(path, follow_symlinks=False) as handle:  # never a FIFO or a link
            raw = line_at(handle, offset, PARSE_LINE_LIMIT + 1)  # read_head and read_tail parse no longer
    except (OSError, ValueError, TypeError):
        return None
    try:
        record = loads(raw)
    except (ValueError, RecursionError):
        return None
    text = _prompt_of(record) if isinstance(record, dict) else None
    return text if isinstance(text, str) else None


# --- Tool calls with their times (memory_delta.py: who wrote a file since a given moment) -----

ToolCall = _record("ToolCall", [
    "name",  # the tool: Write, Edit, MultiEdit, NotebookEdit, Bash, Read, ...
    "file_path",  # an edit tool's target, else None
    "command",  # Bash's command line, else None
    "cwd",  # the session's folder when it made the call (for relative paths in commands), or None
    "at_ms",  # or None
])

ToolScan = _record("ToolScan", [
    "calls",  # [ToolCall], newest first
    "truncated",  # bool: the byte bound was hit before the scan reached `since_ms` or the file's start
])


TOOL_CALL_SCAN_BYTES = 4 * 1024 * 1024  # the calls wanted are since the last prompt or session start


def _tool_calls_in_record(record):
    """The tool calls of one decoded assistant record, in order, with the record's time and cwd."""
    uses = list(tool_uses(record))
    if not uses:
        return []
    at_ms = iso_to_ms(record.get("timestamp"))
    cwd = platform.current().paths.local(record.get("cwd"))
    calls = []
    for name, tool_input in uses:
        command = tool_input.get("command")
        calls.append(ToolCall(name, local_path(edit_target(tool_input)),
                              command if isinstance(command, str) and command else None, cwd, at_ms))
    return calls


def _is_repeat(head):
    """Whether a record's head says it is an api-request-blob (its type comes before its message)."""
    found = _pattern(_REPEAT_TYPE).search(head[:PROBE_BYTES])
    return found is not None and head.find(b'"message"', 0, found.start()) == -1


def _tool_calls_in_big_line(data, start, end):
    """Edit calls of a record too big to parse (a Write carrying a whole file), from its head."""
    head = data[start:min(end, start + BIG_HEAD_BYTES)]
    if _TOOL_USE_MARK not in head or _is_repeat(head):
        return []
    found = [(m.group(1).decode("ascii"), json_string(m.group(2))) for m in _pattern(_EDIT_IN_BIG).finditer(head)]
    found = [(name, path) for name, path in found if path]
    if not found:
        return []
    at_ms = timestamp_of_big(data, start, end)
    return [ToolCall(name, path, None, None, at_ms) for name, path in found]


def tool_calls_since(path, since_ms, scan_bytes=TOOL_CALL_SCAN_BYTES):
    """A transcript's tool calls made at or after since_ms, newest first, read from its tail.

    Records are in time order, so the scan stops at the first call older than since_ms; it also
    stops after scan_bytes (said in `truncated`). Calls of records too big to parse are the edit
    tools found in the record's head; a huge Bash command is not read.
    """
    data = open_map(path) if path else None
    if data is None:
        return ToolScan([], False)
    try:
        calls = []
        lowest = max(0, len(data) - scan_bytes)
        for start, end in lines_backward(data, lowest):
            if end - start <= PARSE_LINE_LIMIT:
                line = data[start:end]
                if _TOOL_USE_MARK not in line:
                    found = []
                else:
                    try:
                        found = _tool_calls_in_record(loads(line))
                    except ValueError:
                        found = []
            else:
                found = _tool_calls_in_big_line(data, start, end)
            if found and found[0].at_ms is not None and since_ms is not None and found[0].at_ms < since_ms:
                return ToolScan(calls, False)
            calls.extend(reversed(found))
            if start == 0:
                return ToolScan(calls, False)
            if start < lowest:
                break
        return ToolScan(calls, True)
    finally:
        data.close()

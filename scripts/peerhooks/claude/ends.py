"""How a transcript says its session ended: which records end a session, at what moment, and which
records belong to a turn (after which an end record of an earlier run no longer counts).

The facts are in formats.py (END_RECORD_TYPE and its neighbours, from the samples of each version):
2.1.332 writes an end record as a session id ends, whose startTime + totalDuration is that moment;
2.1.197 writes a typed `/exit` as a command record. Nothing records a process's own exit, and a
process killed writes nothing more. Pure: decoded records in, answers out.
"""
from ..text.timeutil import iso_to_ms
from .formats import END_RECORD_TYPE, END_RECORDS_SINCE, EXIT_COMMAND_MARKS, LOCAL_COMMAND_MARKS


def end_of_record(record):
    """(True, the moment in epoch ms or None) when a decoded record says its session ended cleanly
    (2.1.332's END_RECORD_TYPE, 2.1.197's `/exit` command record), else None."""
    if record.get("type") == END_RECORD_TYPE:
        start, duration = record.get("startTime"), record.get("totalDuration")
        return True, (start + duration if _is_count(start) and _is_count(duration) else None)
    text = _command_text(record)
    if text is not None and text.lstrip().startswith(EXIT_COMMAND_MARKS):
        return True, iso_to_ms(record.get("timestamp"))
    return None


def is_turn(record):
    """Whether a decoded record is part of a turn (an assistant record, a prompt, a tool result):
    an end record before it belongs to an earlier run of the session (a resumed one)."""
    if record.get("type") == "assistant":
        return True
    if record.get("type") != "user" or record.get("isMeta"):
        return False
    text = _command_text(record)
    return text is None or not text.lstrip().startswith(LOCAL_COMMAND_MARKS)


def records_every_end(version):
    """Whether the client version a record names writes an end record at every clean end, so that
    a transcript without one after its last turn stopped without exiting (False when unreadable)."""
    parts = version.split(".")[:3] if isinstance(version, str) else ()
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return False
    return tuple(int(part) for part in parts) >= END_RECORDS_SINCE


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _command_text(record):
    """The text of a user record whose content is a string (a prompt or a command wrapper), else None."""
    message = record.get("message") if record.get("type") == "user" else None
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else None

"""Timestamps as Claude Code writes them (ISO-8601 with Z in transcripts, epoch ms elsewhere)."""
from datetime import datetime, timezone


def iso_to_ms(text):
    """Epoch milliseconds from `2026-11-30T04:27:09.123Z` (or without fraction); None if unreadable."""
    if not isinstance(text, str) or len(text) < 19:
        return None
    try:
        base = datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return None
    millis = 0
    rest = text[19:]
    if rest.startswith("."):
        digits = ""
        for char in rest[1:]:
            if not char.isdigit():
                break
            digits += char
        if digits:
            millis = int((digits + "000")[:3])
    return int(base.timestamp()) * 1000 + millis


def ms_to_utc(ms, fmt="%Y-%m-%d %H:%M UTC"):
    return datetime.fromtimestamp(ms / 1000.0, tz=timezone.utc).strftime(fmt)


def ago(now_ms, then_ms):
    """A short relative age: `45s`, `4m`, `3h`, `2d`."""
    seconds = max(0, (now_ms - then_ms) // 1000)
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm" % (seconds // 60)
    if seconds < 48 * 3600:
        return "%dh" % (seconds // 3600)
    return "%dd" % (seconds // 86400)


def duration(ms):
    """A run length: `45m`, `3h 20m`, `2d 4h`."""
    minutes = max(0, ms // 60000)
    if minutes < 60:
        return "%dm" % minutes
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return "%dh %02dm" % (hours, minutes)
    days, hours = divmod(hours, 24)
    return "%dd %dh" % (days, hours)

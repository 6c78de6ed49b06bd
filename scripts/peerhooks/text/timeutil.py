"""Timestamps as Claude Code writes them (ISO-8601 with Z in transcripts, epoch ms elsewhere)."""
import time


def _days_from_civil(year, month, day):
    """Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm); strptime
    costs ~50 us a call, and a hook parses hundreds of timestamps."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def iso_to_ms(text):
    """Epoch milliseconds from `2026-11-30T04:27:09.123Z` (or without fraction); None if unreadable."""
    if not isinstance(text, str) or len(text) < 19 or text[4] != "-" or text[10] not in "T ":
        return None
    try:
        year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
        hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    except ValueError:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return None
    millis = 0
    if len(text) > 20 and text[19] == ".":
        digits = ""
        for char in text[20:23]:
            if not char.isdigit():
                break
            digits += char
        millis = int((digits + "000")[:3]) if digits else 0
    seconds = ((_days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second
    return seconds * 1000 + millis


def ms_to_utc(ms, fmt="%Y-%m-%d %H:%M UTC"):
    """A UTC time for display; fmt takes time.strftime's directives. Through `time`, which every
    interpreter has loaded, not `datetime` (~2 ms of a hook's start-up under -S)."""
    return time.strftime(fmt, time.gmtime(ms // 1000))


def clock(ms, now_ms=None, zone=time.localtime):
    """A moment as this machine's clock shows it: `14:02` on now's day, else `2026-11-29 14:02`
    (the date always when now_ms is None). zone turns epoch seconds into a struct_time:
    time.localtime, the user's clock, or a fixed one (time.gmtime) where a test or a sample needs
    the same text on every machine."""
    then = zone(int(ms // 1000))
    if now_ms is not None and tuple(then[:3]) == tuple(zone(int(now_ms // 1000))[:3]):
        return time.strftime("%H:%M", then)
    return time.strftime("%Y-%m-%d %H:%M", then)


def at(now_ms, then_ms, zone=time.localtime):
    """`14:02 (2m ago)`: a moment on the clock and relative to now, for a text read minutes later."""
    return "%s (%s ago)" % (clock(then_ms, now_ms, zone), ago(now_ms, then_ms))


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

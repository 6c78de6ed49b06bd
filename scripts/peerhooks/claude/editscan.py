"""One scan of a transcript's tail for the files its session changed, and whether the transcript
still ends where that scan stopped. peerhooks.claude.transcripts scans; peerhooks.claude.editindex remembers scans
between runs, and asks this module first: a quiet peer's transcript is then never parsed, and the
guard beside a dozen idle peers does not load the parser at all.
"""

from ..startup import oscalls
from ..startup.records import record
from ..state.safefiles import regular_descriptor

Edit = record("Edit", [
    "path",  # str
    "at_ms",  # int, or None when the record's time could not be read
])

EditScan = record("EditScan", [
    "edits",  # [Edit], newest first, one entry per file
    "truncated",  # bool: older records exist beyond the scan bound
    "scanned_to",  # the offset after the last complete line read: where a later scan resumes
    "inode",  # the file the scan read, so a replaced file is scanned afresh
], defaults=(0, 0))


def unchanged_since(path, known):
    """Whether a transcript ends exactly where an earlier scan of it stopped (same file, that size,
    a whole last line), which a scan would find by mapping the file: a quiet peer then costs a
    stat and a one-byte read."""
    if known is None or known.scanned_to <= 0:
        return False
    try:
        descriptor, info = regular_descriptor(path, follow_symlinks=False)
    except (OSError, ValueError):
        return False
    try:
        if info.st_ino != known.inode or info.st_size != known.scanned_to:
            return False
        oscalls.lseek(descriptor, info.st_size - 1, 0)
        return oscalls.read(descriptor, 1) == b"\n"
    except (OSError, ValueError):
        return False
    finally:
        oscalls.close(descriptor)


def inode_of(path):
    try:
        return oscalls.stat(path).st_ino
    except OSError:
        return 0

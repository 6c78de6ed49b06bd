"""JSON-lines files (transcripts, history.jsonl) read from the end, whole lines only, through a
memory map, so that a reader never reads a file from its start.

Lines are found with `rfind` (done in C, so skipping a 20 MB record costs milliseconds and holds
nothing in Python). A last line without its newline may still be being written: readers stop at
whole_lines_end().
"""
import sys

from ..startup import oscalls
from ..state.safefiles import open_regular


def open_map(path):
    """A read-only memory map of a file, or None (missing, empty, unreadable, or not a regular
    file: a FIFO in a transcript's place is never waited on, and a symlink there, which Claude
    Code never writes, is not followed)."""
    try:
        with open_regular(path, follow_symlinks=False) as handle:
            size = oscalls.fstat(handle.fileno()).st_size
            if size == 0:
                return None
            import mmap  # a C extension (~3% of a hook's start): only a transcript actually read loads it

            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


LINE_FIRST_READ_BYTES = 4096  # a prompt's line is read from its offset in reads that grow from this


def line_at(handle, offset, limit):
    """The line that starts at `offset` of an open file (without its newline), read in reads that
    grow fourfold from LINE_FIRST_READ_BYTES, so that a short line costs one small read and a long
    one no more than twice its size; a line longer than `limit` comes back cut at `limit`."""
    handle.seek(offset)
    raw, size = b"", LINE_FIRST_READ_BYTES
    while True:
        raw += handle.read(min(size, limit) - len(raw))
        newline = raw.find(b"\n")
        if newline >= 0:
            return raw[:newline]
        if len(raw) < min(size, limit) or size >= limit:
            return raw  # the file's end, or the limit
        size *= 4


CHUNK_BYTES = 256 * 1024  # copied from the map at a time while looking for line starts
CHUNK_MAX_BYTES = 4 * 1024 * 1024  # a chunk grows while one record spans it, up to this


# Since 3.10 mmap.rfind searches the map in place (memrchr: skipping a 5 MB record costs a fraction
# of a millisecond); before, it compares one byte at a time, so older versions copy chunks instead.
MMAP_RFIND_IS_FAST = sys.version_info >= (3, 10)


class _NewlineFinder:
    """Line starts found backwards. Where mmap.rfind is slow, through copied chunks of the map: the
    chunk is kept, so a run of short records costs one copy, and it grows while a big record spans it."""

    def __init__(self, data):
        self.data = data
        self.low = len(data)  # self.chunk == data[self.low:self.low + len(self.chunk)]
        self.chunk = b""
        self.size = CHUNK_BYTES

    def previous(self, end):
        """Offset of the last newline before `end`, or -1."""
        if MMAP_RFIND_IS_FAST:
            return self.data.rfind(b"\n", 0, end)
        while True:
            if end > self.low:
                found = self.chunk.rfind(b"\n", 0, end - self.low)
                if found >= 0:
                    self.size = CHUNK_BYTES
                    return self.low + found
                if self.low == 0:
                    return -1
                end = self.low
                self.size = min(self.size * 2, CHUNK_MAX_BYTES)
            self.low = max(0, end - self.size)
            self.chunk = self.data[self.low:end]


def whole_lines_end(data):
    """The offset just after the last newline: where the whole lines end."""
    return _NewlineFinder(data).previous(len(data)) + 1


def lines_backward(data, lowest_start, end=None):
    """(start, end) of each non-empty line ending at or before `end` (default: the end of `data`),
    from the last backwards; a line that begins before lowest_start is still yielded whole (its
    start is searched for), then iteration stops."""
    finder = _NewlineFinder(data)
    end = len(data) if end is None else end
    while end > 0:
        while end > 0 and data[end - 1:end] in (b"\n", b"\r"):
            end -= 1
        if end == 0:
            return
        start = finder.previous(end) + 1
        yield start, end
        if start < lowest_start:
            return
        end = start

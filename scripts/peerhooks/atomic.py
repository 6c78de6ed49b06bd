"""peerhooks' own state files: replaced so that a reader sees the old bytes or the new, never a torn
or empty file, and read back as JSON objects, with anything else (missing, torn, foreign) as None."""
import os

from .jsonfast import dumps, loads

TEMP_SUFFIX = ".tmp"  # temporary files are `.<name>.<pid>.<random>.tmp` beside the target


def write_atomically(path, payload, durable=False):
    """Write bytes to a temporary file beside `path` and rename it into place.

    durable=True also fsyncs the data, for state whose loss would mislead (caches skip it: losing
    one only costs a re-read).
    """
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    # A unique name without `tempfile`, whose import costs ~10 ms of a hook's start-up on 3.9.
    temporary = os.path.join(folder, ".%s.%d.%s%s" % (os.path.basename(path), os.getpid(),
                                                      os.urandom(4).hex(), TEMP_SUFFIX))
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def read_json_object(path):
    """The JSON object stored at path, or None when the file is missing, unreadable or not one."""
    try:
        with open(path, "rb") as handle:
            value = loads(handle.read())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def write_json(path, value):
    """Store a JSON value compactly, atomically; a state file we cannot write only costs a re-read
    next time, so OSError is left to the caller to ignore."""
    write_atomically(path, dumps(value).encode("utf-8"))

"""Replace a file so that a reader sees the old bytes or the new, never a torn or empty file."""
import os

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

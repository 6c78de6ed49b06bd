"""Replace a file so that a reader sees the old bytes or the new, never a torn or empty file."""
import os
import tempfile


def write_atomically(path, payload, durable=False):
    """Write bytes to a temporary file beside `path` and rename it into place.

    durable=True also fsyncs the data, for state whose loss would mislead (caches skip it: losing
    one only costs a re-read).
    """
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
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

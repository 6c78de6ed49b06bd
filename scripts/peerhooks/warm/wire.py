"""A warm guard request and its answer, as bytes. Pure: no file, no clock, no environment.

A request carries everything the hook process would have had: its folder, its umask, how its
stdout and stderr encode, its arguments, its whole environment (git reads GIT_DIR, PATH, its config
variables; the guard reads CLAUDE_CONFIG_DIR, PEERHOOKS_GUARD, the messaging socket) and the
payload line. Fields are NUL-separated (no path, argument or variable can hold a NUL); the payload,
which may, comes last and runs to the end.

The answer on the request's own pipe: ACCEPTED as soon as the child that answers has the pipe
open, then `PHW1 <code> <stdout bytes> <stderr bytes>\\n` and both texts; or DECLINED alone (a
stale or busy server), and the front door judges the line itself.
"""
MAGIC = b"PHW1"
ACCEPTED = b"+"
DECLINED = b"-"
MAX_HEADER_BYTES = 64  # `PHW1 <code> <n> <n>\n`
MAX_FIELDS = 100000  # arguments plus variables: a real environment has a few hundred


class Request:
    """What a hook process had when it was started."""
    __slots__ = ("cwd", "umask", "stdout_encoding", "stdout_errors", "stderr_encoding", "stderr_errors",
                 "argv", "environ", "raw")

    def __init__(self, cwd, umask, streams, argv, environ, raw):
        self.cwd, self.umask = cwd, umask
        (self.stdout_encoding, self.stdout_errors), (self.stderr_encoding, self.stderr_errors) = streams
        self.argv, self.environ, self.raw = list(argv), dict(environ), raw


def _text(value):
    return value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value


def encode_request(cwd, umask, streams, argv, environ, raw):
    """environ: bytes or text names and values (posix.environ, os.environ); streams: ((encoding,
    errors) of stdout, (encoding, errors) of stderr)."""
    (out_encoding, out_errors), (err_encoding, err_errors) = streams
    fields = [MAGIC, _text(cwd), b"%d" % umask, _text(out_encoding), _text(out_errors), _text(err_encoding),
              _text(err_errors), b"%d" % len(argv)]
    fields.extend(_text(word) for word in argv)
    fields.append(b"%d" % len(environ))
    fields.extend(_text(name) + b"=" + _text(value) for name, value in environ.items())
    fields.append(raw)
    return b"\0".join(fields)


def decode_request(data):
    """The Request in data, or None when it is not one whole request."""
    fields, position = [], 0

    def take():
        nonlocal position
        end = data.find(b"\0", position)
        if end < 0:
            raise ValueError("a field without its end")
        field, position = data[position:end], end + 1
        return field

    def count():
        field = take()
        if not field.isdigit() or int(field) > MAX_FIELDS:
            raise ValueError("not a count")
        return int(field)

    try:
        if take() != MAGIC:
            return None
        cwd, umask = take(), take()
        if not umask.isdigit():
            return None
        fields = [take() for _ in range(4)]
        argv = [take() for _ in range(count())]
        environ = {}
        for _ in range(count()):
            name, equals, value = take().partition(b"=")
            if equals:
                environ[name] = value
    except ValueError:
        return None
    decode = _decoded
    return Request(decode(cwd), int(umask) & 0o777, ((decode(fields[0]), decode(fields[1])),
                                                     (decode(fields[2]), decode(fields[3]))),
                   [decode(word) for word in argv], {decode(n): decode(v) for n, v in environ.items()},
                   data[position:])


def _decoded(value):
    return value.decode("utf-8", "surrogateescape")


def encode_answer(code, stdout, stderr):
    return b"%s %d %d %d\n" % (MAGIC, code, len(stdout), len(stderr)) + stdout + stderr


def decode_answer(data):
    """(code, stdout, stderr) once data (what followed ACCEPTED) holds a whole answer; None while it
    does not yet; raises ValueError when it cannot be one."""
    end = data.find(b"\n", 0, MAX_HEADER_BYTES)
    if end < 0:
        if len(data) >= MAX_HEADER_BYTES:
            raise ValueError("no answer header")
        return None
    words = data[:end].split(b" ")
    if len(words) != 4 or words[0] != MAGIC or not all(w.lstrip(b"-").isdigit() for w in words[1:]):
        raise ValueError("not an answer header")
    code, out_size, err_size = (int(w) for w in words[1:])
    body = data[end + 1:]
    if len(body) < out_size + err_size:
        return None
    if len(body) > out_size + err_size or out_size < 0 or err_size < 0:
        raise ValueError("more than the answer")
    return code, body[:out_size], body[out_size:]

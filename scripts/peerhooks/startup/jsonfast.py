"""JSON with the C scanner and encoder `json` itself uses, without importing `json`.

`import json` costs a hook ~7 ms under `python3 -S` (about the interpreter's whole start-up): its
decoder and encoder import `re`, which imports enum, functools and collections. The work is done by
the C module `_json` either way; this builds the same scanner and encoder with the settings json
uses, so a value decodes exactly as `json.loads` decodes it and encodes exactly as `json.dumps`
(compact) encodes it. Anything that is not the plain case (bytes that are not UTF-8, a BOM, an error
to report, an interpreter without `_json`) goes to `json` itself, so errors and odd encodings behave
as they always did.
"""
WHITESPACE = " \t\n\r"  # what json.decoder's WHITESPACE pattern skips around a document


class _Defaults:
    """The settings json.JSONDecoder() hands its scanner when given no arguments."""
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__
    memo = None  # read by the pure-Python scanner only; the C one keeps its own


class TooDeep(ValueError):
    """A document nested deeper than the decoder can follow. The C scanner recurses once per
    level and stops with RecursionError at the interpreter's limit (measured: 1,200 levels fail
    on 3.9-3.11, 5,000 on 3.12, 20,000 on 3.13, each within 1.5 ms however deep the document).
    A hostile file (a 1,200-deep registry entry or history line) must cost only itself, so it
    raises this ValueError, which every reader already skips. Caught here rather than bounded by a
    pre-scan: catching costs nothing on documents that decode, where counting brackets first added
    a third to the decoding time of a 75 KB transcript line. Nothing of ours walks a decoded value
    recursively, so a value that did decode is safe to use."""


class NotStandard(ValueError):
    """Text json.loads would accept that standard JSON does not (NaN, Infinity), or an integer
    too long to read back safely."""


def _refuse_constant(name):
    raise NotStandard("non-standard JSON constant %s" % name)


MAX_INT_DIGITS = 4000  # 3.11+ refuses longer integers itself (ValueError); none of ours come close


def _bounded_int(digits):
    if len(digits) > MAX_INT_DIGITS:
        raise NotStandard("a number of %d digits" % len(digits))
    return int(digits)


class _Standard(_Defaults):
    """Settings for standard JSON only. Where the interpreter bounds integer parsing itself (3.11+)
    int stays the C fast path; before, each integer goes through _bounded_int."""
    parse_constant = staticmethod(_refuse_constant)
    parse_int = int if hasattr(__import__("sys"), "get_int_max_str_digits") else staticmethod(_bounded_int)


try:
    from _json import make_scanner as _make_scanner

    _scan = _make_scanner(_Defaults())
    _scan_standard = _make_scanner(_Standard())
except (ImportError, AttributeError, TypeError):  # an interpreter without the C accelerator
    _scan = _scan_standard = None


def _slow(data, standard=False):
    import json

    if standard:
        return json.loads(data, parse_constant=_refuse_constant, parse_int=_Standard.parse_int)
    return json.loads(data)


def _is_plain_utf8(data):
    """Bytes json.loads would read as UTF-8 without a BOM (its detect_encoding sees no zero byte in
    the first two, nor a UTF-8/16/32 byte order mark)."""
    return bool(data) and data[0] not in (0, 0xEF, 0xFE, 0xFF) and (len(data) < 2 or data[1] != 0)


def loads(data, standard=False):
    """json.loads(data) for str or bytes: the same value, the same exceptions, except that a
    document too deeply nested raises TooDeep (a ValueError) where json raises RecursionError.
    standard=True also refuses NaN and Infinity, and over-long integers, with NotStandard."""
    try:
        return _loads(data, standard)
    except RecursionError:
        raise TooDeep("JSON nested too deeply to decode") from None


def _loads(data, standard):
    scan = _scan_standard if standard else _scan
    if scan is None:
        return _slow(data, standard)
    if isinstance(data, (bytes, bytearray)):
        if not _is_plain_utf8(data):
            return _slow(data, standard)
        text = data.decode("utf-8", "surrogatepass")  # as json.loads decodes bytes
    elif isinstance(data, str) and not data.startswith("\ufeff"):
        text = data
    else:
        return _slow(data, standard)
    try:  # lstrip hands back the same string when there is nothing to strip: no copy
        value, end = scan(text, len(text) - len(text.lstrip(WHITESPACE)))
    except (StopIteration, SystemError):
        # No value where one must start (StopIteration), or a malformed one: the scanner builds its
        # JSONDecodeError from json.decoder, and where that is not imported yet it fails with
        # SystemError (3.11). json.loads says where, and how.
        return _slow(data, standard)
    if end != len(text) and text[end:].strip(WHITESPACE):
        return _slow(data, standard)  # extra data after the value
    return value


COMPACT = (",", ":")  # json.dumps' separators=(",", ":"): no spaces


def _unserializable(value):
    raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)


def dumps(value, ensure_ascii=True):
    """json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":")): the same text."""
    try:
        from _json import encode_basestring, encode_basestring_ascii, make_encoder

        encode_string = encode_basestring_ascii if ensure_ascii else encode_basestring
        if isinstance(value, str):
            return encode_string(value)
        # The arguments json.encoder.JSONEncoder.iterencode passes (3.9 to 3.13): circular-reference
        # markers, default, the string encoder, indent, separators, sort_keys, skipkeys, allow_nan.
        encoder = make_encoder({}, _unserializable, encode_string, None, COMPACT[1], COMPACT[0],
                               False, False, True)
    except (ImportError, TypeError):  # no accelerator, or one that takes other arguments
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, separators=COMPACT)
    return "".join(encoder(value, 0))

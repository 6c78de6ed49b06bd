"""Text a peer controls, made safe to embed in a line of ours. Pure, and linear in the text.

Session names (any process of the user writes the registry, a peer's model included), prompts
(pasted terminal output carries colour codes), file names, branch and stash messages, commit
subjects and memory note descriptions reach the model's context and the human's terminal through
every hook. Printed as written, a name holding `\\npeerhooks: …` forges a line of ours, `ESC[2J`
clears the terminal that `peers.py --here` prints to, an OSC 8 link hides where it points, a bidi
override reorders what the human reads, and a prompt holding `"` ends the quote it is shown in. So
everything a peer wrote passes through here before it is shown:

- escape sequences are taken out whole, as a terminal would read them (ECMA-48): CSI `ESC [ …
  final`, OSC `ESC ] … BEL or ST`, DCS, SOS, PM and APC strings, the two-character `ESC x` forms,
  and the 8-bit introducers (U+009B CSI, U+009D OSC, …), so that no `[31m` is left behind;
- line breaks (\\n, \\r, \\v, \\f, U+0085, U+2028, U+2029, and the separators \\x1c-\\x1f,
  which str.splitlines and str.split read as breaks or spaces) and tabs become a space: the text
  stays on one line;
- every other C0 control, DEL and the C1 controls are removed, and so are bidi controls
  (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C) and invisible characters that hide text from
  the human but not from the model (zero-width space and joiners of words, U+FEFF, tag characters);
- a lone surrogate becomes U+FFFD (a hook writing one would fail to encode its output).

Then, and only then, a text is cut (`…` added), so a cut never falls inside a sequence; and in the
quoted form `\\` and `"` are escaped, so a quoted text cannot end its quote early. Redaction
(peerhooks.text.redact) composes: clean, redact, cut. A text with nothing to clean costs one
str.isprintable; the tables are built on the first text that needs them, and `re` is never used.
"""

ELLIPSIS = "…"
NAME_CHARS = 80  # a session's name as shown: real ones are a few words; the registry allows 64 KB

ESC = "\x1b"
# The 8-bit introducers, read as their 7-bit forms: CSI, OSC, DCS, SOS, PM, APC.
_C1_INTRODUCERS = (("\x9b", ESC + "["), ("\x9d", ESC + "]"), ("\x90", ESC + "P"), ("\x98", ESC + "X"),
                   ("\x9e", ESC + "^"), ("\x9f", ESC + "_"))
_CSI_PARAMETERS = "0123456789:;<=>?"  # 0x30-0x3F
_INTERMEDIATES = " !\"#$%&'()*+,-./"  # 0x20-0x2F
_STRINGS = "]PX^_"  # OSC, DCS, SOS, PM, APC: a string up to its terminator
# What ends a control string besides ESC (whose `ESC \` is ST): BEL (xterm's OSC terminator), CAN and
# SUB (they abort any sequence) and every C1 character (U+009C is ST).
_STRING_ENDS = "\x07\x18\x1a" + "".join(map(chr, range(0x80, 0xA0)))

LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
INVISIBLE = "\u200b\u2060\u2061\u2062\u2063\u2064\ufeff"  # and the tag characters, U+E0000-E007F
TAGS = range(0xE0000, 0xE0080)

_tables = {}  # built on the first text that needs them


def _table(name):
    """"line": str.translate's table of what clean() replaces; "string ends": bytes.translate's
    table marking with BEL every byte that ends a control string."""
    if not _tables:
        spaces = dict.fromkeys(map(ord, LINE_BREAKS + "\t"), " ")
        removed = dict.fromkeys([c for c in range(0xA0) if c < 0x20 or 0x7F <= c] +
                                [ord(c) for c in BIDI_CONTROLS + INVISIBLE] + list(TAGS))
        # A str holds no surrogate pairs (JSON decoding joins an escaped pair into one character),
        # so every surrogate in one is lone: undecodable bytes read with surrogateescape, a lone `\ud800`.
        replaced = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")
        _tables["line"] = {**removed, **replaced, **spaces}
        ends = _STRING_ENDS.encode("latin-1")
        _tables["string ends"] = bytes(0x07 if byte in ends else byte for byte in range(256))
    return _tables[name]


def clean(text):
    """The text on one line with no control character: escape sequences out whole, line breaks and
    tabs a space each, other controls and bidi and invisible characters out, lone surrogates U+FFFD.
    Spacing is kept (a file name stays as it is spelled); None and '' stay as they are."""
    if not text or text.isprintable():
        return text
    for introducer, seven_bit in _C1_INTRODUCERS:
        if introducer in text:
            text = text.replace(introducer, seven_bit)
    if ESC in text:
        first, *parts = text.split(ESC)
        # An ESC right before another opens nothing (the second one does): its empty part goes.
        text = first + "".join([_after_sequence(part) for part in parts if part])
    return text.translate(_table("line"))


def _after_sequence(part):
    """What follows one ESC once the sequence it opens is taken out; part: the text up to the next
    ESC, never empty (a sequence ends at the latest there: an ESC inside one starts the next, or is
    ST's)."""
    opener = part[:1]
    if opener == "[":
        rest = part[1:].lstrip(_CSI_PARAMETERS).lstrip(_INTERMEDIATES)
        return rest[1:] if rest and "@" <= rest[0] <= "~" else rest
    if opener in _STRINGS:
        if len(part) == 1:  # `ESC ]` alone, as a flood of them comes: no table needed
            return ""
        end = part.encode("latin-1", "replace").translate(_table("string ends")).find(b"\x07")
        return "" if end < 0 else part[end + 1:]  # to its terminator, else to the next ESC or the end
    rest = part.lstrip(_INTERMEDIATES)  # `ESC (B`, `ESC c`, `ESC \` (ST) ...
    return rest[1:] if rest and "0" <= rest[0] <= "~" else rest


def one_line(text, limit=None, quoted=False):
    """What a peer wrote (a prompt, a name, a description) as one line of words: cleaned, its
    whitespace folded to single spaces, cut to `limit` characters with `…`; quoted: `\\` and `"`
    escaped, for a text shown between double quotes. '' for None."""
    if not text:
        return ""
    line = " ".join(clean(text).split())
    if limit is not None and len(line) > limit:
        line = line[:limit - 1].rstrip() + ELLIPSIS
    if quoted:
        line = line.replace("\\", "\\\\").replace('"', '\\"')
    return line


def name(text):
    """A session's name as every surface shows it: one line, NAME_CHARS at most."""
    return one_line(text, NAME_CHARS)


def block(text):
    """A text of several lines (a file's body, a whole report) with each line cleaned: its `\\n`
    kept (`\\r\\n` read as one), every other line break a space, no control character left."""
    if not text or text.isprintable():
        return text
    return "\n".join(map(clean, text.replace("\r\n", "\n").split("\n")))

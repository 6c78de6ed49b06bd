"""Secrets taken out of the texts peerhooks shows, in time linear in the text.

peers.py, cold_start.py and memory_delta.py copy what a session typed or wrote into every peer's
context. A key, a token or a password pasted into one session would spread to all of them, so every
text shown passes through `redact` first: prompts, memory notices, cold-start sections and diffs, and
(called by their owners) the guard's and the edit notice's texts. A false positive costs a few
characters; a miss leaks a credential. The shapes are those secret scanners know (gitleaks' and
detect-secrets' families; their tables are peerhooks.text.secret_shapes): provider prefixes, private
key blocks, passwords in URLs, `name=value` and `"name": "value"` by the name, command-line flags,
Authorization headers, JWTs, webhook URLs, and long random-looking tokens with no name at all.

No regular expressions: a pattern that backtracks once made a pasted 10 KB prompt cost 14.7 s
(issue 21), and importing `re` costs a hook ~6 ms. Each rule below finds its trigger with `str.find`,
measures runs of characters with `str.lstrip`/`rstrip` (both in C) inside a window of fixed size,
and starts its next search after what it examined, so every rule reads each character a bounded
number of times. Redaction runs only on what is shown: callers cut long texts first.
"""
from .secret_shapes import (ALNUM, BASE64, DIGITS, ENV_KEY, LOWER, NAME_CHARS, NAME_HINTS, NOT_VALUES,
                            PLACEHOLDER_STARTS, SHORT_PASSWORD_FLAGS, TOKEN, TOKEN_PREFIXES, UPPER, WEAK, WEBHOOK_URLS,
                            name_kind)

MASK = "[redacted]"

_QUOTES = "\"'`"
_ALNUM_SET = frozenset(ALNUM)
_SPACES = " \t\r\n"

NAME_MAX = 64  # chars looked back for a name before `=` or `:`
VALUE_MAX = 256  # a value longer than this is masked up to here
QUOTED_MAX = 512  # a closing quote further than this is not looked for
TOKEN_MAX = 4096  # a token body is measured this far at most (a PEM body is masked to its end)
AUTHORITY_MAX = 256  # the user:password@host part of a URL
COMMAND_WINDOW = 200  # how far back `mysql`, `sshpass`, ... are looked for before their flag


# -- Runs and windows (every measurement is bounded) -----------------------------------------------

def _run(text, start, chars, limit=TOKEN_MAX):
    """How many characters from `start` on belong to `chars` (at most `limit`)."""
    window = text[start:start + limit]
    return len(window) - len(window.lstrip(chars))


def _run_back(text, end, chars, limit=NAME_MAX):
    """How many characters before `end` belong to `chars` (at most `limit`)."""
    window = text[max(0, end - limit):end]
    return len(window) - len(window.rstrip(chars))


def _first_of(text, start, stops, limit):
    """The index of the first character of `stops` at or after `start`, within `limit` characters
    (start + limit when none is). Each search is bounded by the best found so far."""
    end = min(len(text), start + limit)
    for stop in stops:
        found = text.find(stop, start, end)
        if found >= 0:
            end = found
    return end


class _Hits:
    """The places a needle occurs in a text, in order. A rule that examined more than the needle
    sets `resume` to where the next search starts (by default just after the hit), so that no
    character is examined again for the same rule."""

    __slots__ = ("text", "needle", "resume")

    def __init__(self, text, needle):
        self.text, self.needle, self.resume = text, needle, 0

    def __iter__(self):
        while True:
            found = self.text.find(self.needle, self.resume)
            if found < 0:
                return
            self.resume = found + 1
            yield found


def _hits(text, needle):
    """_Hits of a needle, or nothing to iterate when it is not in the text (the usual case: a
    start redacts forty prompts, and most hold no trigger at all)."""
    return _Hits(text, needle) if needle in text else ()


def _boundary_before(text, index):
    return index == 0 or text[index - 1] not in ALNUM


def _looks_random(value):
    """Letters and digits mixed, as keys are; not a word, a number or a placeholder."""
    has = _classes(value)
    return len(value) >= 8 and "digit" in has and ("upper" in has or "lower" in has)


_CLASSES = (("digit", frozenset(DIGITS)), ("upper", frozenset(UPPER)), ("lower", frozenset(LOWER)))


def _classes(value):
    """Which of digit, upper, lower (and "other") a value holds (its first TOKEN_MAX characters)."""
    chars = set(value[:TOKEN_MAX])
    found = {name for name, members in _CLASSES if chars & members}
    if chars - _ALNUM_SET:
        found.add("other")
    return found


def _entropy(value):
    """Shannon entropy in bits per character (of the first 256 characters)."""
    import math  # a builtin module: no file to load

    sample = value[:256]
    counts = {}
    for char in sample:
        counts[char] = counts.get(char, 0) + 1
    total = float(len(sample))
    return -sum(n / total * math.log(n / total, 2) for n in counts.values())


# -- Private keys: the block after the header, to its END line (or the end of the text) ---------

def private_keys(text, lowered, spans):
    hits = _hits(text, "-----BEGIN ")
    for begin in hits:
        close = text.find("-----", begin + 11, begin + 11 + 80)
        hits.resume = begin + 11 if close < 0 else close
        if close < 0 or "PRIVATE KEY" not in text[begin + 11:close]:
            continue
        body = close + 5
        end = text.find("-----END ", body)
        if end < 0:  # cut short by a one-line rendering or a limit: everything after goes
            spans.append((body, len(text)))
            return
        spans.append((body, end))
        hits.resume = end + 9


# -- Passwords in URLs: scheme://user:password@host, the password may hold `@` -------------------

_AUTHORITY_STOPS = "/?#" + _SPACES + _QUOTES + "<>()[]{}|\\"


def url_passwords(text, lowered, spans):
    hits = _hits(text, "://")
    for separator in hits:
        start = separator + 3
        if text.find("@", start, start + AUTHORITY_MAX) < 0:
            hits.resume = start  # no user information within reach
            continue
        stop = _first_of(text, start, _AUTHORITY_STOPS, AUTHORITY_MAX)
        hits.resume = max(stop - 1, separator + 1)  # a `://` can begin at the authority's last `:`
        if separator == 0 or text[separator - 1] not in ALNUM:
            continue  # no scheme
        user_end = text.rfind("@", start, stop)  # the last `@`: the password may hold one
        colon = text.find(":", start, user_end) if user_end > start else -1
        if colon >= 0 and user_end > colon + 1 and text[colon + 1:user_end] != MASK:
            spans.append((colon + 1, user_end))


# -- Provider tokens by prefix, and webhook URLs by their fixed part ----------------------------

def _by_first_two(table):
    """[(two characters, [shapes starting with them])]: one search tells that none of a group is in
    a text (104 prefixes make 53 groups)."""
    groups = {}
    for shape in table:
        groups.setdefault(shape[0][:2], []).append(shape)
    return sorted(groups.items())


_PREFIX_GROUPS = _by_first_two(TOKEN_PREFIXES)
_WEBHOOK_GROUPS = _by_first_two(WEBHOOK_URLS)


def _shapes(text, spans, groups, whole, boundary):
    for first_two, shapes in groups:
        if first_two not in text:
            continue
        for prefix, chars, least in shapes:
            hits = _hits(text, prefix)
            for found in hits:
                body = found + len(prefix)
                length = _run(text, body, chars)
                hits.resume = body + max(length, 1)  # a later hit inside this body would measure less
                if length >= least and (not boundary or _boundary_before(text, found)):
                    spans.append((found if whole else body, body + length))


def provider_tokens(text, lowered, spans):
    _shapes(text, spans, _PREFIX_GROUPS, whole=True, boundary=True)


def webhook_urls(text, lowered, spans):
    _shapes(text, spans, _WEBHOOK_GROUPS, whole=False, boundary=False)


# -- JSON Web Tokens: header.payload[.signature], each base64url ----------------------------------

def json_web_tokens(text, lowered, spans):
    hits = _hits(text, "eyJ")
    for found in hits:
        end = found + _run(text, found, TOKEN)
        hits.resume = max(end, found + 3)
        if end - found < 10 or text[end:end + 1] != "." or not _boundary_before(text, found):
            continue
        second = _run(text, end + 1, TOKEN)
        if second < 10:
            continue
        end += 1 + second
        if text[end:end + 1] == ".":
            end += 1 + _run(text, end + 1, TOKEN + "=")
        spans.append((found, end))
        hits.resume = end


# -- Authorization: Bearer <token> / Basic <credentials> -------------------------------------------

_SCHEMES = (("bearer ", 16, False), ("basic ", 8, True), ("token ", 20, True))


def authorization_schemes(text, lowered, spans):
    for scheme, least, must_look_random in _SCHEMES:
        hits = _hits(lowered, scheme)
        for found in hits:
            start = found + len(scheme)
            length = _run(text, start, BASE64 + "._~-=")
            hits.resume = start + max(length, 1)
            value = text[start:start + length]
            if (length >= least and _boundary_before(text, found) and value != MASK
                    and (not must_look_random or _looks_random(value))):
                spans.append((start, start + length))


# -- Values by their name: password=…, "api_key": "…", DB_PASS=…, AccountKey=…, --token=… ---------

_VALUE_STOPS = _SPACES + _QUOTES + ",;&)]}<>|"


def _value_at(text, start):
    """(start, end) of the value that begins at `start` (quoted: inside its quotes), or None."""
    start += _run(text, start, " \t", 3)
    if text.startswith(MASK, start):
        return start, start + len(MASK)  # already taken out
    opening = text[start:start + 1]
    if opening and opening in _QUOTES:
        close = text.find(opening, start + 1, start + 1 + QUOTED_MAX)
        if close > start + 1:
            return start + 1, close
        start += 1  # no closing quote within reach: the value is the unquoted run after it
    end = _first_of(text, start, _VALUE_STOPS, VALUE_MAX)
    return (start, end) if end > start else None


def _is_secret_value(value, name, kind, quoted, after, separator):
    if value == MASK or value.startswith(PLACEHOLDER_STARTS) or value.lower() in NOT_VALUES:
        return False
    if not quoted and (after == "(" or (value.split("(")[0].isidentifier() and "(" in value)):
        return False  # a call: password=getpass(), signature=_signature(data, …)
    if value.lower() == name.lower() or value.lower().endswith("." + name.lower()):
        return False  # password=password: a variable passed on
    if kind == WEAK:
        return _looks_random(value)
    if kind == ENV_KEY and _is_plain_word(value):
        return False
    if separator == ":" and not quoted and value.isalpha():
        return False  # prose: "the token: rotate it", "secret: nothing"
    return len(value) >= 3


def named_values(text, lowered, spans):
    """`name=value`, `name: value`, `"name": "value"`, `name => value`, `name := value`, found from
    the words secret names hold, so that a text full of `=` and `:` costs nothing."""
    judged = set()  # name ends: a name holds several hints (`api_key_password`)
    for hint in NAME_HINTS:
        hits = _hits(lowered, hint)
        for found in hits:
            name_end = found + len(hint) + _run(text, found + len(hint), NAME_CHARS, NAME_MAX)
            hits.resume = name_end  # later hits inside this name name the same value
            if name_end in judged:
                continue
            judged.add(name_end)
            value = _assigned_value(text, name_end)
            if value is None:
                continue
            separator, start, end = value
            hits.resume = max(hits.resume, end)  # names inside a value (`key=akey=a…`) are not names
            name = text[name_end - _run_back(text, name_end, NAME_CHARS):name_end]
            kind = name_kind(name)
            quoted = start > 0 and text[start - 1] in _QUOTES and text[end:end + 1] == text[start - 1]
            if kind and _is_secret_value(text[start:end], name, kind, quoted, text[end:end + 1], separator):
                spans.append((start, end))


def _assigned_value(text, name_end):
    """(separator, start, end) of the value assigned to the name ending at name_end, or None."""
    position = name_end
    if text[position:position + 1] in ("\"", "'"):
        position += 1  # a quoted key: "password": …
    position += _run(text, position, " \t", 2)
    separator, following = text[position:position + 1], text[position + 1:position + 2]
    if separator == "=":
        if following in ("=", "~"):
            return None  # a comparison
        position += 2 if following == ">" else 1  # `=>`
    elif separator == ":":
        if following in (":", "/", "\\"):
            return None  # C++ scope, a URL, a Windows path
        position += 2 if following == "=" else 1  # `:=`
    else:
        return None
    value = _value_at(text, position)
    return (separator,) + value if value else None


# -- Command-line flags: --password VALUE, mysql -pX, sshpass -p X, curl -u user:pw -------------

def _word_after(text, start):
    """(start, end) of the word after the spaces at `start` (inside its quotes), or None."""
    if text[start:start + 1] not in (" ", "\t"):
        return None
    return _value_at(text, start)


def flag_values(text, lowered, spans):
    hits = _hits(text, "--")
    for found in hits:
        start = found + 2
        length = _run(text, start, NAME_CHARS, NAME_MAX)
        hits.resume = start + max(length, 1)
        if length == 0 or not (found == 0 or text[found - 1] in _SPACES + _QUOTES):
            continue
        flag = text[start:start + length]
        value = _word_after(text, start + length)
        if value is None:
            continue
        word = text[value[0]:value[1]]
        if flag in ("user", "proxy-user"):
            colon = text.find(":", value[0], value[1])
            if colon > value[0] and colon + 1 < value[1] and not text.startswith(MASK, colon + 1):
                spans.append((colon + 1, value[1]))
            continue
        kind = name_kind(flag)
        if kind is None or word.startswith("-") or word.startswith(("/", "~", "./", "../")):
            continue  # another flag, or a key file's path
        if _is_secret_value(word, flag, kind, True, "", "="):
            spans.append(value)
    _short_flags(text, lowered, spans)


def _short_flags(text, lowered, spans):
    for program, flag, glued, spaced in SHORT_PASSWORD_FLAGS:
        pattern = " " + flag
        hits = _hits(text, pattern)
        for found in hits:
            hits.resume = found + len(pattern)
            window = lowered[max(0, found - COMMAND_WINDOW):found]
            if program not in window or "\n" in window[window.rfind(program):]:
                continue
            after = found + len(pattern)
            next_char = text[after:after + 1]
            if glued and next_char and next_char not in _SPACES + "-":
                value = _value_at(text, after)
            elif spaced:
                value = _word_after(text, after)
            else:
                continue
            if value is None or value[1] <= value[0]:
                continue
            start, end = value
            if flag == "-u":
                colon = text.find(":", start, end)
                if colon < 0 or colon + 1 >= end:
                    continue
                start = colon + 1
            if not text.startswith(MASK, start) and not text.startswith("$", start):
                spans.append((start, end))
                hits.resume = max(hits.resume, end)


# -- Long random tokens with no name: an AWS secret key alone, a pasted API key -------------------

RANDOM_TOKEN_LEAST = 32  # AWS secret keys are 40; shorter runs are too often words run together
# Random base64 of 32+ characters measures over 4.0 bits per character and has under 60% of its
# characters in word-like runs (`Word`, `word`: 3+ lowercase letters) in 99.9% of cases; paths, dotted
# package names and CamelCase identifiers of that length have 63-90% (tests/test_redact.py holds both).
RANDOM_TOKEN_ENTROPY = 3.8
RANDOM_TOKEN_WORDS = 0.6
_RANDOM_RUN = BASE64 + "_-."  # `=` ends a run: NAME=value is two runs, the name kept


def _run_table():
    """bytes.translate's table: the bytes of _RANDOM_RUN kept, every other byte a space."""
    keep = set(_RANDOM_RUN.encode("ascii"))
    return bytes(byte if byte in keep else 32 for byte in range(256))


_run_bytes = []  # [table], built on the first long word


def random_tokens(text, lowered, spans):
    if not _run_bytes:
        _run_bytes.append(_run_table())
    # As bytes with one byte per character (`?` for anything else), runs are split in C.
    runs = text.encode("ascii", "replace").translate(_run_bytes[0])
    position = 0
    for run in runs.split():
        if len(run) < RANDOM_TOKEN_LEAST:
            continue
        start = runs.find(run, position)  # between long runs lie only shorter ones: it is found here
        position = start + len(run)
        for piece_start, piece in _key_candidates(run.decode("ascii")):
            spans.append((start + piece_start, start + piece_start + len(piece)))


def _key_candidates(run):
    """[(offset, piece)] of a run that look like keys: the whole run (an AWS secret key may hold
    `/`), or, when the run is a path or URL (one of its `/`- or `.`-separated segments is a plain
    word: `discord`, `com`, `Library`), each segment that is a key on its own."""
    segments, offset, piece = [], 0, ""
    for char in run + "/":
        if char in "/.":
            segments.append((offset - len(piece), piece))
            piece = ""
        else:
            piece += char
        offset += 1
    if len(segments) > 1 and any(_is_plain_word(segment) for _, segment in segments):
        return [(at, segment) for at, segment in segments
                if len(segment) >= RANDOM_TOKEN_LEAST and _looks_like_a_key(segment)]
    whole = run.strip(".")
    if len(whole) >= RANDOM_TOKEN_LEAST and _looks_like_a_key(whole):
        return [(run.find(whole), whole)]
    return []


def _is_plain_word(segment):
    letters = segment[1:] if segment[:1] in UPPER else segment
    return len(segment) >= 3 and letters != "" and not letters.strip(LOWER)


_SEQUENCES = ("abcdefgh", "ABCDEFGH", "01234567", "qwertyui")  # an alphabet written out, not a key


def _looks_like_a_key(run):
    if not {"digit", "upper", "lower"} <= _classes(run) or any(s in run for s in _SEQUENCES):
        return False  # hex digests, UUIDs, lowercase identifiers, numbers, alphabets
    return _word_fraction(run) < RANDOM_TOKEN_WORDS and _entropy(run) >= RANDOM_TOKEN_ENTROPY


def _word_fraction(run):
    """The share of a run's characters (its first 256) in word-like pieces: an optional capital
    and three or more lowercase letters (`Library`, `parser`)."""
    sample = run[:256]
    in_words, index, size = 0, 0, len(sample)
    while index < size:
        letters = index + (1 if sample[index] in UPPER else 0)
        end = letters + _run(sample, letters, LOWER, size)
        if end - letters >= 3:
            in_words += end - index
        index = max(end, index + 1)
    return in_words / float(size)


# -- Putting it together ------------------------------------------------------------------------

# (rule, the shortest whitespace-free word it can find a secret in): a rule is skipped when the text
# has no word that long, which is most prompts ("fix the flaky login test"), so that a start redacting
# forty of them pays for a split, not for a hundred prefix searches each.
RULES = (
    (private_keys, 0), (url_passwords, 0),
    (provider_tokens, min(len(prefix) + least for prefix, _, least in TOKEN_PREFIXES)),
    (webhook_urls, min(len(fixed) + least for fixed, _, least in WEBHOOK_URLS)),
    (json_web_tokens, 24), (authorization_schemes, 0), (named_values, 0), (flag_values, 0),
    (random_tokens, RANDOM_TOKEN_LEAST),
)


def _lowered(text):
    """The text with ASCII letters lowercased, at the same indexes."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)  # a few letters change length


def spans_of(text):
    """(start, end) of each secret found, as the rules report them (overlapping, unsorted)."""
    spans = []
    lowered = _lowered(text)
    longest = max(map(len, text.split()), default=0)
    for rule, least_word in RULES:
        if longest >= least_word:
            rule(text, lowered, spans)
    return spans


def redact(text):
    """The text with anything shaped like a secret replaced by [redacted]; None stays None.
    Linear in the text; callers cut what they will not show first."""
    if not text:
        return text
    spans = spans_of(text)
    if not spans:
        return text
    pieces, position = [], 0
    for start, end in _merged(spans):
        pieces += [text[position:start], MASK]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _merged(spans):
    """Disjoint spans in order: overlapping or touching ones become one, masked once."""
    merged = []
    for start, end in sorted(spans):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged

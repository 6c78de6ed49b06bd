"""Secrets taken out of prompts before they are shown to other sessions.

peers.py and cold_start.py copy what a session typed into every peer's context. A key, a token or
a password pasted into one session would spread to all of them (issue 14), so every prompt from
history or a transcript passes through `redact` before it is shown. The shapes are the common
ones: provider key prefixes, bearer tokens, JWTs, passwords in URLs, `name=secret` assignments and
PEM private keys. A false positive costs a few characters of a prompt; a miss leaks a credential.

Prompts from history are redacted once, when the history index keeps them; `re` is imported and
the patterns compiled on the first call only, since a warm peers.py start redacts nothing else
when no prompt comes from a transcript (importing `re` costs ~6 ms under -S).
"""
MASK = "[redacted]"


def _compile():
    import re

    patterns = (  # (pattern, replacement): what the replacement keeps stays readable
        # -----BEGIN ... PRIVATE KEY----- ... (possibly cut short by a one-line rendering)
        (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)",
                    re.DOTALL), MASK),
        # user:password@ in a URL: the password goes, the user and the host stay
        (re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*):[^/\s@]+@"), r"\1:" + MASK + "@"),
        # provider keys by their prefixes: Anthropic, OpenAI, GitHub, GitLab, Slack, AWS, Google, Stripe
        (re.compile(r"\b(?:sk-ant-[A-Za-z0-9_\-]{10,}|sk-(?:proj-)?[A-Za-z0-9_\-]{20,}"
                    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,}"
                    r"|xox[abposr]-[A-Za-z0-9\-]{10,}|(?:AKIA|ASIA)[A-Z0-9]{16}|AIza[A-Za-z0-9_\-]{35}"
                    r"|[rs]k_(?:live|test)_[A-Za-z0-9]{16,})"), MASK),
        # JSON Web Tokens: three base64url parts, the first a JSON header
        (re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"), MASK),
        # Authorization: Bearer/Basic <credential>
        (re.compile(r"(?i)\b(bearer|basic) [A-Za-z0-9._~+/\-]{16,}=*"), r"\1 " + MASK),
    )
    # password=..., api_key: "...", TOKEN=..., client-secret ...: the value goes, the name stays
    assignment = re.compile(
        r"(?i)\b([A-Za-z0-9_\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key"
        r"|private[_\-]?key|credential)s?[A-Za-z0-9_\-]*)(\s*[:=]\s*|\s+)([\"']?)([^\s\"',;]{6,})\3")
    return patterns, assignment


_compiled = []  # [(patterns, assignment)] once the first text has been redacted


def _mask_assignment(match):
    name, separator, quote, value = match.groups()
    if separator.strip() == "" and not _looks_random(value):
        return match.group(0)  # "the token parser", "secret sauce": prose, not a credential
    return "%s%s%s%s%s" % (name, separator, quote, MASK, quote)


def _looks_random(value):
    """A run of letters and digits mixed, as keys are; not an English word."""
    return (len(value) >= 12 and any(c.isdigit() for c in value)
            and any(c.isalpha() for c in value))


def redact(text):
    """The text with anything shaped like a secret replaced by [redacted]; None stays None."""
    if not text:
        return text
    if not _compiled:
        _compiled.append(_compile())
    patterns, assignment = _compiled[0]
    for pattern, replacement in patterns:
        text = pattern.sub(replacement, text)
    return assignment.sub(_mask_assignment, text)

"""Whether a PreToolUse payload's command runs only git subcommands that read, decided on the raw
bytes before json is imported or any file read: the guard runs before every shell command, and
`git status`, `git diff`, `git log` are most of the git an agent runs. A yes here is always right
(it lets through only what cannot touch a peer's work); a no sends the line to the full judgement.
No imports: `re` alone costs ~6 ms of a clean interpreter's start.
"""

# Subcommands that only read (gitops.READ_ONLY's core): a line whose every `git` runs one of these
# cannot touch a peer's work. Matched on bytes by hand: importing `re` alone costs ~6 ms.
READ_ONLY = frozenset(b"""status diff log show rev-parse ls-files ls-tree blame grep describe shortlog
cat-file rev-list merge-base for-each-ref show-ref fetch version""".split())
GLOBAL_FLAGS = frozenset([b"--no-pager", b"-P", b"--no-optional-locks"])
GLOBAL_WITH_VALUE = frozenset([b"-C", b"-c"])
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def only_reads(raw):
    """True when every standalone `git` in the payload's bytes starts a read-only run."""
    start = raw.find(b"git")
    while start >= 0:
        before, after = raw[start - 1:start] if start else b"", raw[start + 3:start + 4]
        escaped = raw[start - 2:start - 1] == b"\\"  # `\ngit` in JSON is a newline, then git
        standalone = (escaped or not (before and (before[0] in _WORD_BYTES or before == b"."))) and not (
            after and after[0] in _WORD_BYTES)
        if standalone and not _reads_at(raw, start + 3):
            return False
        start = raw.find(b"git", start + 3)
    return True


def _reads_at(raw, pos):
    if raw[pos:pos + 1] not in (b" ", b"\t"):
        return False
    words = raw[pos:pos + 256].split(None, 8)
    index = 0
    while index < len(words) and (words[index] in GLOBAL_FLAGS or words[index] in GLOBAL_WITH_VALUE):
        index += 2 if words[index] in GLOBAL_WITH_VALUE else 1
    if index >= len(words):
        return False
    word = words[index]
    end = 0
    while end < len(word) and (word[end] in _WORD_BYTES):
        end += 1
    return word[:end] in READ_ONLY

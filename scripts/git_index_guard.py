#!/usr/bin/env python3
"""PreToolUse hook on Bash: no session sweeps up or wipes out a live peer's work through git.

While another live session works in the same checkout, git commands that would take or discard a
peer's changes are denied with the narrow form to use instead, and those with no narrow form (a
branch switch, a pull, a stash pop) ask the human; alone, or on any error, it exits 0 in silence.
The work is in peerhooks.hook_git_guard; docs/guard.md says what it refuses and how to turn it off.

It runs before every shell command, so this file stays small (a script is compiled on every run, a
module is not) and decides from the payload's raw bytes, before any import or file read, when the
line holds no git at all or only git commands that cannot touch a peer's work (`git status`).
"""
import os
import sys

NAME = "git_index_guard"
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # one payload line, never gigabytes (as hookio)
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


def main(argv=None):
    try:
        raw = sys.stdin.buffer.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return 0
    if b"\\u" not in raw and (b"git" not in raw or only_reads(raw)):
        return 0  # no git, or git that only reads: decided before any import or file read
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import hook_git_guard, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not block every git command
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_git_guard.run, argv, raw=raw)


if __name__ == "__main__":
    raise SystemExit(main())

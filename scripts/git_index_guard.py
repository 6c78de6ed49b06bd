#!/usr/bin/env python3
"""PreToolUse hook on Bash: no session sweeps up or wipes out a live peer's work through git.

While another live session works in the same checkout, git commands that would take or discard a
peer's changes are denied with the narrow form to use instead, and those with no narrow form (a
branch switch, a pull, a stash pop) ask the human; alone, or on any error, it exits 0 in silence.
The work is in peerhooks.hook_git_guard; docs/guard.md says what it refuses and how to turn it off.

It runs before every shell command, so this file stays small (a script is compiled on every run, a
module is not) and decides from the payload's raw bytes, before any import or file read, when the
line holds no git at all and no word that may start a wrapper (`make`, `npm`, `./x.sh`: what they run
is read from the checkout), or only git commands that cannot touch a peer's work (`git status`).
"""
import sys

NAME = "git_index_guard"
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # one payload line, never gigabytes (as hookio)
# peerhooks.wrappers.ENTRY_WORDS as bytes, so that a line without them costs no import (a test holds
# the two equal); looked for in the command, not in its description ("make sure …" is prose).
WRAPPER_BYTES = (b"make", b"npm", b"yarn", b"pnpm", b"bun ", b"gh ", b".sh", b"./", b"sh ", b"source ")


def may_wrap(raw):
    """True when the command may start a wrapper. Its JSON text is cut at its first quote; when that
    quote is escaped (`\\"`) or there is no command key, the whole payload is searched instead."""
    key = raw.find(b'"command"')
    start = raw.find(b'"', key + 9) + 1
    end = raw.find(b'"', start)
    command = raw[start:end] if key >= 0 and 0 < start <= end and raw[end - 1] != 92 else raw
    return any(word in command for word in WRAPPER_BYTES)


def main(argv=None):
    try:
        raw = sys.stdin.buffer.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return 0
    wrapper = may_wrap(raw)
    if b"git" not in raw and b"\\u" not in raw and not wrapper:
        return 0  # no git, even JSON-escaped, and no wrapper: decided before any import or file read
    import os  # not loaded by a `-S` interpreter's start: ~1 ms the no-git path does not pay

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import guard_readonly
        if not wrapper and b"\\u" not in raw and guard_readonly.only_reads(raw):
            return 0  # git that only reads: decided before importing json or reading a file
        from peerhooks import hook_git_guard, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not block every git command
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_git_guard.run, argv, raw=raw)


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""PreToolUse hook on Bash: no session sweeps up or wipes out a live peer's work through git.

While another live session works in the same checkout, git commands that would take or discard a
peer's changes are denied with the narrow form to use instead, and those with no narrow form (a
branch switch, a pull, a stash pop) ask the human; alone, or on any error, it exits 0 in silence.
The work is in peerhooks.hook_git_guard; docs/guard.md says what it refuses and how to turn it off.

It runs before every shell command, so this file stays small (a script is compiled on every run, a
module is not) and decides from the payload's raw bytes, before json or any file read, when the line
can touch no peer's work: no git (or only git that reads, `git status`), no file written, and no word
that may start a wrapper (`make`, `npm`, `./x.sh`: what they run is read from the checkout).
"""
import sys

NAME = "git_index_guard"
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # one payload line, never gigabytes (as hookio)


def main(argv=None):
    try:
        raw = sys.stdin.buffer.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return 0
    try:
        try:  # the script's folder is sys.path[0] when Claude Code runs it: no `os` needed yet
            from peerhooks import guard_readonly
        except ImportError:
            import os
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from peerhooks import guard_readonly
        if b"\\u" not in raw and not guard_readonly.may_write(raw) and not guard_readonly.may_wrap(raw) and (
                b"git" not in raw or guard_readonly.only_reads(raw)):
            return 0  # no file written, no wrapper and no git, or git that only reads: before json or a file read
        import gc
        import os  # not loaded by a `-S` interpreter's start: ~1 ms the quiet paths do not pay

        gc.disable()  # the imports below make no cycles worth collecting (hookio.serve says why)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from peerhooks import pycache

        pycache.install()  # the ~30 modules a judged line loads, from their bytecode at half the cost
        from peerhooks import hook_git_guard, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not block every git command
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    try:
        return hookio.serve(NAME, hook_git_guard.run, argv, raw=raw, end_process=__name__ == "__main__")
    finally:
        gc.enable()  # for a caller that lives on (tests run main() in their own process)


if __name__ == "__main__":
    raise SystemExit(main())

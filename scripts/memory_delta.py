#!/usr/bin/env python3
"""UserPromptSubmit hook: what peers wrote to memory and rule files since this session started.

Auto memory and rule files (`CLAUDE.md`, `.claude/rules/`) are read when a session starts, so a
long-lived session never sees the correction a peer wrote at noon. On the next prompt this lists
each file another session changed since this one started (or since this hook last ran for it),
once, with who wrote it and what it is about; deletions of memory notes too. On most prompts it
prints nothing, and then it costs a stat of each watched file and one small read of its stamp.
The work is in peerhooks.hook_memory_delta; a script is compiled on every run, a module is not.
"""
import os
import sys

NAME = "memory_delta"


def main(argv=None):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import pycache

        pycache.install()  # our modules from their bytecode, at half the import system's cost
        from peerhooks import hook_memory_delta, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_memory_delta.run, argv, end_process=__name__ == "__main__")


if __name__ == "__main__":
    raise SystemExit(main())

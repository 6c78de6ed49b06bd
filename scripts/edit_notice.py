#!/usr/bin/env python3
"""PreToolUse hook on Edit, Write, MultiEdit, NotebookEdit (Codex: apply_patch): the model is told
when a file it is about to write holds a live peer's uncommitted change.

The collision people report most is two sessions editing one file; at least six projects wrote
their own "a peer is editing this file" hook, and the lesson of their threads is that the notice
must come before the first write and be a by-product of editing, never a claim to keep. This
never blocks: the tool runs, and the model reads who changed the file, how long ago, what that
peer works on and how to reach it, once per (file, peer, peer's latest change). Silent alone, on
any error, and under PEERHOOKS_GUARD=off. The work is in peerhooks.hook_edit_notice; a script is
compiled on every run, a module is not.

It runs before every file edit, and most are made alone: peerhooks.edit_alone decides that from
the payload's bytes and a listing of the registry before `os` or anything else is imported.
"""
import sys

NAME = "edit_notice"
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # one payload line, never gigabytes (as hookio)


def main(argv=None):
    try:
        raw = sys.stdin.buffer.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return 0
    cut = max(__file__.rfind("/"), __file__.rfind("\\"))  # this folder, without importing os (~1 ms)
    sys.path.insert(0, __file__[:cut] if cut > 0 else ".")
    try:
        from peerhooks import edit_alone
        if edit_alone.alone(raw):  # nobody else is live: decided before any other import or read
            return edit_alone.done(end_process=__name__ == "__main__")
        from peerhooks import pycache

        pycache.install()  # our modules from their bytecode, at half the import system's cost
        from peerhooks import hook_edit_notice, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_edit_notice.run, argv, raw=raw, end_process=__name__ == "__main__")


if __name__ == "__main__":
    raise SystemExit(main())

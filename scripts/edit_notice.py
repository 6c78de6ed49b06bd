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
"""
import os
import sys

NAME = "edit_notice"


def main(argv=None):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import hook_edit_notice, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_edit_notice.run, argv, end_process=__name__ == "__main__")


if __name__ == "__main__":
    raise SystemExit(main())

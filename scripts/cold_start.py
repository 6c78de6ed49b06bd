#!/usr/bin/env python3
"""SessionStart hook: show a new session what changed in this workspace since *this agent* last
started here, and nothing it has already seen.

The material is gathered as named sections (rules, memory index, handoff, recent commits, worktrees,
ended sessions, the user's own). On `startup` and `clear`, the sources that begin a fresh context,
only the sections whose fingerprint changed for this agent's partition of the state file are
printed; other sources get one reminder line. The partition key is `LI_PLUS_AGENT_KEY` (else
`default`), so two agents sharing a workspace each get every change instead of splitting them.
`--host codex` keeps the state under `.codex/state/` and watches the rule files Codex loads
(AGENTS.md, not CLAUDE.md); `--full [folder]` prints everything by hand and reads no payload. The
work is in peerhooks.hook_cold_start.
"""
import os
import sys

NAME = "cold_start"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import pycache

        pycache.install()  # our modules from their bytecode, at half the import system's cost
        from peerhooks import hook_cold_start, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_cold_start.run, argv, read_stdin=hook_cold_start.reads_payload(argv))


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""UserPromptSubmit hook: what peers wrote to memory and rule files since this session started.

Auto memory and rule files (`CLAUDE.md`, `.claude/rules/`) are read when a session starts, so a
long-lived session never sees the correction a peer wrote at noon. On the next prompt this lists
each file another session changed since this one started (or since this hook last ran for it),
once, with who wrote it and what it is about; deletions of memory notes too. On most prompts it
prints nothing, and then it costs a stat of each watched file and one small read of its stamp.

    memory_delta.py            reads the UserPromptSubmit payload on stdin
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from peerhooks import gitrepo, hookio, memory
    from peerhooks import home as homes
except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
    sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
    raise SystemExit(0)


def _text(payload, key):
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def run():
    payload = hookio.read_payload()
    session_id = payload.get("session_id")
    if not memory.is_safe_session_id(session_id):
        return hookio.EXIT_OK
    cwd = _text(payload, "cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    home, user_home = homes.claude_home(), os.path.expanduser("~")
    state_folder = homes.state_dir(home)
    checkout = gitrepo.toplevel(cwd)
    # Auto memory is keyed by the main working tree; a session outside git keys it by its folder.
    project_root = gitrepo.canonical_root(checkout) if checkout else os.path.realpath(cwd)
    memory_folder = homes.memory_dir(home, project_root)
    now_ms = int(time.time() * 1000)  # read before listing: anything written after it shows next time
    seen = memory.look(home, state_folder, session_id, memory_folder, checkout, now_ms)
    if memory.unchanged(seen):
        return hookio.EXIT_OK
    if seen.previous is None:
        memory.sweep_stamps(state_folder, home, now_ms)
    from peerhooks import memory_report

    text = memory_report.notice(seen, memory_report.Where(
        home, user_home, session_id, cwd, checkout, project_root, memory_folder,
        _text(payload, "transcript_path")))
    hookio.emit(text)
    # Recorded after printing: a notice lost on the way would otherwise never come again. What is
    # recorded is the listing taken before deciding, so a file written meanwhile shows next time.
    try:
        memory.write_stamp(seen.stamp_path, memory.Stamp(seen.listed_at_ms, seen.listing))
    except OSError as error:
        hookio.warn("peerhooks memory_delta: cannot record what was shown: %s" % error)
    return hookio.EXIT_OK


def main(argv=None):
    return hookio.run_hook("memory_delta", run)


if __name__ == "__main__":
    raise SystemExit(main())

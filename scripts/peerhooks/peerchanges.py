"""The files each session changed, as its transcript shows them: Write, Edit, MultiEdit,
NotebookEdit, and the files its Bash commands wrote (read by peerhooks.cmdline), its subagents'
transcripts (`<session>/subagents/agent-*.jsonl`) included. The guard judges adds, commits and
discards against them; scans are resumed through peerhooks.editindex.
"""
import os

from . import editindex, platform, transcripts
from .claude_formats import SUBAGENT_PREFIX, SUBAGENTS_FOLDER, TRANSCRIPT_SUFFIX

MAX_SUBAGENT_TRANSCRIPTS = 64  # newest first; a session with more subagents than this is not real


def subagent_transcripts(transcript):
    """The subagent transcripts of a session's transcript, newest first."""
    folder = os.path.join(transcript[:-len(TRANSCRIPT_SUFFIX)], SUBAGENTS_FOLDER)
    try:
        names = [n for n in os.listdir(folder)
                 if n.startswith(SUBAGENT_PREFIX) and n.endswith(TRANSCRIPT_SUFFIX)]
    except OSError:
        return []
    paths = [os.path.join(folder, n) for n in names]
    stamped = []
    for path in paths:
        try:
            stamped.append((os.stat(path).st_mtime, path))
        except OSError:
            pass
    return [p for _m, p in sorted(stamped, reverse=True)[:MAX_SUBAGENT_TRANSCRIPTS]]


def changes_of(claude, sessions, now_ms):
    """{session id: [realpath]} for [(session id, cwd)]: every file the session or its subagents
    changed within the transcripts' scanned tails."""
    owned = {}
    for session_id, cwd in sessions:
        main = transcripts.transcript_path(claude, session_id, cwd)
        if main:
            owned[session_id] = [main] + subagent_transcripts(main)
    scans = editindex.recent_edits_of(claude, [p for paths in owned.values() for p in paths], now_ms)
    changes = {}
    realpath = platform.current().paths.realpath
    for session_id, paths in owned.items():
        seen = []
        for path in paths:
            for edit in scans[path].edits if path in scans else ():
                real = realpath(edit.path)
                if real not in seen:
                    seen.append(real)
        changes[session_id] = seen
    return changes

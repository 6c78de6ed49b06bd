"""The files each party changed, as its transcripts show them: Write, Edit, MultiEdit,
NotebookEdit, and the files its Bash commands wrote (read by peerhooks.cmdline). Which transcripts
are a party's (a session's chain of ids across /clear, its subagents) is peerhooks.identity's to
say; scans are resumed through peerhooks.editindex.
"""
import os

from . import editindex, platform


def changes_of(claude, transcripts_of, now_ms):
    """{key: [realpath]} for {key: [transcript path]}: every file those transcripts changed within
    their scanned tails, newest first, each once."""
    wanted = [p for paths in transcripts_of.values() for p in paths if p]
    scans = editindex.recent_edits_of(claude, wanted, now_ms)
    changes, folders = {}, {}
    flavour = platform.current().paths  # `/`-joined on every platform, as the checkout's paths are
    for key, paths in transcripts_of.items():
        seen, order = set(), []
        for path in paths:
            for edit in scans[path].edits if path in scans else ():
                real = _realpath(edit.path, folders, flavour)
                if real not in seen:
                    seen.add(real)
                    order.append(real)
        changes[key] = order
    return changes


def _realpath(path, folders, paths):
    """A file's path with its folder resolved through symlinks, each folder once: a dozen peers'
    200 files lie in a few folders, and resolving each path component by component cost a judged
    line ~50 ms on the benchmark's large home."""
    folder, name = os.path.split(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = paths.realpath(folder)
    return paths.join(real, name)

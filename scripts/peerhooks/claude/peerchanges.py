"""The files each party changed, as its transcripts show them: Write, Edit, MultiEdit,
NotebookEdit, and the files its Bash commands wrote (read by peerhooks.shell.cmdline). Which transcripts
are a party's (a session's chain of ids across /clear, its subagents) is peerhooks.claude.identity's to
say; scans are resumed through peerhooks.claude.editindex.
"""

from . import editindex
from ..startup import oscalls
from .. import platform


def changes_of(claude, transcripts_of, now_ms):
    """{key: [realpath]} for {key: [transcript path]}: every file those transcripts changed within
    their scanned tails, newest first, each once."""
    return {key: list(latest) for key, latest in latest_changes_of(claude, transcripts_of, now_ms).items()}


def latest_changes_of(claude, transcripts_of, now_ms, only=None):
    """{key: {realpath: ms of its latest change, or None}} for {key: [transcript path]}, in the
    order changes_of gives (a transcript's newest first, its transcripts in the order given).
    only: the realpaths asked about (the edit notice asks about one file, not a dozen peers' 200):
    an edit is resolved only when its file name is one of theirs."""
    wanted = [p for paths in transcripts_of.values() for p in paths if p]
    scans = editindex.recent_edits_of(claude, wanted, now_ms)
    # a file's name after either separator: a transcript may spell a Windows path with either
    names = tuple({sep + oscalls.path.basename(p) for p in only for sep in "/\\"}) if only is not None else None
    changes, folders, real_of = {}, {}, {}  # real_of: peers of one checkout name the same files
    flavour = platform.current().paths  # `/`-joined on every platform, as the checkout's paths are
    for key, paths in transcripts_of.items():
        latest = {}
        for path in paths:
            for edit in scans[path].edits if path in scans else ():
                if names is not None and not edit.path.endswith(names):
                    continue
                real = real_of.get(edit.path)
                if real is None:
                    real = real_of[edit.path] = resolved(edit.path, folders, flavour)
                if only is not None and real not in only:
                    continue
                if real not in latest:
                    latest[real] = edit.at_ms
                elif edit.at_ms is not None and (latest[real] is None or edit.at_ms > latest[real]):
                    latest[real] = edit.at_ms
        changes[key] = latest
    return changes


def resolved(path, folders, paths):
    """A file's path with its folder resolved through symlinks, each folder once (folders: the
    cache, {folder: realpath}; paths: the platform's flavour; the file itself need not exist): a
    dozen peers' 200 files lie in a few folders, and resolving each path component by component
    cost a judged line ~50 ms on the benchmark's large home. The edit notice resolves the files a
    call writes through it too, so that both sides compare equal."""
    folder, name = oscalls.path.split(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = paths.realpath(folder)
    return paths.join(real, name)

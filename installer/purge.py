"""What peerhooks leaves on disk besides the wiring, and `--uninstall --purge`, which removes it.

An uninstall takes the hooks out of a settings file; what the hooks and install.py wrote stays:

- `<Claude home>/peerhooks/`: the hooks' own state (indexes of history and transcripts, session names,
  rosters, memory and edit-notice stamps, rule copies, the guard's patches) and install.py's
  backups and install records; `$CODEX_HOME/peerhooks/` holds the backups of Codex hooks files;
- `<workspace>/.claude/state/` (`.codex/state/` under Codex), in every workspace where a session
  started: the cold-start state file, its lock, the list of files it read, quarantined copies of
  an unreadable one, temporary files of a killed write, and the `.gitignore` that keeps them out of
  git.

Only what is peerhooks' is removed: the two `peerhooks` folders (whose names are ours) with
everything in them but a symlink, and in a workspace's state folder only the files the cold start
names (and the `.gitignore` when it holds exactly the text the cold start wrote). No link is
followed: a `peerhooks`, `.claude` or `state` that is a link is left, and so is a link inside.

Workspaces are found where Claude Code's own records name them: each transcript's `cwd` and each
`project` in history.jsonl, and the folder install.py runs in; a state folder sits at the workspace
root (the git checkout, else the start folder), so each named folder and its parents are looked at.
Codex's session records are not read.
"""
import json
import os
import re
from dataclasses import dataclass, field
from typing import List, Tuple

from peerhooks.claude.home import STATE_FOLDER  # the hooks' own folder names: decided in the library
from peerhooks.cold_start.quiet import HOST_FOLDERS, INPUTS_FILENAME, STATE_FILENAME, state_path
from peerhooks.cold_start.state import GITIGNORE_TEXT

OUR_STATE_FILES = (STATE_FILENAME, INPUTS_FILENAME)  # and their .lock, .corrupt-…, .<name>.<pid>.<hex>.tmp
GITIGNORE = ".gitignore"
TRANSCRIPT_HEAD_BYTES = 64 * 1024  # a transcript's cwd is on its first records
_PROJECT = re.compile(r'"project"\s*:\s*("(?:[^"\\]|\\.)*")')


@dataclass
class Leftovers:
    """What peerhooks left: folders to remove whole, state files per workspace folder, and what is
    left alone because it is a link."""

    folders: List[str] = field(default_factory=list)  # `<home>/peerhooks`
    state_files: List[Tuple[str, Tuple[str, ...]]] = field(default_factory=list)  # (state folder, names)
    links: List[str] = field(default_factory=list)  # each with why it stays

    def __bool__(self):
        return bool(self.folders or self.state_files)


def find(homes, workspace_folders):
    """The leftovers under the client homes and in the state folders of the workspaces at or above
    workspace_folders. Reads only."""
    found = Leftovers()
    for home in homes:
        folder = os.path.join(home, STATE_FOLDER)
        if os.path.islink(folder):
            found.links.append("%s (a symlink, which is not peerhooks')" % folder)
        elif os.path.isdir(folder):
            found.folders.append(folder)
    seen = set()
    for start in sorted(workspace_folders):
        for root in _self_and_parents(start):
            for host in sorted(HOST_FOLDERS):
                state = os.path.dirname(state_path(root, host))
                if state in seen:
                    continue
                seen.add(state)
                names = _our_state_files(state, found)
                if names:
                    found.state_files.append((state, names))
    return found


def _self_and_parents(folder):
    folder = os.path.abspath(folder)
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def _our_state_files(state, found):
    """The names of the cold start's files in a workspace's state folder; none when the folder or the
    one holding it is a link (never written through by the hooks, so not ours)."""
    try:
        entries = sorted(os.scandir(state), key=lambda e: e.name)
    except OSError:
        return ()
    names = []
    for entry in entries:
        if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
            continue
        bare = entry.name[1:] if entry.name.startswith(".") else entry.name
        if bare.startswith(OUR_STATE_FILES) or (entry.name == GITIGNORE and _holds(entry.path, GITIGNORE_TEXT)):
            names.append(entry.name)
    if names and (os.path.islink(state) or os.path.islink(os.path.dirname(state))):
        found.links.append("%s (a symlink or under one: the hooks never write through one, so it is not "
                           "peerhooks')" % state)
        return ()
    return tuple(names)


def _holds(path, text):
    try:
        with open(path, "rb") as handle:
            return handle.read(len(text) + 1) == text.encode("utf-8")
    except OSError:
        return False


def known_workspaces(claude_home):
    """The folders Claude Code's records say sessions ran in: transcripts' cwd, history's project."""
    folders = set()
    projects = os.path.join(claude_home, "projects")
    for project in _listdir(projects):
        for name in _listdir(os.path.join(projects, project)):
            if name.endswith(".jsonl"):
                cwd = _first_cwd(os.path.join(projects, project, name))
                if cwd:
                    folders.add(cwd)
    try:
        with open(os.path.join(claude_home, "history.jsonl"), encoding="utf-8", errors="replace") as handle:
            for line in handle:
                found = _PROJECT.search(line)
                if found:
                    try:
                        folders.add(json.loads(found.group(1)))
                    except ValueError:
                        pass
    except OSError:
        pass
    return {folder for folder in folders if isinstance(folder, str) and os.path.isabs(folder)}


def _first_cwd(path):
    try:
        with open(path, "rb") as handle:
            head = handle.read(TRANSCRIPT_HEAD_BYTES)
    except OSError:
        return None
    for line in head.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("cwd"), str):
            return record["cwd"]
    return None


def _listdir(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def count_files(folder):
    """How many files a folder holds, all levels down (links to folders are not entered)."""
    total = 0
    for _, _, names in os.walk(folder):
        total += len(names)
    return total


def plan(found, out):
    """Say what remove() would remove, and what it would leave."""
    for folder in found.folders:
        files = count_files(folder)
        out.write("  would remove %s%s (%d file%s)\n" % (folder, os.sep, files, "" if files == 1 else "s"))
    for state, names in found.state_files:
        out.write("  would remove %s from %s%s\n" % (", ".join(names), state, os.sep))
    for path in found.links:
        out.write("  would leave  %s\n" % path)


def remove(found, out):
    """Remove the leftovers and say what went and what stayed; returns what could not be removed."""
    left, failed = list(found.links), []
    for folder in found.folders:
        removed, links, errors = _remove_tree(folder)
        left, failed = left + links, failed + errors
        out.write("  removed %s%s (%d file%s)%s\n" % (folder, os.sep, removed, "" if removed == 1 else "s",
                                                     "" if not (links or errors) else "; what is listed below stays"))
    for state, names in found.state_files:
        gone = []
        for name in names:
            try:
                os.remove(os.path.join(state, name))
                gone.append(name)
            except OSError as error:
                failed.append("%s (%s)" % (os.path.join(state, name), error.strerror or error))
        if not gone:
            continue
        emptied = []
        for folder in (state, os.path.dirname(state)):  # state/, then .claude/ when nothing else is in it
            if not _remove_if_empty(folder):
                break
            emptied.append(folder)
        out.write("  removed %s from %s%s%s\n" % (", ".join(gone), state, os.sep, "" if not emptied else
                                                   " (and the folders it emptied: %s)" % ", ".join(emptied)))
    for path in left + failed:
        out.write("  left    %s\n" % path)
    return failed


def _remove_tree(folder):
    """Remove a folder of ours and everything in it but symlinks (never followed): (files removed,
    links left, what could not be removed), each with why."""
    removed, links, errors = 0, [], []
    try:
        entries = list(os.scandir(folder))
    except OSError as error:
        return 0, [], ["%s (%s)" % (folder, error.strerror or error)]
    for entry in entries:
        if entry.is_symlink():
            links.append("%s (a symlink, which is not peerhooks')" % entry.path)
        elif entry.is_dir(follow_symlinks=False):
            more, more_links, more_errors = _remove_tree(entry.path)
            removed, links, errors = removed + more, links + more_links, errors + more_errors
        else:
            try:
                os.remove(entry.path)
                removed += 1
            except OSError as error:
                errors.append("%s (%s)" % (entry.path, error.strerror or error))
    if not (links or errors):
        _remove_if_empty(folder)
    return removed, links, errors


def _remove_if_empty(folder):
    try:
        os.rmdir(folder)
        return True
    except OSError:
        return False


def summary(found):
    """What an uninstall leaves, in one sentence, for a plain --uninstall."""
    parts = []
    for folder in found.folders:
        files = count_files(folder)
        parts.append("%s%s (%d file%s: the hooks' state and install.py's backups)"
                     % (folder, os.sep, files, "" if files == 1 else "s"))
    if found.state_files:
        shown = [state + os.sep for state, _ in found.state_files[:3]]
        more = len(found.state_files) - len(shown)
        parts.append("the cold-start state in %s%s" % (", ".join(shown), " and %d more" % more if more else ""))
    return "What stays: %s." % " and ".join(parts)

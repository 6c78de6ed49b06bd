"""All the cold-start sections of a workspace, and the paths whose change could change them.

`gather` calls each gatherer (files, commits, ended, then the user's own from user); `input_paths`
lists what they read, for the quiet path (quiet). The decisions on the sections are in sections.
"""
import os
from typing import NamedTuple, Optional, Tuple

from ..claude.formats import HANDOFF_NAME, MEMORY_INDEX, PROJECTS_FOLDER, SETTINGS_FILE, rule_tree
from .ended import gather_ended_sessions, session_inputs
from .files import gather_handoff, gather_memory_index, gather_rules, rule_places
from .commits import gather_recent_commits, gather_worktrees, git_inputs
from .sections import Section
from .user import CONFIG_PATH, gather_user_config_paths, gather_user_sections
from ..claude.home import checkout_memory_dir


class Workspace(NamedTuple):
    """Where a start happens, resolved by the front door."""
    root: str  # workspace root: rules, handoff and the user config live here
    toplevel: Optional[str]  # git checkout of the workspace, None outside one
    home: str  # the Claude home
    now_ms: int = 0  # only bounds the ended-sessions window; never enters a body
    session_id: Optional[str] = None  # this session, never listed as ended
    codex_home: Optional[str] = None  # set under Codex: its rule files replace Claude Code's
    start: Optional[str] = None  # the folder the session started in (the root, or below it)


class Gathered(NamedTuple):
    sections: Tuple[Section, ...]
    problems: Tuple[str, ...]  # one line each, for stderr
    valid_until_ms: Optional[int] = None  # when the bodies change by the clock alone (the window)


GATHERERS = ("rules", "memory_index", "handoff", "recent_commits", "worktrees", "ended_sessions")


def gather(workspace):
    """Every section in display order: the rule files, the other built-in ones, then the user's
    own. A gatherer that fails costs its own section and one problem line, never the others."""
    memory = checkout_memory_dir(workspace.home, workspace.root, workspace.toplevel)
    run = {
        "rules": lambda: gather_rules(workspace.root, workspace.home, workspace.codex_home, workspace.start),
        "memory_index": lambda: [gather_memory_index(memory)],
        "handoff": lambda: [gather_handoff(workspace, memory)],
        "recent_commits": lambda: [gather_recent_commits(workspace.toplevel, workspace.home)],
        "worktrees": lambda: [gather_worktrees(workspace.toplevel)],
        "ended_sessions": lambda: [gather_ended_sessions(workspace)],
    }
    found, problems, expiry = [], [], []
    for name in GATHERERS:
        try:
            produced = run[name]()
        except (OSError, ValueError, RecursionError, UnicodeError) as error:
            problems.append("section %s not gathered (%s: %s)" % (name, type(error).__name__, error))
            continue
        for item in produced:
            if isinstance(item, Section):
                found.append(item)
            else:
                found.append(item[0])
                if item[1] is not None:
                    expiry.append(item[1])
    users, problem = gather_user_sections(workspace.root)
    if problem:
        problems.append(problem)
    return Gathered(tuple(found) + tuple(users), tuple(problems), min(expiry) if expiry else None)


def input_paths(workspace):
    """Every file and folder whose change could change a section, listed before gathering (the
    quiet path compares their tokens at the next start; see quiet). A folder stands for the
    entries it holds; missing paths are listed too, so that their creation counts."""
    root, home, top = workspace.root, workspace.home, workspace.toplevel
    paths = [os.path.join(root, HANDOFF_NAME), os.path.join(root, CONFIG_PATH)]
    for file, folder in rule_places(root, home, workspace.codex_home, workspace.start):
        if file:
            paths.append(file)
        else:
            folders, files = rule_tree(folder)
            paths += [folder] + folders + files
    projects = os.path.join(home, PROJECTS_FOLDER)
    paths += [os.path.join(home, SETTINGS_FILE), projects]
    memory = checkout_memory_dir(home, root, top)
    if memory:
        paths += [memory, os.path.join(memory, MEMORY_INDEX), os.path.join(memory, HANDOFF_NAME)]
    users, _ = gather_user_config_paths(root)
    paths += users
    if top:
        paths += [os.path.join(top, HANDOFF_NAME)] + git_inputs(top) + session_inputs(home, top)
    return paths

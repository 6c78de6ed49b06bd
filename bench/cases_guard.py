"""git_index_guard.py: a command without git (target 1.15x) and a refused-shape git command with 12
live peers on the large home (target 2x), plus informational cases that read transcripts or git."""
import json
import os
import sys

from benchlib import Case

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts",
                      "git_index_guard.py")
NO_GIT_TARGET = 1.15  # issue 3: runs before every shell command, so no more than start-up
REFUSED_TARGET = 2.0  # issue 3: a refused-shape git command with 12 live peers


def _payload(home, command):
    return (json.dumps({"session_id": home.session_id, "cwd": home.repo, "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": {"command": command, "description": "x"},
                        "tool_use_id": "toolu_bench"}) + "\n").encode()


def _case(name, home, command, target):
    return Case(name, [sys.executable, SCRIPT], _payload(home, command), home.env, home.repo, target)


def cases(homes):
    return [
        _case("guard: command without git", homes.large, "ls -la && npm test 2>&1 | tail -20",
              NO_GIT_TARGET),
        _case("guard: git add -A, 12 live peers (refused)", homes.large, "git add -A", REFUSED_TARGET),
        _case("guard: git status, 12 live peers (allowed)", homes.large, "git status", None),
        _case("guard: git add src, 12 peers' 50 MB transcripts read", homes.large, "git add src", None),
        _case("guard: git commit -m x, 12 peers + index read", homes.large, "git commit -m x", None),
    ]

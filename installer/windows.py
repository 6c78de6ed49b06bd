"""Claude Code on Windows, as `install.py --check` needs it: which shell will run the hooks, and what
that shell does to them (fixtures/samples/platforms/README.md, "Hooks on Windows", read from the
win32 build of 2.1.332).

- Git Bash, found as the client finds it, runs the hooks, and the Bash tool exists: the guard sees
  the commands the model runs.
- Without Git Bash the client has no Bash tool ("Git Bash not found; BashTool will be unavailable"):
  the guard, a PreToolUse hook on `Bash`, never runs, and git run through the PowerShell tool is not
  judged. Hooks then run in PowerShell, where a hook in shell form is parsed as PowerShell (a line
  that starts with a quoted path is an expression: no program starts) and a PreToolUse one is in
  "noBash" mode (any exit code but 0 or 2 blocks the tool). Exec form, which install.py writes there,
  has neither problem.
"""
import ntpath
import os
import shutil

GIT_BASH_VARIABLE = "CLAUDE_CODE_GIT_BASH_PATH"
GIT_BASH_NAMES = ("bash.exe", "sh.exe", "bash", "sh")  # what the client accepts in the variable
GIT_BASH_PLACES = ("C:\\Program Files\\Git\\bin\\bash.exe", "C:\\Program Files (x86)\\Git\\bin\\bash.exe")
STORE_STAND_IN_EXIT = 9009  # WindowsApps\python3.exe without the Store's Python: "Python was not found"


def git_bash(environ, exists=os.path.isfile, which=shutil.which):
    """The bash.exe Claude Code would run hooks with, found in its order: CLAUDE_CODE_GIT_BASH_PATH (a
    bash or sh that exists), the two Program Files places, then `<git on PATH>\\..\\..\\bin\\bash.exe`;
    None when there is none."""
    configured = environ.get(GIT_BASH_VARIABLE)
    if configured and ntpath.basename(configured).lower() in GIT_BASH_NAMES and exists(configured):
        return configured
    for place in GIT_BASH_PLACES:
        if exists(place):
            return place
    git = which("git", path=environ.get("PATH"))
    if git:
        beside = ntpath.join(ntpath.dirname(ntpath.dirname(git)), "bin", "bash.exe")  # Git\cmd\git.exe
        if exists(beside):
            return beside
    return None


def shell_report(found, bash):
    """(notes, problems) about the shell Claude Code runs our registered hooks in."""
    if bash:
        return ["hooks run in Git Bash (%s); the guard sees the commands of the Bash tool" % bash], []
    problems = ["Git Bash was not found (%s, %s): Claude Code then has no Bash tool, so "
                "git_index_guard.py (a PreToolUse hook on Bash) never runs and git run through the "
                "PowerShell tool is not judged; install Git for Windows or set %s"
                % (GIT_BASH_VARIABLE, " or ".join(GIT_BASH_PLACES), GIT_BASH_VARIABLE)]
    for registration in found:
        if not registration.exec_form:
            problems.append("%s for %s in %s is a shell command, which PowerShell runs without Git Bash (a "
                            "line starting with a quoted path starts no program there, and a PreToolUse hook "
                            "blocks on any exit but 0 or 2): run install.py again, which writes it in exec "
                            "form" % (registration.script, registration.event, registration.where))
    return [], problems

"""The files a file-editing tool call is about to write, from its PreToolUse payload. Pure.

Claude Code's edit tools name one absolute path (`file_path`, NotebookEdit's `notebook_path`:
claude_formats.edit_target). Codex 0.171 edits files with `apply_patch`, whose PreToolUse payload
carries `tool_name: "apply_patch"` and the whole patch as `tool_input.command`
(fixtures/samples/codex-0.171/hook-PreToolUse-apply_patch.json); each file it touches is named on a
header line of its own, relative to the session's folder. Bash lines that write files are left to
the git guard's interpreter, not read here.
"""

from .. import platform
from ..claude.formats import EDIT_TOOLS, edit_target

APPLY_PATCH_TOOL = "apply_patch"  # Codex's file-editing tool, as its PreToolUse payload names it
# The header lines of Codex's patch grammar that name a file (the tool's lark grammar, sent to the
# model with the tool): one per added, deleted or updated file, and the new name of a moved one.
PATCH_FILE_HEADERS = ("*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Move to: ")
MAX_TARGETS = 64  # files one call names; a patch touching more is a bulk rewrite, judged by its first


def patch_paths(patch):
    """The paths a patch's header lines name, in order, each once (as written: relative or not)."""
    found = []
    for line in patch.splitlines():
        if not line.startswith("*** "):
            continue
        for header in PATCH_FILE_HEADERS:
            if line.startswith(header):
                path = line[len(header):].strip()
                if path and path not in found:
                    found.append(path)
                break
        if len(found) >= MAX_TARGETS:
            break
    return found


def targets(tool_name, tool_input, cwd, paths=None):
    """Absolute, normalised local paths of the files this call writes ([] for any other tool, or
    when a relative path has no folder to stand in). cwd: local; paths: the platform's path
    flavour (peerhooks.platform), which reads a path as the client wrote it."""
    if not isinstance(tool_input, dict):
        return []
    if tool_name in EDIT_TOOLS:
        one = edit_target(tool_input)
        named = [one] if one else []
    elif tool_name == APPLY_PATCH_TOOL and isinstance(tool_input.get("command"), str):
        named = patch_paths(tool_input["command"])
    else:
        return []
    if paths is None:
        paths = platform.current().paths
    found = []
    for written in named:
        path = paths.resolve(written, cwd)
        if path is not None and path not in found:
            found.append(path)
    return found

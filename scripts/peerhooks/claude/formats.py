"""Claude Code's file formats and names, each written once: what its files are called, where they lie,
which tools and record types matter, the short-id rule, and the limits our readers apply to them.

Every other module imports these rather than spelling a fact again: a second list of edit tools is
the bug waiting for the next client version (one copy lacked NotebookEdit). Each fact says where it
was seen: "samples" are the files the real CLI wrote in fixtures/samples (2.1.197) and
fixtures/samples/2.1.332; "docs" is Claude Code's documentation (see docs/reading.md, docs/clients.md).
Imported on every hook's quiet path, so it loads nothing but `os`.
"""

from ..startup import oscalls

DAY_MS = 86400 * 1000  # registry times (startedAt, updatedAt) and history's timestamp are epoch ms: samples

# --- Files under the Claude home ------------------------------------------------------------------
REGISTRY_FOLDER = "sessions"  # sessions/<pid>.json, one per live session, swept by the CLI: samples
REGISTRY_SUFFIX = ".json"  # `<pid>.json`: samples; legacy `pid-<n>.json` files are ignored on purpose
MAX_REGISTRY_BYTES = 64 * 1024  # ours: an entry is ~400 bytes (samples); anything huge is not one
HISTORY_FILE = "history.jsonl"  # one line per typed prompt, appended, never pruned: samples
PROJECTS_FOLDER = "projects"  # projects/<slug>/<session id>.jsonl, the transcripts: samples
TRANSCRIPT_SUFFIX = ".jsonl"
SUBAGENTS_FOLDER = "subagents"  # projects/<slug>/<session id>/subagents/agent-<id>.jsonl: samples
SUBAGENT_PREFIX = "agent-"
MEMORY_FOLDER = "memory"  # projects/<slug of the canonical git root>/memory, auto memory: samples
MEMORY_INDEX = "MEMORY.md"  # the index the CLI loads itself (samples/2.1.332); the notes are the other *.md
SETTINGS_FILE = "settings.json"  # the user's settings; its autoMemoryDirectory moves the memory folder: docs
# Not Claude Code's own: the file a person or a session leaves for the next one (the convention of
# the tools peerhooks replaces), looked for at the repo root and in the memory folder.
HANDOFF_NAME = "HANDOFF.md"


def is_safe_session_id(session_id):
    """A session id usable as a file name (Claude Code's are UUIDs)."""
    return (isinstance(session_id, str) and 0 < len(session_id) <= 128 and not session_id.startswith(".")
            and all(c.isascii() and (c.isalnum() or c in "-_.") for c in session_id))


def is_registry_name(name):
    """`<digits>.json`, the name of a registry entry (digits as `re`'s \\d reads them), checked
    without `re`, whose import costs a hook ~6 ms under -S."""
    return name.endswith(REGISTRY_SUFFIX) and name[:-len(REGISTRY_SUFFIX)].isdecimal()


# --- Sessions ------------------------------------------------------------------------------------
PRINT_ENTRYPOINT = "sdk-cli"  # the registry's and a transcript's `entrypoint` of `claude -p`: samples
SDK_ENTRYPOINTS = ("sdk-py", "sdk-ts")  # sessions the Agent SDKs start: docs
# Set in every hook's environment to the session's entrypoint (`cli`, `sdk-cli`): samples, both
# versions. Known at SessionStart, when the registry entry may not be written yet.
ENTRYPOINT_VARIABLE = "CLAUDE_CODE_ENTRYPOINT"
# Set in a hook's environment by a client whose session can send and receive SendMessage (2.1.332,
# interactive and -p; absent in 2.1.197): samples. Known before the session's registry entry is,
# which 2.1.197 and 2.1.332 at times write only after SessionStart has run.
MESSAGING_SOCKET_VARIABLE = "CLAUDE_CODE_MESSAGING_SOCKET"
SCRATCH_FOLDER = "scratchpad"  # the folder name of a session's scratch files (not yet seen in samples)


# --- Rule files every session loads at start: docs; 2.1.197 and 2.1.332 announce edits to these ---
# (see memory_delta.report.announced_by_the_client)
RULE_FILES = ("CLAUDE.md", "CLAUDE.local.md", oscalls.path.join(".claude", "CLAUDE.md"))  # under a checkout
RULE_FOLDERS = (oscalls.path.join(".claude", "rules"),)  # under a checkout, searched for **/*.md
HOME_RULE_FILES = ("CLAUDE.md",)  # under the Claude home
HOME_RULE_FOLDERS = ("rules",)
MAX_RULE_DEPTH = 8  # ours: rules/**/*.md deep enough for any real layout, bounded against odd trees


def rule_places(workspace_root, home):
    """[(file or None, folder or None)] in load order: the rule files every Claude Code session
    loads, and the folders whose **/*.md it loads. A base that is None adds nothing."""
    places = []
    for base, files, folders in ((workspace_root, RULE_FILES, RULE_FOLDERS),
                                 (home, HOME_RULE_FILES, HOME_RULE_FOLDERS)):
        if base:
            places += [(oscalls.path.join(base, name), None) for name in files]
            places += [(None, oscalls.path.join(base, name)) for name in folders]
    return places


def rule_tree(folder):
    """(folders, markdown files) of a rule folder: the folder and its subfolders (whose mtimes move
    when a file comes or goes), and every *.md below it sorted by relative path. Symlinked folders
    are not entered and the walk stops MAX_RULE_DEPTH folders down; callers check each file is a
    regular one."""
    folders, files = [], []
    _walk_rules(folder, "", 1, folders, files)
    files.sort(key=lambda pair: pair[0])
    return folders, [path for _relative, path in files]


def _walk_rules(folder, relative, depth, folders, files):
    try:
        entries = sorted(oscalls.scandir(folder), key=lambda entry: entry.name)
    except (OSError, ValueError):
        return
    folders.append(folder)
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if depth < MAX_RULE_DEPTH:
                    _walk_rules(entry.path, oscalls.path.join(relative, entry.name), depth + 1, folders, files)
                continue
        except OSError:
            continue
        if entry.name.endswith(".md"):
            files.append((oscalls.path.join(relative, entry.name), entry.path))


# --- Transcript records (projects/<slug>/<session>.jsonl) ----------------------------------------
# The tools that write a file, named in an assistant record's tool_use blocks with the path in
# input.file_path (Write, Edit: samples; MultiEdit, and NotebookEdit's input.notebook_path: docs).
EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
BASH_TOOL = "Bash"  # input.command, a shell command line: samples
# A request's messages written again, tool calls included (samples/2.1.332, not in 2.1.197): never
# read as what a session did.
REPEAT_RECORD_TYPE = "api-request-blob"
# Ours: records under this are parsed whole; larger ones are Writes carrying a file, or tool output,
# read at their head and end only (a Write record holds the whole file: many MB).
PARSE_LINE_LIMIT = 256 * 1024
# How a session's end shows in its transcript (samples: an `/exit`, a `/clear` and the end of a `-p`
# run on each version). 2.1.332 writes `cost-state` records as a session id ends, and their
# startTime + totalDuration is that moment (within 40 ms of the `/exit` in history.jsonl, and the
# next id's startTime after a `/clear`); 2.1.197 writes a typed `/exit` as a user record
# `<command-name>/exit</command-name>…`, and nothing at the other ends. The process's exit itself is
# recorded nowhere, and a process killed writes nothing more: its transcript stops at its last
# ordinary record (and its registry file stays behind).
END_RECORD_TYPE = "cost-state"
END_RECORDS_SINCE = (2, 1, 332)  # the first version seen writing END_RECORD_TYPE at every end
EXIT_COMMAND_MARKS = ("<command-name>/exit</command-name>", "<command-name>/quit</command-name>")
# Records a session writes about itself, not what it did: they may follow its last turn.
LOCAL_COMMAND_MARKS = ("<command-name>", "<local-command-")


def tool_uses(record):
    """(name, input) of each tool_use block of a decoded `assistant` record, in order."""
    if not isinstance(record, dict) or record.get("type") != "assistant":
        return
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    for item in content:
        if isinstance(item, dict) and item.get("type") == "tool_use":
            name, tool_input = item.get("name"), item.get("input")
            if isinstance(name, str) and isinstance(tool_input, dict):
                yield name, tool_input


def edit_target(tool_input):
    """The file an edit tool's input names (file_path, or NotebookEdit's notebook_path), or None."""
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    return path if isinstance(path, str) and path else None


# --- Session ids --------------------------------------------------------------------------------
SHORT_ID_CHARS = 8  # ours: a session id's (a UUID's) first group, for a session nothing names


def short_id(session_id):
    """The short form of a session id, for a session shown without a registry name."""
    return session_id[:SHORT_ID_CHARS]

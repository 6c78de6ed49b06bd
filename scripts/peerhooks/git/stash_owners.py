"""Which session pushed each stash entry. Pure.

Why: the stash is shared by every worktree of a repository, and sessions pop and drop each other's
entries (ShaftHQ/SHAFT_ENGINE #4130, gsd-build/get-shit-done #3542): the guard treated every entry
as anyone's, and let a pop run after a push in the same line even when the push had nothing to save
and the pop took a peer's entry. An entry is matched to the `git stash` push a session's transcript
shows: by its message first (`git stash push -m <m>` makes the subject `On <branch>: <m>`), else by
time (the tool call is recorded as the model makes it; git stamps the entry a moment later).
"""
from ..shell import cmdline
from ..shell.lexer import TooLarge
from ..startup.records import record
from .args import GIT_VALUE_OPTIONS

SELF = "\0this session"  # the owner when the entry is this session's own
# created - called, in ms: git runs the push within seconds of the call being recorded (a slow hook
# or a long pre-stash command allowed for); never before it.
PUSH_WINDOW_MS = (-5 * 1000, 5 * 60 * 1000)

Push = record("Push", "owner at_ms message", (None,), """One `git stash` push a transcript shows: whose
    (a party's name, or SELF), when the call was made, and its message (None when it gave none).""")


def stash_pushes(command, cwd):
    """[message or None] of each `git stash` push in a Bash command line (a transcript's), in order:
    the line's -m/--message, or save's words. Pure: the line is only read."""
    try:
        runs = cmdline.commands(command, cwd)
    except TooLarge:
        return []
    pushes = [_stash_push(run) for run in runs]
    return [_push_message(verb, rest) for verb, rest in (p for p in pushes if p is not None)]


def _stash_push(run):
    """(verb, the words after it) of a `git stash` push or save, or None for any other command."""
    words = [w.value for w in run.args]
    while words and words[0].startswith("-"):
        words = words[2:] if words[0] in GIT_VALUE_OPTIONS else words[1:]
    if run.name != "git" or not words or words[0] != "stash":
        return None
    verb = words[1] if len(words) > 1 and not words[1].startswith("-") else "push"
    if verb not in ("push", "save"):
        return None
    return verb, words[2:] if len(words) > 1 and words[1] == verb else words[1:]


def _push_message(verb, rest):
    """A push's -m/--message (the last one given), or save's words; None without one."""
    message = None
    for index, word in enumerate(rest):
        if word in ("-m", "--message") and index + 1 < len(rest):
            message = rest[index + 1]
        elif word.startswith("--message="):
            message = word.partition("=")[2]
    if verb == "save" and message is None:
        message = " ".join(w for w in rest if not w.startswith("-")) or None
    return message


def owners(entries, pushes):
    """{stash ref: owner or None} for the entries (gitstate.StashEntry), each push matched to one
    entry at most: by message where the push gave one, else the nearest push in time."""
    found, used = {}, set()
    for entry in entries:
        created_ms = entry.created_s * 1000 if entry.created_s is not None else None
        subject = entry.subject or ""
        named = [i for i, p in enumerate(pushes) if i not in used and p.message
                 and (subject.endswith(": " + p.message) or subject == p.message)]
        timed = [i for i, p in enumerate(pushes) if i not in used and created_ms is not None and p.at_ms is not None
                 and PUSH_WINDOW_MS[0] <= created_ms - p.at_ms <= PUSH_WINDOW_MS[1]
                 and (not p.message or subject.endswith(": " + p.message))]
        choice = _nearest(named or timed, pushes, created_ms)
        if choice is not None:
            used.add(choice)
            found[entry.ref] = pushes[choice].owner
        else:
            found[entry.ref] = None
    return found


def _nearest(candidates, pushes, created_ms):
    if not candidates:
        return None
    if created_ms is None:
        return candidates[0]
    return min(candidates, key=lambda i: abs(created_ms - (pushes[i].at_ms or 0)))

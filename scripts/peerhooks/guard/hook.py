"""git_index_guard.py's run: the line read by the shared interpreter (what its wrappers run
included), and judged only when it runs git or writes a file in a checkout. A line that does
neither (`npm test` whose script runs none) is let through after the interpreter alone: the
classifier, the registry, the stakes and the verdict are peerhooks.guard.judge, imported only for
a line that needs them.

The decisions are pure (peerhooks.git.classify classifies, peerhooks.git.reach and peerhooks.guard.verdict
judge, peerhooks.guard.narrow suggests, peerhooks.guard.reason words); the reading is
peerhooks.guard.stakes and peerhooks.git.checkout_lookup; scripts/git_index_guard.py is the front
door, kept tiny because a script is compiled on every run.

The human's escape, set in the environment the client is launched with (a hook never sees an
assignment made inside the command line): PEERHOOKS_GUARD=off turns the guard off for that
session, PEERHOOKS_GUARD=warn lets every command run and tells the model what it would have refused.
"""

import time

from ..shell import cmdline
from ..git import gitrepo
from .. import hookio, platform, wrappers
from ..startup import oscalls
from ..claude.formats import BASH_TOOL
from ..startup.records import record
from ..shell.chains import READERS
from ..shell.lexer import TooLarge
from ..shell.writes import targets_of

MODE_VARIABLE = hookio.OFF_SWITCH
MODE_OFF = hookio.OFF_VALUES
MODE_WARN = "warn"

Read = record("Read", "payload cwd context runs writes", ((), ()), """A line as the hook read it: the
    payload, the folder it starts in (a realpath, or None), the context its commands were read in
    (cmdline.Context), its shell commands and [(path, is_pattern, command)] of the files they write
    in a checkout (none read for a line too large to read).""")


def run(payload, argv, environ, now):
    """The decision on one Bash command: silence, or a deny / ask / refusal naming the peers."""
    command = payload.command
    if payload.tool_name != BASH_TOOL or command is None:
        return hookio.QUIET
    mode = environ.get(MODE_VARIABLE, "").strip().lower()
    if mode in MODE_OFF:
        return hookio.QUIET
    host, warn_only = hookio.host(argv), mode == MODE_WARN
    paths = platform.current().paths
    cwd = payload.cwd
    cwd = paths.realpath(cwd) if cwd and oscalls.path.isabs(cwd) and oscalls.path.isdir(cwd) else None
    context = cmdline.Context(home=platform.shell_home(environ), toplevel=gitrepo.toplevel, glob=_glob,
                              follow=wrappers.follower_for(command), paths=paths, code_writes=wrappers.code_writes,
                              spent=_clock_past(READ_SECONDS))
    try:
        runs = cmdline.commands(command, cwd, context)
        writes = _writes_in_checkouts(runs, context)
    except TooLarge as error:
        from . import judge  # seam: (as below) a line too large to read is judged with the stakes alone
        return judge.too_large(Read(payload, cwd, context), error, environ, now, host, warn_only)
    if not writes and not any(run.name == "git" or run.marker for run in runs):
        return hookio.QUIET  # no git and no file written in a checkout, wrappers followed
    from . import judge  # seam: no git and no write in a checkout: no classifier, no stakes (19 modules, ~5 ms)
    return judge.line(Read(payload, cwd, context, runs, writes), environ, now, host, warn_only)


# The time the line's reading (wrappers followed) may take: far more than any line a session writes
# needs (milliseconds), and far enough below the client's 5 s that the line is still put to the human
# once it is over, where a guard the client killed would let it run.
READ_SECONDS = 2.0


def _clock_past(seconds):
    """cmdline.Context.spent: True once `seconds` have passed since now (the one clock of the read)."""
    deadline = time.monotonic() + seconds
    return lambda: time.monotonic() > deadline


def _writes_in_checkouts(runs, context):
    """[(path, is_pattern, command)] the line's shell commands write over or remove inside a
    checkout (issue 19: `echo x > <a peer's uncommitted file>` destroyed work no index or commit
    held), and the commands that write what a `find` finds."""
    settled = _after_readers_only(runs)

    def exists(path, run):  # known only where nothing before the command in the line may have changed it
        return oscalls.path.lexists(path) if id(run) in settled else None

    written = targets_of(runs, context, oscalls.path.isdir, exists, _landing)
    found = [(path, pattern, run) for path, pattern, run in written if run.name != "git" and run.cwd
             and gitrepo.toplevel(oscalls.path.dirname(path) if not pattern else run.cwd)]
    found.extend((None, False, run) for run in runs
                 if run.name == "find" or run.fed_by is not None and run.fed_by.name == "find")
    return found


def _landing(path):
    """The file a write opening `path` reaches, links followed only inside the checkout the link
    lies in (the platform's landing): `echo x > CLAUDE.md` writes AGENTS.md. One lstat for a path
    that is no link."""
    if not oscalls.path.islink(path):
        return path
    paths = platform.current().paths
    link = paths.join(paths.realpath(paths.dirname(path)), paths.basename(path))
    top = gitrepo.toplevel(paths.dirname(link))
    reached = paths.landing(link, top) if top else link
    return path if reached == link else reached


def _after_readers_only(runs):
    """The ids of the commands before which the line runs only readers (chains.READERS, no redirection)."""
    settled = set()
    for run in runs:
        if run.depth or run.via or run.in_loop or run.fed_by is not None:
            break  # nested, wrapped, looped or fed commands run when only the running shell knows
        settled.add(id(run))
        if run.name not in READERS or run.writes:
            break
    return settled


MAX_GLOB_MATCHES = 256  # a pattern matching more files than this is judged as a pattern, not file by file


def _glob(pattern, cwd):
    """The shell's expansion of a pattern in a `for` loop's words or a git command's operands, sorted
    as Bash sorts (C locale), or None past MAX_GLOB_MATCHES."""
    import glob  # imports fnmatch and re: only a judged line holding a pattern pays for them

    paths = platform.current().paths  # an absolute pattern as the shell spells it (C:/…, /c/… on Windows)
    absolute = paths.names_absolute(pattern)
    full = paths.local(pattern) if absolute else oscalls.path.join(cwd, pattern)
    if full is None:
        return None  # under a root only the running shell knows (Git Bash's /tmp)
    found = []
    for match in glob.iglob(full):
        found.append(paths.shell_spelling(match) if absolute else oscalls.path.relpath(match, cwd))
        if len(found) > MAX_GLOB_MATCHES:
            return None
    return sorted(found)

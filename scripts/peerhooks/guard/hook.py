"""git_index_guard.py's run: the line read by the shared interpreter (what its wrappers run
included), its git operations and file writes classified, the stakes read for them, the verdict and
the words of a refusal. A line that runs no git and writes no file in a checkout (`npm test` whose
script runs none) is let through after the interpreter alone: the classifier, the registry and the
stakes are imported only for a line that needs them.

The decisions are pure (peerhooks.git.gitops classifies, peerhooks.git.reach and peerhooks.guard.verdict
judge, peerhooks.guard.narrow suggests); the reading is peerhooks.guard.stakes and peerhooks.git.checkout_lookup;
scripts/git_index_guard.py is the front door, kept tiny because a script is compiled on every run.

How a refusal reaches the client: Claude Code reads a JSON `permissionDecision` on stdout, `deny`
with the reason when a narrow form exists, `ask` when none does (the human answers a permission
prompt). Codex ignores `ask` (the tool would run), so under `--host codex` a refusal is exit 2 with
the reason on stderr. A print-mode session (`claude -p`) has nobody to answer: it gets `deny`.

The human's escape, set in the environment the client is launched with (a hook never sees an
assignment made inside the command line): PEERHOOKS_GUARD=off turns the guard off for that
session, PEERHOOKS_GUARD=warn lets every command run and tells the model what it would have refused.
"""

from ..shell import cmdline
from ..git import gitrepo
from ..claude import home
from .. import hookio, platform, wrappers
from ..startup import oscalls
from ..claude.formats import BASH_TOOL
from ..startup.records import record
from ..shell.lexer import TooLarge
from ..shell.writes import targets_of

MODE_VARIABLE = hookio.OFF_SWITCH
MODE_OFF = hookio.OFF_VALUES
MODE_WARN = "warn"


def run(payload, argv, environ, now):
    """The decision on one Bash command: silence, or a deny / ask / refusal naming the peers."""
    command = payload.command
    if payload.tool_name != BASH_TOOL or command is None:
        return hookio.QUIET
    mode = environ.get(MODE_VARIABLE, "").strip().lower()
    if mode in MODE_OFF:
        return hookio.QUIET
    host = hookio.host(argv)
    paths = platform.current().paths
    cwd = payload.cwd
    cwd = paths.realpath(cwd) if cwd and oscalls.path.isabs(cwd) and oscalls.path.isdir(cwd) else None
    context = cmdline.Context(home=platform.shell_home(environ), toplevel=gitrepo.toplevel, glob=_glob,
                              follow=wrappers.follower_for(command), paths=paths, code_writes=wrappers.code_writes)
    claude = home.claude_home(environ)
    try:
        runs = cmdline.commands(command, cwd, context)
    except TooLarge as error:
        return _too_large(claude, payload, cwd, context, now, command, error, host, mode)
    writes = _writes_in_checkouts(runs, context)
    if not writes and not any(run.name == "git" or run.marker for run in runs):
        return hookio.QUIET  # no git and no file written in a checkout, wrappers followed
    from ..git import gitops
    from . import stakes as guard_stakes
    from ..claude import registry

    from ..shell import chains

    lookup = _LookupWhenAsked()
    every = gitops.fold_private_indexes(gitops.operations(runs, context, lookup))
    every = _staging_saved_patches(every, runs, command, context, lookup)
    chain = chains.chain_of(runs, {op.step for op in every if op.kind != gitops.SAFE})
    every = gitops.back_to_the_start(every, chain.gates)
    operations = [op if op.cwd else _somewhere_here(op, cwd) for op in every if op.kind != gitops.SAFE]
    operations = [op for op in operations if op.cwd]
    operations = _launched_with_a_private_index(operations, environ)
    operations.extend(_write_operations(writes, runs, context))
    if not operations:
        return hookio.QUIET
    sessions = registry.read_sessions(claude)
    guard = guard_stakes.Stakes(claude, sessions, payload, cwd, context, lookup, now)
    guard.start_reading(operations)
    try:
        return _judged_line(guard, _Line(command, runs, context, every, chain), operations, host, mode, environ)
    finally:
        guard.close()  # a git status started for a line found quiet is not left running


_Line = record("_Line", "command runs context every chain", (), """A line as read: its text, its shell
    commands (cmdline), the context they were read in, every git operation of it (safe ones too) and
    how its commands chain (chains.Chain).""")


def _judged_line(guard, line, operations, host, mode, environ):
    """The outcome of a line that runs git or writes a file where another session may work."""
    from ..git import gitops
    from . import reason as guard_reason, verdict as guard_verdict

    command = line.command

    if not guard.anyone_else():
        return hookio.QUIET
    judged = guard.judged(operations)
    if not any(item.peers for item in judged):
        return hookio.QUIET
    refusals = guard.verdict(judged, line.chain, _round_trips(line.runs, command, line.context, guard.lookup))
    if not refusals:
        return hookio.QUIET
    verbs = tuple((op.step, op.words[0].value) for op in line.every if op.words and op.step is not None)
    suggestion = guard.suggestion(judged, refusals, command, verbs)
    # No narrow form to retry with (a file both changed, a narrowing that would change the meaning):
    # the human decides. Where nothing it would take is this session's, a deny says so instead.
    if suggestion.text is None and not suggestion.no_own_work:
        refusals = [r if r.operation.kind == gitops.SHELL_WRITE else r._replace(ask=True) for r in refusals]
    text = guard_reason.reason(refusals, command, suggestion.text, host, guard.can_send(environ),
                                suggestion.no_own_work, _relative_all(suggestion.shared, judged))
    return _outcome(text, guard_verdict.is_ask(refusals), host, mode == MODE_WARN, guard.print_mode())


def _applies(runs):
    return any(run.name == "git" and run.args and run.args[0].value == "apply" for run in runs)


class _LookupWhenAsked:
    """checkout_lookup.CheckoutLookup, made at the first question: most judged lines (`git add`, `git
    commit`) ask the checkout nothing, and its module is 15 KB of bytecode to load for nothing."""

    def __getattr__(self, name):  # only for what the instance lacks: each question, until made
        made = self.__dict__.get("_made")
        if made is None:
            from ..git import checkout_lookup

            made = self.__dict__["_made"] = checkout_lookup.CheckoutLookup()
        return getattr(made, name)


def _staging_saved_patches(every, runs, command, context, lookup):
    """The operations, a `git apply --cached F` of a tree diff the line saved in F judged as the
    staging it is (peerhooks.git.patch_roundtrip), read only for a line that runs `git apply`."""
    if not _applies(runs):
        return every
    from ..git import patch_roundtrip

    return patch_roundtrip.with_staged_patches(every, runs, command, context, _is_path(lookup))


def _round_trips(runs, command, context, lookup):
    """The tree saved as a patch and applied back (peerhooks.git.patch_roundtrip), read only for a
    line that runs `git apply`."""
    if not _applies(runs):
        return ()
    from ..git import patch_roundtrip

    return patch_roundtrip.round_trips(runs, command, context, _is_path(lookup))


def _is_path(lookup):
    """Whether a word git reads before `--` names a path: one that names no revision here."""
    return lambda word, cwd: not lookup.is_revision(word, cwd)


def _relative_all(paths, judged):
    """Shared paths as the refusal names them, relative to their checkout."""
    from ..git import reach

    tops = sorted({j.toplevel for j in judged}, key=len, reverse=True)
    found = []
    for path in paths:
        top = next((t for t in tops if path.startswith(t.rstrip("/") + "/")), None)
        found.append(reach.relative(path, top) if top else path)
    return found


def _somewhere_here(op, cwd):
    """An operation whose folder only the running shell knows (`cd "$(dirname "$0")"/..; git add
    -A`), judged where the line starts, which such a folder mostly lies in: its paths known only
    when it runs."""
    if cwd is None:
        return op
    return op._replace(cwd=cwd, runtime=True, relative=False)


def _launched_with_a_private_index(operations, environ):
    """With GIT_INDEX_FILE in the environment the client was launched with, every commit is made
    from that index (issue 19: refused before, but said to 'commit them as yours' when it deletes)."""
    from ..git import gitops

    index = environ.get("GIT_INDEX_FILE")
    if not index:
        return operations
    path = oscalls.path.abspath(index)
    commits = (gitops.COMMIT_INDEX, gitops.COMMIT_ALL, gitops.COMMIT_PATHS)
    return [op._replace(kind=gitops.COMMIT_PRIVATE, target=path, private=gitops.PrivateIndex(path, False, ()))
            if op.kind in commits else op for op in operations]


def _writes_in_checkouts(runs, context):
    """[(path, is_pattern, command)] the line's shell commands write over or remove inside a
    checkout (issue 19: `echo x > <a peer's uncommitted file>` destroyed work no index or commit
    held), and the commands that write what a `find` finds."""
    settled = _after_readers_only(runs)

    def exists(path, run):  # known only where nothing before the command in the line may have changed it
        return oscalls.path.lexists(path) if id(run) in settled else None

    found = [(path, pattern, run) for path, pattern, run in targets_of(runs, context, oscalls.path.isdir, exists)
             if run.name != "git" and run.cwd
             and gitrepo.toplevel(oscalls.path.dirname(path) if not pattern else run.cwd)]
    found.extend((None, False, run) for run in runs
                 if run.name == "find" or run.fed_by is not None and run.fed_by.name == "find")
    return found


def _after_readers_only(runs):
    """The ids of the commands before which the line runs only readers (chains.READERS, no redirection)."""
    from ..shell.chains import READERS

    settled = set()
    for run in runs:
        if run.depth or run.via or run.in_loop or run.fed_by is not None:
            break  # nested, wrapped, looped or fed commands run when only the running shell knows
        settled.add(id(run))
        if run.name not in READERS or run.writes:
            break
    return settled


def _write_operations(writes, runs, context):
    """The operations of those writes, for the verdict."""
    from ..git import gitops

    steps = {id(run): step for step, run in enumerate(runs)}
    found = []
    for path, pattern, run in writes:
        operation = gitops.write_operation(path, pattern, run) if path is not None else \
            gitops.found_write_operation(run, context)
        if operation is not None and operation.rewrite is not None and path is not None and oscalls.path.islink(path):
            operation = operation._replace(rewrite=None)  # `sed -i` puts a file in the link's place
        if operation is not None:
            found.append(operation._replace(step=steps.get(id(run))))
    return found


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


def _too_large(claude, payload, cwd, context, now, command, error, host, mode):
    """A line too large to judge within the guard's budget: put to the human beside anyone live in
    the checkout (never let through unjudged, as the client's timeout would), silent alone."""
    from ..git import checkout_lookup
    from . import reason as guard_reason, stakes as guard_stakes
    from ..claude import registry

    guard = guard_stakes.Stakes(claude, registry.read_sessions(claude), payload, cwd, context,
                                checkout_lookup.CheckoutLookup(), now)
    top = gitrepo.toplevel(cwd) if cwd else None
    others = [p for p, t in guard.parties_in(top)] if top else []
    if not others:
        return hookio.QUIET
    text = guard_reason.too_large_reason(command, str(error), others, host)
    return _outcome(text, True, host, mode == MODE_WARN, guard.print_mode())


def _outcome(text, ask, host, warn_only, print_mode):
    from ..startup.jsonfast import dumps  # json's own C encoder without importing json (and re): ~7 ms under -S

    if host == "codex":
        if warn_only:
            return hookio.Outcome(warnings=["warn-only: " + text])
        return hookio.Outcome(hookio.EXIT_REFUSE, stderr=text)
    if warn_only:
        output = {"hookEventName": "PreToolUse",
                  "additionalContext": "(PEERHOOKS_GUARD=warn, the command ran) " + text}
    else:
        decision = "ask" if ask and not print_mode else "deny"
        output = {"hookEventName": "PreToolUse", "permissionDecision": decision,
                  "permissionDecisionReason": text}
    return hookio.Outcome(stdout=dumps({"hookSpecificOutput": output}, ensure_ascii=False))



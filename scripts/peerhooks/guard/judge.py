"""A line that runs git or writes a file in a checkout, judged and answered: its git operations and
file writes classified (peerhooks.git.classify, peerhooks.git.shell_writes), who and what is at
stake read (peerhooks.guard.stakes), the verdict (peerhooks.guard.verdict), the line to run instead
(peerhooks.guard.narrow, through the stakes) and the words of a refusal (peerhooks.guard.reason).
peerhooks.guard.hook reads the line and loads this only for a line that needs it.

How a refusal reaches the client: Claude Code reads a JSON `permissionDecision` on stdout, `deny`
with the reason when a narrow form exists, `ask` when none does (the human answers a permission
prompt). Codex ignores `ask` (the tool would run), so under `--host codex` a refusal is exit 2 with
the reason on stderr. A print-mode session (`claude -p`) has nobody to answer: it gets `deny`.
"""
from ..shell import chains
from ..git import classify, gitrepo, kinds, reach, shell_writes
from ..git.kinds import PrivateIndex
from ..claude import home, registry
from .. import hookio
from ..startup import oscalls
from ..startup.jsonfast import dumps  # json's own C encoder without importing json (and re): ~7 ms under -S
from ..startup.records import record
from ..shell.lexer import TooLarge
from . import stakes as guard_stakes, verdict as guard_verdict


def line(read, environ, now, host, warn_only):
    """The outcome of a line (hook.Read) that runs git or writes a file in a checkout: silence, or a
    deny / ask / refusal naming the peers. warn_only: PEERHOOKS_GUARD=warn, the line runs anyway."""
    runs, context, command = read.runs, read.context, read.payload.command
    lookup = _LookupWhenAsked()
    try:
        every = classify.fold_private_indexes(classify.operations(runs, context, lookup))
        every = _staging_saved_patches(every, runs, command, context, lookup)
        chain = chains.chain_of(runs, {op.step for op in every if op.kind != kinds.SAFE})
        every = classify.back_to_the_start(every, chain.gates)
        operations = [op if op.cwd else _somewhere_here(op, read.cwd) for op in every if op.kind != kinds.SAFE]
        operations = [op for op in operations if op.cwd]
        operations = _launched_with_a_private_index(operations, environ)
        operations.extend(_write_operations(read.writes, runs, context))
    except TooLarge as error:  # an alias chain, a word's braces, a fed substitution past a bound
        return too_large(read, error, environ, now, host, warn_only)
    if not operations:
        return hookio.QUIET
    claude = home.claude_home(environ)
    guard = guard_stakes.Stakes(claude, registry.read_sessions(claude), read.payload, read.cwd, context, lookup, now)
    guard.start_reading(operations)
    try:
        return _judged_line(guard, _Line(command, runs, context, every, chain), operations, host, warn_only, environ)
    except TooLarge as error:  # aliases expanded past their bound while judging
        return too_large(read, error, environ, now, host, warn_only)
    finally:
        guard.close()  # a git status started for a line found quiet is not left running


_Line = record("_Line", "command runs context every chain", (), """A line as read: its text, its shell
    commands (cmdline), the context they were read in, every git operation of it (safe ones too) and
    how its commands chain (chains.Chain).""")


def _judged_line(guard, line, operations, host, warn_only, environ):
    """The outcome once the operations are known: silence unless someone else works where they act."""
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
        refusals = [r if r.operation.kind == kinds.SHELL_WRITE else r._replace(ask=True) for r in refusals]
    from . import reason  # seam: only a refused line is worded (5 modules with redact, 0.9 ms)
    text = reason.reason(refusals, command, suggestion.text, host, guard.can_send(environ),
                         suggestion.no_own_work, _relative_all(suggestion.shared, judged))
    return _outcome(text, guard_verdict.is_ask(refusals), host, warn_only, guard.print_mode())


def _applies(runs):
    return any(run.name == "git" and run.args and run.args[0].value == "apply" for run in runs)


class _LookupWhenAsked:
    """checkout_lookup.CheckoutLookup, made at the first question: most judged lines (`git add`, `git
    commit`) ask the checkout nothing, and its module is 15 KB of bytecode to load for nothing."""

    def __getattr__(self, name):  # only for what the instance lacks: each question, until made
        made = self.__dict__.get("_made")
        if made is None:
            from ..git import checkout_lookup  # seam: most judged lines ask the checkout nothing (1 module, 0.15 ms)

            made = self.__dict__["_made"] = checkout_lookup.CheckoutLookup()
        return getattr(made, name)


def _staging_saved_patches(every, runs, command, context, lookup):
    """The operations, a `git apply --cached F` of a tree diff the line saved in F judged as the
    staging it is (peerhooks.git.patch_roundtrip), read only for a line that runs `git apply`."""
    if not _applies(runs):
        return every
    from ..git import patch_roundtrip  # seam: only a line that runs `git apply` saves a tree (1 module, 0.15 ms)

    return patch_roundtrip.with_staged_patches(every, runs, command, context, _is_path(lookup))


def _round_trips(runs, command, context, lookup):
    """The tree saved as a patch and applied back (peerhooks.git.patch_roundtrip), read only for a
    line that runs `git apply`."""
    if not _applies(runs):
        return ()
    from ..git import patch_roundtrip  # seam: (as above) only a line that runs `git apply`

    return patch_roundtrip.round_trips(runs, command, context, _is_path(lookup))


def _is_path(lookup):
    """Whether a word git reads before `--` names a path: one that names no revision here."""
    return lambda word, cwd: not lookup.is_revision(word, cwd)


def _relative_all(paths, judged):
    """Shared paths as the refusal names them, relative to their checkout."""
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
    index = environ.get("GIT_INDEX_FILE")
    if not index:
        return operations
    path = oscalls.path.abspath(index)
    commits = (kinds.COMMIT_INDEX, kinds.COMMIT_ALL, kinds.COMMIT_PATHS)
    return [op._replace(kind=kinds.COMMIT_PRIVATE, target=path, private=PrivateIndex(path, False, ()))
            if op.kind in commits else op for op in operations]


def _write_operations(writes, runs, context):
    """The operations of those writes, for the verdict."""
    steps = {id(run): step for step, run in enumerate(runs)}
    found = []
    for path, pattern, run in writes:
        operation = shell_writes.write_operation(path, pattern, run) if path is not None else \
            shell_writes.found_write_operation(run, context)
        if operation is not None and operation.rewrite is not None and path is not None and oscalls.path.islink(path):
            operation = operation._replace(rewrite=None)  # `sed -i` puts a file in the link's place
        if operation is not None:
            found.append(operation._replace(step=steps.get(id(run))))
    return found


def too_large(read, error, environ, now, host, warn_only):
    """A line the guard could not judge within a bound (shell.TooLarge: its size, nesting, the
    wrappers it runs, the time): put to the human beside anyone live in the checkout it starts in,
    or beside anyone live at all when it starts in none (where it goes was not read); never let
    through unjudged, as the client's timeout would. Silent alone."""
    claude = home.claude_home(environ)
    guard = guard_stakes.Stakes(claude, registry.read_sessions(claude), read.payload, read.cwd, read.context,
                                _LookupWhenAsked(), now)
    top = gitrepo.toplevel(read.cwd) if read.cwd else None
    if top is not None:
        others = [p for p, _t in guard.parties_in(top)]
    else:
        others = [p for p, t in guard.caller.parties()[1] if t is not None] if read.cwd else []
    if not others:
        return hookio.QUIET
    from . import reason  # seam: (as in _judged_line) only a refused line is worded
    text = reason.too_large_reason(read.payload.command, str(error), others, host, error.what, top is not None)
    return _outcome(text, True, host, warn_only, guard.print_mode())


def _outcome(text, ask, host, warn_only, print_mode):
    """The hook's Outcome for a refusal's words, as the client reads them (see above)."""
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

"""What each hook script does once Claude Code starts it: read the payload, answer the quiet cases
first, load its hook and serve it under hookio's fail-open rule.

It lives here rather than in the scripts because a script is compiled from source on every run and
a module is not: the guard's 2.8 KB script cost 0.34 ms of every run (4% of the interpreter's own
start-up) before a line of it ran; a script that only calls in here costs ~0.02 ms, and this
module's bytecode, docstrings and all, is read from the cache. Nothing is imported at the top, not
even `os`: the guard's and the edit notice's quiet paths return before it.
"""
import sys

MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # one payload line, never gigabytes (as hookio)


def guard(argv=None, end_process=False):
    """git_index_guard.py, PreToolUse on Bash: no session sweeps up or wipes out a live peer's work
    through git. While another live session works in the same checkout, git commands that would take
    or discard a peer's changes are denied with the narrow form to use instead, and those with no
    narrow form (a branch switch, a pull, a stash pop) ask the human; alone, or on any error, it
    exits 0 in silence. The work is in peerhooks.guard.hook; docs/guard.md says what it refuses
    and how to turn it off.

    It runs before every shell command, so it decides from the payload's raw bytes, before json or
    any file read, when the line can touch no peer's work: no git (or only git that reads, `git
    status`), no file written, and no word that may start a wrapper (`make`, `npm`, `./x.sh`: what
    they run is read from the checkout)."""
    raw = _payload_line()
    if raw is None:
        return 0
    try:
        from .guard import readonly  # seam: the raw-bytes check, before anything else of the guard loads

        if b"\\u" not in raw and not readonly.may_write(raw) and not readonly.may_wrap(raw) and (
                b"git" not in raw or readonly.only_reads(raw)):
            return quiet(end_process)  # no file written, no wrapper, no git or git that only reads
    except Exception as error:  # noqa: BLE001 - a broken install must not block every git command
        return cannot_load(error)
    import gc

    gc.disable()  # the ~30 modules a judged line loads make no cycles worth collecting (hookio.serve says why)
    try:
        return _serve("git_index_guard", "guard", argv, end_process, raw=raw)
    finally:
        gc.enable()  # for a caller that lives on (tests run main() in their own process)


def edit_notice(argv=None, end_process=False):
    """edit_notice.py, PreToolUse on Edit, Write, MultiEdit, NotebookEdit (Codex: apply_patch): the
    model is told when a file it is about to write holds a live peer's uncommitted change.

    The collision people report most is two sessions editing one file; at least six projects wrote
    their own "a peer is editing this file" hook, and the lesson of their threads is that the notice
    must come before the first write and be a by-product of editing, never a claim to keep. This
    never blocks: the tool runs, and the model reads who changed the file, how long ago, what that
    peer works on and how to reach it, once per (file, peer, peer's latest change). Silent alone, on
    any error, and under PEERHOOKS_GUARD=off. The work is in peerhooks.edit_notice.notice.hook.

    It runs before every file edit, and most are made alone: peerhooks.edit_notice.alone decides that from
    the payload's bytes and a listing of the registry before `os` or anything else is imported."""
    raw = _payload_line()
    if raw is None:
        return 0
    try:
        from .edit_notice import alone  # seam: the registry listing, before anything else of the notice loads

        if alone.alone(raw):  # nobody else is live: decided before any other import or read
            return quiet(end_process)
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        return cannot_load(error)
    return _serve("edit_notice", "edit_notice", argv, end_process, raw=raw)


def peers(argv=None, end_process=False):
    """peers.py, SessionStart (`--hook`) and by hand: who else is live in this checkout, what each
    is working on, and what the last session did.

    Sessions sharing a checkout behave like strangers: of 297 sessions in 30 days (a median of 8
    alive at once, up to 10 in one checkout) only 7 ever messaged another. This prints, at
    SessionStart (`--hook`) or by hand (`--help` lists the modes), each live peer's intent (its
    substantive prompts), the files it is editing (its transcript tail), and the last finished
    session in this checkout. The work is in peerhooks.peers.hook."""
    return _serve("peers", "peers", sys.argv[1:] if argv is None else argv, end_process, by_hand=True)


def memory_delta(argv=None, end_process=False):
    """memory_delta.py, UserPromptSubmit: what peers wrote to memory and rule files since this
    session started.

    Auto memory and rule files (`CLAUDE.md`, `.claude/rules/`) are read when a session starts, so a
    long-lived session never sees the correction a peer wrote at noon. On the next prompt this lists
    each file another session changed since this one started (or since this hook last ran for it),
    once, with who wrote it and what it is about; deletions of memory notes too. On most prompts it
    prints nothing, and then it costs a stat of each watched file and one small read of its stamp.
    The work is in peerhooks.memory_delta.hook."""
    return _serve("memory_delta", "memory_delta", argv, end_process)


def cold_start(argv=None):
    """cold_start.py, SessionStart: show a new session what changed in this workspace since *this
    agent* last started here, and nothing it has already seen.

    The material is gathered as named sections (rules, memory index, handoff, recent commits,
    worktrees, ended sessions, the user's own). On `startup` and `clear`, the sources that begin a
    fresh context, only the sections whose fingerprint changed for this agent's partition of the
    state file are printed; other sources get one reminder line. The partition key is
    `LI_PLUS_AGENT_KEY` (else `default`), so two agents sharing a workspace each get every change
    instead of splitting them. `--host codex` keeps the state under `.codex/state/` and watches the
    rule files Codex loads (AGENTS.md, not CLAUDE.md); `--full [folder]` prints everything by hand
    and reads no payload. The work is in peerhooks.cold_start.hook."""
    return _serve("cold_start", "cold_start", sys.argv[1:] if argv is None else argv, by_hand=True)


def _serve(name, package, argv, end_process=False, by_hand=False, **options):
    """hookio.serve of `package`'s hook module (the seam door -> hook: a hook's library loads
    only once its quiet checks are past); exit 0 after one line on stderr when the library
    cannot load: a broken install must not break the session. by_hand: the hook has modes run by
    hand, which read no payload (stdin is a terminal)."""
    try:
        from . import hookio  # seam: door -> hook, once the quiet case is past

        hook = __import__(package, globals(), None, ["hook"], 1).hook  # `from .<package> import hook`
    except Exception as error:  # noqa: BLE001 - whatever it is, the one line and exit 0
        return cannot_load(error)
    if by_hand:
        options["read_stdin"] = hook.reads_payload(argv)
    return hookio.serve(name, hook.run, argv, end_process=end_process, **options)


def _payload_line():
    """The payload's one line as bytes, or None when stdin cannot be read."""
    try:
        return sys.stdin.buffer.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return None


def quiet(end_process):
    """Exit code 0 for a call answered before the library loads; a front door run as a script ends
    its process here, without the interpreter's teardown (finalising every module, a last
    collection: ~0.3 ms of the guard's quiet path), as hookio does once a hook has written: nothing
    was written. Where there is no posix module (Windows) the process ends as usual."""
    if end_process:
        try:
            import posix
        except ImportError:
            return 0
        posix._exit(0)
    return 0


def cannot_load(error):
    """The one line a hook whose library cannot load says (exit 0: the session goes on)."""
    sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
    return 0

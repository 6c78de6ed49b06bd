"""edit_notice.py: before Edit, Write, MultiEdit or NotebookEdit (Codex: apply_patch) runs, the
model is told when a file it is about to write holds a live party's uncommitted change: the tool
always runs (the notice is `additionalContext`, never a decision), once per (file, party, that
party's latest change) in this session.

The I/O around peerhooks.edit_notice.notice's decisions: the files the call names (targets), who
else works in their checkouts (identity.Caller, the guard's own view: other live sessions with
their chains of ids across /clear; for a subagent the main thread and its running siblings), what
their transcripts show they changed (peerchanges, resumed through the edit index), git's state of
those files only when a party changed one (gitstate, one `git status` limited to them), and what
this session was already told (told). Silent when alone, when the human's off switch
(PEERHOOKS_GUARD=off) is set, and on any error.

Seen on both Claude Code versions (shared/reference/real-client.md): PreToolUse
`additionalContext` without a decision on a Write reaches the model in its next request and the
tool runs; Codex 0.171 places it as a developer message after the call (fixtures/samples/codex-0.171).
"""
from .. import hookio, platform
from ..claude import peerchanges, registry
from ..claude.formats import EDIT_TOOLS, SUBAGENTS_FOLDER, TRANSCRIPT_SUFFIX, is_safe_session_id
from ..claude.home import claude_home, state_dir
from ..claude.identity import Caller
from ..git import gitstate
from ..startup import oscalls
from ..startup.jsonfast import dumps
from ..state.statefiles import LockBusy
from . import notice, targets, told

NOTICED_TOOLS = frozenset(EDIT_TOOLS + (targets.APPLY_PATCH_TOOL,))
GIT_TIMEOUT_SECONDS = 0.5  # one status of the candidate files, and one log of those still changed


def run(payload, argv, environ, now):
    """The notice for one file-editing tool call, or silence."""
    if payload.tool_name not in NOTICED_TOOLS or hookio.switched_off(environ) or not payload.session_id:
        return hookio.QUIET
    paths = platform.current().paths
    cwd = payload.cwd  # local, or None (hookio)
    cwd = paths.realpath(cwd) if cwd and oscalls.path.isdir(cwd) else None
    written = targets.targets(payload.tool_name, payload.tool_input, cwd, paths)
    if not written:
        return hookio.QUIET
    claude = claude_home(environ)
    sessions = registry.read_sessions(claude)
    if not any(s.session_id != payload.session_id for s in sessions) and not _may_have_parts(payload):
        return hookio.QUIET  # alone: the common case, decided before anything else is read
    if not is_safe_session_id(payload.session_id):
        return hookio.QUIET  # nowhere to remember what was said: better silent than repeating
    now_ms = int(now * 1000)
    caller = Caller(claude, sessions, payload.session_id, payload.agent_id, cwd, payload.transcript_path, now_ms)
    located = [(real, caller.toplevel(paths.dirname(real))) for real in _realpaths(written, paths)]
    located = [(path, top) for path, top in located if top]
    tops = {top for _path, top in located}
    if not tops or not any(t in tops for _s, t in caller.live_others()) and not _may_have_parts(payload):
        return hookio.QUIET  # nobody else works in the files' checkouts
    # Only the sessions working in the files' checkouts are read (and this session's own parts).
    parties = [(p, t) for p, t in caller.parties(tops)[1] if t in tops]
    if not parties:
        return hookio.QUIET
    located, links = _through_links(located, paths)
    changes = peerchanges.latest_changes_of(claude, {p.key: list(p.transcripts) for p, _t in parties}, now_ms,
                                            only={path for path, _top in located})
    candidates = notice.candidates(located, parties, changes, links)
    if not candidates:
        return hookio.QUIET
    fresh = _told(state_dir(claude), payload.session_id, candidates, now_ms)
    if not fresh:
        return hookio.QUIET
    host = hookio.host(argv)
    notices = _with_intents(claude, caller, fresh, now_ms)
    text = notice.render(notices, now_ms, registry.can_send(caller.own_entry(), environ), host)
    output = {"hookEventName": "PreToolUse", "additionalContext": text}
    return hookio.Outcome(stdout=dumps({"hookSpecificOutput": output}, ensure_ascii=False))


def _may_have_parts(payload):
    """Whether this session may hold parties of its own: a subagent's call (its main thread), or a
    main thread whose transcript has a subagents folder beside it (identity.subagents_of). A
    subagent left running from before a /clear is not looked for here."""
    if payload.agent_id is not None:
        return True
    transcript = payload.transcript_path
    if not transcript or not transcript.endswith(TRANSCRIPT_SUFFIX):
        return False
    return oscalls.path.isdir(oscalls.path.join(transcript[:-len(TRANSCRIPT_SUFFIX)], SUBAGENTS_FOLDER))


def _realpaths(written, paths):
    """Each file written with its folder resolved through symlinks, as peerchanges resolves the
    parties' files, so that equality is the comparison."""
    folders, found = {}, []
    for path in written:
        real = peerchanges.resolved(path, folders, paths)
        if real not in found:
            found.append(real)
    return found


def _through_links(located, paths):
    """([(file, checkout)], {file: the link written}): the files with, after each that is a link,
    the file it leads to inside its checkout (platform's landing: one lstat of a file that is no
    link), so that an edit of `CLAUDE.md -> AGENTS.md` meets a party's change in AGENTS.md. The
    link stays a target too: a client may put a new file in its place rather than write through."""
    found, links = list(located), {}
    for path, top in located:
        landing = paths.landing(path, top)
        if landing != path and (landing, top) not in found:
            found.append((landing, top))
            links[landing] = path
    return found, links


def _told(state_folder, session_id, candidates, now_ms):
    """[(Candidate, git's state of its file)] to tell now: not told or settled before in this
    session, and still uncommitted per git; what is told and settled is recorded under the
    session's lock, so concurrent calls of one session tell a change once."""
    def key(candidate):
        return told.key(candidate.path, candidate.party.name, candidate.at_ms)

    known = told.known(state_folder, session_id)
    if all(key(c) in known for c in candidates):
        return []  # all told or settled before: no lock, no git
    try:
        with told.Record(state_folder, session_id) as record:
            pending = [c for c in candidates if key(c) not in record.keys]
            to_tell, settled = _judged(pending)
            record.save([key(c) for c, _s in to_tell], [key(c) for c, _s in settled], now_ms)
            return to_tell
    except (LockBusy, OSError):
        return []  # the record cannot be kept: saying nothing beats saying it on every edit


def _judged(candidates):
    """(told, settled), each [(Candidate, git's state of its file)], from git's state now: per
    checkout one `git status` of the candidates' files and one `git log` of those still changed,
    since the oldest of their changes. A checkout git does not answer for in time is left out of
    both: nothing is concluded, nothing recorded."""
    to_tell, settled = [], []
    for top in sorted({c.toplevel for c in candidates}):
        mine = [(c, notice.relative(c.path, top)) for c in candidates if c.toplevel == top]
        states = gitstate.read(top, GIT_TIMEOUT_SECONDS, paths=sorted({relative for _c, relative in mine}))
        if states is None:
            continue
        changed = sorted({relative for _c, relative in mine if gitstate.state_of(states, relative) is not None})
        commits = {}
        if changed:
            times = [c.at_ms for c, _relative in mine]
            since_s = None if None in times else min(times) // 1000 - 1
            commits = gitstate.committed_since(top, changed, since_s, GIT_TIMEOUT_SECONDS)
            if commits is None:
                continue
        for candidate, relative in mine:
            state = gitstate.state_of(states, relative)
            verdict = notice.judge(candidate, state, commits.get(relative))
            (to_tell if verdict == notice.NOTICE else settled).append((candidate, state))
    return to_tell, settled


def _with_intents(claude, caller, to_tell, now_ms):
    """[Notice]: each candidate to tell with its party's registry status and latest prompts."""
    from ..claude import activity, history  # seam: only when a notice is told (9 modules, ~2 ms)

    sessions = {s.session_id: s for s, _t in caller.live_others()}
    summaries = None
    notices = []
    for candidate, state in to_tell:
        party = candidate.party
        session = sessions.get(party.session_id) if party.kind == "session" else None
        status, intent, direction = None, None, None
        if session is not None:
            if summaries is None:
                summaries = history.load(claude, now_ms)
            transcript = party.transcripts[0] if party.transcripts else None
            intent, direction = activity.latest_intent(summaries.get(session.session_id), transcript)
            status = session.status
        notices.append(notice.Notice(candidate, state, status, intent, direction))
    return notices

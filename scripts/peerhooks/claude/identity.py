"""Who a session is: the chain of ids one Claude Code process had, with all their transcripts, and
its subagents. peers.py, the git guard, the edit notice and memory attribution all ask here.

Why a chain: `/clear` (and `/resume` inside a running session) gives the process a new session id
and a new transcript, while the registry entry keeps its pid, procStart and name and takes the new
id (2.1.197 and 2.1.332: fixtures/samples/*/registry-interactive-after-clear.json). What the session
changed before the `/clear` is still its uncommitted work: a peer's commit that was refused before
the `/clear` ran after it, and took the cleared session's staged file (issue 18). peers.py records
every id it meets with the process it runs in (peerhooks.claude.names), so the ids of one process are the
ids remembered with its (pid, procStart), plus the one its registry entry shows now.

Why subagents: a subagent's tool call carries `agent_id` (and `agent_type`) in the hook payload;
its transcript is `<session transcript minus .jsonl>/subagents/agent-<id>.jsonl`, beside a
`agent-<id>.meta.json` (2.1.197: agentType, description, toolUseId; 2.1.332 adds `finished`).
For peers.py and memory attribution a session's subagents are part of it. For the guard they are
parties of their own: a subagent's `git add -u` swept its sibling's unfinished files in public
incidents (coolify #68, agentic-dev-team #1571), so a subagent's call is judged against the main
thread and its live siblings as against other sessions, and the main thread's against its live
subagents.
"""

from ..git import gitrepo
from ..startup import oscalls
from ..startup.jsonfast import loads
from ..startup.records import record
from ..state.safefiles import read_regular
from . import names, registry
from .formats import SUBAGENT_PREFIX, SUBAGENTS_FOLDER, TRANSCRIPT_SUFFIX
from .home import transcript_path

MAX_CHAIN_IDS = 32  # ids one process had; a session does not /clear more often than this in a week
MAX_SUBAGENTS = 64  # per session id, newest first; more than this is not a real session
META_SUFFIX = ".meta.json"
MAX_META_BYTES = 16 * 1024  # a meta file is ~400 bytes (samples)
# A foreground subagent (2.1.197 writes no `finished`) has ended when its parent transcript holds
# the tool_result of the call that started it; how far back from the end that is looked for.
RESULT_SCAN_BYTES = 8 * 1024 * 1024
# A subagent whose meta still says it runs but whose transcript has not moved for this long was
# killed with its session or crashed: a running one writes a record at every step (samples).
STALE_SUBAGENT_MS = 60 * 60 * 1000

MAIN_THREAD = "main thread"


Subagent = record("Subagent", "agent_id transcript finished modified_ms tool_use_id agent_type description",
                  (None, None, None), """One subagent of a session: its id, its transcript, whether it
    has finished (True/False from 2.1.332's meta file; None where the meta does not say, as on
    2.1.197, whose subagents run in the foreground while their parent waits), and when its
    transcript last changed.""")

Identity = record("Identity", "ids name process transcripts subagents", ((), ()), """One session as
    a process: the ids it had (current first), its registry name, its process (pid, procStart) or
    None, its main transcripts (current first) and its subagents (across all its ids).""")

Party = record("Party", "key name session_id agent_id transcripts busy can_message kind",
               (True, False, "session"), """Someone whose uncommitted work a command may take:
    another session, this session's main thread (when a subagent asks), or a live subagent.
    key: what its changes are looked up by; kind: "session", "main thread" or "subagent".""")


def process_of(session):
    """The process a registry entry names, as names.py remembers it."""
    return session.pid, session.proc_start


def _candidates(entry):
    """The (pid, start) processes a remembered session may have run in."""
    if len(entry) == 3:
        return [tuple(p) for p in entry[2]]
    process = names.process_of(entry)
    return [process] if process else []


def process_index(table):
    """{pid: [(session id, entry, its candidate processes)]} of a names table, for chain_ids to
    look up only the entries that share a pid with the session asked about: a guard judging a dozen
    peers asks about each, beside a table of every session remembered. Pure."""
    index = {}
    for session_id, entry in table.items():
        candidates = _candidates(entry)
        for pid in {c[0] for c in candidates}:
            index.setdefault(pid, []).append((session_id, entry, candidates))
    return index


def chain_ids(current_id, processes, table, name=None, index=None):
    """The ids of the process(es) given, current first, then the remembered ones by when they were
    last seen, newest first. processes: the (pid, procStart) a session may run in (one, from its
    registry entry; several for a session seen before its entry was written). A start time unknown
    on either side falls back to the pid and the registry name. index: process_index(table), when
    it is asked about many sessions. Pure."""
    wanted = {tuple(p) for p in processes if p is not None}
    by_pid = {pid for pid, start in wanted if start is None}
    if index is None:
        rows = [(session_id, entry, _candidates(entry)) for session_id, entry in table.items()]
    else:  # only an entry with a process of a wanted pid can match below
        rows = {row[0]: row for pid in {pid for pid, _start in wanted} for row in index.get(pid, ())}.values()
    found = []
    for session_id, entry, candidates in rows:
        if session_id == current_id:
            continue
        same = any(c in wanted and c[1] is not None for c in candidates)
        unknown_start = any(c[1] is None or c[0] in by_pid for c in candidates) and len(entry) != 3
        if same or unknown_start and name is not None and entry[0] == name and \
                any(c[0] in {pid for pid, _start in wanted} for c in candidates):
            found.append((entry[1], session_id))
    found.sort(reverse=True)
    ids = ([current_id] if current_id else []) + [session_id for _seen, session_id in found]
    return tuple(ids[:MAX_CHAIN_IDS])


def earlier_contexts(table, live):
    """Ids of remembered sessions that ran in a process still live under another id: the contexts
    live sessions left with /clear, which must never be shown as sessions that ended."""
    live_ids = {s.session_id for s in live}
    found = set()
    index = process_index(table)  # one walk of the table, not one per live session
    for session in live:
        found.update(chain_ids(session.session_id, [process_of(session)], table, session.name, index)[1:])
    return found - live_ids


def identity(home, session_id, cwd, name, processes, table, folders_of=None, index=None):
    """The Identity of a session (I/O: finds its transcripts and subagents). folders_of: the cache
    home.transcript_path keeps across calls; index: the table's process_index, for many calls."""
    ids = chain_ids(session_id, processes, table, index=index)
    paths = [transcript_path(home, i, cwd, folders_of) for i in ids]
    paths = [p for p in paths if p]
    subagents = []
    for path in paths:
        subagents.extend(subagents_of(path))
    process = next((tuple(p) for p in processes if p is not None), None) if len(processes) == 1 else None
    return Identity(ids, name, process, tuple(paths), tuple(subagents))


def of_registry(home, session, table, folders_of=None, index=None):
    """The Identity of a live registry session."""
    return identity(home, session.session_id, session.cwd, session.name, [process_of(session)], table, folders_of,
                    index)


def own(home, sessions, session_id, cwd, ancestors, table, own_entry, ancestor_processes=()):
    """This session's Identity: its registry entry's process, or, before the entry is written
    (2.1.197 and 2.1.332 at times write it after SessionStart), the processes it may run in.
    ancestor_processes: [(pid, start)], or a function giving them (asked only without an entry)."""
    if own_entry is not None:
        return identity(home, session_id or own_entry.session_id, own_entry.cwd or cwd, own_entry.name,
                        [process_of(own_entry)], table)
    registered = {s.pid for s in sessions}
    if callable(ancestor_processes):
        ancestor_processes = ancestor_processes()
    processes = [tuple(p) for p in names.possible_processes(list(ancestor_processes), registered)]
    return identity(home, session_id, cwd, None, processes, table)


def own_ids(home, sessions, session_id, ancestors, table=None):
    """Every id this session went by: the payload's, its registry entry's, and the ids its process
    had before a /clear (or, before its entry is written, the ids of the processes it may run in)."""
    ids = registry.own_ids(sessions, session_id, ancestors)
    table = names.load_table(home) if table is None else table
    entry = registry.own_entry(sessions, session_id, ancestors)
    if entry is not None:
        ids.update(chain_ids(session_id, [process_of(entry)], table, entry.name))
    elif session_id and session_id in table and len(table[session_id]) == 3:
        ids.update(chain_ids(session_id, [tuple(p) for p in table[session_id][2]], table))
    return ids


def all_transcripts(identity_):
    """Every transcript of a session: its main ones and all its subagents' (peers.py, memory)."""
    return list(identity_.transcripts) + [s.transcript for s in identity_.subagents]


def subagents_of(transcript):
    """The subagents of one main transcript, newest first, with what their meta files say."""
    if not transcript or not transcript.endswith(TRANSCRIPT_SUFFIX):
        return []
    folder = oscalls.path.join(transcript[:-len(TRANSCRIPT_SUFFIX)], SUBAGENTS_FOLDER)
    try:
        entries = [e for e in oscalls.scandir(folder)
                   if e.name.startswith(SUBAGENT_PREFIX) and e.name.endswith(TRANSCRIPT_SUFFIX)]
    except OSError:
        return []
    stamped = []
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False):
                stamped.append((entry.stat(follow_symlinks=False).st_mtime_ns // 1000000, entry.path, entry.name))
        except OSError:
            continue
    stamped.sort(reverse=True)
    found = []
    for mtime_ms, path, filename in stamped[:MAX_SUBAGENTS]:
        agent_id = filename[len(SUBAGENT_PREFIX):-len(TRANSCRIPT_SUFFIX)]
        meta = _meta(path[:-len(TRANSCRIPT_SUFFIX)] + META_SUFFIX)
        finished = meta.get("finished")
        found.append(Subagent(agent_id, path, finished if isinstance(finished, bool) else None, mtime_ms,
                              _text(meta.get("toolUseId")), _text(meta.get("agentType")),
                              _text(meta.get("description"))))
    return found


def _text(value):
    return value if isinstance(value, str) and value else None


def _meta(path):
    try:
        raw = read_regular(path, MAX_META_BYTES)
    except OSError:
        return {}  # no meta file (yet), or not a regular file
    if raw is None:
        return {}
    try:
        data = loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def is_running(subagent, caller_is_subagent, now_ms, parent_transcripts):
    """Whether a subagent still runs, as seen from a tool call of the main thread or of a subagent.

    2.1.332's meta says `finished`; one that says it runs but has not written for an hour is gone.
    Without `finished` (2.1.197) a subagent runs in the foreground: none runs while its main thread
    makes a call, and a sibling has ended once the parent's transcript holds the result of the call
    that started it (I/O: one search of the parent's tail, only from a subagent's call)."""
    if subagent.finished is not None:
        stale = subagent.modified_ms is not None and now_ms - subagent.modified_ms > STALE_SUBAGENT_MS
        return not subagent.finished and not stale
    if not caller_is_subagent:
        return False
    if not subagent.tool_use_id:
        return True
    needle = ('"tool_use_id":"%s"' % subagent.tool_use_id).encode()
    from . import transcripts  # seam: a subagent's call only; the transcript readers cost ~0.7 ms

    return not any(transcripts.tail_contains(p, needle, RESULT_SCAN_BYTES) for p in parent_transcripts)


def subagent_name(session_name, subagent):
    """How a subagent is named to others: its session, then `subagent-<first 8 of its id>`."""
    label = "%s/subagent-%s" % (session_name or "this session", subagent.agent_id[:8])
    return label + (" (%s)" % subagent.description if subagent.description else "")


def parties(own_identity, agent_id, others, running):
    """(this caller's own transcripts, [Party]) for a judgement made for one tool call.

    own_identity: this session; agent_id: the subagent making the call (None: the main thread);
    others: [(Identity, registry Session)] of the other live sessions in question;
    running(subagent): whether one of this session's subagents still runs (is_running, passed in).
    A session's subagents count as that session for other sessions. Within this session, the
    caller's own transcripts are its own work: for the main thread, its main transcripts and its
    finished subagents'; for a subagent, its own transcript only. Pure but for running."""
    found = []
    for other, session in others:
        found.append(Party(session.session_id, session.name, session.session_id, None,
                           tuple(all_transcripts(other)), session.status != "idle", session.can_message, "session"))
    caller = next((s for s in own_identity.subagents if s.agent_id == agent_id), None) if agent_id else None
    if agent_id is not None:
        mine = (caller.transcript,) if caller else ()
        main_work = list(own_identity.transcripts)
        for subagent in own_identity.subagents:
            if subagent.agent_id == agent_id:
                continue
            if running(subagent):
                found.append(_subagent_party(own_identity, subagent))
            else:
                main_work.append(subagent.transcript)
        found.append(Party(MAIN_THREAD, "%s (%s)" % (own_identity.name or "this session", MAIN_THREAD), None,
                           None, tuple(main_work), True, False, MAIN_THREAD))
        return mine, found
    mine = list(own_identity.transcripts)
    for subagent in own_identity.subagents:
        if running(subagent):
            found.append(_subagent_party(own_identity, subagent))
        else:
            mine.append(subagent.transcript)
    return tuple(mine), found


def _subagent_party(own_identity, subagent):
    return Party("subagent:" + subagent.agent_id, subagent_name(own_identity.name, subagent), None,
                 subagent.agent_id, (subagent.transcript,), True, False, "subagent")


def ancestor_processes():
    """[(pid, process start)] of this hook's ancestors, nearest first (for a session whose registry
    entry is not written yet)."""
    chain = registry.ancestor_chain()
    starts = registry.process_starts(chain)
    return [(pid, starts.get(pid)) for pid in chain]


class Caller:
    """The I/O behind `parties` for one tool call, each read once and only when asked: the other
    live sessions with their checkouts, this session's registry entry and Identity (with the
    payload's transcript), and the parties with the checkout each works in. The guard and the edit
    notice both ask here, so both see the same peers.

    sessions: the registry entries read (live or not); cwd: the call's folder, resolved, or None."""

    def __init__(self, claude, sessions, session_id, agent_id, cwd, transcript_path, now_ms):
        self.claude, self.sessions, self.session_id, self.agent_id = claude, sessions, session_id, agent_id
        self.cwd, self.transcript_path, self.now_ms = cwd, transcript_path, now_ms
        self.tops = {}
        self._ancestors = self._live = self._table = self._own = self._parties = None

    def toplevel(self, path):
        """The checkout of a folder, each folder looked up once."""
        if path not in self.tops:
            self.tops[path] = gitrepo.toplevel(path)
        return self.tops[path]

    def ancestors(self):
        if self._ancestors is None:
            self._ancestors = registry.ancestor_pids()
        return self._ancestors

    def table(self):
        """names.py's table of remembered sessions and their processes."""
        if self._table is None:
            self._table = names.load_table(self.claude)
        return self._table

    def own_entry(self):
        return registry.own_entry(self.sessions, self.session_id, self.ancestors())

    def live_others(self):
        """[(session, its toplevel)] of the live sessions other than this one."""
        if self._live is None:
            others = registry.alive([s for s in self.sessions if s.session_id != self.session_id])
            if others:
                others = [s for s in others if not registry.is_self(s, self.session_id, self.ancestors())]
            self._live = [(s, self.toplevel(s.cwd)) for s in others]
        return self._live

    def own(self):
        """This session's Identity (its ids across /clear, its transcripts and subagents)."""
        if self._own is None:
            found = own(self.claude, self.sessions, self.session_id, self.cwd or "", self.ancestors(),
                        self.table(), self.own_entry(), ancestor_processes)
            transcript = self.transcript_path
            if transcript and transcript not in found.transcripts and oscalls.path.isfile(transcript):
                found = found._replace(transcripts=(transcript,) + found.transcripts,
                                       subagents=tuple(subagents_of(transcript)) + found.subagents)
            self._own = found
        return self._own

    def parties(self, tops=None):
        """(this caller's own transcripts, [(Party, its checkout)]); tops: only the other
        sessions working in these checkouts are read (the edit notice asks about one file's)."""
        if tops is not None:
            wanted = [(s, t) for s, t in self.live_others() if t in tops]
            return self._parties_of(wanted)
        if self._parties is None:
            self._parties = self._parties_of(self.live_others())
        return self._parties

    def _parties_of(self, live):
        """parties() for these live others [(session, checkout)]."""
        folders_of = {}  # peers mostly share one cwd: its project folders found once
        index = process_index(self.table())
        others = [(of_registry(self.claude, s, self.table(), folders_of, index), s, t) for s, t in live]
        mine = self.own()
        caller_is_subagent = self.agent_id is not None

        def running(subagent):
            return is_running(subagent, caller_is_subagent, self.now_ms, mine.transcripts)

        own_transcripts, found = parties(mine, self.agent_id, [(i, s) for i, s, _t in others], running)
        tops = {s.session_id: t for _i, s, t in others}
        return own_transcripts, [(p, tops.get(p.session_id) if p.kind == "session" else self.checkout_of(p))
                                 for p in found]

    def checkout_of(self, party):
        """Where this session's main thread or one of its subagents works: the main thread where its
        registry entry says, a subagent where its transcript began (a subagent runs in a checkout of
        its own as often as in its session's); the caller's checkout when neither says."""
        own_top = self.toplevel(self.cwd) if self.cwd else None
        entry = self.own_entry()
        main_top = self.toplevel(entry.cwd) if entry is not None and entry.cwd else None
        if party.kind == "subagent" and party.transcripts:
            from . import transcripts  # seam: a subagent only; the transcript readers cost ~0.7 ms

            started_in = transcripts.read_head(party.transcripts[0]).cwd
            return self.toplevel(started_in) if started_in else main_top or own_top
        return main_top or own_top

    def parties_in(self, top):
        """[(Party, checkout)] of those working in the checkout `top`."""
        return [(p, t) for p, t in self.parties()[1] if t == top]

    def anyone_else(self):
        """Whether anyone else's work could be at stake: another live session, or (for the main
        thread) a subagent of this session that still runs, or (for a subagent) its session."""
        if self.live_others() or self.agent_id is not None:
            return True
        return any(p.kind != "session" for p, _t in self.parties()[1])

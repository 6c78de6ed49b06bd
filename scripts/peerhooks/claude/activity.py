"""What a session is doing or did: its prompts (history), its edits (transcript tail), its times.

Joins the registry, the history index and transcript heads and tails into small typed records that
peers.py, cold_start.py and the guard render or judge. Reads are bounded by the readers below and by
a budget of transcripts read per run; every prompt put in a record has been cleaned and redacted
(shown_prompt), and every name cleaned (peerhooks.text.peertext): a record is safe to show.
"""
from .. import platform
from ..git import gitrepo, gitstate
from ..startup import oscalls
from ..startup.records import record
from ..state.safefiles import regular_stat
from ..text import peertext
from ..text.redact import redact
from . import editindex, headtailindex, history, identity, names, registry, transcripts
from .budget import Budget
from .editscan import Edit, EditScan
from .formats import DAY_MS, HANDOFF_NAME, PRINT_ENTRYPOINT, SCRATCH_FOLDER, short_id
from .home import checkout_memory_dir

ENDED_WINDOW_DAYS = 7  # a finished session older than a week no longer orients anyone
# Transcripts whose tails are read to find the last finished sessions: a transcript's mtime is only
# an upper bound of its last record's time, so more than `limit` are read, newest mtime first.
MAX_ENDED_CANDIDATES = 40
# Transcripts read (head and tail) per run when the index does not know them: each is at most a
# 256 KB head and a 2 MB tail, under 1 ms when the prompts sit near both ends (as usual) and ~20 ms
# when the whole tail must be parsed, so 24 cost 0.5 s at worst; the rest are read by the next runs
# (the index remembers every one read). The clock stops a slow machine at 0.5 s.
TRANSCRIPT_READS = 24
TRANSCRIPT_READ_SECONDS = 0.5
# A prompt is shown cut to SHOWN_PROMPT_CHARS; the first REDACTED_PROMPT_CHARS are redacted before
# the cut, so a secret that starts before the cut is recognised whole (a longer one, a PEM block, is
# masked by its rule to the end). Redaction runs on these few texts only, never on every line read.
SHOWN_PROMPT_CHARS = 300
REDACTED_PROMPT_CHARS = 1000


def shown_prompt(text):
    """A prompt as peers.py, --json and cold start show it: cleaned onto one line (its control
    characters and escape sequences out, peertext), redacted, cut: cleaned first, so that a secret
    split by a colour code is masked whole."""
    if not text:
        return None
    folded = peertext.one_line(text[:4 * REDACTED_PROMPT_CHARS], REDACTED_PROMPT_CHARS)
    return peertext.one_line(redact(folded), SHOWN_PROMPT_CHARS) or None


def shown_name(name, session_id):
    """A session's name as shown (peertext.name), its short id when it has none or nothing of it is
    left once cleaned."""
    return peertext.name(name) or short_id(session_id)


# One session's prompts and edits, for display.
Activity = record("Activity", [
    "session_id", "name", "cwd",  # str
    "status", "started_ms", "last_active_ms",  # each None when unknown
    "prompt_count",  # None where nothing records it (`claude -p`)
    "opening", "before", "latest",  # prompts (str), each None when there is none to show
    "edits",  # [Edit], newest first, scratch dropped
    "edits_truncated",  # bool: older edits lie beyond the bytes read
    "direction",  # a short prompt after `latest` that changed direction ("stop, revert that"), or None
    "settled",  # [Edit] of files git holds no uncommitted change in now (committed, stashed, reverted)
], defaults=(None, ()))

Ended = record("Ended", [
    "activity",  # its last_active_ms is the transcript's last record
    "ended_ms",  # its recorded exit when it exited, else the last moment it is known alive (end_of)
    "exited",  # True: exited (/exit, /clear); False: stopped without exiting (killed); None: cannot tell
], defaults=(None,))

EndedSearch = record("EndedSearch", [
    "found",  # [Ended], newest end first
    "unread",  # transcripts newer than the last one found that the budget left unread
])


def is_scratch(path, top, temp_root=None):
    """A scratch file: outside the checkout and under the temp folder or a `scratchpad` folder.
    A file inside the checkout is never scratch, even when the checkout itself lives under /tmp."""
    if top and _is_under(path, top):
        return False
    temp_root = temp_root or _temp_root()
    parts = path.replace("\\", "/").split("/")
    return _is_under(path, temp_root) or SCRATCH_FOLDER in parts


def _temp_root():
    """The system temp folder, as tempfile would name it, without importing tempfile (~10 ms of a
    hook's start-up on a plain interpreter): the variables it reads first, else the usual place."""
    for name in ("TMPDIR", "TEMP", "TMP"):
        if oscalls.environ.get(name):
            return _real(oscalls.environ[name])
    if oscalls.name == "nt":
        import tempfile

        return _real(tempfile.gettempdir())
    return _real("/tmp")


def _is_under(path, folder):
    folder = folder.rstrip("/\\")
    return path == folder or path.startswith(folder + oscalls.sep) or path.startswith(folder + "/")


def _real(path):
    try:
        return platform.current().paths.realpath(path)
    except (OSError, ValueError):
        return path


def kept_edits(edits, top):
    """Edits without scratch files; paths resolved so that they compare with the checkout."""
    kept, temp_root = [], None
    for edit in edits:
        # Claude Code writes absolute paths under the session's cwd: one inside the checkout is
        # never scratch and stays as it is; only the others are resolved and judged.
        if top and _is_under(edit.path, top):
            kept.append(edit)
            continue
        resolved = _real(edit.path)
        temp_root = temp_root or _temp_root()
        if not is_scratch(resolved, top, temp_root):
            kept.append(Edit(resolved, edit.at_ms))
    return kept


def _latest_of(*times):
    present = [t for t in times if t is not None]
    return max(present) if present else None


def _prompts(summary, head_opening):
    """(opening, before, latest), shown: from the history summary, the opening from the
    transcript head when history no longer has it."""
    recent = [shown_prompt(text) for text in summary.recent] if summary else []
    latest = recent[-1] if recent else None
    before = recent[-2] if len(recent) > 1 else None
    opening = shown_prompt(summary.opening if summary and summary.opening else head_opening())
    if opening is not None and opening in (before, latest):
        opening = None  # do not show the same prompt twice
    return opening, before, latest


def latest_intent(summary, transcript):
    """(the latest substantive prompt, a later change of direction or None) of a session, shown:
    from its history summary, else its transcript's tail."""
    if summary is not None and summary.recent:
        return shown_prompt(summary.recent[-1]), shown_prompt(summary.direction)
    return shown_prompt(transcripts.read_tail(transcript).latest) if transcript else None, None


NO_EDITS = EditScan([], False)


def describe_live(session, summaries, top, path, scan, heads=None):
    """Activity of a live registry session, from its transcript (path, edit scan; its head and tail
    through `heads`, a HeadTails index, when history does not tell) and history."""
    summary = summaries.get(session.session_id)
    facts = []

    def transcript_facts():
        if not facts:
            facts.append(heads.facts(path) if heads is not None and path else None)
        return facts[0]

    def head_opening():
        found = transcript_facts()
        return headtailindex.opening_of(path, found[0]) if found else None

    opening, before, latest = _prompts(summary, head_opening)
    if latest is None and path:
        found = transcript_facts()
        latest = shown_prompt(headtailindex.latest_of(path, found[1])) if found else None
        if latest == opening:
            latest = None
    edits = kept_edits(scan.edits, top)
    return Activity(
        session_id=session.session_id, name=shown_name(session.name, session.session_id), cwd=session.cwd,
        status=peertext.name(session.status) or None, started_ms=session.started_at_ms,
        last_active_ms=_latest_of(session.updated_at_ms, summary.last_ms if summary else None,
                                  edits[0].at_ms if edits else None),
        # `claude -p` writes no history: its count is unknown, not zero.
        prompt_count=summary.count if summary else (
            None if session.entrypoint == PRINT_ENTRYPOINT else 0),
        opening=opening, before=before, latest=latest, edits=edits, edits_truncated=scan.truncated,
        direction=shown_prompt(summary.direction) if summary and latest else None,
    )


def merged_scan(scans):
    """One EditScan of several transcripts (a session's ids across /clear, its subagents): each file
    once, at its latest edit, newest first."""
    latest = {}
    for scan in scans:
        for edit in scan.edits:
            known = latest.get(edit.path)
            if known is None or (edit.at_ms or 0) > (known.at_ms or 0):
                latest[edit.path] = edit
    edits = sorted(latest.values(), key=lambda e: e.at_ms or 0, reverse=True)
    return EditScan(edits, any(scan.truncated for scan in scans))


def not_ended_ids(home, live, table=None):
    """Ids that must never be shown as ended: every live session's, and the earlier contexts
    (before /clear) of sessions whose process still runs."""
    table = names.load_table(home) if table is None else table
    return {s.session_id for s in live} | identity.earlier_contexts(table, live)


def find_ended(home, top, now_ms, exclude_ids, summaries=None, days=ENDED_WINDOW_DAYS, limit=1,
               live=None, budget=None, heads=None):
    """Sessions that ended in this checkout within `days`, newest end first: not live, not an
    earlier context of a live session, not this one, one per process; and how many transcripts
    that might have ended later were left unread by the budget (TRANSCRIPT_READS a run).

    The end is what the transcript says (its recorded exit, else its last record), not its mtime:
    a transcript touched later (copied, synced, appended to) must not displace the session that
    really ended last. exclude_ids: this session's ids (payload and registry). live: the live
    registry sessions (read here when not given). heads: the run's HeadTails index (loaded here
    when not given)."""
    if not top:
        return EndedSearch([], 0)
    live = registry.live_sessions(home) if live is None else live
    table = names.load_table(home)
    heads = heads or headtailindex.HeadTails(home, now_ms)
    found, unread = _finished_here(home, top, now_ms - days * DAY_MS, set(exclude_ids) | not_ended_ids(home, live, table),
                                   heads, budget or Budget(TRANSCRIPT_READS, TRANSCRIPT_READ_SECONDS), limit)
    heads.save()
    summaries = history.load(home, now_ms) if summaries is None else summaries
    shown = list(_one_per_process(found, table))[:limit]
    results = [_ended(home, top, now_ms, c, summaries.get(c.session_id), table.get(c.session_id)) for c in shown]
    newest_end = shown[-1].end_ms if len(shown) >= limit else None
    return EndedSearch(results, sum(1 for mtime_ms in unread if newest_end is None or mtime_ms >= newest_end))


Candidate = record("Candidate", "end_ms session_id path head tail", doc="""A transcript of a session
    that ended in the checkout: end_ms, what the transcript says of its end (its recorded exit,
    else its last record, else its mtime: never later than the mtime), its head and tail.""")


def _finished_here(home, top, since_ms, exclude, heads, budget, limit):
    """(Candidates newest end first, the mtimes of transcripts the budget left unread), read newest
    mtime first while a later end can still be found."""
    candidates, unread, tops = [], [], {}
    for mtime_ms, session_id, path in transcripts.transcripts_in(home, top, since_ms):
        ends = sorted((c.end_ms for c in candidates), reverse=True)
        if len(ends) >= limit and mtime_ms < ends[limit - 1]:
            break  # no later transcript can have ended after the ones already found
        if len(candidates) + len(unread) >= MAX_ENDED_CANDIDATES:
            break
        if session_id in exclude:
            continue
        facts = heads.facts(path, budget)
        if facts is None:
            unread.append(mtime_ms)
        elif _person_worked_here(facts[0], top, tops):
            head, tail = facts
            end_ms = (tail.exited_ms if tail.exited else None) or tail.ended_at_ms or mtime_ms
            candidates.append(Candidate(end_ms, session_id, path, head, tail))
    candidates.sort(key=lambda c: (c.end_ms, c.session_id), reverse=True)
    return candidates, unread


def _person_worked_here(head, top, tops):
    """Whether a transcript's head says a person's session started in this checkout. `claude -p`
    runs are one-shot scripts (CI, other tools, these hooks' own tests): shown as "the last
    session" they would hide the last session a person worked in. tops: {cwd: toplevel} so far."""
    if head.cwd is None or head.entrypoint == PRINT_ENTRYPOINT:
        return False
    if head.cwd not in tops:
        tops[head.cwd] = gitrepo.toplevel(head.cwd)
    return tops[head.cwd] == top


def _one_per_process(candidates, table):
    """The candidates but the earlier contexts (before /clear) of a process already listed."""
    processes = set()
    for candidate in candidates:
        entry = table.get(candidate.session_id)
        process = names.process_of(entry) if entry else None
        if process is not None:
            if process in processes:
                continue
            processes.add(process)
        yield candidate


def _ended(home, top, now_ms, candidate, summary, entry):
    """The Ended of a candidate: its prompts (from history, else its transcript), its edits, and its
    end with the best evidence of it (end_of)."""
    session_id, path, head, tail = candidate.session_id, candidate.path, candidate.head, candidate.tail
    scan = editindex.recent_edits_of(home, [path], now_ms)[path]
    # A finished session shows its opening and latest prompts only, so `before` is not shown.
    opening = shown_prompt((summary.opening if summary else None) or headtailindex.opening_of(path, head))
    latest = shown_prompt((summary.recent[-1] if summary and summary.recent else None)
                          or headtailindex.latest_of(path, tail))
    last_record_ms = tail.ended_at_ms or candidate.end_ms
    activity = Activity(
        session_id=session_id, name=shown_name(entry[0] if entry else None, session_id), cwd=head.cwd, status=None, started_ms=head.started_at_ms, last_active_ms=last_record_ms,
        prompt_count=summary.count if summary else 0, opening=None if latest == opening else opening,
        before=None, latest=latest, edits=kept_edits(scan.edits, top), edits_truncated=scan.truncated,
    )
    ended_ms, exited = end_of(tail, last_record_ms, names.last_seen_ms(entry))
    return Ended(activity, ended_ms, exited)


def end_of(tail, last_record_ms, seen_ms=None):
    """(ended_ms, exited) of a finished session, from its transcript's Tail: the moment of its
    recorded exit when it exited (exited True); else the last moment it is known alive, its last
    record or when peerhooks last saw it live (seen_ms), whichever is later, with exited False when
    it stopped without exiting (its client records every exit and recorded none: it was killed)
    and None when that cannot be told (a client that records no exit but a typed `/exit`, or an
    exit recorded without its moment). The process's own exit is recorded nowhere."""
    if tail.exited and tail.exited_ms is not None:
        return tail.exited_ms, True
    known = [t for t in (last_record_ms, seen_ms) if t is not None]
    return (max(known) if known else None), (False if tail.exited is False else None)


Handoff = record("Handoff", [
    "path",
    "modified_ms",
    "stale",  # bool: older than the session it would hand off from
])



def worked_until(ended, summary):
    """The last moment a finished session worked: its last prompt (history) or its last change of
    a file other than a handoff, whichever is later; its last record when neither is known. A handoff
    written before that is not where the session left off, however late in the session."""
    times = [summary.last_ms] if summary is not None and summary.last_ms is not None else []
    times += [e.at_ms for e in list(ended.activity.edits) + list(ended.activity.settled)
              if e.at_ms is not None and oscalls.path.basename(e.path) != HANDOFF_NAME]
    return max(times) if times else ended.activity.last_active_ms


def find_handoff(top, memory, worked_until_ms):
    """HANDOFF.md at the repo root or in the checkout's memory folder (None: none), the newer;
    stale when it is older than the last moment the session it follows worked (worked_until): an
    early handoff in a long session is not current. Only a regular file inside its own folder
    counts: a committed `HANDOFF.md -> ~/.aws/credentials` is no handoff."""
    candidates = [(oscalls.path.join(top, HANDOFF_NAME), top)]
    if memory:
        candidates.append((oscalls.path.join(memory, HANDOFF_NAME), memory))
    best = None
    for candidate, root in candidates:
        info = regular_stat(candidate, (root,))
        if info is None:
            continue
        modified_ms = int(info.st_mtime * 1000)
        if best is None or modified_ms > best[1]:
            best = (candidate, modified_ms)
    if best is None:
        return None
    stale = worked_until_ms is not None and best[1] < worked_until_ms
    return Handoff(best[0], best[1], stale)


def sessions_under(sessions, folder):
    """Registry sessions whose cwd lies in or below a folder (realpath)."""
    root = _real(folder)
    return [s for s in sessions if _is_under(_real(s.cwd), root)]


def group_by_checkout(sessions):
    """{checkout toplevel, or None outside git: [registry sessions]}."""
    groups = {}
    for session in sessions:
        groups.setdefault(gitrepo.toplevel(session.cwd), []).append(session)
    return groups


Unread = record("Unread", [
    "history_bytes",  # of history.jsonl within the window, not read by any run yet
    "transcripts",  # that might hold a later finished session, not read in this run's budget
], doc="""What a run's budget did not reach: said in one line, read by the next runs.""")

# Everything peers.py tells about one checkout.
Checkout = record("Checkout", [
    "top",  # the toplevel, None outside git
    "peers",  # [Activity]
    "ended",  # Ended or None
    "handoff",  # Handoff or None
    "unread",  # Unread
])


GIT_TIMEOUT_SECONDS = 1.0  # peers.py's one `git status`; without an answer the edits stay as read
CHECKED_EDITS = 8  # per session, newest first: the report names 5 and counts the rest
# A ref moved this close after an edit may still predate it: mtimes and transcript times come from
# two clocks of one machine, the transcript's written when the call was made, before the write.
REF_SLACK_MS = 2000


def _changed_after(edit, moved_ms, mtimes):
    """Whether an edit's change cannot have been committed or stashed: it was made after git last
    moved a ref (by its transcript's time), or its file was written after that (by its mtime: the
    same clock as the refs'). Either way only a revert could have undone it. mtimes: {path: ms or
    None}, each file stat'ed once however many sessions edited it."""
    if edit.at_ms is not None and edit.at_ms > moved_ms + REF_SLACK_MS:
        return True
    if edit.path not in mtimes:
        try:
            mtimes[edit.path] = oscalls.stat(edit.path).st_mtime_ns // 1000000
        except (OSError, ValueError):
            mtimes[edit.path] = None  # gone: an uncommitted deletion or never there; git says which
    mtime_ms = mtimes[edit.path]
    return mtime_ms is not None and mtime_ms > moved_ms


def settled_by_git(activities, top, timeout=GIT_TIMEOUT_SECONDS):
    """The activities with each edited file of the checkout that git now holds no uncommitted
    change in (its change committed, stashed or reverted) moved from `edits` to `settled`, from
    one `git status` of those files; unchanged when git does not answer in time, or when every
    one of them changed after git last moved a ref (then only a revert could have undone one)."""
    prefix = top.rstrip(oscalls.sep) + oscalls.sep if top else None
    checked = {id(a): [e for e in a.edits[:CHECKED_EDITS] if prefix and e.path.startswith(prefix)]
               for a in activities}
    wanted = sorted({e.path[len(prefix):] for edits in checked.values() for e in edits})
    if not wanted:
        return list(activities)
    moved = gitrepo.refs_moved_ms(top)
    mtimes = {}
    if moved is not None and all(_changed_after(e, moved, mtimes) for edits in checked.values() for e in edits):
        return list(activities)  # nothing can have been committed or stashed since: no git needed
    states = gitstate.read(top, timeout, paths=wanted)
    if states is None:
        return list(activities)
    found = []
    for activity in activities:
        settled = {e.path for e in checked[id(activity)] if gitstate.state_of(states, e.path[len(prefix):]) is None}
        found.append(activity._replace(edits=[e for e in activity.edits if e.path not in settled],
                                       settled=[e for e in activity.edits if e.path in settled]))
    return found


def describe_checkout(home, top, live, self_ids, now_ms, summaries, with_ended=True, all_live=None):
    """Live peers (already filtered to this checkout, self excluded) and the last ended session.
    all_live: every live registry session (never shown as ended, even when not listed here).
    A live peer is its chain of ids across /clear, with its subagents (identity)."""
    folders_of, table = {}, names.load_table(home)
    index = identity.process_index(table)  # each peer's chain looked up among the entries of its pid
    identities = [identity.of_registry(home, s, table, folders_of, index) for s in live]
    scans = editindex.recent_edits_of(home, [p for i in identities for p in identity.all_transcripts(i)], now_ms)
    heads = headtailindex.HeadTails(home, now_ms)
    summaries.prefetch([s.session_id for s in live])
    peers = [describe_live(s, summaries, top, i.transcripts[0] if i.transcripts else None,
                           merged_scan([scans[p] for p in identity.all_transcripts(i) if p in scans]), heads)
             for s, i in zip(live, identities)]
    ended = handoff = None
    unread_transcripts = 0
    if with_ended and top:
        exclude = set(self_ids) | {s.session_id for s in live}
        search = find_ended(home, top, now_ms, exclude, summaries, live=all_live, heads=heads)
        unread_transcripts = search.unread
        if search.found:
            ended = search.found[0]
            handoff = find_handoff(top, checkout_memory_dir(home, top, top),
                                   worked_until(ended, summaries.get(ended.activity.session_id)))
    heads.save()
    if top:
        settled = settled_by_git(peers + ([ended.activity] if ended else []), top)
        peers = settled[:len(peers)]
        if ended:
            ended = ended._replace(activity=settled[-1])
    return Checkout(top, peers, ended, handoff,
                    Unread(summaries.unread_bytes, unread_transcripts))

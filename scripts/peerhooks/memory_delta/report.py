"""memory_delta.py's slow path: who wrote each changed file, what it is about, and the notice.

Runs only when the listing differs from the session's stamp (see watch.py). Who wrote a file comes
from transcript tails, each read once and only back to the earliest moment that matters: this
session's own write (an edit tool on that exact path, or a Bash command writing it) after the file's
previous change hides it, unless a peer wrote it later still (this session created it, a peer then
edited it). Otherwise the writer is the peer with the latest write, else the session the memory
file's `originSessionId` names, else "another session". A note's name, its writer's name and its
description are the peers' to choose: each is shown through peerhooks.text.peertext, after `- `.
"""
import os
import time

from ..claude import identity, registry, transcripts
from ..claude.formats import BASH_TOOL, SUBAGENTS_FOLDER, TRANSCRIPT_SUFFIX, short_id
from ..claude.home import transcript_path
from ..claude.names import load_table
from ..shell import cmdline
from ..startup.records import record
from ..state.safefiles import is_private_folder, read_regular
from ..text import peertext
from ..text.redact import redact
from ..text.timeutil import iso_to_ms
from ..wrappers import code_writes
from . import watch

MAX_LINES = 5  # the notice shows this many files, then how many more and where
DESCRIPTION_CHARS = 160
HEAD_BYTES = 8 * 1024  # frontmatter and the first heading sit in a file's first lines
MAX_PEER_TRANSCRIPTS = 16  # newest first; more writers than this on one file's change is not real
ANOTHER_SESSION = "another session"

Write = record("Write", "path at_ms is_pattern shell", (False,))
Write.__doc__ = """A tool call that wrote a path (or, for a Bash glob, any path matching it); shell:
a Bash command, the only kind of call that can also remove a file (`rm`, `mv`)."""

Summary = record("Summary", "description origin_session_id")

Notice = record("Notice", "label folder at_ms clock who description")

Removed = record("Removed", "label folder clock who", doc="""A watched file gone since the last
    listing: where it was, when it went (the removing call's time, else the folder's change,
    shown as `since HH:MM` when only the last listing bounds it) and who removed it.""")

Where = record("Where", "home user_home session_id cwd checkout project_root memory_folder "
                        "transcript_hint")
Where.__doc__ = """This session and the folders it watches."""

Root = record("Root", "folder prefix")
Root.__doc__ = """A watched folder and how paths under it are shown (relative, after prefix)."""


# -- Who wrote it (pure, but for one isdir) -------------------------------------------------------

EDIT_TOOLS = frozenset(["Write", "Edit", "MultiEdit", "NotebookEdit"])


def bash_write_targets(command, cwd, user_home):
    """[(path, is_pattern)] that a Bash command line writes, read by the shared interpreter
    (peerhooks.shell.cmdline); the one look at the filesystem: whether a copy's destination is a folder."""
    return cmdline.write_targets(command, cwd, user_home, os.path.isdir, code_writes=code_writes)


def writes_of(calls, user_home):
    """The Writes in a transcript's tool calls: edit tools' paths, Bash commands' targets."""
    writes = []
    for call in calls:
        if call.at_ms is None:
            continue
        if call.name in EDIT_TOOLS and call.file_path:
            writes.append(Write(os.path.normpath(call.file_path), call.at_ms, False))
        elif call.name == BASH_TOOL and call.command:
            for path, is_pattern in bash_write_targets(call.command, call.cwd, user_home):
                writes.append(Write(path, call.at_ms, is_pattern, True))
    return writes


class Writes:
    """A transcript's Writes indexed by path (the latest time each), globs apart: a notice asks
    about every changed file (up to watch.WATCHED_NOTES of them) against every writer, so
    each question costs a lookup, not a pass over thousands of writes."""

    __slots__ = ("latest", "patterns", "shell")

    def __init__(self, writes, with_shell=True):
        writes = list(writes)
        self.latest, self.patterns = {}, []
        # The Bash calls' writes apart: only those can have removed a file (removed_as).
        self.shell = Writes([w for w in writes if w.shell], False) if with_shell else None
        for write in writes:
            if write.is_pattern:
                self.patterns.append(write)
            elif write.at_ms > self.latest.get(write.path, write.at_ms - 1):
                self.latest[write.path] = write.at_ms

    def last_at(self, paths, after_ms):
        """The time of the latest write to any of `paths` (spellings of one file) at or after after_ms."""
        found = [self.latest[path] for path in paths if path in self.latest]
        latest = max(found) if found and max(found) >= after_ms else None
        for write in self.patterns:
            if write.at_ms < after_ms or (latest is not None and write.at_ms <= latest):
                continue
            from fnmatch import fnmatchcase  # imports re (~6 ms under -S): only for a Bash glob

            if any(fnmatchcase(path, write.path) for path in paths):
                latest = write.at_ms
        return latest


def _indexed(writes):
    return writes if isinstance(writes, Writes) else Writes(writes)


def last_write_at(writes, paths, after_ms):
    """The time of the latest write to any of `paths` (spellings of one file) at or after after_ms."""
    return _indexed(writes).last_at(paths, after_ms)


def writer(paths, after_ms, own_writes, peer_writes, origin_name):
    """Who last changed a file after after_ms: None when it was this session, else a name.

    peer_writes: [(name, [Write])]. A peer's write later than this session's wins (this session
    created the file, a peer edited it); with no write seen, the memory file's origin, else
    "another session".
    """
    own_at = last_write_at(own_writes, paths, after_ms)
    peer_at, peer_name = None, None
    for name, writes in peer_writes:
        at = last_write_at(writes, paths, after_ms)
        if at is not None and (peer_at is None or at > peer_at):
            peer_at, peer_name = at, name
    if own_at is not None and (peer_at is None or own_at >= peer_at):
        return None
    return peer_name or origin_name or ANOTHER_SESSION


# -- What a file is about (pure) ----------------------------------------------------------------

def decode_head(raw, complete):
    """Text of a file's first bytes, or None for a binary file (NUL bytes, not UTF-8). A read cut
    at the limit may end inside a character; that tail is dropped."""
    if b"\0" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if complete or error.start < len(raw) - 3:
            return None
        return raw[:error.start].decode("utf-8")


def _unquote(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def summarize(text):
    """The description (frontmatter `description:`, else the first line of text after a leading
    Markdown heading, else that heading) and the `originSessionId` (top level or under
    `metadata:`) of a memory or rule file. A rule file's heading is its title (`# House rules`),
    which says nothing of what changed in it."""
    lines = text.splitlines()
    body, description, origin = lines, None, None
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() in ("---", "..."):
                front, body = lines[1:end], lines[end + 1:]
                description, origin = _front_matter(front)
                break
    if not description:
        heading = None
        for line in body:
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("#") and heading is None and description is None:
                heading = stripped.lstrip("#").strip()
                continue
            description = stripped.lstrip("#").strip()
            break
        description = description or heading
    return Summary(" ".join((description or "").split()), origin)


def _front_matter(lines):
    description, origin = None, None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if description is None and stripped.startswith("description:"):
            value = stripped[len("description:"):].strip()
            if value[:1] in ("|", ">"):  # a block scalar: the more-indented lines below
                indent = len(line) - len(line.lstrip())
                block = []
                for following in lines[index + 1:]:
                    if following.strip() and len(following) - len(following.lstrip()) <= indent:
                        break
                    block.append(following.strip())
                value = " ".join(block)
            description = _unquote(value)
        elif origin is None and stripped.startswith("originSessionId:"):
            origin = _unquote(stripped[len("originSessionId:"):]) or None
    return description, origin


# -- The notice (pure) --------------------------------------------------------------------------

def shorten_home(path, user_home):
    if user_home and (path == user_home or path.startswith(user_home.rstrip(os.sep) + os.sep)):
        return "~" + path[len(user_home.rstrip(os.sep)):]
    return path


def watched_roots(memory_folder, checkout, home, user_home):
    """Memory notes show relative to their folder, checkout rules to the checkout, the Claude
    home's rules with the home spelled out (`~/.claude/CLAUDE.md`)."""
    roots = [Root(memory_folder, "")] if memory_folder else []
    if checkout:
        roots.append(Root(checkout, ""))
    roots.append(Root(home, shorten_home(home, user_home).rstrip(os.sep) + os.sep))
    return roots


def place(path, roots):
    """(label, folder) of a watched path: relative to the most specific root that holds it."""
    best = None
    for root in roots:
        folder = root.folder.rstrip(os.sep)
        if path.startswith(folder + os.sep) and (best is None or len(folder) > len(best.folder)):
            best = root._replace(folder=folder)
    if best is None:
        return path, os.path.dirname(path)
    return best.prefix + os.path.relpath(path, best.folder), best.folder


HEADER = ("Memory and rules changed by other sessions since this one started — read them before "
          "relying on what you remember:")


OVERFLOW_LINE = ("- %s holds more than %d notes: only the first %d it lists are watched, changes to the "
                 "others are not told")


def render(notices, removals, folder_names, limit=MAX_LINES, overflow=None):
    """The notice: newest changes first, then removals, `limit` lines, then `+N more in <folder>`
    for the rest, one line per folder. removals: [Removed]; folder_names: {folder: shown};
    overflow: the memory folder when it holds more notes than are watched (told once). Descriptions
    are cleaned, then redacted (a note may hold a key), then cut."""
    if not notices and not removals and not overflow:
        return ""
    items = [(n.folder, "- %s (%s, %s)%s" % (peertext.clean(n.label), n.clock, peertext.name(n.who),
                                             ": " + _description(n.description) if n.description else ""))
             for n in sorted(notices, key=lambda n: (-n.at_ms, n.label))]
    items += [(r.folder, "- removed: %s (%s, %s)" % (peertext.clean(r.label), r.clock, peertext.name(r.who)))
              for r in removals]
    lines = [HEADER] + [line for _, line in items[:limit]]
    hidden = {}
    for folder, _ in items[limit:]:
        hidden[folder] = hidden.get(folder, 0) + 1
    for folder, count in hidden.items():
        lines.append("- +%d more in %s" % (count, peertext.clean(folder_names.get(folder, folder))))
    if overflow:
        lines.append(OVERFLOW_LINE % (peertext.clean(folder_names.get(overflow, overflow)), watch.WATCHED_NOTES,
                                      watch.WATCHED_NOTES))
    return "\n".join(lines) + "\n"


def _description(text):
    """A note's description as shown: one line, cleaned before it is redacted so that a key split by a
    control character is masked whole, then cut."""
    return peertext.one_line(redact(peertext.one_line(text, 4 * DESCRIPTION_CHARS)), DESCRIPTION_CHARS)


# -- The reads (I/O at the edges) ----------------------------------------------------------------

def read_summary(path, roots):
    """The Summary of a file's head, or None when it cannot be read, is not a regular file, leads
    by a symlink out of its root (one of roots: the memory folder, the checkout, the Claude home),
    or is not text."""
    try:
        raw = read_regular(path, HEAD_BYTES, inside=roots)
    except (OSError, ValueError):
        return None
    text = decode_head(raw, complete=len(raw) < HEAD_BYTES)
    return summarize(text) if text is not None else None


def session_start_ms(sessions, session_id, ancestors, own_transcript):
    """When this session (its current context) started: the registry's `startedAt` when the
    entry carries this session id, else the time of the transcript's first record."""
    entry = registry.own_entry(sessions, session_id, ancestors)
    if entry is not None and entry.session_id == session_id and entry.started_at_ms is not None:
        return entry.started_at_ms
    for head_record in transcripts.head_records(own_transcript) if own_transcript else ():
        started = iso_to_ms(head_record.get("timestamp"))
        if started is not None:
            return started
    return None


def _with_subagents(path, since_ms):
    """A transcript and its subagents' transcripts touched since since_ms (their writes are the
    session's own)."""
    paths = [path]
    try:
        entries = list(os.scandir(os.path.join(path[:-len(TRANSCRIPT_SUFFIX)], SUBAGENTS_FOLDER)))
    except (OSError, ValueError):
        return paths
    for entry in entries:
        if entry.name.endswith(TRANSCRIPT_SUFFIX):
            try:
                if entry.stat().st_mtime_ns // 1000000 >= since_ms:
                    paths.append(entry.path)
            except OSError:
                continue
    return paths


def _writes_since(path, since_ms, user_home):
    writes = []
    for one in _with_subagents(path, since_ms):
        writes += writes_of(transcripts.tool_calls_since(one, since_ms).calls, user_home)
    return writes


def _modified_since(path, since_ms):
    try:
        mtime_ms = os.stat(path).st_mtime_ns // 1000000
    except OSError:
        return None
    return mtime_ms if mtime_ms >= since_ms else None


def peer_transcripts(home, sessions, own_ids, folders_of, own_transcript, since_ms):
    """[(name, path)] of other sessions' transcripts written since since_ms, newest first: every
    live session's, and the recent ones in this checkout's project folders (ended sessions)."""
    table = load_table(home)
    names = {k: v[0] for k, v in table.items() if v[0]}  # ended sessions keep the name their peers knew
    names.update((session.session_id, session.name) for session in sessions)
    candidates = {}
    live = set(registry.alive([s for s in sessions if s.session_id not in own_ids]))  # one question for every pid
    for session in sessions:
        if session.session_id in own_ids:
            continue
        if session in live:  # every transcript of its chain of ids across /clear
            for path in identity.of_registry(home, session, table).transcripts:
                candidates[path] = session.name
    for folder in {f for f in folders_of if f}:
        for _, session_id, path in transcripts.transcripts_in(home, folder, since_ms):
            if session_id not in own_ids and path not in candidates:
                candidates[path] = names.get(session_id) or "session " + short_id(session_id)
    recent = []
    for path, name in candidates.items():
        if own_transcript and path == own_transcript:
            continue
        mtime_ms = _modified_since(path, since_ms)
        if mtime_ms is not None:
            recent.append((mtime_ms, path, name))
    recent.sort(reverse=True)
    return [(name, path) for _, path, name in recent[:MAX_PEER_TRANSCRIPTS]]


def _spellings(path):
    """The ways a transcript may name a file: as listed, and with symlinks resolved."""
    spellings = {os.path.normpath(path)}
    try:
        spellings.add(os.path.realpath(path))
    except (OSError, ValueError):
        pass
    return spellings


def removed_as(removal, roots, peer_writes):
    """How a removal is told: the peer whose call last wrote or removed that path after the
    previous listing (a Bash `rm`, read by the shared interpreter), and when; else the folder's
    last change, when it is later than the listing; else only the listing's time bounds it."""
    label, folder = place(removal.path, roots)
    listed_ms = removal.previous_ms + watch.CLOCK_SLACK_MS  # the file was there at the listing
    at_ms, who = None, None
    for name, writes in peer_writes:
        at = _indexed(writes).shell.last_at(_spellings(removal.path), listed_ms)
        if at is not None and (at_ms is None or at > at_ms):
            at_ms, who = at, name
    if at_ms is None:
        at_ms = _modified_since(os.path.dirname(removal.path), listed_ms)
    clock = _clock(at_ms) if at_ms is not None else "since " + _clock(listed_ms)
    return Removed(label, folder, clock, who or ANOTHER_SESSION)


def _clock(ms):
    return time.strftime("%H:%M", time.localtime(ms / 1000.0))


def announced_by_the_client(path, previous, memory_folder):
    """Whether Claude Code itself tells the session about this change: it loaded the rule files
    at start and, on the next prompt, adds "Note: <path> was modified … Here are the relevant
    changes" (seen on 2.1.197 and 2.1.332 for CLAUDE.md, CLAUDE.local.md, .claude/rules/*.md and the
    home's CLAUDE.md). A rule file that appeared after our last listing was never loaded, so that
    one is ours to tell; memory notes are never announced by the client."""
    in_memory = memory_folder and os.path.dirname(path) == memory_folder.rstrip(os.sep)
    if in_memory:
        return False
    return previous is None or path in previous.files


def notice(seen, where):
    """The text to print for a listing that differs from the stamp ("" when nothing to say)."""
    sessions = registry.read_sessions(where.home)
    ancestors = registry.ancestor_pids()
    hint = where.transcript_hint
    own_transcript = hint if hint and os.path.isfile(hint) else \
        transcript_path(where.home, where.session_id, where.cwd)
    since_ms = None
    if seen.previous is None:
        since_ms = session_start_ms(sessions, where.session_id, ancestors, own_transcript)
        if since_ms is None:
            since_ms = seen.listed_at_ms  # nothing tells when this session began: start from now
    changed, removed, summaries = _to_consider(seen, where, since_ms)
    overflow = where.memory_folder.rstrip(os.sep) if (
        seen.overflow and where.memory_folder and not (seen.previous and seen.previous.overflow_told)) else None
    if not changed and not removed:
        folder_names = {overflow: shorten_home(overflow, where.user_home)} if overflow else {}
        return render([], [], folder_names, overflow=overflow)
    scan_from = min([c.previous_ms for c in changed] + [r.previous_ms for r in removed])
    own_writes = Writes(_writes_since(own_transcript, scan_from, where.user_home) if own_transcript else [])
    removed = [r for r in removed if last_write_at(own_writes, _spellings(r.path), r.previous_ms) is None]
    own_ids = identity.own_ids(where.home, sessions, where.session_id, ancestors)
    peer_writes = _peer_writes(where, sessions, own_ids, own_transcript, scan_from) if changed or removed else []
    roots = watched_roots(where.memory_folder, where.checkout, where.home, where.user_home)
    names = {s.session_id: s.name for s in sessions}
    notices = [n for n in (_notice_of(change, summaries[change.path], names, own_ids, own_writes, peer_writes, roots)
                           for change in changed) if n is not None]
    removals = [removed_as(removal, roots, peer_writes) for removal in removed]
    folder_names = {root.folder.rstrip(os.sep): shorten_home(root.folder.rstrip(os.sep), where.user_home)
                    for root in roots}
    return render(notices, removals, folder_names, overflow=overflow)


def _to_consider(seen, where, since_ms):
    """(changes, removals, {path: Summary}) worth telling: not announced by the client itself, and
    readable as text (a change the notice cannot describe is not told)."""
    changed, removed = watch.changes(seen.listing, seen.previous, since_ms,
                                      gone=lambda path: not os.path.lexists(path))
    changed = [change for change in changed
               if not announced_by_the_client(change.path, seen.previous, where.memory_folder)]
    roots = (where.memory_folder, where.checkout, where.home)
    summaries = {change.path: read_summary(change.path, roots) for change in changed}
    return [change for change in changed if summaries[change.path] is not None], removed, summaries


def _peer_writes(where, sessions, own_ids, own_transcript, scan_from):
    """[(name, Writes)] of the other sessions' transcripts written since scan_from."""
    return [(name, Writes(_writes_since(path, scan_from, where.user_home)))
            for name, path in peer_transcripts(where.home, sessions, own_ids, (where.project_root, where.checkout),
                                               own_transcript, scan_from)]


def _notice_of(change, summary, names, own_ids, own_writes, peer_writes, roots):
    """The Notice of one change, or None when this session made it. names: {session id: name} of
    the registry's sessions, for a memory file's origin."""
    origin = summary.origin_session_id
    origin_name = names.get(origin) if origin and origin not in own_ids else None
    who = writer(_spellings(change.path), change.previous_ms, own_writes, peer_writes, origin_name)
    if who is None:
        return None
    label, folder = place(change.path, roots)
    at_ms = change.mtime_ns // 1000000
    return Notice(label, folder, at_ms, _clock(at_ms), who, summary.description)


# -- Housekeeping on a session's first prompt -----------------------------------------------------

def sweep_stamps(state_folder, home, now_ms):
    """Delete stamps of sessions gone for 30 days (run once per session, on its first prompt)."""
    folder = watch.stamp_folder(state_folder)
    if not is_private_folder(folder, watch.STAMP_LEVELS):
        return  # missing, or a link: nothing of ours is removed through it
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
    except OSError:
        return
    described = []
    for entry in entries:
        try:
            described.append((entry.path, entry.name[:-len(".json")], entry.stat().st_mtime_ns // 1000000))
        except OSError:
            continue
    if not any(now_ms - mtime_ms > watch.STAMP_MAX_AGE_MS for _, _, mtime_ms in described):
        return
    live_ids = {session.session_id for session in registry.live_sessions(home)}
    for path in watch.expired_stamps(described, now_ms, live_ids):
        try:
            os.unlink(path)
        except OSError:
            continue

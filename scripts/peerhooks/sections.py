"""Cold-start material as named sections, and which of them a start should print.

A section's fingerprint is the SHA-256 of its body, so a body must not change by itself between
runs: no relative times, no pids, no unstable order, abbreviated hashes of fixed length. Otherwise
every start would be "changed" and the diff would be noise.

The top half is pure (fingerprints, what changed, packing into the output budget, rendering); the
gatherers below it read files and run at most one `git` process (`git log`, and only when HEAD
moved; worktrees, the branch and the HEAD commit are read from the filesystem).
"""
import hashlib
import json
import os
from typing import NamedTuple, Optional, Tuple

from . import activity, gitrepo, registry
from .atomic import write_atomically
from .home import checkout_memory_dir, state_dir
from .intent import one_line
from .report import display_path
from .timeutil import ms_to_utc

BUDGET_CHARS = 9000  # Claude Code cuts hook output at 10,000 characters into a preview
SECTION_MAX_CHARS = 6000  # one section always fits the budget alone, so none stays pending forever
BANNER = "━━━ %s ━━━"
NO_NEW_MATERIAL = ("No new orientation material since the last session; "
                   "the prior context remains authoritative.")
CONTINUES = ("Session continues (%s): orientation material was given at its start; "
             "that context remains authoritative.")
FULL_HEADER = "Cold start: full orientation (%s)."
DIFF_HEADER = "Cold start: orientation material changed since this agent last started here."
BASELINE_LINE = "Diff baseline last consumed at %s (UTC)"
LEFT_OUT_LINE = "Left out to stay under %d characters (shown at the next start): %s."
EMPTY_WORKSPACE = "(no orientation material in this workspace)"

RULE_HASH_CHARS = 16  # 64 bits: enough to see which file changed; the model reads the file itself
MAX_RULE_FILES = 200  # a rules tree larger than this is a mistake; list a bounded, stable prefix
MEMORY_INDEX_LINES = 40  # Claude Code itself loads the first 200 lines; the head is what orients
HANDOFF_LINES = 60  # a handoff is written to be read first; its head carries the plan
HANDOFF_NAME = activity.HANDOFF_NAME
RECENT_COMMITS = 15  # about a day of work on a busy branch
COMMIT_HASH_CHARS = 12  # fixed, unlike %h, which grows with the object count and would churn
COMMITS_CACHE_NAME = "cold-start-commits.json"
COMMITS_CACHE_FORMAT = 1  # bump when commits_body changes, so old bodies are not reused
COMMITS_CACHE_CHECKOUTS = 32  # checkouts remembered; the oldest entry goes first
MAX_ENDED_SESSIONS = 5  # a week of finished sessions; the newest orient, older ones are history
SHOWN_EDITS = 8  # the newest files orient; the count of the rest is enough
CONFIG_PATH = os.path.join(".claude", "cold-start.json")
MAX_USER_SECTIONS = 20  # keeps the "left out" line short enough that one section always fits
MAX_USER_KEY_CHARS = 64
DEFAULT_USER_LINES = 40
MAX_USER_LINES = 500

TITLES = {  # the built-in sections in display order; user sections follow, titled by their key
    "rules": "Rules",
    "memory_index": "Memory index",
    "handoff": "Handoff",
    "recent_commits": "Recent commits",
    "worktrees": "Worktrees",
    "ended_sessions": "Ended sessions",
}


class Section(NamedTuple):
    key: str
    title: str
    body: str  # empty: neither printed nor recorded


class Emission(NamedTuple):
    text: str
    printed: Tuple[str, ...]  # section keys shown, whose fingerprints may be recorded
    left_out: Tuple[str, ...]  # changed, but did not fit: still pending


def section(key, body, title=None):
    return Section(key, title or TITLES.get(key, key), body or "")


def fingerprint(body):
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def changed_sections(old_fingerprints, new_sections):
    """Keys of the non-empty sections whose fingerprint is new or differs, in section order."""
    return [s.key for s in new_sections
            if s.body and old_fingerprints.get(s.key) != fingerprint(s.body)]


def fingerprints_to_record(old_fingerprints, new_sections, printed):
    """The partition after a start: printed sections at their new fingerprint, the rest as they
    were (so what did not fit stays pending), sections that are now empty dropped."""
    shown = set(printed)
    recorded = {}
    for s in new_sections:
        if not s.body:
            continue
        if s.key in shown:
            recorded[s.key] = fingerprint(s.body)
        elif s.key in old_fingerprints:
            recorded[s.key] = old_fingerprints[s.key]
    return recorded


def plan_emission(sections, old_fingerprints, last_emit_at, full_reason, budget=BUDGET_CHARS):
    """What to print for a fresh context.

    full_reason set: every non-empty section (the fail-safe), with the reason. Otherwise only the
    changed sections, then the baseline line; nothing changed gives the one no-new-material line.
    Sections are printed whole in order while they fit; the others are named as left out.
    """
    if full_reason is not None:
        wanted = [s for s in sections if s.body]
        header = FULL_HEADER % full_reason
        footer = []
    else:
        changed = set(changed_sections(old_fingerprints, sections))
        wanted = [s for s in sections if s.key in changed]
        if not wanted:
            return Emission(NO_NEW_MATERIAL + "\n", (), ())
        header = DIFF_HEADER
        footer = [BASELINE_LINE % last_emit_at]
    if not wanted:
        return Emission("\n".join([header, EMPTY_WORKSPACE]) + "\n", (), ())

    worst_left_out = LEFT_OUT_LINE % (budget, ", ".join(s.title for s in wanted))
    room = budget - sum(len(line) + 1 for line in [header] + footer + [worst_left_out])
    blocks, printed, left_out = [], [], []
    for s in wanted:
        block = BANNER % s.title + "\n" + s.body.rstrip("\n")
        if len(block) + 1 <= room:
            blocks.append(block)
            printed.append(s.key)
            room -= len(block) + 1
        else:
            left_out.append(s)
    lines = [header] + blocks + footer
    if left_out:
        lines.append(LEFT_OUT_LINE % (budget, ", ".join(s.title for s in left_out)))
    return Emission("\n".join(lines) + "\n", tuple(printed), tuple(s.key for s in left_out))


def continues_line(source):
    return CONTINUES % source + "\n"


def cap(text, limit=SECTION_MAX_CHARS):
    """Cut a body at a line boundary under limit characters, saying so."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 60)
    cut = cut if cut > 0 else limit - 60
    return text[:cut] + "\n… (cut at %d characters)" % cut


# ---- gatherers: I/O at the edge ------------------------------------------------------------

class Workspace(NamedTuple):
    """Where a start happens, resolved by the front door."""
    root: str  # workspace root: rules, handoff and the user config live here
    toplevel: Optional[str]  # git checkout of the workspace, None outside one
    home: str  # the Claude home
    now_ms: int = 0  # only bounds the ended-sessions window; never enters a body
    session_id: Optional[str] = None  # this session, never listed as ended
    codex_home: Optional[str] = None  # set under Codex: its rule files replace Claude Code's


class Gathered(NamedTuple):
    sections: Tuple[Section, ...]
    problems: Tuple[str, ...]  # one line each, for stderr


def head(path, lines):
    """The first `lines` lines of a text file (BOM dropped, newlines normalised), None if absent."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            taken, size = [], 0
            for _ in range(lines):
                line = handle.readline(SECTION_MAX_CHARS + 1)
                if not line:
                    break
                taken.append(line)
                size += len(line)
                if size > SECTION_MAX_CHARS:
                    break
    except (OSError, ValueError):
        return None
    return "".join(taken).rstrip()


def _file_hash(path):
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()[:RULE_HASH_CHARS]


def _markdown_under(folder):
    """Every *.md below folder, sorted by relative path (symlinked folders not followed)."""
    found = []
    for current, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".md"):
                found.append(os.path.join(current, name))
    return sorted(found, key=lambda p: os.path.relpath(p, folder))


def rule_files(workspace_root, home):
    """The rule files every session loads, in a fixed order."""
    paths = [os.path.join(workspace_root, name)
             for name in ("CLAUDE.md", "CLAUDE.local.md", os.path.join(".claude", "CLAUDE.md"))]
    paths += _markdown_under(os.path.join(workspace_root, ".claude", "rules"))
    paths.append(os.path.join(home, "CLAUDE.md"))
    paths += _markdown_under(os.path.join(home, "rules"))
    return [p for p in paths if os.path.isfile(p)][:MAX_RULE_FILES]


# Codex reads, in its home and in each folder from the project root down, the first non-empty of
# these (developers.openai.com/codex/guides/agents-md; both names are in the 0.171 binary).
CODEX_RULE_NAMES = ("AGENTS.override.md", "AGENTS.md")


def codex_rule_files(workspace_root, codex_home):
    """The instruction files Codex loads at start: per folder (workspace root, then Codex's home)
    the first non-empty of CODEX_RULE_NAMES. Codex never reads CLAUDE.md."""
    found = []
    for folder in (workspace_root, codex_home):
        for name in CODEX_RULE_NAMES:
            path = os.path.join(folder, name)
            try:
                loaded = os.path.isfile(path) and os.path.getsize(path) > 0
            except OSError:  # removed between the two looks
                loaded = False
            if loaded:
                found.append(path)
                break
    return found


def gather_rules(workspace_root, home, codex_home=None):
    lines = []
    paths = codex_rule_files(workspace_root, codex_home) if codex_home else rule_files(workspace_root, home)
    for path in paths:
        digest = _file_hash(path)
        if digest is not None:
            lines.append("%s  %s" % (digest, path))
    body = ""
    if lines:
        body = "Rule files loaded at start (content hash, path):\n" + "\n".join(lines)
    return section("rules", cap(body))


def gather_memory_index(memory):
    if memory is None:
        return section("memory_index", "")
    path = os.path.join(memory, "MEMORY.md")
    text = head(path, MEMORY_INDEX_LINES)
    if not text:
        return section("memory_index", "")
    return section("memory_index", cap("%s (first %d lines):\n%s"
                                       % (path, MEMORY_INDEX_LINES, text)))


def gather_handoff(workspace, memory):
    """The head of HANDOFF.md: the newer of the repo root's and the memory folder's (the same
    choice peers.py makes); outside a repository, the workspace root's."""
    if workspace.toplevel:
        found = activity.find_handoff(workspace.home, workspace.toplevel, None)
        path = found.path if found else None
    else:
        path = os.path.join(workspace.root, HANDOFF_NAME)
    text = head(path, HANDOFF_LINES) if path else None
    if not text:
        return section("handoff", "")
    return section("handoff", cap("%s (first %d lines):\n%s" % (path, HANDOFF_LINES, text)))


def _head_ref(git_folder):
    """`branch <name>` or `detached` from a HEAD file; None if unreadable."""
    text = head(os.path.join(git_folder, "HEAD"), 1)
    if not text:
        return None
    if text.startswith("ref: refs/heads/"):
        return "branch " + text[len("ref: refs/heads/"):]
    return "detached HEAD"


def head_commit(toplevel):
    """The commit HEAD points at, read from the filesystem (loose ref, then packed-refs); None
    when it cannot be told that way (unborn branch, reftable), and then git is asked."""
    own = gitrepo.git_dir(toplevel)
    common = gitrepo.git_common_dir(toplevel)
    text = head(os.path.join(own, "HEAD"), 1) if own else None
    if not text:
        return None
    if not text.startswith("ref: "):
        return text if _is_sha(text) else None
    ref = text[len("ref: "):]
    for folder in (own, common):
        loose = head(os.path.join(folder, *ref.split("/")), 1)
        if loose and _is_sha(loose):
            return loose
    try:
        with open(os.path.join(common, "packed-refs"), encoding="utf-8") as handle:
            for line in handle:
                sha, _, name = line.rstrip("\n").partition(" ")
                if name == ref and _is_sha(sha):
                    return sha
    except (OSError, ValueError):
        pass
    return None


def _is_sha(text):
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def commits_body(toplevel):
    """The recent-commits body straight from one `git log`."""
    out = gitrepo.run_git(toplevel, ["log", "-%d" % RECENT_COMMITS, "--no-color",
                                     "--format=%H%x09%an%x09%s"])
    lines = []
    for row in (out or "").splitlines():
        parts = row.split("\t", 2)
        if len(parts) == 3:
            lines.append("%s  %s  %s" % (parts[0][:COMMIT_HASH_CHARS], parts[1], parts[2]))
    if not lines:
        return ""
    own = gitrepo.git_dir(toplevel)
    where = _head_ref(own) if own else None
    title = "Latest commits%s (hash, author, subject):" % (" on " + where if where else "")
    return cap(title + "\n" + "\n".join(lines))


def _read_commits_cache(path):
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) and value.get("format") == COMMITS_CACHE_FORMAT else {}


def gather_recent_commits(toplevel, home):
    """The last commits of the current branch. `git log` from one commit always prints the same
    thing, so its body is kept per checkout under peerhooks' folder, keyed by the HEAD commit
    and branch: a start with no new commit runs no git at all."""
    if toplevel is None:
        return section("recent_commits", "")
    commit = head_commit(toplevel)
    own = gitrepo.git_dir(toplevel)
    key = "%s %s" % (commit, _head_ref(own) if own else None)
    path = os.path.join(state_dir(home), COMMITS_CACHE_NAME)
    cache = _read_commits_cache(path) if commit else {}
    entries = cache.get("checkouts") if isinstance(cache.get("checkouts"), dict) else {}
    entry = entries.get(toplevel)
    if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("body"), str):
        return section("recent_commits", entry["body"])
    body = commits_body(toplevel)
    if commit and body:
        entries.pop(toplevel, None)
        entries[toplevel] = {"key": key, "body": body}
        kept = dict(list(entries.items())[-COMMITS_CACHE_CHECKOUTS:])
        try:
            write_atomically(path, json.dumps({"format": COMMITS_CACHE_FORMAT,
                                               "checkouts": kept}).encode("utf-8"))
        except OSError:
            pass  # a cache: the next start runs git again
    return section("recent_commits", body)


def worktree_lines(common_dir):
    """`<path>  <branch>` for the main and every linked worktree, read from the common dir."""
    linked = []
    folder = os.path.join(common_dir, "worktrees")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        admin = os.path.join(folder, name)
        target = head(os.path.join(admin, "gitdir"), 1)
        if not target:
            continue
        path = os.path.dirname(os.path.normpath(os.path.join(admin, target)))
        flags = ""
        if os.path.exists(os.path.join(admin, "locked")):
            flags += " (locked)"
        if not os.path.isdir(path):
            flags += " (missing)"
        linked.append("%s  %s%s" % (path, _head_ref(admin) or "unknown HEAD", flags))
    if not linked:
        return []
    main = []
    if os.path.basename(os.path.normpath(common_dir)) == ".git":
        main.append("%s  %s (main)" % (os.path.dirname(os.path.normpath(common_dir)),
                                       _head_ref(common_dir) or "unknown HEAD"))
    return main + sorted(linked)


def gather_worktrees(toplevel):
    common = gitrepo.git_common_dir(toplevel) if toplevel else None
    lines = worktree_lines(common) if common else []
    body = ("Worktrees of this repository (path, checked out):\n" + "\n".join(lines)) if lines else ""
    return section("worktrees", cap(body))


class UserSection(NamedTuple):
    key: str
    path: str  # realpath, inside the workspace
    lines: int


def parse_user_config(raw, workspace_root):
    """The text of .claude/cold-start.json -> (entries, problem). A problem voids the whole file."""
    try:
        value = json.loads(raw)
    except ValueError as error:
        return [], "is not valid JSON (%s)" % error
    if not isinstance(value, list):
        return [], "must be a list of {\"key\", \"file\", \"lines\"} objects"
    if len(value) > MAX_USER_SECTIONS:
        return [], "has more than %d sections" % MAX_USER_SECTIONS
    inside = os.path.realpath(workspace_root)
    entries, seen = [], set(TITLES)
    for number, item in enumerate(value, 1):
        if not isinstance(item, dict):
            return [], "entry %d is not an object" % number
        key, file, lines = item.get("key"), item.get("file"), item.get("lines", DEFAULT_USER_LINES)
        if not isinstance(key, str) or not key.strip() or len(key) > MAX_USER_KEY_CHARS:
            return [], "entry %d: 'key' must be a name of 1 to %d characters" % (
                number, MAX_USER_KEY_CHARS)
        if key in seen:
            return [], "entry %d: key %r is already taken" % (number, key)
        if any(ord(c) < 0x20 for c in key):
            return [], "entry %d: 'key' contains control characters" % number
        if not isinstance(file, str) or not file:
            return [], "entry %d: 'file' must be a path" % number
        path = os.path.realpath(os.path.join(inside, file))
        if os.path.commonpath([inside, path]) != inside or path == inside:
            return [], "entry %d: 'file' must be inside the workspace" % number
        if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_USER_LINES:
            return [], "entry %d: 'lines' must be a whole number from 1 to %d" % (
                number, MAX_USER_LINES)
        seen.add(key)
        entries.append(UserSection(key, path, lines))
    return entries, None


def gather_user_sections(workspace_root):
    """Sections named in .claude/cold-start.json: (sections, problem line or None)."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        with open(config, encoding="utf-8-sig") as handle:
            raw = handle.read(1 << 20)
    except FileNotFoundError:
        return [], None
    except (OSError, ValueError) as error:
        return [], "ignored %s: %s" % (CONFIG_PATH, error)
    entries, problem = parse_user_config(raw, workspace_root)
    if problem:
        return [], "ignored %s: it %s" % (CONFIG_PATH, problem)
    found = []
    for entry in entries:
        text = head(entry.path, entry.lines)
        body = "%s (first %d lines):\n%s" % (entry.path, entry.lines, text) if text else ""
        found.append(section(entry.key, cap(body), title=entry.key))
    return found, None


def gather_ended_sessions(workspace):
    """Sessions that ended in this checkout in the last week (the readers peers.py uses), with
    absolute end times so the body does not age by itself."""
    top = workspace.toplevel
    if not top:
        return section("ended_sessions", "")
    exclude = {s.session_id for s in registry.live_sessions(workspace.home)}
    if workspace.session_id:
        exclude.add(workspace.session_id)
    found = activity.ended_sessions(workspace.home, top, workspace.now_ms, exclude,
                                    limit=MAX_ENDED_SESSIONS)
    blocks = [ended_lines(ended, top) for ended in found]
    body = ""
    if blocks:
        body = ("Sessions that ended in this checkout in the last %d days, newest first:\n"
                % activity.ENDED_WINDOW_DAYS) + "\n".join(blocks)
    return section("ended_sessions", cap(body))


def ended_lines(ended, top):
    """One finished session: name, end time (UTC), latest prompt, files edited."""
    done = ended.activity
    count = done.prompt_count
    lines = ["%s ended %s, %d prompt%s" % (done.name, ms_to_utc(ended.ended_ms), count,
                                          "" if count == 1 else "s")]
    if done.latest:
        lines.append("  latest prompt: " + one_line(done.latest))
    if done.edits:
        names = ", ".join(display_path(e.path, top) for e in done.edits[:SHOWN_EDITS])
        extra = len(done.edits) - SHOWN_EDITS
        lines.append("  edited: " + names + (" +%d more" % extra if extra > 0 else ""))
    return "\n".join(lines)


def gather(workspace):
    """Every section in display order: the built-in ones, then the user's own."""
    memory = checkout_memory_dir(workspace.home, workspace.root, workspace.toplevel)
    built = [
        gather_rules(workspace.root, workspace.home, workspace.codex_home),
        gather_memory_index(memory),
        gather_handoff(workspace, memory),
        gather_recent_commits(workspace.toplevel, workspace.home),
        gather_worktrees(workspace.toplevel),
        gather_ended_sessions(workspace),
    ]
    users, problem = gather_user_sections(workspace.root)
    return Gathered(tuple(built) + tuple(users), (problem,) if problem else ())

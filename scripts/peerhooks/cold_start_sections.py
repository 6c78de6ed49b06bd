"""Cold-start material as named sections, and which of them a start should print.

A section's fingerprint is the SHA-256 of its body, so a body must not change by itself between
runs: no relative times, no pids, no unstable order, abbreviated hashes of fixed length. Otherwise
every start would be "changed" and the diff would be noise. Each rule file is a section of its own
(`rule:<path>`, fingerprinted by its content), never printed: Claude Code loaded it whole, so a
start is told which rule files exist, or what changed in them (a diff against the copy kept in
rulecopies when it was last shown).

The top half is pure (fingerprints, what changed, packing into the output budget, rendering); the
gatherers below it read files and run at most one `git` process (`git log`, and only when HEAD
moved; worktrees, the branch and the HEAD commit are read from the filesystem).
"""
import hashlib
import os
from typing import NamedTuple, Optional, Tuple

from . import gitrepo
from .statefiles import UnusableJSON, parse_json, write_atomically
from .claude_formats import DAY_MS, HANDOFF_NAME, MEMORY_INDEX, PROJECTS_FOLDER, SETTINGS_FILE, rule_tree
from .claude_formats import rule_places as claude_rule_places
from .home import checkout_memory_dir, state_dir
from .cold_start_rules import MAX_COPY_BYTES
from .safefiles import read_regular, read_text_head

BUDGET_CHARS = 9000  # Claude Code cuts hook output at 10,000 characters into a preview
SECTION_MAX_CHARS = 6000  # one section always fits the budget alone, so none stays pending forever
BANNER = "━━━ %s ━━━"
FULL_HEADER = "Cold start: full orientation (%s)."
DIFF_HEADER = "Cold start: orientation material changed since this agent last started here."
BASELINE_LINE = "Diff baseline last consumed at %s (UTC)"
LEFT_OUT_LINE = "Left out to stay under %d characters (shown at the next start): %s."
EMPTY_WORKSPACE = "(no orientation material in this workspace)"

MAX_RULE_FILES = 200  # a rules tree larger than this is a mistake; list a bounded, stable prefix
RULE_PREFIX = "rule:"  # one section per rule file, keyed by its path
# Claude Code loads rule files whole at start, so their text is never printed: a fresh key is told
# which files there are, a returning one what changed in them (a diff against the copy kept when it
# was last shown). Larger files are fingerprinted by size and mtime, never read or hashed.
RULE_TEXT_MAX_BYTES = MAX_COPY_BYTES
RULE_DIFF_LINES = 60  # a rule edit is a few lines; a rewrite is summarised, then read from the file
RULE_DIFF_CONTEXT = 1
MEMORY_INDEX_LINES = 40  # Claude Code itself loads the first 200 lines; the head is what orients
HANDOFF_LINES = 60  # a handoff is written to be read first; its head carries the plan
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
    digest: Optional[str] = None  # the fingerprint when it is not the body's (rule files)


class Emission(NamedTuple):
    text: str
    printed: Tuple[str, ...]  # section keys shown, whose fingerprints may be recorded
    left_out: Tuple[str, ...]  # changed, but did not fit: still pending


def section(key, body, title=None):
    return Section(key, title or TITLES.get(key, key), body or "")


def fingerprint(body):
    return hashlib.sha256(body.encode("utf-8", "surrogateescape")).hexdigest()


def fingerprint_of(s):
    return s.digest or fingerprint(s.body)


def _counts(s):
    """A section takes part in the comparison: it has a body, or it is a rule file (whose
    fingerprint is its own digest even when its text is empty or too large to keep)."""
    return bool(s.body or s.digest)


def changed_sections(old_fingerprints, new_sections):
    """Keys of the sections whose fingerprint is new or differs, in section order."""
    return [s.key for s in new_sections
            if _counts(s) and old_fingerprints.get(s.key) != fingerprint_of(s)]


def fingerprints_to_record(old_fingerprints, new_sections, printed):
    """The partition after a start: printed sections at their new fingerprint, the rest as they
    were (so what did not fit stays pending), sections that are now empty dropped."""
    shown = set(printed)
    recorded = {}
    for s in new_sections:
        if not _counts(s):
            continue
        if s.key in shown:
            recorded[s.key] = fingerprint_of(s)
        elif s.key in old_fingerprints:
            recorded[s.key] = old_fingerprints[s.key]
    return recorded


def is_rule(s):
    return s.key.startswith(RULE_PREFIX)


def _size_note(s):
    if s.digest and not s.body:
        return "too large to compare"
    lines = s.body.count("\n") + (1 if s.body and not s.body.endswith("\n") else 0)
    return "%d line%s" % (lines, "" if lines == 1 else "s")


def rules_overview(rules):
    """A fresh key's rules block: which rule files there are (Claude Code loaded their text)."""
    lines = ["Rule files loaded at start (their full text is already in your context):"]
    lines += ["  %s (%s)" % (s.title, _size_note(s)) for s in rules]
    return section("rules", cap("\n".join(lines)))


def rule_diff(old_text, new_text, limit=RULE_DIFF_LINES):
    """The changed lines of a rule file as a unified diff without its file header, bounded."""
    import difflib  # only when a rule file changed

    lines = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(), lineterm="",
                                      n=RULE_DIFF_CONTEXT))[2:]
    shown = ["    " + line for line in lines[:limit]]
    if len(lines) > limit:
        shown.append("    … %d more diff lines; read the file" % (len(lines) - limit))
    return shown


def rules_changes(rules, old_fingerprints, old_texts):
    """A returning key's rules block: per rule file that is new, changed or removed since it
    last started, what changed (a diff against the copy kept then); None when nothing did."""
    lines = []
    for s in rules:
        before = old_fingerprints.get(s.key)
        if before == fingerprint_of(s):
            continue
        if before is None:
            lines.append("new: %s (%s)" % (s.title, _size_note(s)))
            continue
        old_text = old_texts.get(before)
        if old_text is None or not s.body:
            lines.append("changed: %s (%s; no earlier copy to compare, read the file)"
                         % (s.title, _size_note(s)))
        else:
            lines.append("changed: %s" % s.title)
            lines += rule_diff(old_text, s.body)
    current = {s.key for s in rules}
    lines += ["removed: %s" % key[len(RULE_PREFIX):] for key in sorted(old_fingerprints)
              if key.startswith(RULE_PREFIX) and key not in current]
    if not lines:
        return None
    header = ("Rule files changed since this agent last started here (Claude Code loaded the "
              "new text; this is what changed):")
    return section("rules", cap(header + "\n" + "\n".join(lines)))


def plan_emission(sections, old_fingerprints, last_emit_at, full_reason, quiet_line,
                  old_texts=None, budget=BUDGET_CHARS):
    """What to print for a fresh context.

    full_reason set: every non-empty section (the fail-safe), with the reason. Otherwise only the
    changed sections, then the baseline line; nothing changed gives the one quiet line. Rule
    files are one block: which exist on a full emit, what changed in them otherwise. Sections
    are printed whole in order while they fit; the others are named as left out.
    old_texts: {fingerprint: text} of the kept copies of rule files, for their diffs.
    """
    rules = [s for s in sections if is_rule(s) and _counts(s)]
    others = [s for s in sections if not is_rule(s)]
    if full_reason is not None:
        wanted = ([rules_overview(rules)] if rules else []) + [s for s in others if s.body]
        header = FULL_HEADER % full_reason
        footer = []
    else:
        changed = set(changed_sections(old_fingerprints, others))
        block = rules_changes(rules, old_fingerprints, old_texts or {})
        wanted = ([block] if block else []) + [s for s in others if s.key in changed]
        if not wanted:
            return Emission(quiet_line + "\n", (), ())
        header = DIFF_HEADER
        footer = [BASELINE_LINE % last_emit_at] if last_emit_at else []
    if not wanted:
        return Emission("\n".join([header, EMPTY_WORKSPACE]) + "\n", (), ())

    worst_left_out = LEFT_OUT_LINE % (budget, ", ".join(s.title for s in wanted))
    room = budget - sum(len(line) + 1 for line in [header] + footer + [worst_left_out])
    blocks, printed, left_out = [], [], []
    for s in wanted:
        block = BANNER % s.title + "\n" + s.body.rstrip("\n")
        if len(block) + 1 <= room:
            blocks.append(block)
            printed += [r.key for r in rules] if s.key == "rules" else [s.key]
            room -= len(block) + 1
        else:
            left_out.append(s)
    lines = [header] + blocks + footer
    if left_out:
        lines.append(LEFT_OUT_LINE % (budget, ", ".join(s.title for s in left_out)))
    return Emission("\n".join(lines) + "\n", tuple(printed), tuple(s.key for s in left_out))


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
    valid_until_ms: Optional[int] = None  # when the bodies change by the clock alone (the window)


def head(path, lines):
    """The first `lines` lines of a regular text file (BOM dropped, newlines normalised), None
    if absent or not a regular file (a FIFO or device in its place is never waited on)."""
    text = read_text_head(path, lines, SECTION_MAX_CHARS) if path else None
    return text.rstrip() if text is not None else None


# Codex reads, in its home and in each folder from the project root down, the first non-empty of
# these (developers.openai.com/codex/guides/agents-md; both names are in the 0.171 binary).
CODEX_RULE_NAMES = ("AGENTS.override.md", "AGENTS.md")


def rule_places(workspace_root, home, codex_home=None):
    """[(file or None, folder or None)] in load order: the rule files every session loads, and
    the folders whose **/*.md it loads (one list, read by the gatherer and the quiet path).
    Under Codex (codex_home set) its own instruction files, never CLAUDE.md."""
    if codex_home:
        return [(os.path.join(folder, name), None)
                for folder in (workspace_root, codex_home) for name in CODEX_RULE_NAMES]
    return claude_rule_places(workspace_root, home)


def codex_rule_files(workspace_root, codex_home):
    """The instruction files Codex loads at start: per folder (workspace root, then Codex's home)
    the first non-empty of CODEX_RULE_NAMES."""
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


def rule_files(workspace_root, home, codex_home=None):
    """The rule files every session (of Codex, when codex_home is set) loads, in a fixed order."""
    if codex_home:
        return codex_rule_files(workspace_root, codex_home)
    paths = []
    for file, folder in rule_places(workspace_root, home):
        paths += [file] if file else rule_tree(folder)[1]
    return [p for p in paths if os.path.isfile(p)][:MAX_RULE_FILES]


def rule_section(path, stat_result=None):
    """One rule file as a section: its text (for a later diff) with its SHA-256, or, over
    RULE_TEXT_MAX_BYTES, no text and a digest of its size and mtime, so a huge file is never
    read or hashed on a start; None when it is not a readable regular file."""
    title = path
    try:
        info = stat_result or os.stat(path)
        if info.st_size > RULE_TEXT_MAX_BYTES:
            stamp = "size %d mtime %d" % (info.st_size, info.st_mtime_ns)
            return section(RULE_PREFIX + path, "", title)._replace(digest=fingerprint(stamp))
        raw = read_regular(path, RULE_TEXT_MAX_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(raw) > RULE_TEXT_MAX_BYTES:  # grew since the stat
        return rule_section(path, os.stat(path))
    return Section(RULE_PREFIX + path, title, raw.decode("utf-8", "replace"),
                   hashlib.sha256(raw).hexdigest())


def gather_rules(workspace_root, home, codex_home=None):
    found = []
    for path in rule_files(workspace_root, home, codex_home):
        ruled = rule_section(path)
        if ruled is not None:
            found.append(ruled)
    return found


def gather_memory_index(memory):
    if memory is None:
        return section("memory_index", "")
    path = os.path.join(memory, MEMORY_INDEX)
    text = head(path, MEMORY_INDEX_LINES)
    if not text:
        return section("memory_index", "")
    return section("memory_index", cap("%s (first %d lines):\n%s"
                                       % (path, MEMORY_INDEX_LINES, text)))


def gather_handoff(workspace, memory):
    """The head of HANDOFF.md: the newer of the repo root's and the memory folder's (the same
    choice peers.py makes); outside a repository, the workspace root's."""
    if workspace.toplevel:
        from .activity import find_handoff

        found = find_handoff(workspace.toplevel, memory, None)
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
        value = parse_json(read_regular(path, 4 * 1024 * 1024, follow_symlinks=False))
    except (OSError, UnusableJSON):
        return {}  # a cache: rewritten whole by the next start that runs git
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
            import json

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
        value = parse_json(raw)
    except UnusableJSON as error:
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
        if any(ord(c) < 0x20 or 0xD800 <= ord(c) <= 0xDFFF for c in key):
            return [], "entry %d: 'key' contains control characters or a lone surrogate" % number
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


def gather_user_config_paths(workspace_root):
    """The files .claude/cold-start.json names (for the quiet path), and its problem line."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        raw = read_regular(config, 1 << 20)
    except (OSError, ValueError):
        return [], None
    entries, problem = parse_user_config(raw, workspace_root)
    return [entry.path for entry in entries], problem


def gather_user_sections(workspace_root):
    """Sections named in .claude/cold-start.json: (sections, problem line or None)."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        raw = read_regular(config, 1 << 20)
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
    """Sessions that ended in this checkout in the last week, except the last one, which
    peers.py describes at the same start (one session described twice was noise), with absolute
    end times so the body does not age by itself. Live sessions and their contexts before
    /clear are never listed, so a /clear does not change this section."""
    top = workspace.toplevel
    if not top:
        return section("ended_sessions", ""), None
    from . import activity

    exclude = {workspace.session_id} if workspace.session_id else set()
    every = activity.ended_sessions(workspace.home, top, workspace.now_ms, exclude,
                                    limit=MAX_ENDED_SESSIONS + 1)
    found = every[1:]
    blocks = [ended_lines(ended, top) for ended in found]
    body = ""
    if blocks:
        body = ("Sessions that ended in this checkout in the last %d days before the last one "
                "(peers.py describes that one), newest first:\n"
                % activity.ENDED_WINDOW_DAYS) + "\n".join(blocks)
    # The section changes by the clock alone when the oldest listed session leaves the window.
    expiry = min(e.ended_ms for e in every) + activity.ENDED_WINDOW_DAYS * DAY_MS \
        if every else None
    return section("ended_sessions", cap(body)), expiry


def ended_lines(ended, top):
    """One finished session: name, end time (UTC), latest prompt, files edited."""
    from .intent import one_line
    from .peers_report import display_path
    from .timeutil import ms_to_utc

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


GATHERERS = ("rules", "memory_index", "handoff", "recent_commits", "worktrees", "ended_sessions")


def gather(workspace):
    """Every section in display order: the rule files, the other built-in ones, then the user's
    own. A gatherer that fails costs its own section and one problem line, never the others."""
    memory = checkout_memory_dir(workspace.home, workspace.root, workspace.toplevel)
    run = {
        "rules": lambda: gather_rules(workspace.root, workspace.home, workspace.codex_home),
        "memory_index": lambda: [gather_memory_index(memory)],
        "handoff": lambda: [gather_handoff(workspace, memory)],
        "recent_commits": lambda: [gather_recent_commits(workspace.toplevel, workspace.home)],
        "worktrees": lambda: [gather_worktrees(workspace.toplevel)],
        "ended_sessions": lambda: [gather_ended_sessions(workspace)],
    }
    found, problems, expiry = [], [], []
    for name in GATHERERS:
        try:
            produced = run[name]()
        except (OSError, ValueError, RecursionError, UnicodeError) as error:
            problems.append("section %s not gathered (%s: %s)" % (name, type(error).__name__, error))
            continue
        for item in produced:
            if isinstance(item, Section):
                found.append(item)
            else:
                found.append(item[0])
                if item[1] is not None:
                    expiry.append(item[1])
    users, problem = gather_user_sections(workspace.root)
    if problem:
        problems.append(problem)
    return Gathered(tuple(found) + tuple(users), tuple(problems), min(expiry) if expiry else None)


def input_paths(workspace):
    """Every file and folder whose change could change a section, listed before gathering (the
    quiet path compares their tokens at the next start; see quietstart). A folder stands for the
    entries it holds; missing paths are listed too, so that their creation counts."""
    root, home, top = workspace.root, workspace.home, workspace.toplevel
    paths = [os.path.join(root, HANDOFF_NAME), os.path.join(root, CONFIG_PATH)]
    for file, folder in rule_places(root, home, workspace.codex_home):
        if file:
            paths.append(file)
        else:
            folders, files = rule_tree(folder)
            paths += [folder] + folders + files
    projects = os.path.join(home, PROJECTS_FOLDER)
    paths += [os.path.join(home, SETTINGS_FILE), projects]
    memory = checkout_memory_dir(home, root, top)
    if memory:
        paths += [memory, os.path.join(memory, MEMORY_INDEX), os.path.join(memory, HANDOFF_NAME)]
    users, _ = gather_user_config_paths(root)
    paths += users
    if top:
        paths += [os.path.join(top, HANDOFF_NAME)] + _git_inputs(top) + _session_inputs(home, top)
    return paths


def _git_inputs(top):
    own = gitrepo.git_dir(top)
    common = gitrepo.git_common_dir(top)
    if not own or not common:
        return [os.path.join(top, ".git")]
    # .git itself only when it is a linked worktree's file: a main checkout's .git folder changes
    # with every index lock, and would make the quiet path useless.
    dot_git = os.path.join(top, ".git")
    paths = [dot_git] if os.path.isfile(dot_git) else []
    paths += [os.path.join(own, "HEAD"), os.path.join(own, "logs", "HEAD"),
              os.path.join(common, "packed-refs"), os.path.join(common, "worktrees")]
    text = head(os.path.join(own, "HEAD"), 1) or ""
    if text.startswith("ref: "):
        ref = text[len("ref: "):].split("/")
        paths += [os.path.join(own, *ref), os.path.join(common, *ref)]
    try:
        admins = sorted(os.listdir(os.path.join(common, "worktrees")))
    except OSError:
        admins = []
    for name in admins:
        admin = os.path.join(common, "worktrees", name)
        paths += [admin, os.path.join(admin, "HEAD"), os.path.join(admin, "gitdir"),
                  os.path.join(admin, "locked")]
        target = head(os.path.join(admin, "gitdir"), 1)
        if target:
            paths.append(os.path.dirname(os.path.normpath(os.path.join(admin, target))))
    return paths


def _session_inputs(home, top):
    """What the ended-sessions section depends on: the checkout's transcript folders (a session
    that ended since the comparison wrote its transcript there), and whether each live session of this checkout is
    still registered and running (one that exits removes its registry file; one that crashed
    leaves it, but its /proc entry goes). Sessions of other checkouts, and the status rewrites of
    registry files, do not count."""
    from . import registry
    from .home import transcript_folders
    from .cold_start_quiet import exists_only, transcripts

    paths = []
    for session in registry.read_sessions(home):
        if gitrepo.toplevel(session.cwd) == top:
            paths.append(exists_only(registry.entry_path(home, session.pid)))
            if os.path.isdir("/proc/self"):
                paths.append(exists_only("/proc/%d" % session.pid))
    paths += [transcripts(folder) for folder in transcript_folders(home, top)]
    return paths

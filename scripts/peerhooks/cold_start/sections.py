"""Cold-start material as named sections, and which of them a start should print.

A section's fingerprint is the SHA-256 of its body, so a body must not change by itself between
runs: no relative times, no pids, no unstable order, abbreviated hashes of fixed length. Otherwise
every start would be "changed" and the diff would be noise. Each rule file is a section of its own
(`rule:<path>`, fingerprinted by its content), never printed: Claude Code loaded it whole, so a
start is told which rule files exist, or what changed in them (a diff against the copy kept in
cold_start.rules when it was last shown).

Pure: fingerprints, what changed, packing into the output budget, rendering. The sections are
read by cold_start.gather and the modules it calls. Every block is cleaned and redacted as it is
rendered, after its fingerprint was taken from what was read: a key deleted from CLAUDE.md would
otherwise come back in the rule diff of every agent, and a handoff or memory index may hold one too;
a peer's escape sequence or bidi override must not reach `--full`'s terminal (peerhooks.text.peertext,
each line kept a line).
"""
import hashlib
from typing import NamedTuple, Optional, Tuple

from ..text import peertext
from ..text.redact import redact

BUDGET_CHARS = 9000  # Claude Code cuts hook output at 10,000 characters into a preview
SECTION_MAX_CHARS = 6000  # one section always fits the budget alone, so none stays pending forever
BANNER = "━━━ %s ━━━"
FULL_HEADER = "Cold start: full orientation (%s)."
DIFF_HEADER = "Cold start: orientation material changed since this agent last started here"
SINCE = " (%s UTC)"  # when that start was, from the partition's stamp
LEFT_OUT_LINE = "Left out to stay under %d characters (shown at the next start): %s."
EMPTY_WORKSPACE = "(no orientation material in this workspace)"

RULE_PREFIX = "rule:"  # one section per rule file, keyed by its path
# Sections Claude Code itself puts in every context (seen in the request log on 2.1.197 and 2.1.332:
# MEMORY.md's text beside the CLAUDE.md files, the latest five commits in its gitStatus block): a
# fresh key is not shown them again, a returning one what changed in them since it last started.
CLIENT_LOADED = frozenset(["memory_index", "recent_commits"])
CLIENT_LOADED_NOTE = ("Memory index and recent commits: Claude Code put them in your context itself; "
                      "later starts show what changed in them.")
LOADED_DIFF_LINES = 40  # an index gains a line or two per note; a busy branch a few commits a day
# Claude Code loads rule files whole at start, so their text is never printed: a fresh key is told
# which files there are, a returning one what changed in them (a diff against the copy kept when it
# was last shown).
RULE_DIFF_LINES = 60  # a rule edit is a few lines; a rewrite is summarised, then read from the file
RULE_DIFF_CONTEXT = 1

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
    """A section; its title (a file's path for some) cleaned (peertext): it opens a banner line."""
    return Section(key, peertext.clean(title) or TITLES.get(key, key), body or "")


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
    lines += ["removed: %s" % peertext.clean(key[len(RULE_PREFIX):]) for key in sorted(old_fingerprints)
              if key.startswith(RULE_PREFIX) and key not in current]
    if not lines:
        return None
    header = ("Rule files changed since this agent last started here (Claude Code loaded the "
              "new text; this is what changed):")
    return section("rules", cap(header + "\n" + "\n".join(lines)))


def _lines_of(body):
    """A section body's lines after its first (the title line that names the file or branch)."""
    return body.splitlines()[1:]


def loaded_changes(s, old_text):
    """What changed in a section the client loads itself, as a section: the memory index's lines
    added and removed, or the commits that landed (and those no longer on the branch) since the
    copy kept at this agent's last start; the section whole when no copy was kept."""
    if old_text is None:
        note = "no earlier copy to compare" if s.key == "memory_index" else "no record of the commits shown before"
        return s._replace(body=cap("%s (%s)\n%s" % (s.body.splitlines()[0], note, "\n".join(_lines_of(s.body)))))
    old, new = _lines_of(old_text), _lines_of(s.body)
    old_set, new_set = set(old), set(new)
    added = [line for line in new if line not in old_set]
    removed = [line for line in old if line not in new_set]
    title = s.body.splitlines()[0] if s.body else s.title
    if s.key == "recent_commits":
        where = title.split(" (")[0].replace("Latest commits", "", 1).strip()
        lines = ["Commits %ssince this agent last started here:" % (where + " " if where else "")]
        lines += added[:LOADED_DIFF_LINES] or ["(none new)"]
        if added and not (new_set & old_set):
            lines.append("(the %d newest; more may have landed)" % len(new))
        if removed:
            lines.append("No longer on the branch since then:")
            lines += removed[:LOADED_DIFF_LINES]
    else:
        lines = ["Lines added and removed since this agent last started here in %s "
                 "(Claude Code loaded the new text):" % title.split(" (")[0]]
        lines += ["+ " + line for line in added[:LOADED_DIFF_LINES]]
        lines += ["- " + line for line in removed[:LOADED_DIFF_LINES]]
        if len(added) > LOADED_DIFF_LINES or len(removed) > LOADED_DIFF_LINES:
            lines.append("… more; read the file")
    return s._replace(body=cap("\n".join(lines)))


def plan_emission(sections, old_fingerprints, last_emit_at, full_reason, old_texts=None, budget=BUDGET_CHARS,
                  client_loaded=frozenset()):
    """What to print for a fresh context.

    full_reason set: every non-empty section (the fail-safe), with the reason. Otherwise only the
    changed sections; when none changed, nothing at all. Rule files are one block: which exist on a
    full emit, what changed in them otherwise. Sections the client loads itself (client_loaded, a
    subset of CLIENT_LOADED) are not printed on a full emit (only recorded), and on a later start
    only what changed in them. Sections are printed whole in order while they fit; the others are
    named as left out.
    old_texts: {fingerprint: text} of the kept copies of rule files and client-loaded sections.
    """
    rules = [s for s in sections if is_rule(s) and _counts(s)]
    others = [s for s in sections if not is_rule(s)]
    if full_reason is None:
        wanted = _changes(rules, others, old_fingerprints, old_texts or {}, client_loaded)
        if not wanted:
            return Emission("", (), ())  # nothing new: nothing to say
        return _packed(wanted, rules, _since(last_emit_at), [], [], budget)
    loaded = [s.key for s in others if s.body and s.key in client_loaded]
    wanted = ([rules_overview(rules)] if rules else []) + [s for s in others if s.body and s.key not in client_loaded]
    header, footer = FULL_HEADER % full_reason, [CLIENT_LOADED_NOTE] if loaded else []
    if not wanted:
        return Emission("\n".join([header, EMPTY_WORKSPACE] + footer) + "\n", tuple(loaded), ())
    return _packed(wanted, rules, header, footer, loaded, budget)


def _changes(rules, others, old_fingerprints, old_texts, client_loaded):
    """The sections a returning key is shown: what changed in the rule files, each changed section
    (of a client-loaded one only what changed in it)."""
    changed = set(changed_sections(old_fingerprints, others))
    block = rules_changes(rules, old_fingerprints, old_texts)
    return ([block] if block else []) + [
        loaded_changes(s, old_texts.get(old_fingerprints.get(s.key))) if s.key in client_loaded else s
        for s in others if s.key in changed]


def _since(last_emit_at):
    return DIFF_HEADER + (SINCE % last_emit_at.replace("T", " ")[:16] if last_emit_at else "") + "."


def _packed(wanted, rules, header, footer, recorded_unprinted, budget):
    """The Emission of the wanted sections, each whole, cleaned and redacted while it fits the budget (room
    kept for the line naming those left out), the others left out; recorded_unprinted: keys
    recorded as shown although not printed (the client loaded them)."""
    worst_left_out = LEFT_OUT_LINE % (budget, ", ".join(s.title for s in wanted))
    room = budget - sum(len(line) + 1 for line in [header] + footer + [worst_left_out])
    blocks, printed, left_out = [], [], []
    for s in wanted:
        block = BANNER % s.title + "\n" + redact(peertext.block(s.body.rstrip("\n")))
        if len(block) + 1 <= room:
            blocks.append(block)
            printed += [r.key for r in rules] if s.key == "rules" else [s.key]
            room -= len(block) + 1
        else:
            left_out.append(s)
    lines = [header] + blocks + footer
    if left_out:
        lines.append(LEFT_OUT_LINE % (budget, ", ".join(s.title for s in left_out)))
    return Emission("\n".join(lines) + "\n", tuple(printed) + tuple(recorded_unprinted),
                    tuple(s.key for s in left_out))


def cap(text, limit=SECTION_MAX_CHARS):
    """Cut a body at a line boundary under limit characters, saying so."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 60)
    cut = cut if cut > 0 else limit - 60
    return text[:cut] + "\n… (cut at %d characters)" % cut

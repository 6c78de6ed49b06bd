"""The words of a refusal: a first line for the person who answers, the peers' paths at stake, what
git would do (for the model), what to run instead and how to reach the peers. Pure.

The verdict (peerhooks.guard.verdict) decides; this says it. The person who answers reads the first
line in a permission prompt, so it names whose work, which files and what the command would do; the
model reads the rest and retries with the narrow form when there is one. Every line echoes the
command, which may hold a secret: all but the suggestion pass through peerhooks.text.redact. What a
peer controls (names, file names, stash messages) and the echoed commands are made one safe line
first (peerhooks.text.peertext), then redacted: a line of a refusal opens with words of ours.

  reason(refusals, command, suggestion, host, can_send) -> text
"""
from ..git import kinds as g
from ..claude import messaging
from ..text import peertext
from ..text.redact import redact
from .verdict import ALWAYS_ASK, ROUND_TRIP, UNATTRIBUTED, is_ask

# Every refusal opens with this phrase; `peers.py --stats` counts refusals in transcripts by it.
REFUSAL_MARK = "peerhooks git guard"
COMMAND_ECHO_CHARS = 200  # the command is echoed so the model knows which one; never a whole script
HUMAN_COMMAND_CHARS = 60  # the command as the first line quotes it
HUMAN_FILES = 3  # files the first line names; the At stake line names the rest
HUMAN_PEERS = 2  # peers the first line names; "and N more" after them
MAX_FILES_LISTED = 12  # per peer on the At stake line, then "(+N more)"
MAX_STAKE_ITEMS = 40  # on the whole At stake line: a dozen peers sharing files would fill a screen

VERB_PHRASES = {
    g.STAGE_ALL: "would stage {them} as this session's work", g.STAGE_PATHS: "would stage {them} as this session's work",
    g.COMMIT_INDEX: "would commit {them} as this session's", g.COMMIT_ALL: "would commit {them} as this session's",
    g.COMMIT_PATHS: "would commit {them} as this session's", g.AMEND: "would fold {them} into the rewritten commit",
    g.STASH_ALL: "would stash {them} away", g.STASH_PATHS: "would stash {them} away",
    g.DISCARD_ALL: "would throw {them} away", g.DISCARD_PATHS: "would throw {them} away",
    g.CLEAN_ALL: "would delete {them}", g.CLEAN_PATHS: "would delete {them}",
    g.UNSTAGE_ALL: "would unstage {them}", g.UNSTAGE_PATHS: "would unstage {them}",
    g.REMOVE_PATHS: "would remove or move {them}", g.RESET_ALL: "would throw {them} away",
    g.STASH_APPLY: "would merge a stash entry into {them}",
    g.SHELL_WRITE: "would write over or delete {them}",
    g.SPARSE: "would take {them} out of the working tree, leaving the staged change against a missing file",
    ROUND_TRIP: "and the pop after it would leave {them} unstaged",
    g.COMMIT_PRIVATE: "would delete, revert or commit {them} in the commit it makes from a private index",
}
EFFECTS = {  # for the model: what git would do, in the states named
    g.STAGE_ALL: "it stages working-tree changes and new files: the peers' with yours",
    g.STAGE_PATHS: "it stages the working-tree changes and new files under those paths: the peers' with yours",
    g.COMMIT_INDEX: "a plain commit takes everything staged, the peers' staged files with yours",
    g.COMMIT_ALL: "-a commits every staged change and every tracked file's working-tree change, the peers' with yours",
    g.COMMIT_PATHS: "it commits those paths as they are in the working tree, the peers' changes in them with yours",
    g.STASH_ALL: "it takes staged and working-tree changes out of the shared tree into one stash entry",
    g.STASH_PATHS: "it takes the changes under those paths out of the shared tree",
    g.DISCARD_ALL: "it overwrites working-tree changes with what is staged or committed",
    g.DISCARD_PATHS: "it overwrites the changes under those paths",
    g.CLEAN_ALL: "it deletes untracked files",
    g.CLEAN_PATHS: "it deletes the untracked files under those paths",
    g.UNSTAGE_ALL: "it resets the index to HEAD, unstaging what the peers staged",
    g.UNSTAGE_PATHS: "it resets those paths in the index to HEAD, unstaging what the peers staged",
    g.REMOVE_PATHS: "it removes or moves those paths in the index (with -f, or mv, on disk too)",
    g.RESET_ALL: "it resets the index and the working tree of every tracked file to a commit",
    g.STASH_APPLY: "it merges the entry into the files it holds, which are staged",
    g.SPARSE: "a sparse checkout takes out of the shared tree the files outside its folders whose tree matches "
              "the index, a peer's staged files among them",
    g.SHELL_WRITE: "it writes over (or removes) a file holding a live peer's uncommitted changes, which no "
                   "commit holds: they would be lost",
    ROUND_TRIP: "the pop puts the files back but not the index: what the peers staged comes back unstaged "
                "(`git stash pop --index` keeps it)",
    g.COMMIT_PRIVATE: "the commit's tree is the private index: every file it lacks or holds in another version "
                      "than HEAD is deleted or reverted, a peer's just-committed work included, and whatever the line "
                      "added to it is committed",
}
TRACKED_ONLY_EFFECTS = {  # a staging that leaves untracked files alone
    g.STAGE_ALL: "it stages the working-tree changes of tracked files: the peers' with yours",
    g.STAGE_PATHS: "it stages the working-tree changes of the tracked files under those paths: the peers' with yours",
}
FROM_SOURCE_EFFECTS = {  # an index reset from another commit than HEAD (git.forms.tree._from_source)
    g.UNSTAGE_ALL: "it resets the index to %s, unstaging what the peers staged",
    g.UNSTAGE_PATHS: "it resets those paths in the index to %s, unstaging what the peers staged",
}
WRITE_ADVICE = ("leave the file to the peer, or make your change with the Edit tool, which reads the file as it is "
                "now and replaces only the text you name")
RUNTIME_EFFECT = ("its paths are known only when it runs (a substitution, a variable, xargs, a file list, or a "
                  "folder only the shell knows)")
ASK_EFFECTS = {
    "switch": "it switches this checkout to another branch or commit: files that differ are rewritten, and every "
              "session here is moved onto it",
    "new-branch": "it puts this checkout on a new branch: the files stay as they are, but every session's next "
                  "commit here lands on that branch",
    "rebase": "it rewrites the branch every session here is on and replays commits through the shared tree",
    "bisect": "it checks out other commits in the shared tree",
    "apply-commit": "it writes a commit's changes (or their reverse) into the shared index and tree without "
                    "committing: a peer's last commit undone under it, or swept into the next commit here",
    g.RESET_ALL: "it moves the branch every session here is on to another commit, and resets the index (and with "
                 "--hard the tracked files) to it",
    g.WRITE_REFS: "refs are shared by every worktree: this rewrites a branch or HEAD a peer may have checked out",
    g.REMOVE_WORKTREE: "a live peer works in that worktree (or it cannot be told which one this is)",
    g.AMEND: "it rewrites HEAD, which may be a commit a peer just made, and commits the whole index",
    g.STASH_STACK: "the stash stack is shared by every worktree: this takes an entry off it, which may be a peer's",
    g.STASH_APPLY: "it merges a stash entry, which may be a peer's, into the shared tree",
    g.UNFOLLOWED: "the guard could not judge what it runs, so it may run git or write over the peers' work",
    g.FOREIGN_TREE: "its work tree is not its repository's: git reads every index entry against another folder, "
                    "where the files outside it look deleted, so what the peers staged may leave the index",
}
ASK_HUMAN = {
    "switch": "would switch the checkout {they} work{s} in", "new-branch": "would move the checkout {they} "
    "work{s} in onto a new branch", "rebase": "would rewrite the branch {they} work{s} on",
    "bisect": "would check out other commits under {them}", g.RESET_ALL: "would move the branch {they} work{s} on",
    "apply-commit": "would write a commit's changes into the index and tree {they} work{s} in",
    g.WRITE_REFS: "would rewrite a branch {they} may have checked out", g.AMEND: "would rewrite the last commit, "
    "which may be {theirs}", g.REMOVE_WORKTREE: "would remove the worktree {they} work{s} in",
    g.STASH_STACK: "would take {entry} off the shared stash, and it may be {theirs}",
    g.STASH_APPLY: "would merge a stash entry, which may be {theirs}, into the shared tree",
    g.UNFOLLOWED: "was not judged: {why}",
    g.FOREIGN_TREE: "would run git on the index {they} share{s} against another folder",
}
ASK_ADVICE = {
    "switch": "work on another branch in a linked worktree: git worktree add -b <new-branch> ../<dir> "
              "(an existing branch: git worktree add ../<dir> <branch>); for one file: git checkout <rev> -- <path>",
    "new-branch": "make the branch in a linked worktree instead: git worktree add -b <new-branch> ../<dir>",
    "rebase": "rebase in a linked worktree, or ask the user to run it when the peers are done",
    "bisect": "bisect in a linked worktree: git worktree add ../<dir> HEAD",
    g.SPARSE: "make a sparse checkout of your own in a linked worktree: git worktree add ../<dir>",
    "apply-commit": "revert or cherry-pick in a linked worktree, or as a commit of its own without -n",
    g.RESET_ALL: "to undo only your own changes name them: git restore --staged --worktree -- <your files>; to move "
                 "the branch, do it in a linked worktree",
    g.WRITE_REFS: "work on your own branch in a linked worktree: git worktree add -b <new-branch> ../<dir>",
    g.REMOVE_WORKTREE: "leave that worktree to its session",
    g.AMEND: "make a new commit of your own files instead of amending",
    g.STASH_STACK: "leave the stash alone, or check whose entry it is with git stash list / git stash show -p stash@{n}",
    g.STASH_APPLY: "check whose entry it is with git stash show -p stash@{n}; apply it in a linked worktree",
    g.COMMIT_PRIVATE: "commit your own files from the shared index instead: git commit -m <message> -- <your files>",
    g.UNFOLLOWED: "run the git commands it would run yourself, by name, so that each can be judged",
    g.FOREIGN_TREE: "run git from the checkout without --work-tree (git -C <folder> keeps paths relative to it)",
}
PULL_ADVICE = ("git fetch first (it touches no working tree), then merge or rebase in a linked worktree, "
               "or ask the user to pull when the peers are done")
SUGGESTION_HEADER = "Instead, run:"
UNSHOWN_SUGGESTION = ("The line to run instead names a file whose name holds control characters, which are not "
                      "shown: stage or commit your own files by name.")
FENCE = "```"


def _ask_topic(op):
    """Which kind of HEAD mover an operation is, for its words."""
    if op.kind != g.MOVE_HEAD:
        return op.kind
    words = [w.value for w in op.words[1:]] if op.words else op.command.split()[2:]
    verb = op.words[0].value if op.words else op.command.split()[1:2][0] if len(op.command.split()) > 1 else ""
    if verb in ("checkout", "switch") and set(words) & {"-b", "-B", "--orphan", "-c", "-C", "--create",
                                                          "--force-create"}:
        return "new-branch"
    if verb in ("rebase", "pull"):
        return "rebase"
    if verb in ("revert", "cherry-pick"):
        return "apply-commit"
    if verb == "bisect":
        return "bisect"
    return "switch"


def as_written(op, line):
    """The operation's command as the line spells it (its span), else as the classifier rendered it."""
    if op.span is not None and line and 0 <= op.span[0] < op.span[1] <= len(line) and op.depth == 0:
        return line[op.span[0]:op.span[1]]
    return op.command


def _short(command, limit):
    return peertext.one_line(command, limit)


def _files_phrase(held):
    """`src/a.py staged, src/b.py untracked (+2 more)` for the first line."""
    shown = ", ".join("%s %s" % (h.path, h.state) for h in held[:HUMAN_FILES])
    return shown + (" (+%d more)" % (len(held) - HUMAN_FILES) if len(held) > HUMAN_FILES else "")


def human_line(refusal, line=""):
    """The first line, for the person who reads it: whose work, which files, what the command would do."""
    op = refusal.operation
    command = "`%s`" % _short(as_written(op, line), HUMAN_COMMAND_CHARS) + run_by(op, short=True)
    by_peer = {}
    for held in refusal.held:
        by_peer.setdefault(held.peer, []).append(held)
    if op.kind in (g.STASH_STACK, g.STASH_APPLY) and refusal.entries:
        whose, does = _entries_phrase(refusal), _stash_phrase(refusal)
    elif refusal.ask and not refusal.held or op.kind in ALWAYS_ASK:
        whose, does = _where_they_work(refusal, by_peer), _ask_phrase(refusal)
    else:
        whose, does = _whose_files(by_peer), _verb_phrase(refusal)
    return "%s: %s; %s %s." % (REFUSAL_MARK, whose, command, does)


def _stash_phrase(refusal):
    if refusal.operation.kind == g.STASH_APPLY:
        return "would merge it into the shared tree"
    return "would take %s off the stash every worktree shares" % ("it" if len(refusal.entries) == 1 else "them")


def _where_they_work(refusal, by_peer):
    """The peers of an ask-kind refusal, with their files here when they have some."""
    names = [p.name for p in refusal.peers]
    place = "this repository's worktrees" if refusal.operation.kind in g.REPOSITORY_KINDS else "this checkout"
    return _stake_summary(by_peer) or "%s %s live in %s" % (" and ".join(names), "is" if len(names) == 1 else "are",
                                                            place)


def _ask_phrase(refusal):
    """What an ask-kind command would do to the peers' work, one peer named by name."""
    names = [p.name for p in refusal.peers]
    one = len(names) == 1
    pronouns = {"they": names[0] if one else "they", "s": "s" if one else "", "them": names[0] if one else "them",
                "theirs": "%s's" % names[0] if one else "one of theirs"}
    phrase = ASK_HUMAN.get(_ask_topic(refusal.operation), "would act on the work {they} share{s}")
    return phrase.format(entry=_entry_phrase(refusal.entries), why=_unjudged(refusal.operation), **pronouns)


def _unjudged(op):
    """Why what a wrapper runs was not judged (an UNFOLLOWED marker's Via), as one safe line."""
    why = op.via[-1].runs if op.via else None
    return peertext.one_line(why, COMMAND_ECHO_CHARS) if why else "what it runs could not be read"


def _whose_files(by_peer):
    """`app-peer has src/a.py staged; there are changes nobody's transcript shows: …` for the first line."""
    parts = []
    for peer, held in list(by_peer.items())[:HUMAN_PEERS]:
        who = "changes nobody's transcript shows (a busy peer may have made them)" if peer == UNATTRIBUTED else peer
        parts.append("%s has %s" % (who, _files_phrase(held)) if peer != UNATTRIBUTED else
                     "there are %s: %s" % (who, _files_phrase(held)))
    if len(by_peer) > HUMAN_PEERS:
        parts[-1] += " (and %d more peers, below)" % (len(by_peer) - HUMAN_PEERS)
    return "; ".join(parts)


def _verb_phrase(refusal):
    """What the command would do to the files the first line names."""
    op = refusal.operation
    them = "it" if len(refusal.held) == 1 else "them"
    phrase = VERB_PHRASES.get(refusal.topic or op.kind, "would take {them}").format(them=them)
    if op.runtime:
        phrase = "computes its paths only when it runs, and " + phrase.replace("would", "could")
    return phrase


def _stake_summary(by_peer):
    parts = []
    for peer, held in list(by_peer.items())[:HUMAN_PEERS]:
        if peer == UNATTRIBUTED:
            continue
        parts.append("%s has %d uncommitted file%s here (%s)" % (peer, len(held), "" if len(held) == 1 else "s",
                                                              _files_phrase(held)))
    return "; ".join(parts)


def _entries_phrase(refusal):
    """`stash@{0} ("On main: wip") was pushed by app-peer` for the first line."""
    owners = {h.path: h.peer for h in refusal.held}
    parts = []
    for entry in refusal.entries[:HUMAN_FILES]:
        owner = owners.get(entry.ref)
        who = "no transcript shows who pushed it" if owner in (None, "owner unknown") else "it was pushed by %s" % owner
        parts.append('%s ("%s"): %s' % (entry.ref, peertext.one_line(entry.subject, quoted=True), who))
    if len(refusal.entries) > HUMAN_FILES:
        parts.append("and %d more entries" % (len(refusal.entries) - HUMAN_FILES))
    return "; ".join(parts)


def _entry_phrase(entries):
    if not entries:
        return "an entry"
    first = entries[0]
    return "%s (%s)" % (first.ref, first.subject) + (" or another of its %d entries" % len(entries)
                                                     if len(entries) > 1 else "")


def stake_line(refusals):
    """`At stake: peer: path [state], path [state]; other: …` over every refusal (tests read it back)."""
    by_peer, seen = {}, set()
    for refusal in refusals:
        for held in refusal.held:
            if (held.peer, held.path) not in seen:
                seen.add((held.peer, held.path))
                by_peer.setdefault(held.peer, []).append("%s [%s]" % (held.path, held.state))
    if not by_peer:
        names = []
        for refusal in refusals:
            names.extend(p.name for p in refusal.peers if p.name not in names)
        return "At stake: %s (live here; no uncommitted file of theirs)" % ", ".join(names)
    groups, budget = [], MAX_STAKE_ITEMS
    for peer, items in by_peer.items():
        room = min(MAX_FILES_LISTED, max(1, budget))
        shown = ", ".join(items[:room])
        if len(items) > room:
            shown += " (+%d more)" % (len(items) - room)
        groups.append("%s: %s" % (peer, shown))
        budget -= room
        if budget <= 0 and len(groups) < len(by_peer):
            groups.append("(+%d more peers)" % (len(by_peer) - len(groups)))
            break
    return "At stake: " + "; ".join(groups)


def model_lines(refusals, command):
    """What the model reads about each refused operation."""
    lines = ["%s did not run `%s`:" % (REFUSAL_MARK, _short(command, COMMAND_ECHO_CHARS))]
    for refusal in refusals:
        op = refusal.operation
        if refusal.ask and op.kind in ASK_EFFECTS or op.kind in ALWAYS_ASK or op.kind == g.RESET_ALL and op.moves_branch:
            topic = _ask_topic(op)
            effect = ASK_EFFECTS.get(topic, ASK_EFFECTS.get(op.kind, ""))
            if op.kind == g.RESET_ALL and not op.moves_branch:
                effect = EFFECTS[g.RESET_ALL]
        elif op.runtime:
            effect = RUNTIME_EFFECT
        elif refusal.topic is None and op.kind in TRACKED_ONLY_EFFECTS and not g.touches_of(op) & g.UNTRACKED_ANYWHERE:
            effect = TRACKED_ONLY_EFFECTS[op.kind]  # `git add -u`, a saved diff applied with --cached
        elif op.kind in FROM_SOURCE_EFFECTS and op.target is not None:  # `git reset HEAD~1 -- <paths>`
            effect = FROM_SOURCE_EFFECTS[op.kind] % _short(op.target, 40)
        else:
            effect = EFFECTS.get(refusal.topic or op.kind, "")
        lines.append("- `%s`%s: %s." % (_short(as_written(op, command), 80), run_by(op), effect))
    return lines


def run_by(op, short=False):
    """Which wrapper runs the operation, as the reader can check it: `, which `make commit` runs
    (`git add -A && git commit -m save`)`, through several each named (`make release` through
    `make commit`); short: ` (run by `make commit`)`. A wrapper that is itself the operation (`gh pr
    checkout 12`) names only the wrappers that run it, and why it cannot be followed when it cannot."""
    via = op.via
    why = ""
    if via and via[-1].wrapper == op.command:
        why = " (%s)" % via[-1].runs if op.kind == g.UNFOLLOWED and via[-1].runs and not short else ""
        via = via[:-1]
    if not via:
        return why
    names = " through ".join("`%s`" % _short(v.wrapper, 80) for v in via)
    if short:
        return " (run by %s)" % names
    shown = " (`%s`)" % _short(via[-1].runs, 100) if via[-1].runs else ""
    return ", which %s runs%s%s" % (names, shown, why)


def advice_of(refusal):
    """Advice for an ask-kind refusal (the human decides; the model learns what else it can do)."""
    op = refusal.operation
    if op.command.startswith("git pull"):
        return PULL_ADVICE
    return ASK_ADVICE.get(_ask_topic(op), ASK_ADVICE.get(op.kind))


def reason(refusals, command, suggestion=None, host="claude", can_send=True, no_own_work=False, shared=()):
    """The text the human and the model read: a first line for the person who answers, the paths at
    stake, what git would do, what to run instead (a runnable fenced block) and how to reach the peers.
    suggestion: the corrected line (peerhooks.guard.narrow), or None; no_own_work: this session has nothing
    of its own the refused operations would take, so there is nothing to run instead; shared: files
    both sessions changed whose hunks this session's edit records cannot tell apart."""
    refusals, shared = _shown(refusals), [peertext.clean(path) for path in shared]
    lines = [human_line(refusals[0], command)]
    if len(refusals) > 1:
        lines[0] += " (And %d more below.)" % (len(refusals) - 1)
    lines.append(stake_line(refusals))
    if is_ask(refusals) and host != "codex":
        lines.append("Yes runs it anyway; No leaves the peers' work as it is.")
    lines.extend(model_lines(refusals, command))
    if shared:
        lines.append("The user decides: %s hold%s both this session's and a peer's changes, which this session's "
                     "edit records cannot tell apart: staging %s would take the peer's hunks too."
                     % (", ".join(shared), "s" if len(shared) == 1 else "", "it" if len(shared) == 1 else "them"))
    lines = _redacted(lines)
    if suggestion and not _shows_as_written(suggestion):
        lines.append(UNSHOWN_SUGGESTION)
    elif suggestion:  # this session's own line, which must run as given: never redacted, never cleaned
        lines.extend([SUGGESTION_HEADER, FENCE, suggestion, FENCE])
    elif no_own_work and any(r.operation.kind != g.SHELL_WRITE for r in refusals):
        lines.append("None of what it would take is this session's: there is nothing of yours to run it on.")
    for refusal in refusals:
        advice = advice_of(refusal) if refusal.ask else WRITE_ADVICE if refusal.operation.kind == g.SHELL_WRITE \
            else None
        if advice and advice not in lines[-1]:
            lines.append("For `%s`: %s." % (_short(as_written(refusal.operation, command), 80), advice))
    peers = []
    for refusal in refusals:
        peers.extend(p for p in refusal.peers if p.name not in [q.name for q in peers])
    lines.append(_peers_line(peers, host, can_send))
    return "\n".join(lines)


def _shown(refusals):
    """The refusals with what their peers control made one safe line each (peertext): the peers'
    names, their files' names, the stash entries' messages."""
    return [r._replace(peers=[p._replace(name=peertext.name(p.name)) for p in r.peers],
                       held=[h._replace(peer=peertext.name(h.peer), path=peertext.clean(h.path)) for h in r.held],
                       entries=[e._replace(subject=peertext.one_line(e.subject)) for e in r.entries])
            for r in refusals]


def _shows_as_written(suggestion):
    """Whether a line to run holds nothing but printable characters (its heredocs' line breaks and tabs
    aside): it must be shown as it runs, and a file name with a control character in it cannot be."""
    return all(char.isprintable() or char in "\n\t" for char in suggestion)


def _redacted(lines):
    """The lines with secrets taken out (peerhooks.text.redact): a refusal echoes the command, which may
    hold one, to the model and to the person who answers."""
    return [redact(line) for line in lines]


def too_large_reason(command, why, parties, host="claude", what=None, in_checkout=True):
    """The words for a line the guard could not judge within a bound (shell.TooLarge: why), naming
    what was not judged: the line itself (what None) or what a wrapper in it runs. Nothing is said
    of what git would do: the commands were not read. in_checkout: the line starts in the checkout
    the parties work in (else they are live elsewhere, where the line may go)."""
    names = ", ".join(peertext.name(p.name) for p in parties)
    subject, size = ("this command line", "%s, %d characters" % (why, len(command))) if what is None else (what, why)
    advice = "split it into smaller commands that name your own files" if what is None else \
        "run the git commands and file writes it would make yourself, by name, so that each can be judged"
    return "\n".join(_redacted([
        "%s: %s is too large to judge in time (%s), and %s %s live %s; the user decides." % (
            REFUSAL_MARK, subject, size, names, "is" if len(parties) == 1 else "are",
            "in this checkout" if in_checkout else "in a checkout this line may reach"),
        "At stake: %s (its work was not read)" % names,
        "%s did not run `%s`: %s." % (REFUSAL_MARK, _short(command, COMMAND_ECHO_CHARS), advice),
    ]))


def _peers_line(peers, host, can_send):
    return messaging.advice([(p.name, p.can_message, p.kind) for p in peers], can_send, host)

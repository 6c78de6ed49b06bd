"""The line to run instead of a refused one: the same line, with each refused git command narrowed
to the files of this session's it would have acted on. Pure.

Why the whole line, kept byte for byte where it can be: a suggestion the model retries must run as
given and do what the refused line meant (issue 18). Re-quoting Claude Code's own commit form
`git commit -m "$(cat <<'EOF' … EOF)"` made the message start with `$(cat <<'EOF`; keeping only the
commit of `git add new.py && git commit -m m` failed ("pathspec did not match": the file was never
staged); `git restore -- <untracked file>` fails; `git stash -u` without its `-u` stashes less.
So the refused commands are edited in place (their path operands and whole-tree flags replaced by
`-- <own files>`, every other word as written), and everything else in the line is left as it was.
Where the line cannot be edited in place (a loop, a nested shell, paths known only at run time),
the suggestion is the narrowed git commands alone, with `git -C` where they ran elsewhere.

Which files: those the refused command would have acted on that are this session's, as git holds
them now (peerhooks.git.reach on this session's own paths): `git add -A` takes its new and changed
files, `git checkout .` its tracked changes but no untracked file, a plain commit its staged files
and what the same line stages.
"""

from ..git import args as git_args, kinds as g
from ..git import gitstate
from ..startup import oscalls
from ..git.reach import in_scope, reaches
from ..shell.lexer import quote
from ..startup.records import record

# Per subcommand: (long options, options taking a value, flags to drop: they widen the command to
# the whole tree or take paths from elsewhere).
TABLES = {
    "add": (git_args.ADD_LONG, git_args.ADD_VALUES,
            frozenset(["-A", "--all", "-u", "--update", "--no-ignore-removal", "--pathspec-from-file",
                       "--pathspec-file-nul"])),
    "commit": (git_args.COMMIT_LONG, git_args.COMMIT_VALUES,
               frozenset(["-a", "--all", "-i", "--include", "-o", "--only", "--pathspec-from-file",
                          "--pathspec-file-nul"])),
    "stash": (git_args.STASH_LONG, git_args.STASH_VALUES, frozenset(["--pathspec-from-file", "--pathspec-file-nul"])),
    "checkout": (git_args.CHECKOUT_LONG, git_args.CHECKOUT_VALUES,
                 frozenset(["--pathspec-from-file", "--pathspec-file-nul"])),
    "restore": (git_args.RESTORE_LONG, git_args.RESTORE_VALUES,
                frozenset(["--pathspec-from-file", "--pathspec-file-nul"])),
    "clean": (git_args.CLEAN_LONG, git_args.CLEAN_VALUES, frozenset()),
    "reset": (git_args.RESET_LONG, git_args.RESET_VALUES, frozenset(["--pathspec-from-file", "--pathspec-file-nul"])),
    "rm": (git_args.RM_LONG, git_args.RM_VALUES, frozenset(["--pathspec-from-file", "--pathspec-file-nul"])),
}
TABLES["stage"] = TABLES["add"]
REVISION_OPERANDS = frozenset(["checkout", "reset"])  # a leading operand may be a commit, kept as written
STAGE_KINDS = frozenset([g.STAGE_ALL, g.STAGE_PATHS])
COMMIT_KINDS = frozenset([g.COMMIT_INDEX, g.COMMIT_ALL, g.COMMIT_PATHS])
NARROWABLE = STAGE_KINDS | COMMIT_KINDS | frozenset([
    g.STASH_ALL, g.STASH_PATHS, g.DISCARD_ALL, g.DISCARD_PATHS, g.CLEAN_ALL, g.CLEAN_PATHS,
    g.UNSTAGE_ALL, g.UNSTAGE_PATHS, g.REMOVE_PATHS])
BLANKS = frozenset(" \t")


def own_reach(op, toplevel, own_states, staged_in_line=()):
    """The absolute paths of this session's that the operation would act on: its own paths in the
    states the operation reaches, and for a commit what the same line staged before it. None when
    that cannot be known (paths computed at run time)."""
    if op.runtime:
        return None
    found = {p for p, state in own_states.items() if reaches(op, p, state, toplevel)}
    if op.kind in COMMIT_KINDS:
        found |= {p for p in staged_in_line if in_scope(op, p, toplevel)}
    if op.included is not None:  # `commit -i <paths>` commits those paths' changes too
        included = own_reach(op.included, toplevel, own_states, staged_in_line)
        if included is None:
            return None
        found |= set(included)
    return sorted(found)


def staged_state(state):
    """A path's state once `git add` has staged it: the index holds the working tree (None: a file
    added and then deleted leaves nothing to stage or stash)."""
    if state.worktree == gitstate.UNCHANGED and not state.untracked and not state.ignored:
        return state  # staged already, or only in the index
    if state.index == "A" and state.worktree == "D":
        return None
    index = "A" if state.untracked or state.ignored or state.index == "A" else state.worktree
    return state._replace(index=index, worktree=gitstate.UNCHANGED, untracked=False, ignored=False)


def _scan(words, table):
    """[(index, role)] for a subcommand's argument words: "keep", "drop" (a path operand, `--`, a
    widening flag or its value), or ("rewrite", text) for a short-option cluster that loses letters."""
    longs, values, drops = table[0].split(), table[1], table[2]
    roles, index, after_dashes = [], 0, False
    while index < len(words):
        value = words[index].value
        if after_dashes or value == "--":
            roles.append((index, "drop"))
            after_dashes = True
        elif value.startswith("--"):
            flag, has_value, _attached = value.partition("=")
            flag = git_args.unabbreviated(flag, longs)
            role = "drop" if flag in drops else "keep"
            roles.append((index, role))
            if flag in values and not has_value and index + 1 < len(words):
                index += 1
                roles.append((index, role))
        elif value.startswith("-") and len(value) > 1:
            kept, takes_next = "-", False
            for position, letter in enumerate(value[1:], start=1):
                option = "-" + letter
                if option in values:
                    rest = value[position + 1:]
                    kept += letter + rest
                    takes_next = not rest
                    break
                if option not in drops:
                    kept += letter
            if kept == value:
                roles.append((index, "keep"))
            elif kept == "-":
                roles.append((index, "drop"))
            else:
                roles.append((index, ("rewrite", kept)))
            if takes_next and index + 1 < len(words):
                index += 1
                roles.append((index, "keep"))
        else:
            roles.append((index, "operand"))
        index += 1
    return roles


def _kept(op, line):
    """The argument words of a narrowed command, as text: as written where the line holds them."""
    words = op.words
    line = _own_text(op, line)
    if not words:
        return None
    subcommand = words[0].value
    table = TABLES.get(subcommand)
    if table is None:
        return None
    args, verb_missing, save_message = _stash_verb(subcommand, words[1:])
    path_texts = {spec.text for spec in op.paths} | {spec.text for spec in op.excludes}
    texts = []
    for index, role in _scan(args, table):
        word = args[index]
        if role == "drop":
            continue
        if role == "operand":
            # every operand is a path, but checkout's and reset's revision (`git checkout HEAD -- x`)
            if subcommand not in REVISION_OPERANDS or word.expanded or word.value in path_texts \
                    or _is_exclusion(word.value) or word.value in (".", "./", "*", ":/"):
                continue
            texts.append(_text(word, line))
        elif role == "keep":
            texts.append(_text(word, line))
        else:
            texts.append(role[1])
    if None in texts:
        return None  # a word only the running shell can give
    if verb_missing:
        texts.insert(0, "push")
        if save_message:
            texts.insert(1, "-m " + quote(" ".join(w.value for w in save_message)))
    return subcommand, texts


def _stash_verb(subcommand, args):
    """(the argument words to narrow, whether `push` is written before them, the words of a `stash
    save` message): narrowed, `git stash -u` is `git stash push -u -- <paths>` and `git stash save
    wip` is `git stash push -m wip -- <paths>` (save takes no paths)."""
    if subcommand != "stash":
        return args, False, None
    if not args or args[0].value.startswith("-"):
        return args, True, None
    if args[0].value == "push":
        return args[1:], True, None
    if args[0].value == "save":
        return tuple(w for w in args[1:] if w.value.startswith("-")), True, \
            [w for w in args[1:] if not w.value.startswith("-")]
    return args, False, None


def _is_exclusion(value):
    return value.startswith((":!", ":^", ":(exclude)")) or value.startswith(":(") and "exclude" in value


def _own_text(op, line):
    """The text an operation's word spans point into: the line for a command of the line itself;
    none for one inside a nested shell or a wrapper, whose words were read from another text (a
    `bash -c` script, a Makefile) and are rendered from their values."""
    return line if op.depth == 0 and not getattr(op, "via", ()) else None


def _text(word, line):
    """A word as the suggestion writes it: as written in the line, else its value quoted; None for
    an expansion the line does not hold (`"${1:-wip}"` in a script: quoted, it would be its text)."""
    if line is not None and word.span is not None and line[word.span[0]:word.span[1]] and word.heredoc is None:
        return line[word.span[0]:word.span[1]]
    return None if word.expanded else quote(word.value)


def _paths_text(paths, cwd):
    return " ".join(quote(_relative_to(path, cwd)) for path in paths)


def _relative_to(path, cwd):
    if cwd and (path == cwd or path.startswith(cwd.rstrip("/") + "/")):
        return oscalls.posixpath.relpath(path, cwd)
    return oscalls.posixpath.relpath(path, cwd) if cwd else path


def narrowed(op, paths, line, start_cwd):
    """(the argument text that replaces the command's arguments, the whole command standing alone)
    for an operation narrowed to paths; None when it has no narrow form."""
    if op.kind not in NARROWABLE:
        return None
    if op.kind in (g.STASH_ALL, g.STASH_PATHS) and any(w.value in ("-S", "--staged") for w in op.words):
        return None  # git stashes every staged change whatever the paths (git.forms.stash)
    kept = _kept(op, line)
    if kept is None:
        return None
    subcommand, texts = kept
    arguments = " ".join(texts + ["--", _paths_text(paths, op.cwd)])
    where = ""
    if op.cwd and start_cwd and op.cwd != start_cwd:
        where = " -C " + quote(_relative_to(op.cwd, start_cwd))
    return arguments, "git%s %s %s" % (where, subcommand, arguments)


def _standalone(op, line, start_cwd):
    """A kept (not refused) git command standing alone, as written."""
    if not op.words:
        return None
    where = ""
    if op.cwd and start_cwd and op.cwd != start_cwd:
        where = " -C " + quote(_relative_to(op.cwd, start_cwd))
    texts = [_text(w, _own_text(op, line)) for w in op.words]
    return None if None in texts else "git%s %s" % (where, " ".join(texts))


def _spliceable(op, line):
    """Whether the command can be edited in place: a command of the line itself (not in a loop or a
    nested shell, not given more words by xargs or find), every word where the line holds it,
    nothing but blanks between them."""
    words = op.words
    if op.depth != 0 or op.in_loop or op.runtime or not words or any(w.span is None for w in words):
        return False
    if op.feeds:
        from ..shell.feeds import FIELDS  # seam: only a line with a feed, which loaded it already (1 module)

        if any(feed.split != FIELDS for feed, _standing in op.feeds):
            return False  # `… | xargs git add -- mine` would still add what the pipe feeds it
    for before, after in zip(words, words[1:]):
        gap = line[before.span[1]:after.span[0]]
        if not all(c in BLANKS for c in gap.replace("\\\n", "")):
            return False
    return True


# What a stash or a discard may be clearing or saving the tree for later in the line: narrowed to
# this session's files, the peers' changes stay in the way (a pull or rebase refuses to start), or
# a patch made of the whole tree no longer applies.
CLEARING_FOR = frozenset(["pull", "rebase", "merge", "switch", "checkout", "cherry-pick", "revert", "am"])
SAVED_FOR = frozenset(["apply"])


def _keeps_meaning(op, paths, toplevel, own_states, staged_in_line, later_verbs):
    """Whether narrowing the operation to this session's paths still does what the line meant: not
    for a plain commit of a file with unstaged changes too that the line does not stage (`git commit
    -- <file>` would commit them as well), a commit with -p (its paths do not keep it to them), a
    stash or discard that clears the tree for a later pull, switch or patch, a `checkout -f` of the
    whole tree (it resets the index as well, its path form does not), nor for `stash -k -u`
    of an untracked file (git 2.39 stashes it, then fails on the pathspec)."""
    words = {w.value for w in op.words}
    if op.kind in COMMIT_KINDS:
        return _commit_keeps_meaning(op, words, paths, toplevel, own_states, staged_in_line)
    return _tree_keeps_meaning(op, words, paths, own_states, later_verbs)


def _commit_keeps_meaning(op, words, paths, toplevel, own_states, staged_in_line):
    if words & {"-p", "--patch", "--interactive"}:
        return False
    # what `commit -i <paths>` stages itself before it commits is committed whole, as the line means
    staged_by_it = set(staged_in_line) | set(own_reach(op.included, toplevel, own_states) or ()
                                             if op.included is not None else ())
    return not (op.kind == g.COMMIT_INDEX and any(p not in staged_by_it and own_states.get(p) is not None
                                                  and own_states[p].worktree != "." and not own_states[p].untracked
                                                  for p in paths))


def _tree_keeps_meaning(op, words, paths, own_states, later_verbs):
    if op.kind == g.DISCARD_ALL and op.words and op.words[0].value == "checkout" and words & {"-f", "--force"}:
        return False  # `checkout -f` resets the index too; `checkout -f -- <paths>` only the tree, from the index
    if op.kind in (g.STASH_ALL, g.STASH_PATHS, g.DISCARD_ALL, g.DISCARD_PATHS) and \
            set(later_verbs) & (CLEARING_FOR | SAVED_FOR):
        return False
    return not (op.kind in (g.STASH_ALL, g.STASH_PATHS) and g.touches_of(op) & g.UNTRACKED_ANYWHERE and
                words & {"-k", "--keep-index"} and any(own_states.get(p) is not None and own_states[p].untracked
                                                      for p in paths))


def _reads_message_from_stdin(op):
    values = [w.value for w in op.words]
    return op.kind in COMMIT_KINDS and any(v in ("-F", "--file") and i + 1 < len(values) and values[i + 1] == "-"
                                           or v in ("-F-", "--file=-") for i, v in enumerate(values))


def _drop_span(op, line):
    """The text to remove so the command disappears from an `&&`/`;` chain, or None (something
    stands in front of it, an assignment or a prefix command, or it is a pipe stage)."""
    start = op.span[0] if op.span else None
    end = op.words[-1].span[1]
    if start is None:
        return None
    front = start
    while front > 0 and line[front - 1] in BLANKS:
        front -= 1
    if front > 0 and not line.endswith(("&&", ";", "\n"), 0, front):
        return None
    after = end
    while after < len(line) and line[after] in BLANKS:
        after += 1
    for separator in ("&&", ";", "\n"):
        if line.startswith(separator, after):
            after += len(separator)
            while after < len(line) and line[after] in BLANKS:
                after += 1
            return start, after
    if after >= len(line):  # the last command: take the separator before it
        before = start
        while before > 0 and line[before - 1] in BLANKS:
            before -= 1
        for separator in ("&&", ";"):
            if line.endswith(separator, 0, before):
                return before - len(separator), end
    return None


def _picks_hunks(op):
    """`git add -p` with its answers: the hunks it stages are the answers' choice, which this
    session's patch of a shared file (all its hunks) does not follow; whose hunks the answers pick
    is not read here."""
    return bool(op.words) and any(w.value in ("-p", "--patch", "-i", "--interactive") for w in op.words[1:])


def _stagings_reset_after(items, refused):
    """The ids of the stagings before a refused index reset of the same checkout, narrowed with it:
    one let through because the reset puts back what it takes (peerhooks.guard.verdict) would,
    beside the narrowed reset, keep taking it (`git add -A && git reset -q -- . && git add docs/x.md`);
    one of this session's files alone is narrowed to the same files."""
    found = set()
    for at, (op, top) in enumerate(items):
        if id(op) in refused and op.kind in (g.UNSTAGE_ALL, g.UNSTAGE_PATHS):
            found.update(id(before) for before, where in items[:at]
                         if where == top and before.kind in STAGE_KINDS and id(before) not in refused)
    return found


def _merged(edits):
    """The edits in order with overlapping removals joined (the last command of a chain takes the
    separator before it, which the command before it, also taken out, took after it); None where a
    replacement overlaps another edit."""
    merged = []
    for start, end, replacement in sorted(edits):
        if merged and start < merged[-1][1]:
            if replacement or merged[-1][2]:
                return None
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]), "")
        else:
            merged.append((start, end, replacement))
    return merged


Suggestion = record("Suggestion", "text no_own_work shared", (False, ()), """The line to run instead
    (None: none), whether this session has no work of its own the refused commands would take, and
    the files both sessions changed that no narrow form can take apart (then the human decides).""")


def suggestion(line, start_cwd, items, refused, own_states_of, shared=frozenset(), patches=None, verbs=()):
    """The Suggestion for a refused line.

    items: the line's judged operations in order, as (operation, toplevel); refused: the ids of
    those refused; own_states_of: {toplevel: {abs path: PathState}} of this session's changed paths;
    shared: those a peer changed too (staging one whole takes the peer's hunks); patches: {shared
    path: a patch of this session's hunks alone} where its edit records tell them apart; verbs:
    (step, git subcommand) of every git command of the line, reading ones too. In place:
    the refused commands narrowed (or, left with nothing of this session's, taken out of their `&&`
    chain), the rest of the line as written. Standing alone (a loop, a nested shell): every command
    that acts on files narrowed to this session's files."""
    refused = set(refused) | _stagings_reset_after(items, refused)
    nested_refusal = any(id(op) in refused and op.depth > 0 for op, _top in items)
    draft = _Draft(line, start_cwd, own_states_of, shared, patches or {}, verbs)
    try:
        for op, top in items:
            paths, shared_reach, own_states = draft.reach(op, top)
            if id(op) in refused:
                draft.narrow(op, top, paths, shared_reach, own_states)
            elif op.kind in (g.STASH_STACK, g.STASH_APPLY) and top in draft.unpushed:
                draft.take_out_with_its_push(op)
            else:
                draft.keep(op, paths, nested_refusal)
        return draft.answer(items)
    except _NoNarrowForm as none:
        return none.answer


class _NoNarrowForm(Exception):
    """The line has no narrow form: the Suggestion to answer with (none, or the shared files whose
    hunks cannot be told apart, for the human to decide)."""

    def __init__(self, answer=None):
        super().__init__()
        self.answer = answer or Suggestion(None)


class _Draft:
    """The line to run instead, as the walk over its operations builds it: in place, the edits to the
    line ((start, end, replacement)); standing alone, the commands one after another."""

    def __init__(self, line, start_cwd, own_states_of, shared, patches, verbs):
        self.line, self.start_cwd, self.shared, self.patches, self.verbs = line, start_cwd, shared, patches, verbs
        self.own_states_of = {top: dict(states) for top, states in own_states_of.items()}  # as the line leaves them
        self.edits, self.standalone, self.staged = [], [], {}
        self.unpushed = set()  # checkouts where a stash push was taken out of the line
        self.splice, self.own_left, self.changed_before = True, False, False

    def reach(self, op, top):
        """(this session's paths the operation acts on, or None when unknown; the shared ones; this
        session's states before it runs). What a staging stages is staged when a later command
        runs: `git add -A; git stash` stashes it."""
        every_own = self.own_states_of.get(top, {})
        staged = self.staged.get(top, ())
        own_states = {p: s for p, s in every_own.items() if p not in self.shared}
        paths = own_reach(op, top, own_states, staged)
        shared_own = {p: s for p, s in every_own.items() if p in self.shared}
        shared_reach = [p for p in own_reach(op, top, shared_own, staged) or () if p in self.shared]
        if op.kind in STAGE_KINDS:
            self.staged.setdefault(top, set()).update((paths or []) + [p for p in shared_reach if p in self.patches])
            every_own.update((p, staged_state(every_own[p])) for p in paths or () if every_own.get(p) is not None)
        return paths, shared_reach, own_states

    def keep(self, op, paths, nested_refusal):
        """A command not refused: in place, as written; standing alone, narrowed to this session's
        files where it acts on some (`git stash pop` after the refused push: as written)."""
        if nested_refusal and any(w.substitutions for w in op.words):
            raise _NoNarrowForm()  # a refused command runs inside its words: kept as written, it runs again
        self.own_left = self.own_left or bool(paths)
        self.changed_before = self.changed_before or op.kind not in STAGE_KINDS
        if op.kind in NARROWABLE and paths:
            made = narrowed(op, paths, self.line, self.start_cwd)
            self._alone(made[1] if made else _standalone(op, self.line, self.start_cwd))
        elif op.kind not in NARROWABLE:
            self._alone(_standalone(op, self.line, self.start_cwd))

    def narrow(self, op, top, paths, shared_reach, own_states):
        """A refused command narrowed to this session's files, its shared files staged by the
        patches of this session's hunks; left with none of them, taken out of the line."""
        self._check_meaning(op, top, paths, shared_reach, own_states)
        self.changed_before = self.changed_before or op.kind not in STAGE_KINDS
        applies = " && ".join("git -C %s apply --cached %s" % (quote(top), quote(self.patches[p]))
                              for p in shared_reach)
        if not _spliceable(op, self.line):
            self.splice = False
        if not paths and not applies:
            if op.kind in (g.STASH_ALL, g.STASH_PATHS):
                self.unpushed.add(top)  # without the push, a `git stash pop` after it would take another entry
            if not self.take_out(op):
                self.splice = False
            return
        self.own_left = True
        if paths:
            self._narrowed(op, paths, applies)
        else:
            self._shared_only(op, applies)

    def _check_meaning(self, op, top, paths, shared_reach, own_states):
        """No narrow form where narrowing would not do what the line meant."""
        if op.kind == g.SHELL_WRITE:
            raise _NoNarrowForm()  # the refusal sends the model to the Edit tool
        later = [verb for step, verb in self.verbs if op.step is not None and step is not None and step > op.step]
        if paths is None or self.changed_before or \
                not _keeps_meaning(op, paths, top, own_states, self.staged.get(top, ()), later):
            raise _NoNarrowForm()  # what it acts on was changed earlier in the line, or its narrow form means else
        if shared_reach and _picks_hunks(op):
            raise _NoNarrowForm()  # the human decides
        if shared_reach and (op.kind not in STAGE_KINDS or any(p not in self.patches for p in shared_reach)):
            raise _NoNarrowForm(Suggestion(None, False, tuple(shared_reach)))

    def _narrowed(self, op, paths, applies):
        made = narrowed(op, paths, self.line, self.start_cwd)
        if made is None:
            raise _NoNarrowForm()
        arguments, alone = made
        then = " && " + applies if applies else ""
        self.standalone.append(alone + then)
        if self.splice:
            self.edits.append((op.words[0].span[1], op.words[-1].span[1], " " + arguments + then))

    def _shared_only(self, op, applies):
        """Only shared files: the patches stage this session's hunks of them."""
        self.standalone.append(applies)
        if self.splice:
            self.edits.append((op.span[0], op.words[-1].span[1], applies) if op.span else (0, 0, ""))
            self.splice = op.span is not None

    def take_out(self, op):
        """Whether the command was taken out of its `&&`/`;` chain (never while the line is not
        edited in place)."""
        drop = _drop_span(op, self.line) if self.splice else None
        if drop is not None:
            self.edits.append((drop[0], drop[1], ""))
        return drop is not None

    def take_out_with_its_push(self, op):
        """A `git stash pop` or apply after a push taken out of the line goes with it."""
        if not self.take_out(op) and self.splice:
            raise _NoNarrowForm()

    def _alone(self, command):
        if command is None:
            raise _NoNarrowForm()  # it cannot be written out standing alone
        self.standalone.append(command)

    def answer(self, items):
        """The Suggestion once every operation is walked."""
        if not self.own_left:  # what is left of the line acts on nothing of this session's: nothing to run instead
            return Suggestion(None, True)
        if not self.splice and any(_reads_message_from_stdin(op) for op, _top in items):
            return Suggestion(None)  # `git commit -F -` standing alone loses the heredoc its message comes from
        if self.splice:
            return Suggestion(_edited(self.line, self.edits))
        parts = [p for p in self.standalone if p]
        return Suggestion(" && ".join(parts) or None, not parts)


def _edited(line, edits):
    """The line with the edits made (None when they overlap, or leave nothing)."""
    merged = _merged(edits)
    if merged is None:
        return None
    text = line
    for start, end, replacement in reversed(merged):
        text = text[:start] + replacement + text[end:]
    text = text.strip()
    while text.endswith(("&&", ";")):  # the last commands taken out together leave the one before them last
        text = text[:-2 if text.endswith("&&") else -1].rstrip()
    return text or None

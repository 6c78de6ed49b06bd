"""What a classifier is given: one git run (Run: where, as what text, what the line feeds it) and
the Lookup it asks what only the checkout can tell (is `release-1.2` a branch? is a merge under
way?), whose default guesses from the word alone (the guard passes peerhooks.git.checkout_lookup's,
which reads the refs, the config and the index); and how the path operands of a form become its
operation (by_paths): the whole tree, the working directory, named paths, paths only the running
shell knows, or what a `$(…)` prints. Pure but for the Lookup.
"""
from ...shell.lexer import Word
from ...shell.words import expand, words_of
from ...startup.records import record
from ..args import PATCH_OPTIONS, exclusion_spec, is_exclusion, looks_like_revision, pathspec
from ..kinds import DEFAULT_TOUCHES, Operation, PATHS_OF, PATH_KINDS, Pathspec, SAFE, WHOLE_KINDS, WHOLE_OF

# Operand words that name the whole tree from wherever git runs, and those naming its working directory.
WHOLE_TREE_WORDS = frozenset([":/", ":/.", ":/*", ":(top)", ":(top)."])
HERE_WORDS = frozenset([".", "./", "*", "./*"])
# What an operand says beside its pathspecs.
WHOLE_TREE, HERE, AT_RUN_TIME = "whole tree", "working directory", "at run time"


class Lookup:
    """What only the checkout can tell, asked while classifying. This default guesses from the word
    (a dotted word is a path, a dotless one a revision); the guard passes one that reads the refs
    and the tree."""

    def is_revision(self, word, cwd):
        return looks_like_revision(word)

    def is_current(self, revision, cwd):
        """True when the revision is what is checked out already (`HEAD`, the current branch)."""
        return revision in ("HEAD", "@")

    def in_progress(self, cwd):
        """True when a merge, rebase, cherry-pick, revert or am is under way (an abort acts)."""
        return True

    def pull_rebases(self, cwd):
        """True when `git pull` rebases here (pull.rebase in the config)."""
        return False

    def fast_forwards(self, upstream, cwd):
        """True when HEAD is an ancestor of `upstream` (a rebase onto it only fast-forwards: no
        commit is rewritten)."""
        return False

    def autostashes(self, cwd):
        """True when rebase.autoStash is set here (a rebase then stashes and re-applies local changes
        instead of refusing to start)."""
        return False

    def names_no_commit(self, revisions, cwd):
        """True when one of the revisions names no commit: git then refuses the whole command."""
        return False

    def detects_renames(self, keys, top):
        """Whether the first of the config keys the repository sets (`status.renames`, then
        `diff.renames`) turns rename detection on (True, git's default), off (False), or says what
        the guard does not read (None: `copies`, an included file)."""
        return True

    def same_commit(self, first, second, cwd):
        """True when both revisions name the same commit (`update-ref` to the value it has)."""
        return False

    def index_entries(self, pathspecs, cwd):
        """The index entries the pathspecs (as written, relative to cwd) match, toplevel-relative;
        None when the checkout cannot tell (then every path under them counts)."""
        return None

    def is_folder(self, path):
        """True when the path is a folder, False when it is something else, None when nothing is
        there or it cannot be told (`ls <it>` then prints nothing, or an error)."""
        return None

    def checked_out(self, ref, cwd):
        """The toplevels of the repository's worktrees that have the branch `ref` (`refs/heads/x`)
        checked out, or `HEAD` (the checkout of cwd); None when the checkout cannot tell."""
        return None

    def stash_files(self, entry, cwd):
        """The files a stash entry (None: the latest) holds, toplevel-relative: its tracked changes
        with renames split into both names, and its untracked files; [] when there is no such
        entry; None when it cannot tell."""
        return None

    def message_waiting(self, cwd):
        """True when git finds a commit message without one on the command line: a merge or squash
        left MERGE_MSG / SQUASH_MSG, a prepare-commit-msg or commit-msg hook may write one, or a
        commit.template may be kept. This default says no, as a checkout with none of them does."""
        return False


class Run(record("Run", "cwd command adds_words stdin_fed context lookup private_index variables words depth bound "
                 "in_loop span config via feed answers produced",
                 (None, (), 0, None, False, None, (), (), None, None, ()))):
    """One git run being classified: where, as what text, and what it may receive at run time:
    adds_words (xargs / find -exec add paths), stdin_fed (answers can reach `-p` prompts; `git
    apply` reads a patch), private_index (GIT_INDEX_FILE: the shared index is not touched),
    variables (what the line assigned before this run), words and depth (as Operation's), bound
    (the paths and work a feed gives it, or None), via (the wrappers that run it), feed (the
    feeds.Feed of the words xargs adds, or of the patch `git apply` reads), answers (what the line
    feeds its prompts, when known), produced (the line's variables set to a `$(…)`:
    cmdline.Command.produced)."""
    __slots__ = ()

    def op(self, kind, paths=(), runtime=False, **extra):
        """The Operation of this run: its kind, paths and what else the classifier says (extra)."""
        extra.setdefault("words", self.words)
        extra.setdefault("depth", self.depth)
        extra.setdefault("in_loop", self.in_loop)
        extra.setdefault("span", self.span)
        extra.setdefault("config", self.config)
        extra.setdefault("private", self.private_index or None)
        extra.setdefault("via", self.via)
        if self.bound is not None and self.adds_words:
            bound_paths, bound_touches = self.bound
            extra.setdefault("bound", self.bound)
            extra["feeds"] = tuple(extra.get("feeds", ())) + ((self.feed, tuple(bound_paths)),)
            if kind in PATH_KINDS or kind in WHOLE_KINDS:
                # the words xargs adds are what the lister lists: paths under its pathspecs, in
                # the states it lists (`git diff --name-only` lists tracked working-tree changes)
                kind = PATHS_OF.get(kind, kind)
                touches = extra.get("touches") or DEFAULT_TOUCHES.get(kind, frozenset())
                extra["touches"] = frozenset(touches & bound_touches)
                return Operation(kind, self.cwd, self.command, tuple(paths) + tuple(bound_paths), False, **extra)
        return Operation(kind, self.cwd, self.command, tuple(paths), runtime or self.adds_words, **extra)

    def moves_to_nothing(self, revisions):
        """Whether a HEAD mover's revisions name no commit: git then stops before touching anything."""
        revisions = ["@{-1}" if r == "-" else r for r in revisions]
        return bool(revisions) and self.lookup.names_no_commit(revisions, self.cwd)

    def configured(self, key):
        """The line's `-c key=value` for key (lowercased), or None."""
        for name, value in reversed(self.config):
            if name == key:
                return value
        return None

    def patch_unanswered(self, args):
        """`-p` asks about each hunk on stdin: with no answers fed it changes nothing."""
        return bool(args.flags & PATCH_OPTIONS) and not self.stdin_fed


def by_paths(kind, path_words, run, args, empty_kind=SAFE, empty_whole=False, touches=None, excludes=(),
             precheck=None):
    """The operation of a path-carrying form: whole when a pathspec names the whole tree, relative
    when it names the working directory, runtime when a path comes only at run time. touches: what
    of the uncommitted work it reaches (None: the kind's default); excludes: pathspecs it leaves
    out besides the line's own `:!` exclusions; precheck: what git checks first (Precheck). A form
    whose words include a feed (`$(git ls-files -m)`) knows what it is without them (alone)."""
    op = _paths_form(kind, path_words, run, args, empty_kind, empty_whole, touches, excludes, precheck)
    if op.feeds and not run.adds_words:
        rest = [w for w in path_words if fed_operand(w, run) is None]
        op = op._replace(alone=_paths_form(kind, rest, run, args, empty_kind, empty_whole, touches, excludes,
                                           precheck))
    return op


def _paths_form(kind, path_words, run, args, empty_kind, empty_whole, touches, excludes, precheck):
    paths, whole, relative_whole, runtime, exclusions, used = operand_pathspecs(path_words, run)
    runtime = runtime or args.from_file or run.adds_words
    extra = {"touches": touches, "excludes": tuple(exclusions) + tuple(excludes), "precheck": precheck,
             "feeds": used}
    if whole:
        return run.op(WHOLE_OF[kind], paths, runtime, **extra)
    if relative_whole and not runtime:
        return run.op(WHOLE_OF[kind], paths, False, relative=True, **extra)
    if not path_words and not runtime:
        if empty_whole:
            return run.op(WHOLE_OF[kind], **extra)
        return run.op(empty_kind)
    return run.op(kind, paths, runtime, **extra)


def operand_pathspecs(words, run):
    """(pathspecs, whole, relative_whole, runtime, exclusions, feeds) for operand words. whole: one
    names the whole tree from wherever it is run (`:/`, or all exclusions); relative_whole: one
    names the working directory (`.`, `*`); runtime: a word only the shell can know; exclusions:
    the `:!x`, `:^x`, `:(exclude)x` pathspecs, which git leaves out of what the others match;
    feeds: ((feeds.Feed, the pathspecs standing for what it prints), …) of `$(…)` operands."""
    specs, exclusions, used, said, positive = [], [], [], set(), 0
    for written in words:
        for word in words_of(written):
            if is_exclusion(word.value):
                if not word.expanded:
                    exclusions.append(exclusion_spec(word, run.cwd))
                continue
            positive += 1
            found, what = _operand(word, run)
            specs.extend(found)
            if isinstance(what, tuple):
                used.append(what)
            elif what is not None:
                said.add(what)
    whole = WHOLE_TREE in said or bool(words) and not positive  # `git add ':!secret'` stages everything else
    return tuple(specs), whole, HERE in said, AT_RUN_TIME in said, exclusions, tuple(used)


def _operand(word, run):
    """(pathspecs, what) of one operand that leaves nothing out: what is WHOLE_TREE (`:/`), HERE
    (`.`), AT_RUN_TIME, (feed, pathspecs) for what a lister prints, or None for named paths."""
    if word.expanded:
        known = expand(word, run.cwd, run.context, run.variables)
        if known is None:
            fed = fed_operand(word, run)
            if fed is not None and fed[0] is not None:
                return fed
            return [Pathspec(word.value, run.cwd, word.value, False, word.glob, False)], AT_RUN_TIME
        word = word._replace(value=known, expanded=False)
    value, what = word.value, None
    if value in WHOLE_TREE_WORDS:
        what = WHOLE_TREE
    elif value in HERE_WORDS:
        what = HERE
    elif word.glob and run.context.glob is not None and run.cwd:
        matches = run.context.glob(value, run.cwd)
        if matches:  # Bash hands git the files that exist: `git add src/*.py` never names a deleted one
            return [pathspec(Word(m), run.cwd, run.context.paths) for m in matches], None
        if matches == []:  # no match: Bash passes the word as written, which git reads as a pattern
            word = word._replace(glob=False)
    return [pathspec(word, run.cwd, run.context.paths)], what


def fed_operand(word, run):
    """What an operand that is a feed stands for: None when it is none (no `$(…)`, nor a variable
    the line set to one, or a producer that cannot be read); else (pathspecs, None) for words the
    line holds (`$(echo a.py)`), (None, None) when those cannot be told, or (pathspecs, (feed,
    pathspecs)) standing for what a lister prints until git's state is read."""
    substitution = _substitution(word, run)
    if substitution is None:
        return None
    from .. import fed_paths  # seam: only a `$(…)` operand loads the feed model (~60 KB)

    return fed_paths.substituted(substitution[0], substitution[1], run)


def _substitution(word, run):
    """(word, folder) of the one unquoted `$(…)` a word is, run from that folder, or of the `$(…)` a
    variable the line set holds (`files=$(git diff --name-only); git add $files`: the same words,
    split the same way); None for any other word."""
    if word.substitutions:
        return word, run.cwd
    name = word.value[2:-1] if word.value.startswith("${") and word.value.endswith("}") else word.value[1:]
    produced = dict(run.produced).get(name) if word.value.startswith("$") else None
    if produced is None or not (word.unquoted or produced[2]):
        return None  # `"$files"` is one word holding every line; `"$f"` of a loop, one field
    return produced[0]._replace(unquoted=word.unquoted or produced[2]), produced[1]

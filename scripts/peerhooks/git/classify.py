"""The git operations of a Bash command line, in order: each `git …` command read past git's own
options (where it runs, its `-c` config, a private index, what the line feeds it) and handed to
its subcommand's classifier (peerhooks.git.forms); aliases expanded once their definitions are read.

Pure: the command line is read by peerhooks.shell.cmdline; what only the checkout can tell (is
`release-1.2` a branch? is `Makefile` a file?) is asked of a Lookup the caller passes.
  parse(command, cwd, context, lookup) -> [Operation]
  operations(runs, context, lookup)    -> [Operation]   (commands already read by cmdline.commands)
  expand_alias(op, aliases, toplevel)  -> [Operation]   (the caller reads `git config` once)
Two of a line's operations are then read again in the light of the ones before it (the caller
does, once the line's chains are known): adds into a private index (GIT_INDEX_FILE) fold into the
commit made from it, whose tree is what the line filled that index with (fold_private_indexes);
and a reset to HEAD~1 that certainly runs right after the line's one commit takes the branch back
to where the line started, not to a peer's earlier commit (back_to_the_start).
The verdict on the operations is peerhooks.guard.verdict.
"""
from ..shell import cmdline
from ..shell.chains import AND
from ..shell.lexer import TooLarge, Word, quote, tokenize
from ..shell.words import expand, resolve
from ..startup.records import record
from .args import GIT_VALUE_OPTIONS, HELP_OPTIONS
from .forms import CLASSIFIERS, FAMILY_OF
from .forms import head_movers, index as index_forms  # the commonest families: they register as they load
from .forms.run import Lookup, Run
from .kinds import (ALIAS, AMEND, COMMIT_ALL, COMMIT_INDEX, COMMIT_PATHS, COMMIT_PRIVATE, FOREIGN_TREE, MOVE_HEAD,
                    Operation, Pathspec, PrivateIndex, RESET_ALL, SAFE, STAGE_ALL, STAGE_PATHS, UNFOLLOWED, WRITE_REFS)

# git refuses alias loops itself; this bounds alias-of-alias chains (a longer one raises TooLarge:
# the alias at its end, which git would run, is not judged).
MAX_ALIAS_CHAIN = 10

# Every command git ships (and the common external ones); any other word is looked up as an alias.
KNOWN_COMMANDS = frozenset("""
add am annotate apply archimport archive backfill bisect blame branch bugreport bundle cat-file
check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick
citool clean clone column commit commit-graph commit-tree config count-objects credential
credential-cache credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff
diff-files diff-index diff-pairs diff-tree difftool fast-export fast-import fetch fetch-pack
filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects fsmonitor--daemon
gc get-tar-commit-id grep gui hash-object help hook http-backend http-fetch http-push imap-send
index-pack init init-db instaweb interpret-trailers last-modified lfs log ls-files ls-remote ls-tree
mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-one-file merge-tree
mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects pack-redundant pack-refs
patch-id prune prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog
refs remote repack replace replay repo request-pull rerere reset restore rev-list rev-parse revert rm
scalar send-email send-pack sh-i18n sh-setup shell shortlog show show-branch show-index show-ref
sparse-checkout stage stash status stripspace submodule survey svn switch symbolic-ref tag
unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var
verify-commit verify-pack verify-tag version web--browse whatchanged worktree write-tree
""".split())

# Subcommands that never change the index, tree, HEAD, stash or refs whatever their arguments: the
# front door lets a line made only of these through before reading anything (scripts/git_index_guard).
READ_ONLY = frozenset("""
status diff log show rev-parse ls-files ls-tree blame grep describe shortlog cat-file rev-list
merge-base for-each-ref show-ref show-branch name-rev whatchanged range-diff diff-tree diff-files
diff-index check-ignore check-attr var version help fetch count-objects annotate cherry
""".split())
# git's own options that print something and run no subcommand.
INFORMATION_OPTIONS = frozenset(["--version", "-v", "--html-path", "--man-path", "--info-path"])

Invocation = record("Invocation", "location git_dir work_tree config start", (), """What git's own options
    before the subcommand say: the folder it runs in (-C), the repository (--git-dir, GIT_DIR) and
    work tree (--work-tree, GIT_WORK_TREE) as written, the `-c key=value` pairs (keys lowercased),
    and where the subcommand's words start.""")


def parse(command, cwd, context=cmdline.Context(), lookup=None):
    """Every git invocation in a Bash command line, in order, as operations. `cwd` is the directory
    the command starts in (None if unknown)."""
    return operations(cmdline.commands(command, cwd, context), context, lookup)


def operations(runs, context=cmdline.Context(), lookup=None):
    """The git operations of commands already read by cmdline.commands, in order."""
    lookup = lookup or Lookup()
    found = []
    for step, run in enumerate(runs):
        if run.name == "git":
            operation = _git(run, context, lookup)
            if operation is not None:
                found.append(operation._replace(step=step))
                if operation.included is not None:  # `commit -i <paths>`: the index, and those paths too
                    found.append(operation.included._replace(step=step))
        elif run.marker is not None:  # what a wrapper does, in the follower's words (a kind here)
            found.append(Operation(run.marker, run.cwd, run.via[-1].wrapper, depth=run.depth, in_loop=run.in_loop,
                                   via=run.via, moves_branch=run.marker == RESET_ALL,  # `gh pr checkout --force`
                                   step=step))
    return found


def fold_private_indexes(operations):
    """The operations in order, with those on a private index (GIT_INDEX_FILE) folded into the
    commit made from it: an add there touches no shared state, but the commit makes HEAD's tree from
    that index, so what the line filled it with is what the commit is judged by. Pure."""
    fresh, adds, folded = set(), {}, []
    for op in operations:
        key = op.private
        if key is None or op.kind not in (STAGE_ALL, STAGE_PATHS, COMMIT_PRIVATE) and not _reads_a_tree(op):
            folded.append(op)
        elif _reads_a_tree(op):
            fresh.add(key)
            adds[key] = []
        elif op.kind == COMMIT_PRIVATE:
            folded.append(op._replace(private=PrivateIndex(key, key in fresh, tuple(adds.get(key, ())))))
        else:
            adds.setdefault(key, []).append(op)
    return folded


# The revision words that name the commit before HEAD.
PARENT_OF_HEAD = frozenset(["HEAD~", "HEAD~1", "HEAD^", "HEAD^1", "@~", "@~1", "@^", "@^1"])
MAKES_A_COMMIT = frozenset([COMMIT_INDEX, COMMIT_ALL, COMMIT_PATHS, COMMIT_PRIVATE])
MOVES_HEAD = frozenset([MOVE_HEAD, AMEND, WRITE_REFS, ALIAS, UNFOLLOWED])
# Subcommands that move HEAD in some of their forms, judged safe or not.
MAY_MOVE_HEAD = frozenset(["checkout", "switch", "reset", "update-ref", "symbolic-ref", "bisect", "stash"])


def back_to_the_start(operations, gates):
    """The operations with a reset to HEAD~1 that certainly runs right after the line's one commit
    (`git commit -m x && git push && git reset --hard HEAD~1`) judged as a reset to where the line
    started: when it runs, every command of its `&&` chain back to that commit succeeded, so HEAD~1
    is the commit every session stood on, and the branch ends where it began. `--hard` still
    rewrites the tracked files; `--soft` changes nothing, and a plain commit it takes back leaves
    the index as it found it, so neither is judged. gates: chains.Chain.gates. Pure."""
    undone = {}  # id of an operation -> what it is judged as
    for op in operations:
        commit = _one_commit_before(op, operations, gates) if op.kind == RESET_ALL and op.moves_branch \
            and _names_parent_of_head(op) else None
        if commit is None:
            continue
        if op.touches:
            undone[id(op)] = op._replace(moves_branch=False)
        else:
            undone[id(op)] = op._replace(kind=SAFE, moves_branch=False)
            if commit.kind == COMMIT_INDEX:
                undone[id(commit)] = commit._replace(kind=SAFE)
    return [undone.get(id(op), op) for op in operations]


def _names_parent_of_head(op):
    operands = [w for w in op.words[1:] if not w.value.startswith("-")]
    return len(operands) == 1 and not operands[0].expanded and operands[0].value in PARENT_OF_HEAD


def _one_commit_before(reset, operations, gates):
    """The line's one commit when the reset runs only once it succeeded, nothing else having moved
    HEAD; else None."""
    if reset.step is None or reset.depth or reset.in_loop or reset.via:
        return None
    before = [op for op in operations if op.step is not None and op.step < reset.step]
    commits = [op for op in before if op.kind in MAKES_A_COMMIT]
    if len(commits) != 1 or any(op.kind in MOVES_HEAD or op.kind == RESET_ALL or op.words and op.words[0].value in
                                (head_movers.HEAD_MOVERS | MAY_MOVE_HEAD) for op in before):
        return None  # (a pull judged safe may still have moved HEAD forward)
    commit = commits[0]
    step = reset.step
    while step > commit.step:  # an unbroken `&&` chain, command by command, back to the commit
        if gates.get(step) != (step - 1, AND):
            return None
        step -= 1
    return None if commit.depth or commit.in_loop or commit.via else commit


def _reads_a_tree(op):
    return bool(op.words) and op.words[0].value == "read-tree"


def is_unknown(operation):
    """True when the subcommand is not git's: the caller reads the aliases (one `git config` call)
    and passes them to expand_alias."""
    return operation.kind == ALIAS


def relocated(operation, cwd):
    """The operation with its directory replaced (the caller's realpath of it), paths following."""
    def moved(spec):
        return spec._replace(root=cwd) if spec.root == operation.cwd else spec

    target = operation.target
    target = moved(target) if isinstance(target, Pathspec) else target  # a `git mv` destination
    return operation._replace(cwd=cwd, paths=tuple(moved(p) for p in operation.paths), target=target)


def parse_alias_config(output):
    """`git config --get-regexp '^alias\\.'` output -> {name: expansion}; git's names are
    case-insensitive and it prints them lowercased."""
    aliases = {}
    for line in output.splitlines():
        key, _sep, value = line.partition(" ")
        if key.lower().startswith("alias.") and len(key) > len("alias."):
            aliases.setdefault(key[len("alias."):].lower(), value)
    return aliases


def expand_alias(operation, aliases, toplevel=None, context=cmdline.Context(), lookup=None):
    """The operations an ALIAS operation runs, given {name: expansion}. A `!` alias is shell, which
    git runs from the toplevel (the command's directory when toplevel is not given). No alias of
    that name: an external command, nothing to judge."""
    lookup = lookup or Lookup()
    seen = set()
    step = operation.step
    while operation.kind == ALIAS and len(seen) < MAX_ALIAS_CHAIN:
        name = operation.alias.lower()
        expansion = aliases.get(name)
        if expansion is None or name in seen:
            return []
        seen.add(name)
        if expansion.startswith("!"):
            script = expansion[1:] + "".join(" " + quote(w.value) for w in operation.alias_args)
            operations = parse(script, toplevel or operation.cwd, context, lookup)
            # a nested shell: its words' places are in the alias's text, not the line's
            return [op._replace(via=operation.via + op.via, step=operation.step, depth=operation.depth + 1 + op.depth)
                    for op in operations if not (op.kind == ALIAS and op.alias.lower() in seen)]
        words = tuple(w for w in tokenize(expansion) if isinstance(w, Word)) + operation.alias_args
        if not words:
            return []
        operation = git_operation(words, Run(operation.cwd, render(words), operation.runtime, False,
                                             context, lookup, False, None, words, operation.depth + 1,
                                             via=operation.via))
    if operation.kind == ALIAS and operation.alias.lower() in aliases and operation.alias.lower() not in seen:
        raise TooLarge("git aliases of aliases more than %d deep" % MAX_ALIAS_CHAIN)
    return [] if operation.kind == ALIAS else [operation._replace(step=step)]


def _git(run, context, lookup):
    """The operation of one `git …` simple command: git's own options read, then its subcommand's."""
    invocation = _invocation(run, context)
    if invocation is None:
        return None
    location, foreign = _location(invocation, run, context)
    words = _subcommand_words(run, invocation.start, location, context)
    words, adds_words, feed, bound = _fed(run, words, location, context, lookup)
    classified = Run(location, render(words), adds_words, run.stdin_fed, context, lookup,
                     _private_index(run, location, context), dict(run.variables), words, run.depth, bound,
                     run.in_loop, None if run.via else _command_span(run), invocation.config, run.via, feed,
                     _answers(run), run.produced)
    operation = git_operation(words, classified)
    if foreign and operation.kind not in (SAFE, ALIAS):
        # `git --work-tree=src add -A`: git reads every index entry against src, so entries outside it
        # look deleted and the peers' staged files may leave the index
        return operation._replace(kind=FOREIGN_TREE, paths=(), runtime=False, relative=False, feeds=(),
                                  alone=None, precheck=None, touches=None)
    return _as_fed(operation, run, classified)


def _invocation(run, context):
    """What git's own options say (an Invocation), or None when no subcommand runs (`git
    --version`, `git -h`, `git -C x`)."""
    env = dict(run.env)
    location, git_dir, work_tree, config = run.cwd, env.get("GIT_DIR"), env.get("GIT_WORK_TREE"), []
    arguments, index = run.args, 0
    while index < len(arguments) and arguments[index].value.startswith("-"):
        flag, has_value, attached = arguments[index].value.partition("=")
        value = arguments[index]._replace(value=attached) if has_value else (
            arguments[index + 1] if index + 1 < len(arguments) else None)
        if flag in HELP_OPTIONS or flag in INFORMATION_OPTIONS and not has_value:
            return None
        if flag == "-c" and not has_value and value is not None:
            key, equals, setting = value.value.partition("=")
            config.append((key.lower(), setting if equals else "true"))  # `-c x.y` alone means true
        if flag == "-C" and not has_value:
            location = resolve(value, location, context, dict(run.variables)) if value is not None else None
        elif flag == "--git-dir":
            git_dir = value
        elif flag == "--work-tree":
            work_tree = value
        index += 2 if flag in GIT_VALUE_OPTIONS and not has_value else 1
    if index >= len(arguments):
        return None
    return Invocation(location, git_dir, work_tree, tuple(config), index)


def _location(invocation, run, context):
    """(the folder git works in, whether that work tree is another than its repository's own)."""
    location, git_dir, work_tree = invocation.location, invocation.git_dir, invocation.work_tree
    if work_tree is not None:
        repository_top = _repository_top(git_dir, location, context, run)
        location = resolve(work_tree, location, context, dict(run.variables))
        return location, repository_top is not None and location is not None and location != repository_top
    if git_dir is not None:
        return _repository_top(git_dir, location, context, run), False
    return location, False


def _repository_top(git_dir, location, context, run):
    """The toplevel of the repository a git command with `--work-tree` uses: the folder holding the
    `.git` it names, or the checkout git finds from where it runs; None when the line cannot tell."""
    if git_dir is not None:
        directory = resolve(git_dir, location, context, dict(run.variables))
        paths = context.paths
        return paths.dirname(directory) if directory and paths.basename(directory) == ".git" else None
    return context.toplevel(location) if context.toplevel is not None and location else None


def _subcommand_words(run, start, location, context):
    """The subcommand and its arguments as written (`x=add; git $x -A` reads as `git add -A`)."""
    words = tuple(run.args[start:])
    if run.via:  # a wrapper's line (a recipe, a script): its words' places are in that text, not the line's
        words = tuple(w._replace(span=None) for w in words)
    if words[0].expanded:  # `x=add; git $x -A`
        known = expand(words[0], location, context, dict(run.variables))
        if known and " " not in known:
            words = (words[0]._replace(value=known, expanded=False),) + words[1:]
    return words


def _private_index(run, location, context):
    """The GIT_INDEX_FILE a command works on: its path, True when only the running shell knows it,
    False without one (the shared index)."""
    env = dict(run.env)
    if "GIT_INDEX_FILE" not in env:
        return False
    return resolve(env["GIT_INDEX_FILE"], location, context, dict(run.variables)) or True


def _fed(run, words, location, context, lookup):
    """(words, adds_words, feed, bound) of a run the line may feed: the words xargs or `find -exec`
    adds, as if typed when the line holds them (`echo a.py | xargs git add`), else the feeds.Feed
    of what they (or a patch piped to `git apply`) will be, and the paths and work it gives."""
    if not _may_be_fed(run, words):
        return words, run.adds_words, None, None
    from . import fed_paths  # seam: only a line feeding git loads the feed model (~60 KB of bytecode)

    return fed_paths.received(run, words, location, context, lookup)


def _may_be_fed(run, words):
    """Whether xargs or `find -exec` adds words to the run, or it is a `git apply` reading a pipe."""
    if run.adds_words:
        return run.fed_by is not None and run.xargs is not None
    return words[0].value == "apply" and run.piped_from is not None


def _answers(run):
    """The patch_answers.Answers the line feeds a command's prompts, or None when unknown."""
    if not run.stdin_fed:
        return None
    from . import patch_answers  # seam: only a command the line feeds on stdin loads the hunk model (~8 KB)

    return patch_answers.answers_fed(run)


def _as_fed(operation, run, classified):
    """The operation as the line feeds it: once per field of a loop over a `$(…)`, or per word or
    line xargs gives, each run may fail alone (no precheck), and a feed that gives nothing leaves
    the command as it is without those words (alone)."""
    if operation.feeds and any(by_field for _name, (_word, _cwd, by_field) in run.produced):
        # `for f in $(…); do git add "$f"; done` runs it once per field: each may fail alone
        operation = operation._replace(precheck=None)
    if not classified.adds_words:
        return operation
    if run.xargs is None or not run.xargs.once:
        operation = operation._replace(precheck=None)  # git runs a word or a line at a time: each may fail alone
    if classified.feed is not None and operation.feeds:
        alone = git_operation(classified.words, classified._replace(adds_words=False, bound=None, feed=None)) \
            if run.xargs is not None and run.xargs.runs_empty else classified.op(SAFE)
        operation = operation._replace(alone=alone)
    return operation


def _command_span(run):
    """(start, end) of a simple command as written, from its name to its last argument; None when
    a word of it is not where the line holds it."""
    words = [run.path_word] + list(run.args)
    if run.path_word is None or any(w.span is None for w in words):
        return None
    return words[0].span[0], words[-1].span[1]


def render(words):
    """A git command as text, from its subcommand's words."""
    return "git " + " ".join(quote(w.value) for w in words)


def git_operation(words, run):
    """Classify one git run: words are the subcommand and its arguments (global options removed)."""
    subcommand = words[0].value
    rest = words[1:]
    if words[0].expanded or subcommand in READ_ONLY or {w.value for w in rest} & HELP_OPTIONS:
        return run.op(SAFE)
    classify = classifier(subcommand)
    if classify is not None:
        return classify(rest, run)
    if subcommand in KNOWN_COMMANDS or subcommand.startswith("-"):
        return run.op(SAFE)
    return Operation(ALIAS, run.cwd, run.command, (), run.adds_words, subcommand, tuple(rest), config=run.config,
                     via=run.via)


def classifier(subcommand):
    """The classifier of a subcommand's forms (its family loaded on first use), or None (a
    read-only, unknown or external subcommand)."""
    if subcommand not in CLASSIFIERS and subcommand in FAMILY_OF:
        _load(FAMILY_OF[subcommand])
    return CLASSIFIERS.get(subcommand)


def _load(family):
    """Load a family of forms: its classifiers register as it loads."""
    if family == "tree":
        from .forms import tree  # seam: a registry -> a family of git forms (~28 KB of bytecode)
    elif family == "stash":
        from .forms import stash  # seam: a registry -> a family of git forms (~10 KB)
    else:
        from .forms import refs  # seam: a registry -> a family of git forms (~10 KB)

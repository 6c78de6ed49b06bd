"""The git model's vocabulary: what kind of thing a git operation does to the shared index, tree,
HEAD, stash stack and refs, and which of the uncommitted work each kind reaches.

Why: sessions in one checkout share one index, one working tree and one HEAD, and all worktrees of a
repository share the stash stack and the refs. A `git add -A` stages a peer's half-written files; a
plain `git commit` commits what a peer staged; `reset --hard`, `checkout .`, `clean -f`, a branch
switch or a stash pop rewrites files under every session. The classifier (peerhooks.git.classify)
makes each git run an Operation of one of these kinds, with the Pathspecs it names and what git
checks before it changes anything (Precheck); peerhooks.git.reach and the guard judge by them.
"""
from ..startup.records import record

# What an operation does.
STAGE_ALL = "stage-all"          # add -A / -u / . / :/ / '*'
COMMIT_ALL = "commit-all"        # commit -a, commit .
STASH_ALL = "stash-all"          # stash, stash push/save without paths
STASH_STACK = "stash-stack"      # stash drop/clear/pop/branch: the stack is shared by every worktree
STASH_APPLY = "stash-apply"      # stash apply: merges an entry into the files it holds
RESET_ALL = "reset-all"          # reset --hard/--merge/--keep/--soft, reset <rev>, read-tree
UNSTAGE_ALL = "unstage-all"      # pathless reset, reset ., restore --staged .
DISCARD_ALL = "discard-all"      # checkout ., restore ., checkout-index -a
CLEAN_ALL = "clean-all"          # clean -f without paths
MOVE_HEAD = "move-head"          # checkout <branch>, switch, rebase, merge, pull, bisect, ...
AMEND = "commit-amend"           # commit --amend: rewrites HEAD, which may be a peer's commit
WRITE_REFS = "write-refs"        # update-ref, symbolic-ref HEAD x: refs are shared by every worktree
REMOVE_WORKTREE = "remove-worktree"  # worktree remove --force: a peer may be live in it
STAGE_PATHS = "stage-paths"      # add <paths>: refused when a path holds a peer's change
DISCARD_PATHS = "discard-paths"  # checkout -- <paths>, restore <paths>, apply
CLEAN_PATHS = "clean-paths"      # clean -f <paths>
REMOVE_PATHS = "remove-paths"    # rm <paths>, mv <paths>
COMMIT_INDEX = "commit-index"    # plain commit: refused when the index holds a peer's change
COMMIT_PATHS = "commit-paths"    # commit -- <paths>
STASH_PATHS = "stash-paths"      # stash push -- <paths>
UNSTAGE_PATHS = "unstage-paths"  # reset -- <paths>, restore --staged <paths>
SHELL_WRITE = "shell-write"      # a shell command writing over or removing a file (`>`, sed -i, rm, cp, mv)
COMMIT_PRIVATE = "commit-private"  # commit from GIT_INDEX_FILE: its tree replaces HEAD's, files and all
UNFOLLOWED = "unfollowed"        # a wrapper runs code that mentions git which cannot be followed (wrappers)
SPARSE = "sparse-checkout"       # sparse-checkout set/init/reapply: files outside its folders leave the tree
ALIAS = "alias"                  # not a git command: resolve with expand_alias, then judge
SAFE = "safe"                    # reads, or touches only this session's refs and remotes
FOREIGN_TREE = "foreign-tree"    # a command run with a work tree other than its repository's (--work-tree=src)

# What of the uncommitted work an operation reaches: peerhooks.git.reach matches these against each
# path's state as git holds it now (peerhooks.git.gitstate). git 2.39: `add -u` stages only tracked
# files, `clean` without -d leaves untracked folders alone, `stash` without -u leaves untracked files,
# `checkout .` / `restore .` rewrite only working-tree changes of tracked files.
STAGED_WORK = "S"  # changes in the index (index differs from HEAD)
TRACKED_WORK = "W"  # working-tree changes of tracked files, deletions included
MODIFIED_WORK = "M"  # working-tree changes of tracked files other than deletions (add --ignore-removal)
UNTRACKED_WORK = "N"  # untracked files in folders git tracks
NEW_FOLDER_WORK = "D"  # untracked files in folders none of whose files git tracks
IGNORED_WORK = "I"  # files .gitignore matches
IGNORED_FOLDER_WORK = "G"  # ignored files in an ignored folder, for a form that reaches no untracked folder
DELETION_WORK = "R"  # tracked files deleted from the working tree, not yet staged (git rm without -f)
HEAD_ONLY = "H"  # only paths HEAD holds: `git checkout HEAD -- <paths>` leaves a file added to the index alone
UNTRACKED_ANYWHERE = frozenset([UNTRACKED_WORK, NEW_FOLDER_WORK])
# What each kind reaches unless its classifier says otherwise.
DEFAULT_TOUCHES = {
    "stage-all": frozenset("WND"), "stage-paths": frozenset("WND"),
    "commit-index": frozenset("S"), "commit-all": frozenset("SW"), "commit-paths": frozenset("SW"),
    "stash-all": frozenset("SW"), "stash-paths": frozenset("SW"),
    "discard-all": frozenset("W"), "discard-paths": frozenset("W"),
    "clean-all": frozenset("N"), "clean-paths": frozenset("N"),
    "unstage-all": frozenset("S"), "unstage-paths": frozenset("S"),
    "remove-paths": frozenset("SW"), "reset-all": frozenset("SW"), "commit-amend": frozenset("S"),
    # a write over a file loses whatever of it is not committed: its working-tree change, a new file,
    # an ignored one a peer wrote (a build report, a `.env`: in no commit either)
    "shell-write": frozenset("SWNDIG"),
    # every index entry is read against another folder: what is staged may come out of the index
    "foreign-tree": frozenset("SWND"),
}

# Kinds whose paths are judged against the peers' changes (and the whole tree when they reach it).
PATH_KINDS = frozenset([STAGE_PATHS, DISCARD_PATHS, CLEAN_PATHS, REMOVE_PATHS, COMMIT_PATHS,
                        STASH_PATHS, UNSTAGE_PATHS])
# The whole-tree kind each path kind becomes when a pathspec names the toplevel.
WHOLE_OF = {STAGE_PATHS: STAGE_ALL, DISCARD_PATHS: DISCARD_ALL, CLEAN_PATHS: CLEAN_ALL,
            REMOVE_PATHS: DISCARD_ALL, COMMIT_PATHS: COMMIT_ALL, STASH_PATHS: STASH_ALL,
            UNSTAGE_PATHS: UNSTAGE_ALL}
# Kinds that act on the whole tree (or, `relative`, the working directory).
WHOLE_KINDS = frozenset(WHOLE_OF.values())
# ... and the path kind a cwd-relative whole (`git add .` in a subfolder) is judged as.
PATHS_OF = {STAGE_ALL: STAGE_PATHS, DISCARD_ALL: DISCARD_PATHS, CLEAN_ALL: CLEAN_PATHS,
            COMMIT_ALL: COMMIT_PATHS, STASH_ALL: STASH_PATHS, UNSTAGE_ALL: UNSTAGE_PATHS}
# Kinds that act on what every worktree of the repository shares.
REPOSITORY_KINDS = frozenset([STASH_STACK, WRITE_REFS, REMOVE_WORKTREE])

# Every state of uncommitted work: what a lister or a feed may give when only its folders are known.
EVERYTHING = frozenset("SWNDIR")

# STASH_STACK targets beside one entry: every entry (clear), every entry but the newest (what
# `reflog expire --expire-unreachable` drops).
ALL_ENTRIES, OLDER_ENTRIES = "stash@{*}", "stash@{1..}"


def touches_of(operation):
    """What of the uncommitted work the operation reaches."""
    if operation.touches is not None:
        return operation.touches
    return DEFAULT_TOUCHES.get(operation.kind, frozenset())


Pathspec = record("Pathspec", "text root relative pattern shell_glob known magic", (False, False, True, frozenset()),
                  """One pathspec as git reads it. `root` is the directory it is relative to (None: the
    checkout's toplevel, as in `:/src`); `relative` the path under it. pattern: git matches it as a
    wildcard (`'*.py'`, `*` crosses `/`); shell_glob: the shell expands it first, one directory
    level per `/`; known: False when it holds an expansion only the shell knows; magic: the long
    magic words it carries that change matching (`glob`: `*` stays in one folder and `**` crosses
    them; `icase`: any case).""")


Operation = record("Operation", "kind cwd command paths runtime alias alias_args relative message target "
                   "entries touches excludes moves_branch words depth bound in_loop span config private via step "
                   "precheck feeds alone answers ignores rewrite included",
                   ((), False, None, (), False, None, None, None, None, (), False, (), 0, None, False, None, (),
                    None, (), None, None, (), None, None, (), None, None),
                   """One git run and what it does. `cwd` is the
    directory git works in (after `cd`, `-C`, `--work-tree`); None when the command line does not
    say, in which case it is not judged.

    runtime: more paths come at run time (xargs, `$(…)`, `$VAR`, --pathspec-from-file, stdin).
    alias, alias_args: for ALIAS, the subcommand word to look up and its arguments.
    relative: a whole-tree kind that came from a cwd-relative pathspec (`.`, `*`) or a pathless
    clean, which act on the working directory only. message: a commit's message, for advice.
    target: the worktree path of REMOVE_WORKTREE; for a `git mv` (REMOVE_PATHS), the destination's
    Pathspec; for an index reset (UNSTAGE_*) the commit it copies from when not HEAD; for WRITE_REFS
    the toplevels of the worktrees that have the branch it rewrites checked out (None: any); for
    STASH_STACK the entry it takes (kinds.ALL_ENTRIES, kinds.OLDER_ENTRIES: all but the newest;
    None: known only when it runs).
    entries: the only files it can act on, toplevel-relative, when the checkout was asked (else None):
    for `git rm` the index entries its pathspecs match, for `stash apply` the files the entry holds.
    touches: which uncommitted work it reaches (the *_WORK letters; None: its kind's default);
    excludes: pathspecs it leaves out (`:!x`, `clean -e x`); moves_branch: it moves HEAD or the
    branch (a reset to another commit), which every session in the checkout is on.
    words: the subcommand and its arguments as written (peerhooks.shell.lexer Words, with their place in
    the line); depth: 0 for a command of the line itself; bound: for paths fed at run time by a git
    lister (`git diff --name-only -- docs | xargs git add`), the work that lister lists; in_loop: it
    runs in a `for` body; span: (start, end) of the whole simple command in the line, or None;
    config: the `-c key=value` pairs of the line (`git -c alias.x='!git add -A' x`), keys lowercased.
    private: the GIT_INDEX_FILE it works on (a path; True when only the running shell knows it;
    None: the shared index). For COMMIT_PRIVATE, target is that path too (None when unknown).
    via: the cmdline.Via records of the wrappers that run it (`make commit`), outermost first. An
    operation a wrapper stands for without git lines (`gh pr checkout 12`: MOVE_HEAD; code that
    mentions git the guard cannot follow: UNFOLLOWED) has that wrapper as its command and its last
    Via, whose `runs` says why when it is UNFOLLOWED. step: the index of the command it comes from
    among the line's commands (cmdline.commands; an alias's expansion keeps its command's), for
    peerhooks.shell.chains. precheck: what git checks before it changes anything (a Precheck), for
    peerhooks.git.refusals; None when it checks nothing the guard reads. feeds: ((feeds.Feed, the
    Pathspecs standing for its paths until git's state is read), …) for paths a feed gives it
    (`… | xargs git add`, `git add $(…)`): fed_paths.with_fed_paths puts the paths it prints in their place
    (once: the feeds stay, to tell that words came from them);
    alone: the operation the command is when its feeds give nothing (`git commit -m x $(…)` with an
    empty `$(…)` is a plain commit). answers: for `git add -p`, the patch_answers.Answers the line
    feeds its prompts (patch_answers.with_answered_hunks then names the files it stages a hunk of). ignores: for
    `git clean -X -e <pattern>`, pathspecs whose untracked files git takes as ignored, and removes.
    rewrite: for a SHELL_WRITE of `sed -i`/`perl -pi`, the rewrites.Rewrite its script is (None:
    not a form modelled), which leaves a file its patterns match nowhere unchanged. included: for
    `git commit -i <paths>`, the commit of those paths it also makes (classify.operations lists it after).""")

# What every literal pathspec must match, or git refuses the whole command and changes nothing
# (git 2.39, "pathspec 'x' did not match any file(s) known to git"): a file in the tree or an index
# entry (`add`, `stash push -u`), an index entry (`checkout -- x`, `restore x`, `rm`, `stash push`),

# What every literal pathspec must match, or git refuses the whole command and changes nothing
# (git 2.39, "pathspec 'x' did not match any file(s) known to git"): a file in the tree or an index
# entry (`add`, `stash push -u`), an index entry (`checkout -- x`, `restore x`, `rm`, `stash push`),
# an index entry or a file HEAD holds (`commit -- x`, `restore --staged x`). `reset -- x` and
# `clean` accept a pathspec that matches nothing.
MATCH_TREE_OR_INDEX, MATCH_INDEX, MATCH_INDEX_OR_HEAD = "tree-or-index", "index", "index-or-head"
# `git rm` without -f refuses the whole command when a file it matches differs from HEAD or from
# the tree ("has changes staged in the index", "has local modifications"); with --cached, when its
# index entry differs from both.
REFUSE_CHANGED, REFUSE_DIFFERING_FROM_BOTH = "changed", "both"
# `git mv` without -f refuses a folder holding a tracked file deleted from the tree.
REFUSE_DELETED = "deleted"

Precheck = record("Precheck", "match changed recursive clean_tree switch_to clean_target always",
                  (None, None, True, False, None, False, False),
                  """What git checks before a form changes anything: match (MATCH_*: what each literal
    pathspec must match, or None), changed (REFUSE_*: `git rm`'s or `git mv`'s check of the files it
    matches, or None), recursive (False for `git rm` without -r, which refuses a folder), clean_tree
    (a rebase, or a rebasing pull, without autostash: refused while a tracked file differs from
    HEAD), switch_to (a branch switch to this revision: refused when a file that differs between
    HEAD and it has local changes, or is an untracked file it would overwrite), clean_target (`git
    worktree remove` without --force: refused while that worktree has changes or untracked files),
    always (a form git refuses whatever the state: `git reset --hard -- <paths>`).""")


PrivateIndex = record("PrivateIndex", "path fresh adds", (), """A private index a commit is made from: its
    path (True: known only at run time), whether the line itself filled it from a tree (`git
    read-tree HEAD` into it) before the commit, and the adds into it the line made before the commit.""")

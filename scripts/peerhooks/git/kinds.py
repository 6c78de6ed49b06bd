"""The git model's vocabulary: what kind of thing a git operation does to the shared index, tree,
HEAD, stash stack and refs, and which of the uncommitted work each kind reaches.

Why: sessions in one checkout share one index, one working tree and one HEAD, and all worktrees of a
repository share the stash stack and the refs. A `git add -A` stages a peer's half-written files; a
plain `git commit` commits what a peer staged; `reset --hard`, `checkout .`, `clean -f`, a branch
switch or a stash pop rewrites files under every session. The classifier (peerhooks.git.classify)
names each operation by one of these kinds; peerhooks.git.reach and the guard judge by them.
"""

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

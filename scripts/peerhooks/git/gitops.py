"""Git invocations in a Bash command line and what each does to the shared index, tree, HEAD, stash
stack and refs.

Why: sessions in one checkout share one index, one working tree and one HEAD, and all worktrees of a
repository share the stash stack and the refs. A `git add -A` stages a peer's half-written files; a
plain `git commit` commits what a peer staged; `reset --hard`, `checkout .`, `clean -f`, a branch
switch or a stash pop rewrites files under every session.

Pure: the command line is read by peerhooks.shell.lexer.cmdline; what only the checkout can tell (is `release-1.2`
a branch? is `Makefile` a file?) is asked of a Lookup the caller passes.
  parse(command, cwd, context, lookup) -> [Operation]
  expand_alias(op, aliases, toplevel)  -> [Operation]   (the caller reads `git config` once)
The verdict on the operations is peerhooks.guard.verdict. The rarer subcommands' forms are classified
in gitops_tree, gitops_stash and gitops_refs, loaded for a line that has one.
"""

from ..shell import cmdline
from ..startup import oscalls
from ..shell.chains import AND
from ..startup.records import record
from ..shell.lexer import Word, quote, tokenize

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

# git refuses alias loops itself; this bounds alias-of-alias chains.
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

# Words that move HEAD and rewrite the tree under every session (switch has its own classifier).
HEAD_MOVERS = frozenset(["rebase", "merge", "pull", "cherry-pick", "revert", "am"])
# Of those, the ones that only add commits on top of the branch: git refuses to start them when a
# file they change has local changes (merge and pull also when anything is staged), so a peer's
# work and commits stay as they are. A rebasing pull rewrites the branch and is not among them.
ADDING_COMMITS = frozenset(["merge", "pull", "cherry-pick", "revert", "am"])
# Options after which an operand is a new branch's name, not a revision that must exist.
CREATING_OPTIONS = frozenset(["-c", "-C", "--create", "--force-create", "--orphan", "-b", "-B"])
REBASE_OPTIONS = frozenset(["-r", "--rebase", "--rebase=true", "--rebase=merges", "--rebase=interactive",
                            "--rebase=i", "--rebase=m"])
# Options that carry on (or look at) an operation already under way rather than start one; refusing
# them would strand the checkout mid-rebase. `--abort` and `--skip` discard, so they stay refused.
CARRY_ON_OPTIONS = frozenset(["--continue", "--quit", "--edit-todo", "--show-current-patch"])
HELP_OPTIONS = frozenset(["-h", "--help"])

# git's global options that take a value as the next word.
GIT_VALUE_OPTIONS = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                               "--config-env", "--list-cmds", "--attr-source"])

# Per git subcommand: its long options (git accepts any unambiguous prefix: `--al` is `--all`), and
# those whose value is the next word, so the value is never taken for a path (`git commit -m "fix ."`).
ADD_LONG = ("--all --update --no-ignore-removal --ignore-removal --dry-run --verbose --force --interactive "
            "--patch --edit --intent-to-add --refresh --ignore-errors --ignore-missing --renormalize "
            "--chmod --pathspec-from-file --pathspec-file-nul --no-all --sparse --no-warn-embedded-repo")
ADD_VALUES = frozenset(["--chmod", "--pathspec-from-file"])
COMMIT_LONG = ("--all --include --only --message --file --reuse-message --reedit-message --fixup --squash "
               "--author --date --template --cleanup --pathspec-from-file --pathspec-file-nul --trailer "
               "--amend --no-edit --edit --dry-run --verbose --quiet --signoff --no-verify --verify "
               "--allow-empty --allow-empty-message --patch --interactive --untracked-files --reset-author "
               "--short --branch --porcelain --long --null --status --no-status --gpg-sign --no-gpg-sign "
               "--no-post-rewrite")
COMMIT_VALUES = frozenset("-m --message -F --file -C --reuse-message -c --reedit-message --fixup "
                          "--squash --author --date -t --template --cleanup --pathspec-from-file "
                          "--trailer".split())
STASH_LONG = ("--message --pathspec-from-file --pathspec-file-nul --keep-index --no-keep-index "
              "--include-untracked --no-include-untracked --all --patch --staged --quiet --index")
STASH_VALUES = frozenset(["-m", "--message", "--pathspec-from-file"])
RESET_LONG = ("--hard --soft --mixed --merge --keep --pathspec-from-file --pathspec-file-nul --patch "
              "--quiet --no-refresh --refresh --intent-to-add --recurse-submodules --no-recurse-submodules")
RESET_VALUES = frozenset(["--pathspec-from-file"])
CHECKOUT_LONG = ("--orphan --detach --force --conflict --pathspec-from-file --pathspec-file-nul --patch "
                 "--quiet --merge --ours --theirs --track --no-track --guess --no-guess --overlay "
                 "--no-overlay --ignore-skip-worktree-bits --progress --recurse-submodules "
                 "--ignore-other-worktrees --overwrite-ignore")
CHECKOUT_VALUES = frozenset(["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"])
SWITCH_LONG = ("--create --force-create --detach --guess --no-guess --force --discard-changes --merge "
               "--conflict --quiet --progress --no-progress --track --no-track --orphan "
               "--ignore-other-worktrees --recurse-submodules --no-recurse-submodules")
SWITCH_VALUES = frozenset(["-c", "-C", "--create", "--force-create", "--orphan", "--conflict"])
# `git switch -f` (alias of --discard-changes), like `git checkout -f <branch>`, throws away local
# changes to tracked files and the index, even when the branch is the one checked out (git 2.39).
DISCARDING_SWITCH = frozenset(["-f", "--force", "--discard-changes"])
RESTORE_LONG = ("--source --staged --worktree --conflict --pathspec-from-file --pathspec-file-nul "
                "--patch --quiet --progress --ours --theirs --merge --overlay --no-overlay "
                "--ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules")
RESTORE_VALUES = frozenset(["-s", "--source", "--conflict", "--pathspec-from-file"])
CLEAN_LONG = "--force --dry-run --quiet --exclude --interactive"
CLEAN_VALUES = frozenset(["-e", "--exclude"])
RM_LONG = ("--cached --force --dry-run --quiet --ignore-unmatch --sparse --pathspec-from-file "
           "--pathspec-file-nul")
RM_VALUES = frozenset(["--pathspec-from-file"])
MV_LONG = "--force --dry-run --verbose --sparse"
APPLY_LONG = ("--stat --numstat --summary --check --index --cached --intent-to-add --3way --reverse "
              "--reject --apply --exclude --include --directory --verbose --quiet --unidiff-zero "
              "--allow-empty --whitespace --recount --build-fake-ancestor --no-add --allow-overlap "
              "--ignore-space-change --ignore-whitespace --inaccurate-eof --unsafe-paths")
APPLY_VALUES = frozenset(["-p", "-C", "--exclude", "--include", "--directory", "--whitespace",
                          "--build-fake-ancestor"])
PATCH_OPTIONS = frozenset(["-p", "--patch", "-i", "--interactive"])
# A commit takes its message from one of these (`-c` and --amend reuse a commit's); without one git
# asks an editor, and an agent's shell has none to answer it (Claude Code's Bash runs git with
# GIT_EDITOR=true and no terminal), so the message stays empty and git aborts. `--no-edit` is not a
# source: it only skips the editor, and alone it aborts the same way (git 2.39: "Aborting commit due
# to empty commit message"). What else gives git a message is in the checkout (Lookup.message_waiting).
MESSAGE_OPTIONS = frozenset(["-m", "--message", "-F", "--file", "-C", "--reuse-message", "-c",
                             "--reedit-message", "--fixup", "--squash",
                             "-t", "--template"])  # a template is kept as the message by --cleanup=verbatim
MESSAGE_FLAGS = frozenset(["--amend", "--allow-empty-message"])
# git refuses `-a` together with any path ("paths '…' with -a does not make sense"), with -i, -o or
# --pathspec-from-file ("cannot be used together") before it reads the index: nothing is committed.
ALL_CONFLICTS = frozenset(["-i", "--include", "-o", "--only", "--pathspec-from-file"])

# A single operand that looks like a revision rather than a path (`git reset main`, `git checkout
# v1.2`) when the checkout cannot be asked: HEAD and friends, `~ ^ @{` suffixes, hashes, versions,
# remote branches, or a bare name with no dot and no trailing slash.
SPECIAL_HEADS = ("HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD")
HEX_DIGITS = frozenset("0123456789abcdef")
REMOTE_PREFIXES = ("origin/", "upstream/", "refs/")


def obviously_revision(word):
    """`-`, `@`, HEAD and friends, `~ ^ @{` suffixes, a 7-40 digit hash: never a path in practice."""
    if word in ("-", "@") or "~" in word or "^" in word or "@{" in word:
        return True
    for head in SPECIAL_HEADS:
        if word == head or word.startswith(head) and word[len(head)] in "~^@":
            return True
    return 7 <= len(word) <= 40 and all(c in HEX_DIGITS for c in word)


def looks_like_revision(word):
    """The guess without the checkout: obvious revisions, versions (`v1.2`), remote branches, and a
    bare name with no dot and no trailing slash (`main`, not `setup.py` or `src/`)."""
    if not word or obviously_revision(word):
        return bool(word)
    version = word[1:] if word.startswith("v") else word
    digits = len(version) - len(version.lstrip("0123456789"))
    if digits and version[digits:digits + 1] == "." and version[digits + 1:digits + 2].isdigit():
        return True
    return word.startswith(REMOTE_PREFIXES) or "." not in word and not word.endswith("/")


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


def _moves_to_nothing(run, revisions):
    """A HEAD mover whose revision names no commit: git stops before touching anything."""
    revisions = ["@{-1}" if r == "-" else r for r in revisions]
    return bool(revisions) and run.lookup.names_no_commit(revisions, run.cwd)


Pathspec = record("Pathspec", "text root relative pattern shell_glob known magic", (False, False, True, frozenset()),
                  """One pathspec as git reads it. `root` is the directory it is relative to (None: the
    checkout's toplevel, as in `:/src`); `relative` the path under it. pattern: git matches it as a
    wildcard (`'*.py'`, `*` crosses `/`); shell_glob: the shell expands it first, one directory
    level per `/`; known: False when it holds an expansion only the shell knows; magic: the long
    magic words it carries that change matching (`glob`: `*` stays in one folder and `**` crosses
    them; `icase`: any case).""")

# Long pathspec magic the guard matches as git does; with any other (`attr:`) a pathspec is unknown.
READ_MAGIC = frozenset(["top", "glob", "icase", "literal", "exclude"])

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
    target: the worktree path of REMOVE_WORKTREE; for a `git mv` (REMOVE_PATHS), the destination's Pathspec; for an index reset (UNSTAGE_*) the commit it copies from when not HEAD; for WRITE_REFS the toplevels of the worktrees
    that have the branch it rewrites checked out (None: any); for STASH_STACK the entry it takes
    (ALL_ENTRIES, OLDER_ENTRIES: all but the newest; None: known only when it runs).
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
    peerhooks.shell.lexer.chains. precheck: what git checks before it changes anything (a Precheck), for
    peerhooks.git.refusals; None when it checks nothing the guard reads. feeds: ((feeds.Feed, the
    Pathspecs standing for its paths until git's state is read), …) for paths a feed gives it
    (`… | xargs git add`, `git add $(…)`): with_fed_paths puts the paths it prints in their place
    (once: the feeds stay, to tell that words came from them);
    alone: the operation the command is when its feeds give nothing (`git commit -m x $(…)` with an
    empty `$(…)` is a plain commit). answers: for `git add -p`, the patch_answers.Answers the line
    feeds its prompts (with_answered_hunks then names the files it stages a hunk of). ignores: for
    `git clean -X -e <pattern>`, pathspecs whose untracked files git takes as ignored, and removes.
    rewrite: for a SHELL_WRITE of `sed -i`/`perl -pi`, the rewrites.Rewrite its script is (None:
    not a form modelled), which leaves a file its patterns match nowhere unchanged. included: for
    `git commit -i <paths>`, the commit of those paths it also makes (operations() lists it after).""")

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


def write_operation(path, pattern, command):
    """The operation of a shell command writing over (or removing) a file: `path` absolute, a glob
    when `pattern` (cmdline.targets_of)."""
    if pattern:
        spec = Pathspec(path, "/", path.lstrip("/"), False, True)
    else:
        spec = Pathspec(path, path, "")
    words = ((command.path_word,) if command.path_word is not None else ()) + tuple(command.args)
    span = None
    if all(w.span is not None for w in words) and words and not command.via:  # a wrapper's words: not the line's
        span = (words[0].span[0], max([words[-1].span[1]] + [w.span[1] for w in command.writes if w.span]))
    text = " ".join([command.name] + [w.value for w in command.args])
    where = command.cwd if pattern else oscalls.posixpath.dirname(path)  # judged in the checkout of the file
    return Operation(SHELL_WRITE, where, text, (spec,), False, depth=command.depth, in_loop=command.in_loop,
                     span=span, via=command.via, rewrite=_rewrite(command, path))


def found_write_operation(run, context=cmdline.Context()):
    """The operation of a command writing over or removing what a `find` finds: `find … -delete`,
    or `find … -exec sed -i … {} +` (the files lie under find's folders, matching its -name); None
    when the command writes nothing it is given, or the folders are known only at run time."""
    find = run if run.name == "find" else run.fed_by
    if find is None or find.name != "find":
        return None
    if run.name == "find" and not any(w.value == "-delete" for w in run.args):
        return None
    if run.name != "find" and not cmdline.writes_its_operands(run):
        return None
    bound = find_bound(find, context)
    if bound is None:
        return None
    text = " ".join([find.name] + [w.value for w in find.args])
    return Operation(SHELL_WRITE, find.cwd, text, tuple(bound[0]), False, depth=find.depth, in_loop=find.in_loop,
                     via=find.via, rewrite=_rewrite(run) if run is not find else None)


def _rewrite(command, path=None):
    """The rewrites.Rewrite of an in-place editor writing `path` (None: the files a find feeds it),
    or None: any other command writes what it is given, and so do a redirection of the editor's
    output (`sed -i … f > f`) and the backup a suffix names (`sed -i.bak`: f.bak is a copy of f,
    written whatever the patterns match)."""
    if command.name not in cmdline.IN_PLACE_EDITORS or any(w.value != "/dev/null" for w in command.writes):
        return None
    suffix = cmdline.backup_suffix(command.name, command.args)
    if suffix and (path is None or path.endswith(suffix)):
        return None
    from ..shell import rewrites  # only a line running sed or perl loads the model

    return rewrites.rewrite_of(command.name, command.args, command.adds_words)


PrivateIndex = record("PrivateIndex", "path fresh adds", (), """A private index a commit is made from: its
    path (True: known only at run time), whether the line itself filled it from a tree (`git
    read-tree HEAD` into it) before the commit, and the adds into it the line made before the commit.""")


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


PARENT_OF_HEAD = frozenset(["HEAD~", "HEAD~1", "HEAD^", "HEAD^1", "@~", "@~1", "@^", "@^1"])
MAKES_A_COMMIT = frozenset([COMMIT_INDEX, COMMIT_ALL, COMMIT_PATHS, COMMIT_PRIVATE])
MOVES_HEAD = frozenset([MOVE_HEAD, AMEND, WRITE_REFS, ALIAS, UNFOLLOWED])
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
                                (HEAD_MOVERS | MAY_MOVE_HEAD) for op in before):
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


def touches_of(operation):
    """What of the uncommitted work the operation reaches."""
    if operation.touches is not None:
        return operation.touches
    return DEFAULT_TOUCHES.get(operation.kind, frozenset())


# -- parse -----------------------------------------------------------------------------------------

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
        operation = git_operation(words, _Run(operation.cwd, render(words), operation.runtime, False,
                                              context, lookup, False, None, words, operation.depth + 1,
                                              via=operation.via))
    return [] if operation.kind == ALIAS else [operation._replace(step=step)]


def _git(run, context, lookup):
    """The operation of one `git …` simple command, after git's global options."""
    env = dict(run.env)
    location = run.cwd
    git_dir, work_tree = env.get("GIT_DIR"), env.get("GIT_WORK_TREE")
    arguments = run.args
    index = 0
    config = []
    while index < len(arguments):
        option = arguments[index].value
        if not option.startswith("-"):
            break
        flag, has_value, attached = option.partition("=")
        value = arguments[index]._replace(value=attached) if has_value else (
            arguments[index + 1] if index + 1 < len(arguments) else None)
        if flag in HELP_OPTIONS or flag in ("--version", "-v", "--html-path", "--man-path",
                                            "--info-path") and not has_value:
            return None
        if flag == "-c" and not has_value and value is not None:
            key, _equals, setting = value.value.partition("=")
            config.append((key.lower(), setting if _equals else "true"))  # `-c x.y` alone means true
        if flag == "-C" and not has_value:
            location = cmdline.resolve(value, location, context, dict(run.variables)) if value is not None else None
        elif flag == "--git-dir":
            git_dir = value
        elif flag == "--work-tree":
            work_tree = value
        index += 2 if flag in GIT_VALUE_OPTIONS and not has_value else 1
    if index >= len(arguments):
        return None
    foreign = False
    if work_tree is not None:
        repository_top = _repository_top(git_dir, location, context, run)
        location = cmdline.resolve(work_tree, location, context, dict(run.variables))
        foreign = repository_top is not None and location is not None and location != repository_top
    elif git_dir is not None:
        location = _repository_top(git_dir, location, context, run)
    words = tuple(arguments[index:])
    if run.via:  # a wrapper's line (a recipe, a script): its words' places are in that text, not the line's
        words = tuple(w._replace(span=None) for w in words)
    if words[0].expanded:  # `x=add; git $x -A`
        known = cmdline.expand(words[0], location, context, dict(run.variables))
        if known and " " not in known:
            words = (words[0]._replace(value=known, expanded=False),) + words[1:]
    private_index = "GIT_INDEX_FILE" in env
    if private_index:
        index_word = env["GIT_INDEX_FILE"]
        private_index = cmdline.resolve(index_word, location, context, dict(run.variables)) or True
    adds_words, feed = run.adds_words, _feed_of_run(run, context, lookup) or _patch_feed(run, words, context, lookup)
    if feed is not None and adds_words and _words_known(feed):  # `echo a.py | xargs git add`: as if typed
        from ..shell import feeds

        fed = feeds.fed(feed, None, None, None, location)
        if fed is not None:
            words, adds_words, feed = words + tuple(Word(w) for w in fed.words), False, None
    classified = _Run(location, render(words), adds_words, run.stdin_fed, context, lookup, private_index,
                      dict(run.variables), words, run.depth, _bound_of(feed, context) if adds_words else None,
                      run.in_loop, None if run.via else _command_span(run), tuple(config), run.via, feed,
                      _answers_of(run), run.produced)
    operation = git_operation(words, classified)
    if foreign and operation.kind not in (SAFE, ALIAS):
        # `git --work-tree=src add -A`: git reads every index entry against src, so entries outside it
        # look deleted and the peers' staged files may leave the index
        return operation._replace(kind=FOREIGN_TREE, paths=(), runtime=False, relative=False, feeds=(),
                                  alone=None, precheck=None, touches=None)
    if operation.feeds and any(by_field for _name, (_word, _cwd, by_field) in run.produced):
        # `for f in $(…); do git add "$f"; done` runs it once per field: each may fail alone
        operation = operation._replace(precheck=None)
    if not adds_words:
        return operation
    if run.xargs is None or not run.xargs.once:
        operation = operation._replace(precheck=None)  # git runs a word or a line at a time: each may fail alone
    if feed is not None and operation.feeds:
        alone = git_operation(words, classified._replace(adds_words=False, bound=None, feed=None)) \
            if run.xargs is not None and run.xargs.runs_empty else classified.op(SAFE)
        operation = operation._replace(alone=alone)
    return operation


def _repository_top(git_dir, location, context, run):
    """The toplevel of the repository a git command with `--work-tree` uses: the folder holding the
    `.git` it names, or the checkout git finds from where it runs; None when the line cannot tell."""
    if git_dir is not None:
        directory = cmdline.resolve(git_dir, location, context, dict(run.variables))
        paths = context.paths
        return paths.dirname(directory) if directory and paths.basename(directory) == ".git" else None
    return context.toplevel(location) if context.toplevel is not None and location else None


def _patch_feed(run, words, context, lookup):
    """For `git diff … | git apply`: the Feed of the paths the patch on its stdin changes, or None."""
    if words[0].value != "apply" or run.piped_from is None or run.adds_words:
        return None
    from . import feed_sources

    return feed_sources.patch_feed(run.piped_from, context, lookup)


def _answers_of(run):
    """The patch_answers.Answers the line feeds a command's prompts, or None when unknown."""
    if not run.stdin_fed:
        return None
    from . import patch_answers

    if run.stdin is not None:
        return patch_answers.answers_of(run.stdin)
    producer = run.piped_from
    if producer is not None and producer.name == "yes" and producer.piped_from is None and \
            not any(w.expanded for w in producer.args) and len(producer.args) <= 1:
        return patch_answers.answers_of(None, producer.args[0].value if producer.args else "y")
    return None


def with_answered_hunks(op, files, top):
    """A `git add -p` narrowed to the toplevel-relative files its answers stage a hunk of."""
    return op._replace(kind=STAGE_PATHS, paths=tuple(Pathspec(f, None, f) for f in files), answers=None,
                       relative=False)


def _words_known(feed):
    from ..shell import feeds

    return isinstance(feed.source, feeds.Words)


def _feed_of_run(run, context, lookup):
    """The Feed of the words xargs or `find -exec` adds to a run, or None."""
    if not run.adds_words or run.fed_by is None or run.xargs is None:
        return None
    from . import feed_sources
    from ..shell import feeds  # only a line feeding git words pays for them

    split = {cmdline.XARGS_SPLIT: feeds.XARGS, cmdline.LINES_SPLIT: feeds.LINES, cmdline.NUL_SPLIT: feeds.LINES}
    if run.xargs.split not in split:
        return None
    return feed_sources.feed_of(run.fed_by, split[run.xargs.split], context, lookup,
                                nul=run.xargs.split == cmdline.NUL_SPLIT)


def _bound_of(feed, context):
    """(Pathspecs, work) the paths a feed gives lie in and the states they are in, until git's state
    tells them: a lister's pathspecs (the whole tree without) and what it lists, find's folders."""
    if feed is None:
        return None
    from ..shell import feeds

    source = feed.source
    if isinstance(source, feeds.Found):
        return source.specs, EVERYTHING
    if isinstance(source, feeds.Words):  # paths a lookup named (a stash entry's files)
        return tuple(_pathspec(Word(line), None, context.paths) for line in source.lines), EVERYTHING
    work = set()
    for shown in source.shows:
        work |= set({"staged": "S", "unstaged": "WR", "deleted": "WR", "untracked": "ND"}[shown])
    if source.ignored:
        work.add(IGNORED_WORK)
    specs = source.specs or ((Pathspec(source.under, source.under, ""),) if source.under else (Pathspec(":/", None, ""),))
    return specs, frozenset(work)


def with_fed_paths(op, top, states, renamed=None):
    """The operation with what its feeds print in place of the pathspecs that stood for it, given
    git's state of its checkout ({path: PathState}) and the renames git finds there (feeds.fed's
    `renamed`): exact paths when every feed is read in full (it then reads as if the line named
    them), the upper bound they are otherwise. Unchanged when a feed cannot be told, or gives
    nothing (the command then runs as if without the words)."""
    if not op.feeds or states is None:
        return op
    from ..shell import feeds
    from . import reach

    standing = {spec for _feed, specs in op.feeds for spec in specs}
    paths = [p for p in op.paths if p not in standing]
    exact = complete = True
    fed = []
    for feed, _specs in op.feeds:
        got = feeds.fed(feed, top, states, lambda spec, path: reach.covers(spec, path, top), op.cwd, renamed)
        if got is None:
            return op
        exact, complete = exact and got.exact, complete and got.complete
        fed.extend(_pathspec(Word(w), op.cwd) for w in got.words)
    if not fed and exact and complete:  # the feeds print nothing: git runs without their words
        return op.alone._replace(step=op.step) if op.alone is not None else op
    return op._replace(paths=tuple(paths + fed), bound=None if exact else op.bound, runtime=False)


def configured(run, key):
    """The line's `-c key=value` for key (lowercased), or None."""
    for name, value in reversed(run.config):
        if name == key:
            return value
    return None


def _config_true(value):
    return value is not None and value.strip().lower() not in ("false", "no", "off", "0", "")


def config_bool(value):
    """A git boolean config value as git reads it (True, False), or None for anything else
    (`diff.renames=copies`, which also finds copies)."""
    word = value.strip().lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0", ""):
        return False
    return None


def _command_span(run):
    """(start, end) of a simple command as written, from its name to its last argument; None when
    a word of it is not where the line holds it."""
    words = [run.path_word] + list(run.args)
    if run.path_word is None or any(w.span is None for w in words):
        return None
    return words[0].span[0], words[-1].span[1]


# -- classify one git run --------------------------------------------------------------------------

class _Run(record("_Run", "cwd command adds_words stdin_fed context lookup private_index variables words depth bound "
                  "in_loop span config via feed answers produced", (None, (), 0, None, False, None, (), (), None, None, ()))):
    """One git run being classified: where, as what text, and what it may receive at run time:
    adds_words (xargs / find -exec add paths), stdin_fed (answers can reach `-p` prompts; `git
    apply` reads a patch), private_index (GIT_INDEX_FILE: the shared index is not touched),
    variables (what the line assigned before this run), words and depth (as Operation's), bound
    (the paths and work a feed gives it through xargs, or None), via (the wrappers that run it),
    feed (the feeds.Feed of those words), answers (what the line feeds its prompts, when known),
    produced (the line's variables set to a `$(…)`: cmdline.Command.produced)."""
    __slots__ = ()

    def op(self, kind, paths=(), runtime=False, **extra):
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


class _Arguments(record("_Arguments", "flags operands after_dashes from_file values all_values")):
    """A git subcommand's words as git reads them: flags (every option seen, long ones whole, short
    clusters split), operands (non-option words before `--`), after_dashes (words after `--`, None
    without `--`), from_file (--pathspec-from-file), values (option -> its last value), all_values
    (option -> every value it was given, in order: `clean -e a -e b`)."""
    __slots__ = ()

    @property
    def path_words(self):
        return self.operands + (self.after_dashes or ())


def split_arguments(words, long_options, value_options, attached_values=frozenset()):
    """Options and operands as git reads them: `-am msg` is -a plus -m's value, `--message=x`
    carries its value, `--al` is `--all` (git takes unambiguous prefixes), everything after `--`
    is an operand. attached_values: short options whose optional value can only be attached (`-uno`)."""
    longs = long_options.split()
    flags, operands, values = set(), [], {}
    every = {}

    def given(option, value):
        values[option] = value
        every.setdefault(option, []).append(value)

    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value == "--":
            return _Arguments(frozenset(flags), tuple(operands), tuple(words[index:]),
                              "--pathspec-from-file" in flags, values, every)
        if value.startswith("--"):
            flag, has_value, attached = value.partition("=")
            flag = _unabbreviated(flag, longs)
            flags.add(flag)
            if flag in value_options:
                if has_value:
                    given(flag, attached)
                elif index < len(words):
                    given(flag, words[index].value)
                    index += 1
        elif value.startswith("-") and len(value) > 1:
            for position, letter in enumerate(value[1:], start=1):
                flags.add("-" + letter)
                if "-" + letter in attached_values:
                    break
                if "-" + letter in value_options:
                    if position == len(value) - 1:
                        if index < len(words):
                            given("-" + letter, words[index].value)
                        index += 1  # the value is the next word
                    else:
                        given("-" + letter, value[position + 1:])
                    break  # the rest of the cluster is the value
        else:
            operands.append(words[index - 1])
    return _Arguments(frozenset(flags), tuple(operands), None, "--pathspec-from-file" in flags, values, every)


def _unabbreviated(flag, longs):
    """git's long option for an unambiguous prefix (`--al` -> `--all`); the flag itself otherwise."""
    if flag in longs or len(flag) < 3:
        return flag
    matches = [o for o in longs if o.startswith(flag)]
    return matches[0] if len(matches) == 1 else flag


def _pathspecs(words, run):
    """(pathspecs, whole, relative_whole, runtime, exclusions) for operand words. whole: one names
    the whole tree from wherever it is run (`:/`, or all exclusions); relative_whole: one names the
    working directory (`.`, `*`); runtime: a word only the shell can know; exclusions: the `:!x`,
    `:^x`, `:(exclude)x` pathspecs, which git leaves out of what the others match."""
    specs, whole, relative_whole, runtime, positive, exclusions = [], False, False, False, 0, []
    used = []
    for written in words:
        for word in cmdline.words_of(written):
            value = word.value
            if _is_exclusion(value):
                if not word.expanded:
                    exclusions.append(_exclusion_spec(word, run.cwd))
                continue
            positive += 1
            if word.expanded:
                known = cmdline.expand(word, run.cwd, run.context, run.variables)
                feed = _substituted_feed(word, run) if known is None else None
                if feed is not None and _words_known(feed):
                    from ..shell import feeds

                    fed = feeds.fed(feed, None, None, None, run.cwd)
                    if fed is not None:
                        specs.extend(_pathspec(Word(w), run.cwd, run.context.paths) for w in fed.words)
                        continue
                elif feed is not None:
                    bound = _bound_of(feed, run.context)[0]
                    specs.extend(bound)
                    used.append((feed, tuple(bound)))
                    continue
                if known is None:
                    runtime = True
                    specs.append(Pathspec(value, run.cwd, value, False, word.glob, False))
                    continue
                word = word._replace(value=known, expanded=False)
                value = known
            if value in (":/", ":/.", ":/*", ":(top)", ":(top)."):
                whole = True
            elif value in (".", "./", "*", "./*"):
                relative_whole = True
            elif word.glob and run.context.glob is not None and run.cwd:
                matches = run.context.glob(value, run.cwd)
                if matches:  # Bash hands git the files that exist: `git add src/*.py` never names a deleted one
                    specs.extend(_pathspec(Word(m), run.cwd, run.context.paths) for m in matches)
                    continue
                if matches == []:  # no match: Bash passes the word as written, which git reads as a pattern
                    word = word._replace(glob=False)
            specs.append(_pathspec(word, run.cwd, run.context.paths))
    if words and not positive:
        whole = True  # `git add ':!secret'` stages everything else
    return tuple(specs), whole, relative_whole, runtime, exclusions, tuple(used)


def _substituted_feed(word, run):
    """The Feed of a word that is one unquoted `$(…)`, or a variable the line set to one (`files=$(git
    diff --name-only); git add $files`: the same words, split the same way), or None."""
    cwd = run.cwd
    if not word.substitutions:
        name = word.value[2:-1] if word.value.startswith("${") and word.value.endswith("}") else word.value[1:]
        produced = dict(run.produced).get(name) if word.value.startswith("$") else None
        if produced is None or not (word.unquoted or produced[2]):
            return None  # `"$files"` is one word holding every line; `"$f"` of a loop, one field
        word, cwd = produced[0]._replace(unquoted=word.unquoted or produced[2]), produced[1]
    from . import feed_sources

    return feed_sources.substitution_feed(word, cwd, run.context, run.lookup)


EVERYTHING = frozenset("SWNDIR")


def find_bound(find, context=cmdline.Context()):
    """(pathspecs, work) of what `find <folders> [-name P] …` lists: files under its start folders
    whose names match its -name patterns, in any state. None when a folder is known only at run time."""
    args = find.args
    starts, names, position = [], [], 0
    while position < len(args) and not args[position].value.startswith(("-", "(", "!")):
        starts.append(args[position])
        position += 1
    for index in range(position, len(args) - 1):
        if args[index].value in ("-name", "-iname"):
            names.append(args[index + 1])
    if any(w.expanded for w in starts + names) or find.cwd is None:
        return None
    specs = []
    for start in starts or [Word(".")]:
        folder = cmdline.resolve(start, find.cwd, context)
        if folder is None:
            return None
        if not names:
            specs.append(Pathspec(start.value, folder, ""))
            continue
        for name in names:  # git's `*` crosses `/`: P at the top of the folder or any level below
            for pattern in (name.value, "*/" + name.value):
                specs.append(Pathspec(pattern, folder, pattern, True))
    return specs, EVERYTHING


def listing_pathspec(word, cwd, context):
    """A lister's pathspec word, as _pathspec reads one (peerhooks.git.feed_sources)."""
    return _pathspec(word, cwd, context.paths)


def _pathspec(word, cwd, paths=cmdline.POSIX):
    """A Pathspec from one word: `:/x` and `:(top)x` are relative to the toplevel; an absolute
    path (as the platform spells it: `C:\\repo\\src` on Windows) is the folder or file it names."""
    value = word.value
    top, magic = False, frozenset()
    if value.startswith(":/"):
        top, value = True, value[2:]
    elif value.startswith(":(") and ")" in value:
        words, _close, value = value[2:].partition(")")
        magic = frozenset(m.strip() for m in words.split(",") if m.strip())
        top = "top" in magic
        if magic - READ_MAGIC:
            return Pathspec(word.value, cwd, value, False, False, False)
    pattern = not word.glob and "literal" not in magic and any(c in value for c in "*?[")
    if not top and not pattern and not word.glob and paths.names_absolute(value):
        named = paths.resolve(value, None)
        return Pathspec(word.value, named, "", False, False, named is not None)
    value = paths.relative_spelling(value)
    relative = value[:-1] if value.endswith("/") and len(value) > 1 else value
    if relative in (".", "./*", "*") and not top:
        relative = "" if relative == "." else relative
    root = None if top else cwd
    known = top or cwd is not None or paths.names_absolute(value)
    return Pathspec(word.value, root, relative, pattern, word.glob, known, magic & {"glob", "icase"})


def _exclusion_spec(word, cwd):
    """The pathspec an exclusion leaves out: `:!src/x` and `:(exclude)src/x` as `src/x`, with its
    other magic (`top`) kept."""
    value = word.value
    if value.startswith((":!", ":^")):
        rest = value[2:]
        if rest.startswith(":"):  # `:!:x`: the magic ends at the second colon, the rest is the path as written
            return _pathspec(word._replace(value=rest[1:]), cwd)
        if rest.startswith("/"):  # `:!/x` is `:(exclude,top)x`
            return _pathspec(word._replace(value=":/" + rest[1:]), cwd)
        return _pathspec(word._replace(value=rest), cwd)
    magic, _close, rest = value[2:].partition(")")
    kept = [m for m in magic.split(",") if m not in ("exclude", "")]
    return _pathspec(word._replace(value=(":(%s)" % ",".join(kept) if kept else "") + rest), cwd)


def clean_exclude_specs(patterns):
    """Pathspecs for `git clean -e <pattern>`: .gitignore patterns, matched from the toplevel; one
    without a `/` matches a name at any depth."""
    specs = []
    for pattern in patterns:
        stripped = pattern.lstrip("/")
        if "/" in pattern.rstrip("/"):
            specs.append(Pathspec(pattern, None, stripped.rstrip("/"), True))
        else:
            specs.extend(Pathspec(pattern, None, p, True) for p in (stripped.rstrip("/"), "*/" + stripped.rstrip("/")))
    return specs


def _is_exclusion(value):
    return value.startswith((":!", ":^", ":(exclude)")) or value.startswith(":(") and \
        "exclude" in value[2:].partition(")")[0].split(",")


def render(words):
    return "git " + " ".join(quote(w.value) for w in words)


def git_operation(words, run):
    """Classify one git run: words are the subcommand and its arguments (global options removed)."""
    subcommand = words[0].value
    rest = words[1:]
    if words[0].expanded:
        return run.op(SAFE)
    if subcommand in READ_ONLY or {w.value for w in rest} & HELP_OPTIONS:
        return run.op(SAFE)
    classify = _classifier(subcommand)
    if classify is not None:
        return classify(rest, run)
    if subcommand in HEAD_MOVERS:
        values = {w.value.partition("=")[0] for w in rest}
        if values & CARRY_ON_OPTIONS:
            return run.op(SAFE)
        if values & {"--abort", "--skip"} and not run.lookup.in_progress(run.cwd):
            return run.op(SAFE)  # nothing under way: git says so and changes nothing
        if subcommand in ("revert", "cherry-pick") and values & {"-n", "--no-commit"}:
            # it writes a commit's changes (or their reverse) into the shared index and tree and
            # commits nothing: a peer's last commit undone under it, or swept into its next commit
            return run.op(MOVE_HEAD)
        if subcommand in ADDING_COMMITS and not values & {"--abort", "--skip"}:
            words = {w.value for w in rest}
            line_rebase = configured(run, "pull.rebase")
            rebases = words & REBASE_OPTIONS or subcommand == "pull" and "--no-rebase" not in words and (
                _config_true(line_rebase) if line_rebase is not None else run.lookup.pull_rebases(run.cwd))
            if not rebases:
                return run.op(SAFE)
        rebasing = subcommand == "rebase" or subcommand == "pull"
        line_autostash = configured(run, "rebase.autostash")
        autostash = values & {"--autostash"} or (_config_true(line_autostash) if line_autostash is not None
                                                 else run.lookup.autostashes(run.cwd))
        if subcommand == "rebase" and not values & CREATING_OPTIONS and _moves_to_nothing(
                run, [w.value for w in rest if not w.value.startswith("-") or w.value == "-"]):
            return run.op(SAFE)
        if rebasing and not autostash and _only_fast_forwards(subcommand, rest, values, run):
            return run.op(SAFE)  # over a clean tree it moves the branch forward; over tracked changes, nothing
        # "cannot rebase: You have unstaged changes": over tracked changes nothing moves
        return run.op(MOVE_HEAD, precheck=Precheck(clean_tree=True) if rebasing and not autostash else None)
    if subcommand in KNOWN_COMMANDS or subcommand.startswith("-"):
        return run.op(SAFE)
    return Operation(ALIAS, run.cwd, run.command, (), run.adds_words, subcommand, tuple(rest), config=run.config,
                     via=run.via)


# What `revert` / `cherry-pick` may say beside the commits they apply for those to be read plainly.
APPLY_COMMIT_FLAGS = frozenset(["-n", "--no-commit", "-x", "-s", "--signoff", "--no-edit", "-e", "--edit",
                                "--allow-empty", "--keep-redundant-commits", "--rerere-autoupdate",
                                "--no-rerere-autoupdate"])
APPLY_COMMIT_VALUES = frozenset(["-m", "--mainline", "--strategy", "-X", "--strategy-option"])


def applied_commits(op):
    """The revisions (ranges included, as written) a `revert -n` or `cherry-pick -n` writes into the
    index and tree, or None when it is not one or its words do not say them plainly."""
    if op.kind != MOVE_HEAD or not op.words or op.words[0].value not in ("revert", "cherry-pick"):
        return None
    revisions, words = [], op.words[1:]
    index = 0
    while index < len(words):
        word = words[index]
        if word.expanded:
            return None
        if word.value in APPLY_COMMIT_VALUES:
            index += 2
            continue
        if word.value.startswith("-") and word.value not in APPLY_COMMIT_FLAGS and \
                word.value.partition("=")[0] not in APPLY_COMMIT_VALUES:
            return None
        if not word.value.startswith("-"):
            revisions.append(word.value)
        index += 1
    return tuple(revisions) or None


REWRITING_REBASE_OPTIONS = frozenset(["-i", "--interactive", "--onto", "--root", "-x", "--exec", "--keep-base",
                                      "--no-ff", "-f", "--force-rebase"])


def _only_fast_forwards(subcommand, rest, values, run):
    """A rebase (or rebasing pull) onto an upstream HEAD is an ancestor of replays no commit of
    this branch: git fast-forwards it, as a merge would. The upstream is the one operand of a
    rebase, remote/branch of a pull naming both, else the branch's configured upstream."""
    if values & REWRITING_REBASE_OPTIONS:
        return False
    operands = [w for w in rest if not w.value.startswith("-")]
    if any(w.expanded for w in operands):
        return False
    if subcommand == "rebase":
        if len(operands) > 1:
            return False  # `git rebase <upstream> <branch>` checks out <branch> first
        upstream = operands[0].value if operands else "@{upstream}"
    else:
        upstream = "%s/%s" % (operands[0].value, operands[1].value) if len(operands) == 2 else \
            "@{upstream}" if len(operands) < 2 else None
    return upstream is not None and run.lookup.fast_forwards(upstream, run.cwd)


def _by_paths(kind, path_words, run, args, empty_kind=SAFE, empty_whole=False, touches=None, excludes=(),
              precheck=None):
    """The operation of a path-carrying form: whole when a pathspec names the whole tree, relative
    when it names the working directory, runtime when a path comes only at run time. touches: what
    of the uncommitted work it reaches (None: the kind's default); excludes: pathspecs it leaves
    out besides the line's own `:!` exclusions; precheck: what git checks first (Precheck). A form
    whose words include a feed (`$(git ls-files -m)`) knows what it is without them (alone)."""
    op = _paths_form(kind, path_words, run, args, empty_kind, empty_whole, touches, excludes, precheck)
    if op.feeds and not run.adds_words:
        fed_words = {id(w) for w in path_words if _substituted_feed(w, run) is not None}
        rest = [w for w in path_words if id(w) not in fed_words]
        op = op._replace(alone=_paths_form(kind, rest, run, args, empty_kind, empty_whole, touches, excludes,
                                           precheck))
    return op


def _paths_form(kind, path_words, run, args, empty_kind, empty_whole, touches, excludes, precheck):
    paths, whole, relative_whole, runtime, exclusions, used = _pathspecs(path_words, run)
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


def _patch_mode(args, run):
    """`-p` asks about each hunk on stdin: with no answers fed it changes nothing."""
    return bool(args.flags & PATCH_OPTIONS) and not run.stdin_fed


def _classify_add(rest, run):
    args = split_arguments(rest, ADD_LONG, ADD_VALUES)
    if args.flags & {"-n", "--dry-run"} or _patch_mode(args, run):
        return run.op(SAFE)
    everything = args.flags & {"-A", "--all", "-u", "--update", "--no-ignore-removal"} or \
        args.flags & PATCH_OPTIONS
    # -u and -p (answered) stage tracked files only; -f also ignored ones
    touches = frozenset("W") if args.flags & ({"-u", "--update"} | PATCH_OPTIONS) else frozenset("WND")
    if args.flags & {"--ignore-removal", "--no-all"} and not everything:
        touches = frozenset("MND")  # git 1.x's add: new and modified files, not what was deleted
    if args.flags & {"-f", "--force"}:
        touches |= {IGNORED_WORK}
    op = _by_paths(STAGE_PATHS, args.path_words, run, args, empty_whole=bool(everything), touches=touches,
                   precheck=Precheck(MATCH_TREE_OR_INDEX))
    if args.flags & {"-p", "--patch"} and not args.flags & {"-i", "--interactive", "-e", "--edit"}:
        op = op._replace(answers=run.answers)  # which hunks it stages: the verdict counts them
    return op


def _classify_commit(rest, run):
    args = split_arguments(rest, COMMIT_LONG, COMMIT_VALUES, attached_values=frozenset(["-u", "-S"]))
    if "--dry-run" in args.flags:
        return run.op(SAFE)
    if run.private_index and (MESSAGE_OPTIONS & set(args.values) or args.flags & MESSAGE_FLAGS):
        # the commit's tree is the private index, whatever the shared one holds: files committed
        # since that index was made are deleted or reverted (anthropics/claude-code #90943)
        return run.op(COMMIT_PRIVATE, target=run.private_index if isinstance(run.private_index, str) else None,
                      message=args.values.get("-m") or args.values.get("--message"))
    message = args.values.get("-m") or args.values.get("--message")
    everything = args.flags & {"-a", "--all"}
    if everything and (args.flags & ALL_CONFLICTS or any(not w.expanded for w in args.path_words)):
        return run.op(SAFE)  # git refuses -a with paths, -i, -o or a pathspec file: nothing happens
    if not MESSAGE_OPTIONS & set(args.values) and not args.flags & MESSAGE_FLAGS and \
            not run.lookup.message_waiting(run.cwd):
        return run.op(SAFE)  # no message: git opens an editor, and with none to answer it aborts
    if "--amend" in args.flags:  # with -a it also commits every tracked change: still the rewritten HEAD
        return run.op(AMEND, message=message, touches=frozenset("SW") if everything else None)
    if everything:
        return run.op(COMMIT_ALL, message=message)
    include = args.flags & {"-i", "--include"}
    only = args.flags & {"-o", "--only"}
    if args.path_words and not include or only or args.from_file or run.adds_words:
        return _by_paths(COMMIT_PATHS, args.path_words, run, args, empty_kind=COMMIT_INDEX,
                         precheck=Precheck(MATCH_INDEX_OR_HEAD))._replace(message=message)
    if include and args.path_words:
        # `git commit -i -m x <paths>` stages those paths' tracked changes, then commits the whole
        # index: judged as both, a commit of the paths and of what is staged elsewhere
        paths = _by_paths(COMMIT_PATHS, args.path_words, run, args, empty_kind=COMMIT_INDEX,
                          precheck=Precheck(MATCH_INDEX_OR_HEAD))._replace(message=message)
        return run.op(COMMIT_INDEX, message=message, included=paths)
    return run.op(COMMIT_INDEX, message=message)


# STASH_STACK targets beside one entry: every entry (clear), every entry but the newest (what
# `reflog expire --expire-unreachable` drops).
ALL_ENTRIES, OLDER_ENTRIES = "stash@{*}", "stash@{1..}"


def _stash_ref(rest):
    """The entry a pop, drop or apply names: `stash@{n}`, or n alone, as `stash@{n}` (the newest,
    stash@{0}, when none is named); None when only the running shell knows it."""
    operands = [w for w in rest if not w.value.startswith("-")]
    if not operands:
        return "stash@{0}"
    word = operands[0]
    if word.expanded:
        return None
    value = word.value[len("refs/"):] if word.value.startswith("refs/stash") else word.value
    if value.isdigit():
        return "stash@{%s}" % value
    return value if value.startswith("stash@{") else None


def _classify_rm(rest, run):
    args = split_arguments(rest, RM_LONG, RM_VALUES)
    if args.flags & {"-n", "--dry-run"} or run.private_index and "--cached" in args.flags:
        return run.op(SAFE)
    # without -f or --cached git refuses a file that differs from HEAD or the index, but stages the
    # deletion of one already deleted from the tree (`git ls-files --deleted | xargs git rm`)
    touches = None if args.flags & {"-f", "--force", "--cached"} else frozenset([DELETION_WORK])
    changed = None if args.flags & {"-f", "--force"} else \
        REFUSE_DIFFERING_FROM_BOTH if "--cached" in args.flags else REFUSE_CHANGED
    precheck = Precheck(None if "--ignore-unmatch" in args.flags else MATCH_INDEX, changed, "-r" in args.flags)
    op = _by_paths(REMOVE_PATHS, args.path_words, run, args, touches=touches, precheck=precheck)
    if op.kind == DISCARD_ALL:  # `git rm -r --cached .` takes every entry out of the index; it discards nothing
        op = op._replace(kind=REMOVE_PATHS, relative=False)
    if op.kind != REMOVE_PATHS or op.runtime or run.private_index or not all(p.known for p in op.paths):
        return op
    # git rm matches its pathspecs against the index and removes only those entries (with -f, their
    # files too): an untracked file under `git rm -r --cached config` stays as it is (git 2.39).
    entries = run.lookup.index_entries([p.text for p in op.paths], run.cwd)
    if entries is None:
        return op
    if not entries:
        return run.op(SAFE)  # "pathspec did not match any files": git removes nothing
    return op._replace(entries=frozenset(entries))


def _classify_mv(rest, run):
    """`git mv` renames on disk: a folder goes with everything in it, untracked and ignored files
    too. Without -f git refuses an existing destination, a source the index does not hold, and a
    folder with a tracked file deleted from the tree ("bad source"), and then moves nothing."""
    args = split_arguments(rest, MV_LONG, frozenset())
    if args.flags & {"-n", "--dry-run"}:
        return run.op(SAFE)
    words = args.path_words
    force = bool(args.flags & {"-f", "--force"})
    moved = words if force or len(words) < 2 else words[:-1]
    op = _by_paths(REMOVE_PATHS, moved, run, args, touches=frozenset("SWNDI"),
                   precheck=None if force else Precheck(MATCH_INDEX, REFUSE_DELETED))
    if op.kind == REMOVE_PATHS and len(words) >= 2 and not words[-1].expanded:
        # the destination gets an index entry again: a peer's staged deletion there is undone
        op = op._replace(target=_pathspec(words[-1], run.cwd, run.context.paths))
    return op


# The commonest judged forms are classified here; the others load with their family on first use,
# so that a judged `git add` or `git commit` reads ~55 KB less bytecode (~0.25 ms).
_CLASSIFIERS = {"add": _classify_add, "stage": _classify_add, "commit": _classify_commit, "rm": _classify_rm,
                "mv": _classify_mv}
_FAMILY_OF = {"stash": "stash", "reflog": "stash",
              "reset": "tree", "checkout": "tree", "switch": "tree", "restore": "tree", "clean": "tree",
              "apply": "tree", "read-tree": "tree", "checkout-index": "tree",
              "update-ref": "refs", "symbolic-ref": "refs", "branch": "refs", "sparse-checkout": "refs",
              "worktree": "refs", "bisect": "refs"}


def _classifier(subcommand):
    """The classifier of a subcommand's forms, or None (HEAD movers, read-only or unknown ones)."""
    classify = _CLASSIFIERS.get(subcommand)
    family = _FAMILY_OF.get(subcommand)
    if classify is not None or family is None:
        return classify
    if family == "stash":
        from . import forms_stash as module
    elif family == "tree":
        from . import forms_tree as module
    else:
        from . import forms_refs as module
    return module.CLASSIFIERS[subcommand]

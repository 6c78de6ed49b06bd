"""What one git operation is, as the classifier (peerhooks.git.classify) makes it: the Operation
record, the Pathspecs it names, what git checks before it changes anything (Precheck), and the
private index a commit is made from. Kinds and what each reaches are peerhooks.git.kinds.
"""
from ..startup.records import record

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

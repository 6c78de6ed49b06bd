"""What only the checkout can tell the classifier (is `release-1.2` a branch? is a merge under way?),
asked while classifying: the Lookup it is given. This default guesses from the word alone; the
guard passes peerhooks.git.checkout_lookup's, which reads the refs, the config and the index.
"""

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

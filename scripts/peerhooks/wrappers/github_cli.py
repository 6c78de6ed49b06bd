"""What `gh pr checkout` and `gh repo sync` do to the shared checkout, as the git operation kinds
they amount to. Read from cli/cli (pkg/cmd/pr/checkout, pkg/cmd/repo/sync):

- `gh pr checkout <pr>` fetches the pull request's head and checks it out on a branch (`git checkout
  -b <branch> --track …`, or `git checkout <branch>` + `git merge --ff-only`; `--detach`: `git checkout
  --detach FETCH_HEAD`): the shared HEAD moves. With `--force` it runs `git reset --hard` onto the
  fetched head, discarding local changes.
- `gh repo sync` (no repository named: the local one) fetches the default branch (or `--branch`) and,
  when it is checked out, fast-forwards it (`git merge --ff-only`; with `--force`, `git reset --hard
  FETCH_HEAD`), else rewrites the local branch with `git update-ref`. A ref a peer may have checked out
  moves either way; `gh repo sync owner/repo` syncs a fork on GitHub and touches nothing here.

The branch gh checks out is the pull request's, known only to GitHub, so these are markers (git
kinds) rather than git lines a Lookup would then find naming no commit.
"""
from ..git.kinds import MOVE_HEAD, RESET_ALL, WRITE_REFS

HELP = frozenset(["-h", "--help"])
VALUE_OPTIONS = frozenset(["-b", "--branch", "-R", "--repo", "-s", "--source"])


def effect(args):
    """The git kind a `gh …` command line amounts to here, or None when it touches no checkout."""
    flags, operands = _split(list(args))
    if len(operands) < 2 or flags & HELP:
        return None
    command, rest = tuple(operands[:2]), operands[2:]
    if command == ("pr", "checkout"):
        if not rest:
            return None  # "argument required"
        return RESET_ALL if flags & {"-f", "--force"} else MOVE_HEAD
    if command == ("repo", "sync"):
        if rest:
            return None  # a repository on GitHub
        return RESET_ALL if "--force" in flags else WRITE_REFS
    return None


def _split(words):
    """(flags, operands) as cobra reads them: flags anywhere, a value option's value skipped."""
    flags, operands, index = set(), [], 0
    while index < len(words):
        word = words[index]
        index += 1
        name = word.partition("=")[0]
        if word.startswith("-"):
            flags.add(name)
            if name in VALUE_OPTIONS and "=" not in word:
                index += 1
        else:
            operands.append(word)
    return flags, operands

"""What a command runs when it runs git without saying `git`: a Makefile target, a package.json
script, a shell script in the checkout, `gh pr checkout`, or git inside `python -c` / `node -e`.

Why: replayed public incidents (issue 19) show agents sweeping a live peer's work into their commit
through `make commit`, `npm run release`, `./scripts/commit.sh`, or `python3 -c
"subprocess.run(['git','add','--all'])"`, and switching the shared branch with `gh pr checkout 12`.
The guard saw only the git it could read in the line. The files are plain text in the checkout:
reading them costs one bounded read each.

The package, one module per concern:
  follower        cmdline's follower (Context.follow): which wrapper a command is, the bounds, the
                  files one judgement reads
  makefile        what `make [options] [targets]` runs, as GNU make expands it
  package_scripts what `npm run S`, `yarn S`, `pnpm S`, `bun run S` run
  github_cli      what `gh pr checkout` / `gh repo sync` do to the checkout
  inline_code     the git command lines in `python -c`, `node -e`, `perl -e`, `ruby -e` code
  reader          reading those files safely (the only I/O)
This module is what every judged line imports: the words that may start a wrapper, and the
follower for a line that holds one (None for one that does not, which then imports nothing more).
"""

# Words whose presence in a command line means it may run a wrapper (the front door checks the
# raw bytes for these, as guard_readonly.WRAPPER_BYTES, before json is imported or a file read). Code given on the
# line (`python3 -c`, `node -e`) needs none of them: it holds `git` itself when it runs git.
ENTRY_WORDS = ("make", "npm", "yarn", "pnpm", "bun ", "gh ", ".sh", "./", "sh ", "source ")
# The interpreters whose code given on the line is read for git (peerhooks.wrappers.inline_code).
INTERPRETER_WORDS = ("python", "pypy", "node", "perl", "ruby")
# A hand-written Makefile, package.json or script is far smaller; the interpreter walks dense shell
# at ~170 KB/s on a 2-core machine, so what one judgement follows is bounded in text too (follower).
MAX_FILE_BYTES = 128 * 1024


class Unreadable(Exception):
    """A file that exists but is not read (a link out of the checkout, not a regular file, too big,
    beyond the files a judgement reads): what it runs cannot be known."""


class Outside(Unreadable):
    """A file outside every checkout (`~/bin/x.sh`, `/usr/share/mk/x.mk`): not read, and a script or
    makefile there is not followed (an include there leaves what it defines unknown)."""


def follower_for(command):
    """The guard's follower for a command line (reading the checkout through reader), or None when
    nothing in the line can be a wrapper: then nothing more is imported."""
    if not any(word in command for word in ENTRY_WORDS + INTERPRETER_WORDS):
        return None
    from .follower import Follower
    from .reader import CheckoutReader

    return Follower(CheckoutReader())


def mentions_git(text):
    """True when the text holds `git` as a word of its own (not `.git`, `github`, `digit`)."""
    start = text.find("git")
    while start >= 0:
        before, after = text[start - 1:start], text[start + 3:start + 4]
        if not (before.isalnum() or before in ("_", ".")) and not (after.isalnum() or after == "_"):
            return True
        start = text.find("git", start + 3)
    return False

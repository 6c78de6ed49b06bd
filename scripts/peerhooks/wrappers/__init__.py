"""What a command runs when it runs git without saying `git`: a Makefile target, a package.json
script, a shell script in the checkout, `gh pr checkout`, or git inside `python -c` / `node -e`.

Why: replayed public incidents (issue 19) show agents sweeping a live peer's work into their commit
through `make commit`, `npm run release`, `./scripts/commit.sh`, or `python3 -c
"subprocess.run(['git','add','--all'])"`, and switching the shared branch with `gh pr checkout 12`.
The guard saw only the git it could read in the line. The files are plain text in the checkout:
reading them costs one bounded read each.

The package, one module per concern:
  follower        cmdline's follower (Context.follow): which wrapper a command is, and the bounds
  files           the files one judgement reads, why one stays unread, whether a text mentions git
  makefile        what `make [options] [targets]` runs, as GNU make expands it, with
                  make_invocation (its command line), make_syntax (a makefile's text) and
                  make_functions (`$(subst …)`, `$(shell …)`, …)
  package_scripts what a line of npm, npx, yarn, pnpm, bun or bunx runs of the package's own: a
                  script, a command's lifecycle scripts (package_commands), a binary, in the
                  package or its workspaces (package_workspaces); package_runs reads them
  github_cli      what `gh pr checkout` / `gh repo sync` do to the checkout
  inline_code     the git command lines in `python -c`, `node -e`, `perl -e`, `ruby -e` code, and
                  the files such code may write (cmdline's Context.code_writes)
  reader          reading those files safely (the only I/O)

This module is what every judged line imports, and nothing of the package until a line needs it:
the words that may start a wrapper, the follower for a line that holds one (None for one that does
not), and the reader of the code a line hands an interpreter. No module of the package imports it.
"""
from ..shell.writes import INTERPRETER_PREFIXES

# Words whose presence in a command line means it may run a wrapper (the front door checks the
# raw bytes for these, as guard.readonly.WRAPPER_BYTES, before json is imported or a file read). Code
# given on the line (`python3 -c`, `node -e`: INTERPRETER_PREFIXES) needs none of them: it holds `git`
# itself when it runs git.
ENTRY_WORDS = ("make", "npm", "npx", "yarn", "pnpm", "bun ", "bunx", "gh ", ".sh", "./", "sh ", "source ")


def follower_for(command):
    """The guard's follower for a command line (reading the checkout through reader), or None when
    nothing in the line can be a wrapper: then nothing more is imported."""
    if not any(word in command for word in ENTRY_WORDS + INTERPRETER_PREFIXES):
        return None
    from .follower import Follower  # seam: only a line that may run a wrapper loads the follower (~0.5 ms)
    from .reader import CheckoutReader  # seam: nor its reader of the checkout (with state.safefiles)

    return Follower(CheckoutReader())


def code_writes(command):
    """The paths code handed to an interpreter may write (inline_code.paths_written): the shell
    model's Context.code_writes, which it asks only of a command that runs an interpreter."""
    from .inline_code import paths_written  # seam: only a command running python, node, perl or ruby loads it (~0.3 ms)

    return paths_written(command)

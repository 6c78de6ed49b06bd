"""Which commands of a line run at all, once some are known to fail. Pure.

Bash runs `b` in `a && b` only when `a` succeeds: `git add gone.py && git commit -m x` never
commits when git refuses the add (its pathspec matches no file), so the commit takes nothing of
anyone's, and a refusal saying it "would" is false. cmdline records each command's gate (the
command whose status decides whether it runs, and the connector); peerhooks.git.refusals says which
git commands certainly fail; this module says what never runs then.

A command known to fail only counts when nothing before it in the line may have changed what git
looks at (`touch new.py && git add new.py` adds a file that does not exist yet): only readers and
commands that certainly failed may come before it.
"""

from ..startup.records import record

AND, OR = "&&", "||"

# Commands that change no file, index or ref whatever their arguments (and no write redirection on
# them): a git command after them sees the checkout as it is now.
READERS = frozenset("""
cd pushd popd pwd echo printf cat ls head tail grep egrep fgrep wc sort uniq cut tr test [ [[ true
false : sleep date which type basename dirname realpath readlink stat file du df id whoami hostname
uname env printenv
""".split())


Chain = record("Chain", "gates readers count", (), """A line's commands as far as what runs after what:
    gates {step: (gate step, AND or OR)} of the gated commands, readers (the steps that change
    nothing: a reader, or git reading) and count (how many commands).""")


def chain_of(runs, changing_git_steps):
    """The Chain of commands read by cmdline.commands; changing_git_steps: the steps whose git
    operation may change something (every other git step only reads)."""
    gates = {step: run.gate for step, run in enumerate(runs) if run.gate is not None}
    readers = frozenset(step for step, run in enumerate(runs) if not run.writes and not run.via and (
        run.name in READERS or run.name == "git" and step not in changing_git_steps or
        run.name == "find" and not any(w.value in FIND_ACTIONS for w in run.args) or
        run.name == "awk" and _prints_fields(run)))
    return Chain(gates, readers, len(runs))


def _prints_fields(run):
    """`awk '{print $N}'`: it prints a field of each line it reads (awk can write files and run
    commands, so only the program peerhooks.shell.feeds reads counts as reading)."""
    from . import feeds  # seam: only a line running awk loads the filter model, which judged lines skip

    return feeds.stages_of([run]) is not None


# What makes `find` more than a reader: it deletes, runs or writes (what it runs is its own command).
FIND_ACTIONS = frozenset(["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf",
                          "-fls"])


def inert(chain, fails):
    """The steps that change nothing: those that certainly do not run, and those that certainly fail.
    fails(step) says whether a command certainly fails when it runs; it is asked only while nothing
    before the step may have changed the checkout. A step after `&&` is skipped when its gate
    certainly failed (a skipped step's status is its gate's, so the rest of the chain is skipped
    too); after `||` it runs exactly when its gate failed."""
    failed = {}  # step -> True when it certainly ends with a failure status
    found = set()
    untouched = True  # nothing so far may have changed the checkout
    for step in range(chain.count):  # a gate always comes earlier in the line
        gate = chain.gates.get(step)
        if gate is not None and gate[1] == AND and failed.get(gate[0], False):
            found.add(step)
            failed[step] = True
            continue
        certain = untouched and fails(step)
        if certain:
            found.add(step)
        if gate is None or gate[1] == AND:
            failed[step] = certain
        else:  # after `||` a gate that may have succeeded leaves the status unknown
            failed[step] = certain and failed.get(gate[0], False)
        untouched = untouched and (certain or step in chain.readers)
    return frozenset(found)

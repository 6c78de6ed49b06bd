"""A refused command labelled by running it: in a copy of the checkouts (world.CheckoutCopy), what
would it have done to the work of every session other than the one that typed it? Read from git and
the file system (places.py, ledger.effect_of), never from the refusal's own reason.

- `loses`: another session's change would be in no tree, index, commit or stash entry after it;
- `misattributes`: another session's change would first be committed by it;
- `displaces`: neither, but another session's work would move into the stash or out of it (a
  `git stash pop` of someone else's entry), or a checkout's branch would change;
- `harmless`: none of these.

A deny or an ask whose label is not `loses` or `misattributes` is a false refusal.
"""
import subprocess
from typing import NamedTuple

from ledger import Effect, effect_of
from places import GitView

HARMFUL = ("loses", "misattributes")
COMMAND_TIMEOUT_S = 60


class Label(NamedTuple):
    name: str
    effect: Effect

    @property
    def harmful(self):
        return self.name in HARMFUL


def name_of(effect):
    """The label of an Effect. Pure."""
    if effect.lost:
        return "loses"
    if effect.misattributed:
        return "misattributes"
    if effect.moved or effect.moved_heads:
        return "displaces"
    return "harmless"


def label(world, ledger, session, checkout, command, minute):
    """Run `command` as `session` would have, in a copy of `world`'s checkouts, and label it."""
    copy = world.copy()
    try:
        view = GitView(copy.tops, copy.env(minute))
        view.share_caches(ledger.view)  # blobs and commits are the same objects in the copy
        before = view.snapshot()
        subprocess.run(["bash", "-c", command], cwd=copy.tops[checkout], env=copy.env(minute),
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=COMMAND_TIMEOUT_S, check=False)
        after = view.snapshot()
        introduced = view.introduced(sorted(after.history - before.history))
        effect = effect_of(session, before, after, set(introduced), set(ledger.first_commit))
    finally:
        copy.close()
    return Label(name_of(effect), effect)

"""The families of git forms, and the registry each classifier enters itself in beside its code
(pycodestyle's register_check): `@classifies("reset")` over the function that reads `git reset`'s
forms. peerhooks.git.classify hands each git run to its subcommand's classifier, loading a family
(FAMILY_OF) on first use.

A classifier is `classify(rest, run) -> Operation`: rest are the words after the subcommand, run
the forms.run.Run being classified (where, as what text, what the line feeds it, the Lookup).
"""

CLASSIFIERS = {}  # subcommand -> classify(rest, run)

# The families that load with the first line that has one of their subcommands: a judged `git add`
# or `git commit` (forms.index, forms.head_movers, loaded with the classifier) then reads ~48 KB
# less bytecode.
FAMILY_OF = {"stash": "stash", "reflog": "stash",
             "reset": "tree", "checkout": "tree", "switch": "tree", "restore": "tree", "clean": "tree",
             "apply": "tree", "read-tree": "tree", "checkout-index": "tree",
             "update-ref": "refs", "symbolic-ref": "refs", "branch": "refs", "sparse-checkout": "refs",
             "worktree": "refs", "bisect": "refs"}


def classifies(*subcommands):
    """Register the decorated function as the classifier of these subcommands' forms."""
    def register(classify):
        for subcommand in subcommands:
            CLASSIFIERS[subcommand] = classify
        return classify
    return register

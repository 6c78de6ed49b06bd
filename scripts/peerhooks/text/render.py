"""Fit text blocks into a character budget by dropping the least important detail first.

Claude Code cuts hook output over 10,000 characters to a preview, and every character of context
costs the model attention, so each hook has its own budget. A block comes as variants, fullest
first; blocks are ordered by importance. Over budget, the least important block that can still
shrink shrinks one step; when none can, whole blocks go from the end and a `+N more` line says so.
"""


def fit(blocks, budget, more_line=lambda n: "+%d more" % n, header="", footer=""):
    """Join the chosen variant of each block (a sequence of strings) with newlines, within `budget`
    characters."""
    levels = [0] * len(blocks)
    kept = len(blocks)

    def total():
        parts = [header] + [blocks[i][levels[i]] for i in range(kept)]
        if kept < len(blocks):
            parts.append(more_line(len(blocks) - kept))
        parts.append(footer)
        return sum(len(p) + 1 for p in parts if p)

    while total() > budget:
        shrinkable = [i for i in range(kept - 1, -1, -1) if levels[i] + 1 < len(blocks[i])]
        if shrinkable:
            levels[shrinkable[0]] += 1
        elif kept > 0:
            kept -= 1
        else:
            break
    lines = [header] if header else []
    lines += [blocks[i][levels[i]] for i in range(kept)]
    if kept < len(blocks):
        lines.append(more_line(len(blocks) - kept))
    if footer:
        lines.append(footer)
    return "\n".join(line for line in lines if line)

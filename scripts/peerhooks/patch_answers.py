"""Which files `git add -p` stages a hunk of, given the answers the line feeds it. Pure.

`git add -p` offers the working-tree changes of the tracked files under its pathspecs, file by file
in path order, hunk by hunk as `git diff` shows them, and reads one answer a hunk from stdin: `y`
stages it, `n` leaves it, `a` stages it and the rest of the file, `d` leaves the rest of the file,
`q` stops; the end of its input stops it too. `printf 'n\\nn\\n' | git add -p` stages nothing,
`printf 'y\\nn\\n' | git add -p a.py` the first hunk of a.py alone, `yes | git add -p` everything. Any
other answer (`s` splits a hunk, `e` edits it, `j`/`k` move around) is not followed here.
"""
from .records import record

Answers = record("Answers", "lines repeat", (None,), """What the line feeds a prompt: its lines, then
    `repeat` forever (what `yes` prints) or nothing more (None).""")


def answers_of(text=None, repeat=None):
    """Answers from the text fed on stdin and what `yes` repeats after it."""
    return Answers(tuple(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")) if text else (),
                   repeat)


def staged_files(answers, hunks):
    """The files of `hunks` ([(path, number of prompts)], in the order git asks) that get at least
    one hunk staged, or None when an answer is one this module does not follow."""
    staged, index = [], 0
    for path, count in hunks:
        taken = rest = None  # rest: "a" or "d" for the file's remaining hunks
        for _ in range(count):
            if rest is not None:
                taken = taken or rest == "a"
                continue
            if index < len(answers.lines):
                answer = answers.lines[index].strip()
            elif answers.repeat is not None:
                answer = answers.repeat
            else:
                return staged + ([path] if taken else [])  # end of input: it quits
            index += 1
            letter = answer[:1].lower()
            if letter == "q":
                return staged + ([path] if taken else [])
            if letter in ("a", "d"):
                rest = letter
                taken = taken or letter == "a"
            elif letter == "y":
                taken = True
            elif letter != "n":
                return None
        if taken:
            staged.append(path)
    return staged


def hunks_of(diff_text):
    """[(toplevel-relative path, prompts)] of `git diff --no-color` output, in its order: one
    prompt a hunk, one more for a mode change. None when a file is binary or its name quoted (both
    asked about in ways not followed here)."""
    found = []
    for line in diff_text.split("\n"):
        if line.startswith("diff --git "):
            names = line[len("diff --git "):]
            if names.startswith('"') or " b/" not in names:
                return None
            found.append([names.rsplit(" b/", 1)[1], 0])
        elif not found:
            continue
        elif line.startswith("@@ "):
            found[-1][1] += 1
        elif line.startswith("old mode "):
            found[-1][1] += 1
        elif line.startswith("Binary files ") or line.startswith("GIT binary patch"):
            return None
    return [(path, count) for path, count in found if count]

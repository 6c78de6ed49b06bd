"""Which files `git add -p` stages a hunk of, given the answers the line feeds it. Pure.

`git add -p` offers the working-tree changes of the tracked files under its pathspecs, file by file
in path order, hunk by hunk as `git diff` shows them, and reads one answer a hunk from stdin: `y`
stages it, `n` leaves it, `a` stages it and the rest of the file, `d` leaves the rest of the file,
`q` stops; the end of its input stops it too. `printf 'n\\nn\\n' | git add -p` stages nothing,
`printf 'y\\nn\\n' | git add -p a.py` the first hunk of a.py alone, `yes | git add -p` everything. Any
other answer (`s` splits a hunk, `e` edits it, `j`/`k` move around) is not followed here.
"""
from ..startup.records import record
from .kinds import Pathspec, STAGE_PATHS

Answers = record("Answers", "lines repeat", (None,), """What the line feeds a prompt: its lines, then
    `repeat` forever (what `yes` prints) or nothing more (None).""")


def answers_of(text=None, repeat=None):
    """Answers from the text fed on stdin and what `yes` repeats after it."""
    return Answers(tuple(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")) if text else (),
                   repeat)


def answers_fed(command):
    """The Answers the line feeds a command's prompts (cmdline.Command: its here-document or here-string,
    or a plain `yes [word] |` before it), or None when unknown."""
    if command.stdin is not None:
        return answers_of(command.stdin)
    producer = command.piped_from
    if producer is not None and producer.name == "yes" and producer.piped_from is None and \
            not any(w.expanded for w in producer.args) and len(producer.args) <= 1:
        return answers_of(None, producer.args[0].value if producer.args else "y")
    return None


def with_answered_hunks(op, files, top):
    """A `git add -p` narrowed to the toplevel-relative files its answers stage a hunk of."""
    return op._replace(kind=STAGE_PATHS, paths=tuple(Pathspec(f, None, f) for f in files), answers=None,
                       relative=False)


def staged_files(answers, hunks):
    """The files of `hunks` ([(path, number of prompts)], in the order git asks) that get at least
    one hunk staged, or None when an answer is one this module does not follow."""
    taken = staged_hunks(answers, hunks)
    return None if taken is None else [path for path, indices in taken if indices]


def staged_hunks(answers, hunks):
    """[(path, [index of each prompt answered to stage])] for the files of `hunks`, as
    staged_files reads the answers; None when an answer is one not followed here."""
    staged, index = [], 0
    for path, count in hunks:
        taken, rest = [], None  # rest: "a" or "d" for the file's remaining hunks
        staged.append((path, taken))
        for prompt in range(count):
            if rest is not None:
                if rest == "a":
                    taken.append(prompt)
                continue
            if index < len(answers.lines):
                answer = answers.lines[index].strip()
            elif answers.repeat is not None:
                answer = answers.repeat
            else:
                return staged  # end of input: it quits
            index += 1
            letter = answer[:1].lower()
            if letter == "q":
                return staged
            if letter in ("a", "d"):
                rest = letter
            if letter in ("a", "y"):
                taken.append(prompt)
            elif letter not in ("n", "d"):
                return None
    return staged


def hunks_of(diff_text):
    """[(toplevel-relative path, prompts)] of `git diff --no-color` output, in its order: one
    prompt a hunk, one more for a mode change. None when a file is binary or its name quoted (both
    asked about in ways not followed here)."""
    found = file_hunks(diff_text)
    return None if found is None else [(path, len(prompts)) for path, prompts in found if prompts]


def file_hunks(diff_text):
    """[(toplevel-relative path, [prompt])] of `git diff --no-color` output, in the order git asks:
    a hunk as its old range and its lines (`("-12,3", (" a", "-b", "+c", ...))`), a mode change as
    None; None as hunks_of says."""
    found = []
    for line in diff_text.split("\n"):
        if line.startswith("diff --git "):
            names = line[len("diff --git "):]
            if names.startswith('"') or " b/" not in names:
                return None
            found.append((names.rsplit(" b/", 1)[1], []))
        elif not found:
            continue
        elif line.startswith("@@ "):
            found[-1][1].append((line.split(" ", 2)[1], []))
        elif line.startswith("old mode "):
            found[-1][1].append(None)
        elif line.startswith("Binary files ") or line.startswith("GIT binary patch"):
            return None
        elif found[-1][1] and found[-1][1][-1] is not None and line[:1] in (" ", "-", "+", "\\"):
            found[-1][1][-1][1].append(line)
    return [(path, [p if p is None else (p[0], tuple(p[1])) for p in prompts]) for path, prompts in found]

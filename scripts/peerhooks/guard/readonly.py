"""Whether a PreToolUse payload's command can touch a peer's work at all, decided on the raw bytes
before json is imported or any file read: the guard runs before every shell command. `git status`,
`git diff`, `git log` are most of the git an agent runs (only_reads), and most other lines write no
file (may_write). A "cannot" here is always right (it lets through only what cannot touch a peer's
work); anything else goes to the full judgement. No imports: `re` alone costs ~6 ms of a clean
interpreter's start.
"""

# Subcommands that only read (git.classify.READ_ONLY's core): a line whose every `git` runs one of these
# cannot touch a peer's work. Matched on bytes by hand: importing `re` alone costs ~6 ms.
READ_ONLY = frozenset(b"""status diff log show rev-parse ls-files ls-tree blame grep describe shortlog
cat-file rev-list merge-base for-each-ref show-ref fetch version""".split())
GLOBAL_FLAGS = frozenset([b"--no-pager", b"-P", b"--no-optional-locks"])
GLOBAL_WITH_VALUE = frozenset([b"-C", b"-c"])
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def only_reads(raw):
    """True when every standalone `git` in the payload's bytes starts a read-only run."""
    start = raw.find(b"git")
    while start >= 0:
        before, after = raw[start - 1:start] if start else b"", raw[start + 3:start + 4]
        escaped = raw[start - 2:start - 1] == b"\\"  # `\ngit` in JSON is a newline, then git
        standalone = (escaped or not (before and (before[0] in _WORD_BYTES or before == b"."))) and not (
            after and after[0] in _WORD_BYTES)
        if standalone and not _reads_at(raw, start + 3):
            return False
        start = raw.find(b"git", start + 3)
    return True


def _reads_at(raw, pos):
    if raw[pos:pos + 1] not in (b" ", b"\t"):
        return False
    words = raw[pos:pos + 256].split(None, 8)
    index = 0
    while index < len(words) and (words[index] in GLOBAL_FLAGS or words[index] in GLOBAL_WITH_VALUE):
        index += 2 if words[index] in GLOBAL_WITH_VALUE else 1
    if index >= len(words):
        return False
    word = words[index]
    end = 0
    while end < len(word) and (word[end] in _WORD_BYTES):
        end += 1
    return word[:end] in READ_ONLY


# Commands that write over or remove the files they are given (cmdline's WRITES_ALL_OPERANDS,
# COPIES, IN_PLACE_EDITORS, dd), and find's -delete/-exec, as words of the raw line.
WRITERS = frozenset(b"tee touch truncate rm unlink shred cp mv install ln rsync sed perl dd find".split())
# A redirection that writes no file: to a descriptor (`2>&1`, `>&2`) or to /dev/null.
HARMLESS_AFTER_REDIRECT = (b"&", b"/dev/null")


# The interpreters whose code a line may hand them (shell.writes.INTERPRETER_PREFIXES) and the markers of
# code that may write a file (peerhooks.wrappers.inline_code.WRITE_MARKERS, as bytes; a test holds
# them equal): a line holding both may write one (`python3 -c "…open(p,'w')…"`); `python3 -m
# pytest` holds no marker and stays on the quiet path. `sort` writes only with -o.
INTERPRETERS = (b"python", b"pypy", b"node", b"perl", b"ruby")
WRITE_MARKERS = (b"'w", b'"w', b"'a'", b'"a"', b"'a+", b'"a+', b"'x'", b'"x"', b"'r+", b'"r+', b"write_text",
                 b"write_bytes", b"unlink", b"remove(", b"rmtree", b"rename(", b"os.replace", b"shutil.", b"truncate",
                 b"writeFile", b"appendFile", b"rmSync", b"renameSync", b"copyFile", b"createWriteStream",
                 b"File.write", b"File.delete", b"FileUtils", b"open(my", b"open my", b"'>", b'">')


def may_write(raw):
    """False when the payload's bytes hold no redirection to a file, no word of a command that
    writes its operands, no `sort -o` and no interpreter with code that may write: such a line
    cannot overwrite anyone's file."""
    start = raw.find(b">")
    while start >= 0:
        rest = raw[start + 1:start + 16].lstrip(b">").lstrip(b"|").lstrip()
        if not rest.startswith(HARMLESS_AFTER_REDIRECT):
            return True
        start = raw.find(b">", start + 1)
    for word in raw.replace(b"\\n", b" ").replace(b"\\t", b" ").split():
        for piece in word.replace(b";", b" ").replace(b"&", b" ").replace(b"|", b" ").replace(b"(", b" ") \
                .replace(b'"', b" ").replace(b"`", b" ").split():
            name = piece.rsplit(b"/", 1)[-1]
            if name in WRITERS or name == b"sort" and (b" -o" in raw or b"--output" in raw):
                return True
            if name.startswith(INTERPRETERS) and any(marker in raw for marker in WRITE_MARKERS):
                return True  # (looked for only once an interpreter is seen: the quiet path pays nothing)
    return False


# peerhooks.wrappers.ENTRY_WORDS as bytes (a test holds the two equal): a line holding one may run
# git through what it runs (a Makefile target, a package script, a script in the checkout).
WRAPPER_BYTES = (b"make", b"npm", b"npx", b"yarn", b"pnpm", b"bun ", b"bunx", b"gh ", b".sh", b"./", b"sh ",
                 b"source ")


def may_wrap(raw):
    """True when the payload's command may start a wrapper. Looked for in the command's JSON text,
    not its description ("make sure …" is prose): cut at its first quote, or the whole payload when
    that quote is escaped (`\\"`) or there is no command key."""
    key = raw.find(b'"command"')
    start = raw.find(b'"', key + 9) + 1
    end = raw.find(b'"', start)
    command = raw[start:end] if key >= 0 and 0 < start <= end and raw[end - 1] != 92 else raw
    return any(word in command for word in WRAPPER_BYTES)

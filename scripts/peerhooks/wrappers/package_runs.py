"""What a package manager's run (package_scripts.Run) runs, read from the checkout: the package.json
it acts on (the nearest walking up, or the workspace packages it selects), their scripts, the
binaries in node_modules/.bin, as command lines for the interpreter, each with what a reason shows
of it (`package.json script "postinstall": git add -A && git commit -m x`).

Why a module of its own: it is the run's I/O (through the follower's Files, which bound what one
judgement reads), kept apart from the pure reading of the command line (package_scripts) and of the
workspace globs (package_workspaces); the follower turns what it finds into tagged lines.

A binary runs as `npx` finds it (npm 11, verified by running it): the package's own `bin` of that
name first, which npx installs, running the package's `preinstall`, `prepare`, `install` and
`postinstall`; else the nearest node_modules/.bin holding it, walking up from the package; else one
outside the checkout or downloaded from the registry: none of the repository's, not followed. The
binary is then judged as a program run by its path is (a shell script is read, another program is
not). A run across workspaces may read one package.json per workspace package, at most
package_workspaces.MAX_MEMBERS more than a judgement's files; what cannot be read, or is past a
bound, comes back as why it was not judged, which the guard asks about beside a live peer.
"""
from ..startup import oscalls
from ..startup.records import record
from ..shell.lexer import quote
from .files import Outside, Unreadable
from .package_commands import LINKED
from .package_scripts import document_of, lines

Found = record("Found", "line folder shown", (), """One command line a run runs: the line, the folder it
    runs in, and what a reason shows of it.""")
MANIFEST = "package.json"
PNPM_WORKSPACE = "pnpm-workspace.yaml"
BINARIES = "node_modules/.bin"


def _workspaces():
    """The workspace globs' module, for a run that reaches a workspace."""
    from . import package_workspaces  # seam: a workspace run or an install loads the globs; `npm test` not

    return package_workspaces


class Unjudged(Exception):
    """A part of the run the guard could not judge, and why."""


def follow(run, files, written, toplevel, cwd):
    """([Found], why) of what the run runs: the lines, in order, and why the rest was not judged
    (None when all was)."""
    project = _Project(run, files, written, toplevel, cwd)
    try:
        project.follow()
    except Unjudged as error:
        return project.found, str(error)
    return project.found, None


class _Project:
    """One run's packages as the checkout holds them, read at most once each."""

    def __init__(self, run, files, written, toplevel, cwd):
        self.run, self.files, self.written, self.toplevel, self.cwd = run, files, written, toplevel, cwd
        self.found, self._documents, self._members = [], {}, {}

    def follow(self):
        run = self.run
        package = self.package()
        if package is None and run.binary is None and run.command is None:
            return  # no package.json: npm stops with ENOENT (or uses one outside the checkout, unread)
        acted_on = self.acted_on(package) if package is not None else []
        for folder in acted_on:
            self.scripts(folder, run.events, run.main, run.arguments)
        if run.command is not None:
            for folder in (acted_on if run.selection is not None else [run.folder]):
                self.command(run.command, folder)
        if run.binary is not None:
            self.binary(run.binary, package, acted_on)
        if (run.members or run.root) and package is not None:
            root, members = self.installed(package)
            for folder in members:
                self.scripts(folder, run.members)
            self.scripts(root, run.root)

    def package(self):
        """The folder of the package the run acts on: its folder, or the nearest above holding a
        package.json (up to the checkout's top); None when there is none."""
        folder = oscalls.posixpath.normpath(self.run.folder)
        top = self.toplevel(folder) if self.toplevel is not None else None
        while True:
            if self.document(folder) is not None:
                return folder
            if not self.run.walks_up or folder in ("/", top):
                return None
            folder = oscalls.posixpath.dirname(folder)

    def acted_on(self, package):
        """The packages the run's scripts run in: the package, or those its selection names."""
        selection = self.run.selection
        if selection is None:
            return [package]
        root = self.workspace_root(package)
        if root is None:  # no workspace: npm says "No workspaces found"; `pnpm -w` acts on the package
            return [package] if selection.root else []
        chosen = [root] if selection.root else []
        for folder in _workspaces().selected(self.members(root), selection, self.cwd, root):
            if folder not in chosen:
                chosen.append(folder)
        return chosen

    def installed(self, package):
        """(the workspace root, the workspace packages) an install acts on: those the selection
        names, or, typed in a workspace package's folder, that one for npm (npm 11 installs from
        the root as `-w` it), else all."""
        root = self.workspace_root(package)
        if root is None:
            return package, []
        members = self.members(root)
        selection = self.run.selection
        if selection is not None and not selection.every:
            return root, _workspaces().selected(members, selection, self.cwd, root)
        if package != root and self.run.manager == "npm" and any(m.folder == package for m in members):
            return root, [package]
        return root, [member.folder for member in members]

    def workspace_root(self, package):
        """The folder of the workspace the package is in (itself when it declares one), walking up
        to the checkout's top; None when there is none."""
        folder = package
        top = self.toplevel(package) if self.toplevel is not None else None
        while True:
            if self.patterns(folder) is not None:
                return folder
            if folder in ("/", top):
                return None
            folder = oscalls.posixpath.dirname(folder)

    def patterns(self, folder):
        """The workspace globs the folder declares (pnpm-workspace.yaml for pnpm, package.json's
        `workspaces` for the others), None when it declares none."""
        try:
            if self.run.manager == "pnpm":
                text = self.text(oscalls.posixpath.join(folder, PNPM_WORKSPACE))
                return _workspaces().pnpm_patterns(text) if text is not None else None
            return _workspaces().manifest_patterns(self.document(folder))
        except ValueError as error:
            raise Unjudged("%s: %s" % (self._shown_path(folder), error)) from None

    def members(self, root):
        """The root's workspace packages ([Member]), each with a package.json."""
        if root not in self._members:
            workspaces = _workspaces()
            self.files.limit = max(self.files.limit, self.files.count + 2 * workspaces.MAX_MEMBERS)

            def folders(path):
                try:
                    return self.files.folders(path)
                except Unreadable as error:
                    raise Unjudged("the workspace folders: %s" % error) from None

            try:
                member_folders = workspaces.member_folders(root, self.patterns(root), folders)
            except workspaces.TooMany as error:
                raise Unjudged("%s: %s" % (self._shown_path(root), error)) from None
            found = []
            for folder in member_folders:
                document = self.document(folder)
                if document is not None and folder != root:
                    found.append(workspaces.Member(workspaces.member_name(document, folder), folder))
            self._members[root] = found
        return self._members[root]

    def scripts(self, folder, events, main=None, arguments=()):
        """Add the lines of the events whose scripts the package holds; a missing main script
        runs what the manager runs in its place (a binary, or the words as a command)."""
        document = self.document(folder)
        scripts = document.get("scripts") if isinstance(document, dict) else None
        scripts = {k: v for k, v in scripts.items() if isinstance(v, str)} if isinstance(scripts, dict) else {}
        if self.run.manager == "pnpm" and main is not None and len(main) > 2 and main[0] == main[-1] == "/":
            events, main = tuple(scripts), None  # `pnpm run "/^build:.*/"`: the scripts a regex matches, all counted
        if main is not None and main not in scripts and self.run.otherwise in ("binary", "command"):
            words = (main,) + tuple(arguments)
            return self.binary(words, folder, []) if self.run.otherwise == "binary" else self.command(words, folder)
        for name, line in lines(scripts, events, main, arguments, npm_defaults=self.run.otherwise == "npm"):
            shown = '%s script "%s": %s' % (self._shown_path(folder), name, line)
            self.found.append(Found(line, folder, shown))

    def command(self, words, folder):
        """Add a command a manager runs with the package binaries on the PATH: a binary of that
        name in node_modules/.bin, else the words as typed."""
        line = self._binary_line(words, folder) if _is_plain_name(words[0]) else None
        self.found.append(Found(line or " ".join(words), folder, None))

    def binary(self, words, package, acted_on):
        """Add a package binary as npx finds it: the package's own `bin` (with its install
        scripts), else node_modules/.bin walking up; one the checkout does not hold is not followed."""
        if self.run.own_binary:
            for folder in acted_on or [package]:
                path = _own_binary(self.document(folder) if folder is not None else None, words[0])
                if path is not None:
                    self.scripts(folder, LINKED)
                    self.found.append(self._binary_found(oscalls.posixpath.join(folder, path), words))
                    return
        if _is_plain_name(words[0]):
            line = self._binary_line(words, package or self.run.folder)
            if line is not None:
                self.found.append(Found(line, self.run.folder, None))

    def _binary_line(self, words, folder):
        """`'<folder>/node_modules/.bin/<name>' args` for the nearest such file walking up from the
        folder to the checkout's top; None when there is none."""
        top = self.toplevel(folder) if self.toplevel is not None else None
        current = oscalls.posixpath.normpath(folder)
        while True:
            path = oscalls.posixpath.join(current, BINARIES, words[0])
            try:
                exists = self.files.text(path, self.written) is not None
            except Outside:
                exists = False
            except Unreadable:
                exists = True  # the follower, reading it as a program run by its path, says why not
            if exists:
                return self._binary_found(path, words).line
            if current in ("/", top):
                return None
            current = oscalls.posixpath.dirname(current)

    def _binary_found(self, path, words):
        """The binary run by its path from the folder the line runs in (`node_modules/.bin/x`)."""
        path = oscalls.posixpath.relpath(oscalls.posixpath.normpath(path), oscalls.posixpath.normpath(self.run.folder))
        path = path if "/" in path else "./" + path
        return Found(" ".join([quote(path)] + [quote(w) for w in words[1:]]), self.run.folder, None)

    def document(self, folder):
        """The folder's package.json document; None when absent (or outside every checkout)."""
        if folder not in self._documents:
            text = self.text(oscalls.posixpath.join(folder, MANIFEST))
            document = document_of(text) if text is not None else None
            if text is not None and document is None:
                raise Unjudged("%s cannot be read as JSON" % self._shown_path(folder))
            self._documents[folder] = document
        return self._documents[folder]

    def text(self, path):
        """A file's text; None when absent or outside every checkout; Unjudged when unreadable."""
        try:
            return self.files.text(path, self.written)
        except Outside:
            return None
        except Unreadable as error:
            raise Unjudged("%s: %s" % (_relative(path, self.cwd), error)) from None

    def _shown_path(self, folder):
        return _relative(oscalls.posixpath.join(folder, MANIFEST), self.cwd)


def _own_binary(document, name):
    """The path of the binary `name` in a package's own `bin` (a string names the package's one
    binary after its name), or None."""
    if not isinstance(document, dict):
        return None
    binaries = document.get("bin")
    if isinstance(binaries, str) and isinstance(document.get("name"), str):
        binaries = {document["name"].rsplit("/", 1)[-1]: binaries}
    path = binaries.get(name) if isinstance(binaries, dict) else None
    return path if isinstance(path, str) and path else None


def _is_plain_name(word):
    return bool(word) and "/" not in word and all(c.isalnum() or c in "._-@+" for c in word)


def _relative(path, cwd):
    if cwd and (path + "/").startswith(cwd.rstrip("/") + "/"):
        return oscalls.posixpath.relpath(path, cwd)
    return path

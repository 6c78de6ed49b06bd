"""The library's layout keeps the promises docs/modules.md makes: folders by concern, arrows down only.

Read from the sources, as a reviewer reads them: every import of one of our modules, at the top of
a file or inside a function, is an arrow. No arrows may close a circle, between files or between
the folders they sit in; an import inside a function is a declared seam (`# seam: why`), or it is a
hidden arrow; no module outgrows what a reader can hold.
"""
import ast
import os
import unittest

import support

LIBRARY = os.path.join(support.REPO, "scripts", "peerhooks")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
SEAM_MARK = "# seam:"
TOP_LEVEL_MODULES = {"__init__", "doors", "hookio"}  # the hook contract and the doors, nothing else


def module_files():
    """{dotted name below peerhooks: path}, packages by their __init__.py."""
    found = {}
    for folder, folders, names in os.walk(LIBRARY):
        folders[:] = [name for name in folders if name != "__pycache__"]
        package = os.path.relpath(folder, LIBRARY).replace(os.sep, ".")
        package = "" if package == "." else package
        for name in names:
            if name.endswith(".py"):
                dotted = package if name == "__init__.py" else ".".join(filter(None, [package, name[:-3]]))
                found[dotted] = os.path.join(folder, name)
    return found


class Arrow:
    def __init__(self, source, target, line, lazy, text):
        self.source, self.target, self.line, self.lazy, self.text = source, target, line, lazy, text

    def __repr__(self):
        return "%s:%d -> %s%s" % (self.source, self.line, self.target, " (inside a function)" if self.lazy else "")


def arrows_of(dotted, path, modules):
    """Every import of one of our modules in one file, with whether it sits inside a function."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    lines = source.splitlines()
    tree = ast.parse(source)
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {id(child) for child in ast.walk(node) if child is not node}
    is_package = path.endswith("__init__.py")
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = dotted.split(".") if is_package else dotted.split(".")[:-1]
            base = [part for part in base if part]
            base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
            base = ".".join(base + (node.module.split(".") if node.module else []))
        elif node.module and (node.module == "peerhooks" or node.module.startswith("peerhooks.")):
            base = node.module[len("peerhooks."):] if "." in node.module else ""
        else:
            continue
        text = "\n".join(lines[node.lineno - 1:node.end_lineno])
        for alias in node.names:
            candidate = ".".join(filter(None, [base, alias.name]))
            target = candidate if candidate in modules else base
            if target != dotted:
                found.append(Arrow(dotted, target, node.lineno, id(node) in inside, text))
    return found


def room_of(dotted):
    """The room a module stands in when the house is drawn whole: its top folder, or itself."""
    return dotted.split(".")[0] if dotted else "__init__"


def circles(edges):
    """Strongly connected groups of more than one node (Tarjan), as sorted lists."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {target for targets in edges.values() for target in targets}

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


class LayoutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.modules = module_files()
        cls.arrows = [arrow for dotted, path in sorted(cls.modules.items())
                      for arrow in arrows_of(dotted, path, cls.modules)]

    def test_no_two_files_import_each_other_even_inside_functions(self):
        edges = {}
        for arrow in self.arrows:
            edges.setdefault(arrow.source, set()).add(arrow.target)
        self.assertEqual(circles(edges), [])

    def test_no_two_folders_import_each_other(self):
        edges = {}
        for arrow in self.arrows:
            source, target = room_of(arrow.source), room_of(arrow.target)
            if source != target and target != "__init__":
                edges.setdefault(source, set()).add(target)
        self.assertEqual(circles(edges), [])

    def test_an_import_inside_a_function_is_a_declared_seam(self):
        hidden = [arrow for arrow in self.arrows if arrow.lazy and SEAM_MARK not in arrow.text]
        self.assertEqual(hidden, [], "mark a real seam with `%s why`, or import at the top" % SEAM_MARK)

    def test_the_package_top_holds_only_the_contract_and_the_doors(self):
        top = {dotted for dotted, path in self.modules.items()
               if "." not in dotted and not path.endswith("__init__.py") or dotted == ""}
        self.assertEqual(sorted(top - {""}), sorted(TOP_LEVEL_MODULES - {"__init__"}))

    def test_no_module_is_longer_than_a_reader_can_hold(self):
        long = {}
        for dotted, path in self.modules.items():
            with open(path, encoding="utf-8") as handle:
                count = sum(1 for _ in handle)
            if count > MAX_MODULE_LINES:
                long[dotted] = count
        self.assertEqual(long, {})

    def test_no_function_is_longer_than_a_screen(self):
        long = []
        for dotted, path in self.modules.items():
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = node.end_lineno - node.lineno + 1
                    if length > MAX_FUNCTION_LINES:
                        long.append("%s.%s: %d lines" % (dotted, node.name, length))
        self.assertEqual(long, [])


if __name__ == "__main__":
    unittest.main()

"""A spare child's own copies of the pages a judgement writes, taken before it is asked to judge.

After a fork every page is shared and write-protected; the first write to each costs a fault and
a copy. A judged line writes ~660 of them (the reference counts of the functions, code objects and
constants it runs), and where a fault costs ~4 µs (this VM) that is ~2.7 ms of the line: measured,
a line judged in a forked child took 7.3 ms against 4.7 ms in a fresh process holding the same
modules, and 4.8 ms once the child had touched every object the modules hold. Touching only the
package's and the builtins' objects left twice the faults in the line (180 against 90) and cost
0.1-0.2x more of the floor in bench/run.py, so every loaded module is touched, and the server loads
few (peerhooks.warm.preload). The touching is the spare's own time, while it waits; it goes a slice
at a time and looks between slices whether its line has come, and then stops.
"""
SLICE_OBJECTS = 2000  # ~0.5 ms of touching between two looks at the control pipe

_FUNCTION = type(lambda: None)


def held_objects(modules):
    """Every object a module holds at its top level, with each function's code, constants and
    defaults, one level into each class: what a judgement's calls write the counts of."""
    for module in modules:
        for value in list(getattr(module, "__dict__", {}).values()):
            yield value
            if type(value) is _FUNCTION:
                yield from _parts_of(value)
            elif isinstance(value, type):
                for member in list(vars(value).values()):
                    yield member
                    if type(member) is _FUNCTION:
                        yield from _parts_of(member)


def _parts_of(function):
    yield function.__code__
    yield function.__code__.co_consts
    yield function.__defaults__


def touch(objects, stop):
    """Write each object's reference count (once up, once down), checking stop() after every
    SLICE_OBJECTS; False when stop() said to stop first."""
    held = []
    for item in objects:
        held.append(item)
        if len(held) >= SLICE_OBJECTS:
            held.clear()
            if stop():
                return False
    return True

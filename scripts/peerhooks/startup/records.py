"""Records: tuples with named fields, as collections.namedtuple makes them, for a fraction of the cost.

Every hook builds a few record types at start-up. Under `python3 -S` importing `collections` costs
~2.5 ms (a third of the interpreter's own start-up; typing.NamedTuple, which builds the same tuples,
~10 ms), and each namedtuple type ~0.1 ms more. A record here is a tuple subclass whose fields are
properties, with the namedtuple methods peerhooks uses: keyword construction, defaults, `_replace`,
`_asdict` (peers.py --json), `_fields`, and the same repr; equality, hashing and unpacking are the
tuple's.
"""
import sys

try:  # fields read in C, as namedtuple's are: twice as fast as a Python getter in hot loops
    from _operator import itemgetter  # built into CPython, where importing `operator` costs ~0.3 ms
except ImportError:
    from operator import itemgetter


def record(name, fields, defaults=(), doc=None):
    """A record type called `name` with `fields` (a list, or one string of names); the last
    len(defaults) fields have those defaults."""
    fields = tuple(fields.split() if isinstance(fields, str) else fields)
    first_default = len(fields) - len(defaults)

    def __new__(cls, *args, **kwargs):
        if not kwargs and len(args) == len(fields):  # the common calls: every field, in order...
            return tuple.__new__(cls, args)
        if not args and len(kwargs) == len(fields) and all(field in kwargs for field in fields):
            return tuple.__new__(cls, [kwargs[field] for field in fields])  # ...or every one by name
        if len(args) > len(fields):
            raise TypeError("%s() takes %d arguments, %d given" % (name, len(fields), len(args)))
        values = list(args)
        for index in range(len(args), len(fields)):
            field = fields[index]
            if field in kwargs:
                values.append(kwargs.pop(field))
            elif index >= first_default:
                values.append(defaults[index - first_default])
            else:
                raise TypeError("%s() missing argument %r" % (name, field))
        if kwargs:
            raise TypeError("%s() got unexpected arguments: %s" % (name, ", ".join(sorted(kwargs))))
        return tuple.__new__(cls, values)

    def _replace(self, **changes):
        values = [changes.pop(field, value) for field, value in zip(fields, self)]
        if changes:
            raise ValueError("Got unexpected field names: %r" % list(changes))
        return tuple.__new__(type(self), values)

    def _asdict(self):
        return dict(zip(fields, self))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % pair for pair in zip(fields, self)))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {"__slots__": (), "__doc__": doc, "_fields": fields, "__new__": __new__,
                 "_replace": _replace, "_asdict": _asdict, "__repr__": __repr__,
                 "__getnewargs__": __getnewargs__,
                 "_field_defaults": dict(zip(fields[first_default:], defaults)),
                 "__module__": sys._getframe(1).f_globals.get("__name__", __name__)}
    for index, field in enumerate(fields):
        namespace[field] = property(itemgetter(index))
    return type(name, (tuple,), namespace)

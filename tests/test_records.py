"""records.record behaves as collections.namedtuple wherever peerhooks relies on it."""
import collections
import unittest

import support  # noqa: F401  (puts scripts/ on sys.path)
from peerhooks.startup.records import record

Point = record("Point", "x y label", defaults=(None,), doc="A point.")
Reference = collections.namedtuple("Point", "x y label", defaults=(None,))


class BehavesAsNamedtuple(unittest.TestCase):
    def test_construction_by_position_keyword_and_default_gives_the_same_tuple(self):
        for args, kwargs in (((1, 2, "a"), {}), ((1, 2), {}), ((1,), {"y": 2}), ((), {"y": 2, "x": 1, "label": "b"})):
            made, expected = Point(*args, **kwargs), Reference(*args, **kwargs)
            self.assertEqual(made, expected)
            self.assertEqual((made.x, made.y, made.label), (expected.x, expected.y, expected.label))
            self.assertEqual(repr(made), repr(expected))
            self.assertEqual(made._asdict(), expected._asdict())
            self.assertEqual(hash(made), hash(expected))

    def test_missing_extra_or_unknown_arguments_are_type_errors(self):
        for args, kwargs in (((), {}), ((1, 2, 3, 4), {}), ((1, 2), {"z": 3}), ((1, 2), {"x": 3})):
            with self.assertRaises(TypeError):
                Reference(*args, **kwargs)
            with self.assertRaises(TypeError):
                Point(*args, **kwargs)

    def test_replace_unpacking_fields_and_immutability(self):
        point = Point(1, 2)
        self.assertEqual(point._replace(y=5), Point(1, 5))
        self.assertIs(type(point._replace(y=5)), Point)
        with self.assertRaises(ValueError):
            point._replace(z=1)
        x, y, label = point
        self.assertEqual((x, y, label), (1, 2, None))
        self.assertEqual(Point._fields, Reference._fields)
        self.assertEqual(Point._field_defaults, Reference._field_defaults)
        with self.assertRaises(AttributeError):
            point.x = 3
        with self.assertRaises(AttributeError):
            point.other = 3
        self.assertEqual(Point.__doc__, "A point.")
        self.assertEqual(Point.__module__, __name__)

    def test_a_subclass_adds_properties_and_keeps_the_record(self):
        class Named(Point):
            __slots__ = ()

            @property
            def twice(self):
                return self.x * 2

        named = Named(3, 4)
        self.assertEqual((named.twice, named._replace(x=1).twice, repr(named)), (6, 2, "Named(x=3, y=4, label=None)"))


if __name__ == "__main__":
    unittest.main()

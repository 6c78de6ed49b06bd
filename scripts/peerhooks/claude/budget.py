"""How much work one run of a hook may do before it stops and leaves the rest to the next run.

A budget is counted in units of the work itself (bytes of history read, transcripts opened), measured
on the benchmark machine to fit well inside the client's timeout, so that a run does the same work
however loaded the machine is. The clock is a second guard only, for a machine much slower than that
one: past its deadline a budget is spent whatever units are left. Work that stops on a spent budget
saves how far it got and says in one line what it did not reach.
"""
import time


class Budget:
    """Units left and a deadline (`clock()` seconds); `clock` is a parameter so tests are exact."""

    __slots__ = ("left", "deadline", "clock")

    def __init__(self, units, seconds, clock=time.monotonic):
        self.left = units
        self.clock = clock
        self.deadline = clock() + seconds

    def spend(self, units):
        self.left -= units

    def spent(self):
        """No units left, or past the deadline."""
        return self.left <= 0 or self.clock() >= self.deadline

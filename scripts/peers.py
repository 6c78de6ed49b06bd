#!/usr/bin/env python3
"""Who else is live in this checkout, what each is working on, and what the last session did.

Sessions sharing a checkout behave like strangers: of 297 sessions in 30 days (a median of 8 alive
at once, up to 10 in one checkout) only 7 ever messaged another. This prints, at SessionStart
(`--hook`) or by hand (`--help` lists the modes), each live peer's intent (its substantive prompts),
the files it is editing (its transcript tail), and the last finished session in this checkout.
The work is in peerhooks.hook_peers; a script is compiled on every run, a module is not.
"""
import os
import sys

NAME = "peers"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from peerhooks import pycache

        pycache.install()  # our modules from their bytecode, at half the import system's cost
        from peerhooks import hook_peers, hookio
    except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
        sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
        return 0
    return hookio.serve(NAME, hook_peers.run, argv, read_stdin=hook_peers.reads_payload(argv),
                        end_process=__name__ == "__main__")


if __name__ == "__main__":
    raise SystemExit(main())

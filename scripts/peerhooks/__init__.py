"""peerhooks: read what Claude Code writes about its sessions, for hooks that let peers see each other.

One module per concern. Front doors (the scripts beside this package) read the payload, call into
here, print and exit. Nothing in this package exits the process or writes to stdout by itself.
"""

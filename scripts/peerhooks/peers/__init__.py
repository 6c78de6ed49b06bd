"""peers.py's hook and its by-hand modes: who else is live in this checkout, what each is doing, what
the last session did, the roster memory_delta.py keeps, and `--stats`."""

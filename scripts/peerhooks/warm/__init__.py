"""The warm guard: a judged guard line answered by a process that already holds the library.

Each judged `git …` line used to load ~32 of our modules before it could judge anything: ~5 ms
of unmarshalling and module bodies, more than the judgement itself, on every shell command a
session runs. A server (one per user, install and interpreter) keeps them loaded and forks one
child per line; the front door hands it the line and prints its answer. Whenever the server is
missing, stale, busy or slow, the front door judges the line itself, as it always did, and (if none
is running) starts one for the next line. docs/guard.md ("The warm guard") says how it is kept
private and how to turn it off.

- place: where this install's server lives, and whether that folder is private (pure, and the
  folder checks);
- wire: the request and the answer as bytes (pure);
- client: the front door's side (built-in modules only: it runs before the library loads);
- server: the loop, the fork, the child that answers as the hook process would have.
"""

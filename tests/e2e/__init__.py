"""The end-to-end tests: the real clients against local stand-ins for their APIs (see README.md,
docs/testing.md). Importing the package guards the run (tests/leftovers.py): nothing they start,
tmux servers and live sessions included, outlives it."""
import leftovers

leftovers.start()

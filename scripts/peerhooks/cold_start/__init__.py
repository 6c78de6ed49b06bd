"""cold_start.py's hook: what changed in a workspace since this agent last started here (the quiet
path first, the comparison behind one seam), and `--full` by hand."""

"""memory_delta.py's hook: on each prompt, the memory and rule files peers changed and the peers that
joined or ended since this session last heard (the quiet path first, the slow path behind seams)."""

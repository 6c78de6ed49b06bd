"""memory_delta"""

"""Opening a compiled package: safe paths, JSONL reading, the columnar row index."""

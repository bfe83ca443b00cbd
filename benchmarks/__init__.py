"""Benchmarks of aa-review; each module runs with ``python -m benchmarks.<name>``."""

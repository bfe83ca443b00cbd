"""Qt tests; skipped where PySide6 is not installed (the core suite runs without it)."""

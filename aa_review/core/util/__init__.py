"""Small utilities every layer of the core may use: errors, printable text, atomic writes,
worker processes. They import nothing else of aa-review."""

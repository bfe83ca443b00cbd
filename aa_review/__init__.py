"""aa-review: review, audit and sign off Experience Compiler packages."""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]

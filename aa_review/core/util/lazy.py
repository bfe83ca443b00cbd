"""Names of a package imported on first use (PEP 562), for packages whose submodules a
worker process imports alone: importing the package must not import them all."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str,
    where: Mapping[str, str],
    namespace: dict[str, Any],
    first: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose public names ``where``
    maps to the submodule defining each. A name is imported when first asked for and
    kept in ``namespace`` (the package's globals), so it is looked up once.
    ``first``: a submodule to import before another (``{"_registry": "_checks"}``: the
    registry is empty until the checks are imported)."""
    before = first or {}

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if module in before:
            importlib.import_module(f"{package}.{before[module]}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(where)

    return getattr_, dir_

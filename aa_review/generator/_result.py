"""What :func:`generate_package` returns: the package folder and the defects put into it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["GeneratedPackage", "InjectedDefect"]


@dataclass(frozen=True)
class InjectedDefect:
    """One injected defect and where it is.

    Attributes
    ----------
    name : str
        A name from ``DEFECTS``.
    file : str or None
        Package-relative path of the file that carries the defect.
    line : int or None
        1-based line number in ``file`` (JSONL files).
    row_id : str or None
        Id of the affected row, as stored (or as it was before removal).
    evidence_id : str or None
        Catalog id involved.
    ref : str or None
        Evidence ref involved.
    detail : str
        A sentence saying what was changed, and what else had to change with it.
    extra : dict
        Further locations (other files, outside paths, the column of a CSV...).
    rows : list of dict
        Every row the defect was put into, as ``{"file", "line", "row_id"}`` sorted by
        file and line, when it was asked for in several rows (``defect_rows``); empty
        otherwise (a one-row defect's row is ``file``, ``line`` and ``row_id``).
    """

    name: str
    file: str | None = None
    line: int | None = None
    row_id: str | None = None
    evidence_id: str | None = None
    ref: str | None = None
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class GeneratedPackage:
    """A generated package folder.

    Attributes
    ----------
    root : Path
        The package root (its directory name is the package id).
    package_id : str
        The package id.
    row_count : int
        Training rows across the 23 row files, as the manifest counts them.
    rows_by_file : dict
        Row count per training-row file name.
    version : str
        ``"v0.2"`` or ``"v0.1"``.
    seed : int
        The seed it was generated from.
    defects : list of InjectedDefect
        Defects injected, in the order asked for.
    """

    root: Path
    package_id: str
    row_count: int
    rows_by_file: dict[str, int]
    version: str
    seed: int
    defects: list[InjectedDefect] = field(default_factory=list)

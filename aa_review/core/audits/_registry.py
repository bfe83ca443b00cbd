"""The check registry: each check is a pure function with a stable code list."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aa_review.core.audits._codes import CODES
from aa_review.core.audits._files import Wants

if TYPE_CHECKING:
    from aa_review.core.audits._context import AuditContext
    from aa_review.core.findings import Finding
    from aa_review.core.package.model import Package

__all__ = ["Check", "CHECKS", "register", "resolve_selection", "UnknownCheckError"]

CheckFn = Callable[["Package", "AuditContext"], Iterable["Finding"]]


@dataclass(frozen=True)
class Check:
    """A registered check: name, title, description and the codes it may report.

    ``hashes``: it reads the file hashes. ``reads``: files whose bytes it counts (see
    :class:`~aa_review.core.audits._files.Wants`), taken while those files are hashed
    when the audit hashes anyway. The engine runs such checks last, while hashing finishes.
    """

    name: str
    title: str
    description: str
    codes: tuple[str, ...]
    func: CheckFn
    hashes: bool = False
    reads: Mapping[str, Wants] = field(default_factory=dict)


CHECKS: dict[str, Check] = {}


class UnknownCheckError(ValueError):
    """A ``--check`` selection names no check, code or code family."""


def register(
    name: str,
    title: str,
    codes: Iterable[str],
    *,
    hashes: bool = False,
    reads: Mapping[str, Wants] | None = None,
) -> Callable[[CheckFn], CheckFn]:
    """Register ``func`` as check ``name``; its docstring is the description."""
    codes = tuple(codes)
    unknown = [c for c in codes if c not in CODES]
    if unknown:
        raise ValueError(f"check {name}: undocumented codes {unknown}")

    def deco(func: CheckFn) -> CheckFn:
        doc = " ".join((func.__doc__ or "").split())
        CHECKS[name] = Check(name, title, doc, codes, func, hashes, dict(reads or {}))
        return func

    return deco


def resolve_selection(selection: Iterable[str] | None) -> tuple[list[Check], frozenset[str]]:
    """Checks to run and codes to report for a selection of check names, codes or families.

    ``None`` selects everything. ``"hash"`` selects every ``hash.*`` code,
    ``"hash.changed"`` that code alone, ``"links"`` every code of that check.
    """
    if selection is None:
        return list(CHECKS.values()), frozenset(c for ch in CHECKS.values() for c in ch.codes)
    codes: set[str] = set()
    for item in selection:
        item = item.strip()
        matched: set[str] = set()
        if item in CHECKS:
            matched.update(CHECKS[item].codes)
        for ch in CHECKS.values():
            matched.update(c for c in ch.codes if c == item or c.startswith(item + "."))
        if not matched:
            raise UnknownCheckError(
                f"unknown check or code {item!r}; known checks: {', '.join(CHECKS)} "
                "(or any code listed in docs/findings.md, or a code family such as 'hash')"
            )
        codes |= matched
    checks = [ch for ch in CHECKS.values() if codes.intersection(ch.codes)]
    return checks, frozenset(codes)

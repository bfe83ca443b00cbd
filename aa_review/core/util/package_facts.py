"""PackageFacts: what is known of one open package, one value the session and the dossier share.

It lives in the lowest layer because both the review session (``core.session``, which
makes it) and the readiness dossier (``core.dossier``, which reads it) need it, and
neither may import the other's way up; it imports nothing of aa-review.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["PackageFacts"]


@dataclass(frozen=True)
class PackageFacts:
    """What a caller already knows about one compiled package it holds open.

    The one definition: the review session makes one value per package it opens
    (``ReviewSession.facts``, replaced when its digest or audit arrives) and hands
    the same value to the dossier, which reads its digest and hidden citations from
    it instead of hashing or re-reading the package.

    A new value stands for a new version of the package: a caller replaces its
    facts whenever the package changes on disk or is opened again, and a digest
    the workspace computed for one value is never reused for another.

    Attributes
    ----------
    package_id : str
        The package id (its folder name), as ``evidence.source_packages`` binds it.
    root : Path
        The package folder.
    digest : str or None
        ``package_digest(root)`` when known (an audit computes it, or the session in
        the background); None: the workspace hashes the folder once for this value.
    hidden_rows : tuple of str or None
        Ids of the rows citing hidden evidence (``file:line`` for a row without one),
        sorted, when a complete audit found them (empty: none do); None: the
        contamination hook is asked. The G9 answer.
    package : object, optional
        The opened package, when the caller holds one: fingerprints and the diff
        since binding read its index instead of opening the folder again. Not
        compared.
    version : int
        The review session's package version these facts describe (0 outside a
        session).
    rows_citing_hidden : numpy.ndarray or None
        Index positions of the rows citing hidden evidence, refs included
        (:func:`aa_review.core.audits.contamination_positions`, the one definition G9
        and the ``link.hidden_cited`` finding share); None until an audit that ran the
        link check tells. Not compared.
    """

    package_id: str
    root: Path
    digest: str | None = None
    hidden_rows: tuple[str, ...] | None = None
    package: Any = field(default=None, compare=False, repr=False)
    version: int = 0
    rows_citing_hidden: Any = field(default=None, compare=False, repr=False)

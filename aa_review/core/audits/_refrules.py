"""Rules for one ref: safe, normalized, visible, present. Refs are never opened here.

Imported by worker processes: the package loader (numpy, pydantic) is imported only
if a row names a ref the parent did not classify in advance.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.core.package.derive import evidence_id, normalize_ref, visibility
from aa_review.core.util.errors import UnsafeRefError

if TYPE_CHECKING:
    from aa_review.core.package.safepath import PackageRoot

__all__ = ["RefRules", "classify_ref", "ref_facts", "EXEMPT_PREFIXES", "RefFacts", "UNSAFE"]

# Source artifact refs under these are not required to exist (validator rule 2).
EXEMPT_PREFIXES = ("grading/", "feedback/", "signals/", "task/", "rubric/")
UNSAFE = ("ref.absolute", "ref.escape", "ref.symlink_out")

# (code, key path, ref, evidence id, message)
Hit = tuple[str, str | None, str | None, str | None, str]
RefFacts = tuple["str | None", str, bool]  # (code, reason, exists)


def classify_ref(safe: PackageRoot, ref: str) -> tuple[str | None, str]:
    """``(code, reason)`` for an unsafe or odd ref, ``(None, "")`` when it is fine.

    Only the ref text and symlinks on its way are examined; nothing is opened.
    """
    try:
        safe.check(ref)
    except UnsafeRefError as exc:
        code = "ref.absolute" if exc.reason == "absolute path" else "ref.escape"
        return code, f"{exc.reason}; not opened"
    if safe.is_symlink_out(ref):
        return "ref.symlink_out", "a symlink on its path leads out of the package; not opened"
    if normalize_ref(ref) != ref:
        return "ref.not_normalized", f"the compiler would store it as {normalize_ref(ref)!r}"
    return None, ""


def ref_facts(safe: PackageRoot, ref: str) -> RefFacts:
    """What a worker needs to know about a ref, computed where the package is open."""
    code, why = classify_ref(safe, ref)
    return code, why, code not in UNSAFE and safe.exists(ref)


class RefRules:
    """Per-row ref list checks, cached per list value (rows repeat the same lists)."""

    def __init__(self, root: str, known: dict[str, RefFacts] | None = None) -> None:
        self.root = root
        self.known = dict(known or {})
        self._safe: PackageRoot | None = None
        self._cache: dict[str, tuple[Any, list[Hit], bool]] = {}
        self._one: dict[tuple[str, str], tuple[list[Hit], bool]] = {}
        self._clean: dict[str, set[str]] = {}  # per key: refs with no hit, not hidden

    def facts(self, ref: str) -> RefFacts:
        found = self.known.get(ref)
        if found is None:
            if self._safe is None:
                from aa_review.core.package.safepath import PackageRoot

                self._safe = PackageRoot(Path(self.root))
            found = self.known[ref] = ref_facts(self._safe, ref)
        return found

    def check_list(
        self, key: str, refs: list[Any], on: frozenset[str], same: bool = False
    ) -> tuple[list[Hit], bool]:
        """Hits for one ref list; ``same``: it equals the list this key had last time."""
        cached = self._cache.get(key)
        if cached is not None and (same or cached[0] == refs):
            return cached[1], cached[2]
        hits: list[Hit] = []
        hidden = False
        clean = self._clean.setdefault(key, set())
        try:
            if clean.issuperset(refs):  # the usual case, decided at C speed
                self._cache[key] = (refs, hits, hidden)
                return hits, hidden
        except TypeError:  # an unhashable item (a list or an object): looked at below
            pass
        for i, ref in enumerate(refs):
            if not isinstance(ref, str):
                continue
            one = self._one.get((key, ref))
            if one is None:
                one = self._one[(key, ref)] = self._check_one(key, ref)
                if not one[0] and not one[1]:
                    clean.add(ref)
            for code, _, r, e, msg in one[0]:
                if code in on:
                    hits.append((code, f"{key}[{i}]", r, e, msg))
            hidden = hidden or one[1]
        self._cache[key] = (refs, hits, hidden)
        return hits, hidden

    def _check_one(self, key: str, ref: str) -> tuple[list[Hit], bool]:
        hits: list[Hit] = []
        eid = evidence_id(ref)
        code, why, exists = self.facts(ref)
        if code is not None:
            hits.append((code, None, ref, eid, f"{key} holds {ref!r}: {why}"))
        hidden = visibility(ref) == "hidden_excluded"
        if hidden:
            hits.append(
                (
                    "link.hidden_cited",
                    None,
                    ref,
                    eid,
                    f"{key} cites hidden evaluation material {ref!r}: grader-only "
                    "references must never reach training rows",
                )
            )
        if (
            key == "source_artifact_refs"
            and code is None
            and ":" not in ref
            and not ref.startswith(EXEMPT_PREFIXES)
            and not exists
        ):
            hits.append(
                (
                    "ref.unresolved",
                    None,
                    ref,
                    eid,
                    f"source artifact {ref!r} is not in the package (validator rule 2 "
                    "rejects such rows)",
                )
            )
        return hits, hidden

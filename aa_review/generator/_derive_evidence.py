"""Evidence changes of a derived package: the catalog, evidence files, and citing rows."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aa_review.core.diff._jsonvalue import join_key
from aa_review.core.package import derive
from aa_review.core.package.safepath import PackageRoot

from ._derive_spec import ChangeRecord, ChangeSpec

__all__ = ["EvidenceEdits", "edit_catalog"]

_REF_LISTS = (
    "evidence_refs",
    "source_artifact_refs",
    "source_evaluation_refs",
    "visible_input_refs",
)
# Evidence whose file can change without touching what contracts describe.
_EDITABLE_TYPES = (
    "task_spec",
    "rubric",
    "grader",
    "verifier",
    "feedback",
    "training_signal",
    "review_packet",
    "revision_plan",
    "loop_decision",
    "loop_evidence",
)


class EvidenceEdits:
    """Catalog edits made, and how they rewrite a citing row (``propagate``)."""

    def __init__(self) -> None:
        self.new_hash: dict[str, str] = {}  # ref -> new content hash
        self.new_ref: dict[str, str] = {}  # old ref -> new ref
        self.files: list[str] = []  # evidence files rewritten

    def __bool__(self) -> bool:
        return bool(self.new_hash or self.new_ref)

    def apply(self, row: dict[str, Any]) -> list[str]:
        """Rewrite ``row`` as a re-compile would; the paths whose values changed."""
        paths: list[str] = []
        sch = row.get("source_content_hashes")
        if isinstance(sch, dict):
            for ref, h in self.new_hash.items():
                if ref in sch and sch[ref] != h:
                    sch[ref] = h
                    paths.append(join_key("source_content_hashes", ref))
        for name in _REF_LISTS:
            refs = row.get(name)
            if isinstance(refs, list):
                for i, r in enumerate(refs):
                    if isinstance(r, str) and r in self.new_ref:
                        refs[i] = self.new_ref[r]
                        paths.append(f"{name}[{i}]")
        if isinstance(sch, dict) and any(r in sch for r in self.new_ref):
            renamed = {self.new_ref.get(k, k): v for k, v in sch.items()}
            for old, new in self.new_ref.items():
                if old in sch:
                    paths += [
                        join_key("source_content_hashes", old),
                        join_key("source_content_hashes", new),
                    ]
            row["source_content_hashes"] = renamed
        return paths


def _rehash_file(
    safe: PackageRoot, ref: str, n: int, write: Callable[[Path, bytes], None]
) -> str | None:
    """Change an evidence file (a key added to a JSON object, a line to text); its new hash."""
    try:
        path = safe.resolve(ref)
    except Exception:  # noqa: BLE001 - a ref that cannot be resolved is left unchanged
        return None
    if not path.is_file() or path.is_symlink() or path.stat().st_size > derive.CONTENT_HASH_LIMIT:
        return None
    data = path.read_bytes()
    if ref.endswith(".json"):
        try:
            obj = json.loads(data)
        except ValueError:
            return None
        if not isinstance(obj, dict):
            return None
        obj["derived_revision"] = n
        new = (json.dumps(obj, indent=2) + "\n").encode()
    elif ref.endswith((".md", ".txt")):
        new = data + f"\nDerived revision {n}.\n".encode()
    else:
        return None
    write(path, new)
    return derive.content_hash_bytes(new)


def _sanitized(ref: str) -> str:
    head, _, name = ref.rpartition("/")
    return f"{head}/sanitized_{name}" if head else f"sanitized_{name}"


def _new_entries(safe: PackageRoot, catalog: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Catalog entries for package files the catalog lacks (source-package files first)."""
    have = {e.get("ref") for e in catalog}
    out: list[dict[str, Any]] = []
    for top in ("attempts", "task", "grading", "loops", "input"):
        base = safe.path / top
        if not base.is_dir():
            continue
        for p in sorted(base.rglob("*")):
            ref = p.relative_to(safe.path).as_posix()
            if len(out) >= n:
                return out
            if p.is_file() and not p.is_symlink() and ref not in have:
                e = {
                    "evidence_id": derive.evidence_id(ref),
                    "ref": ref,
                    "evidence_type": derive.evidence_type(ref),
                    "visibility": derive.visibility(ref),
                    "resolves": True,
                    "content_hash": derive.content_hash_bytes(p.read_bytes())
                    if p.stat().st_size <= derive.CONTENT_HASH_LIMIT
                    else None,
                    "confidence": 1.0,
                }
                out.append(e)
                have.add(ref)
    return out


def edit_catalog(
    safe: PackageRoot,
    catalog: list[dict[str, Any]],
    spec: ChangeSpec,
    rng: random.Random,
    rec: ChangeRecord,
    write: Callable[[Path, bytes], None],
) -> tuple[list[dict[str, Any]], EvidenceEdits]:
    """The derived catalog; changes are recorded in ``rec``, disjoint per entry."""
    edits = EvidenceEdits()
    catalog = [dict(e) for e in catalog]
    free = list(range(len(catalog)))
    rng.shuffle(free)

    def take(n: int, ok: Callable[[dict[str, Any]], bool]) -> list[int]:
        picked = [i for i in free if ok(catalog[i])][:n]
        for i in picked:
            free.remove(i)
        return sorted(picked)

    editable = [
        i
        for i in free
        if catalog[i].get("evidence_type") in _EDITABLE_TYPES and catalog[i].get("content_hash")
    ]
    done = 0
    for i in editable:
        if done >= spec.evidence_rehashed:
            break
        e = catalog[i]
        new_hash = _rehash_file(safe, str(e["ref"]), done + 1, write)
        if new_hash is None or new_hash == e.get("content_hash"):
            continue
        free.remove(i)
        e["content_hash"] = new_hash
        edits.new_hash[str(e["ref"])] = new_hash
        edits.files.append(str(e["ref"]))
        rec.evidence_rehashed.append(str(e["evidence_id"]))
        done += 1
    for i in take(spec.evidence_hidden, lambda e: e.get("visibility") != "hidden_excluded"):
        catalog[i]["visibility"] = "hidden_excluded"
        rec.evidence_hidden.append(str(catalog[i]["evidence_id"]))
    for i in take(spec.evidence_ref_rewritten, lambda e: isinstance(e.get("ref"), str)):
        old = str(catalog[i]["ref"])
        catalog[i]["ref"] = _sanitized(old)
        edits.new_ref[old] = catalog[i]["ref"]
        rec.evidence_ref_rewritten[str(catalog[i]["evidence_id"])] = (old, catalog[i]["ref"])
    gone = set(take(spec.evidence_removed, lambda e: True))
    rec.evidence_removed += [str(catalog[i]["evidence_id"]) for i in sorted(gone)]
    catalog = [e for i, e in enumerate(catalog) if i not in gone]
    added = _new_entries(safe, catalog, spec.evidence_added)
    catalog += added
    rec.evidence_added += [e["evidence_id"] for e in added]
    if not spec.propagate:
        edits.new_hash.clear()
        edits.new_ref.clear()
    return catalog, edits

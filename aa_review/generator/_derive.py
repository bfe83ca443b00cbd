"""derive_package: a copy of a package with recorded changes, for tests of the diff."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from aa_review.core.package.jsonstream import ObjectStream
from aa_review.core.package.layout import EC_DIR, ROW_FILES
from aa_review.core.package.safepath import PackageRoot

from ._copies import copy_pairs
from ._derive_contracts import edit_contracts
from ._derive_evidence import EvidenceEdits, edit_catalog
from ._derive_rows import plan_rows, rewrite_rows
from ._derive_spec import ChangeRecord, ChangeSpec, DerivedPackage
from ._jsonfast import dumps_line
from ._package import _prepare_root

__all__ = ["derive_package"]

MAP = f"{EC_DIR}/source_evidence_map.json"
MANIFEST = f"{EC_DIR}/compiler_manifest.json"
QUALITY = f"{EC_DIR}/quality_report.json"
INDEX = "artifacts_index.json"


class _Tree:
    """The derived folder: files are replaced, never written in place (they may be links)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.safe = PackageRoot(root)
        self.rewritten: dict[str, None] = {}

    def read(self, rel: str) -> bytes | None:
        p = self.safe.resolve(rel)
        return p.read_bytes() if p.is_file() else None

    def write(self, path: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        self.rewritten[path.relative_to(self.root).as_posix()] = None

    def write_rel(self, rel: str, data: bytes) -> None:
        self.write(self.safe.resolve(rel), data)


def _copy_tree(src: Path, dst: Path, link: bool) -> None:
    def copy(a: str, b: str) -> None:
        if link:
            try:
                os.link(a, b)
                return
            except OSError:
                pass
        shutil.copy2(a, b)

    shutil.copytree(src, dst, symlinks=True, copy_function=copy, dirs_exist_ok=True)


def _link(
    file: str, row: dict[str, Any], task_id: str | None, visible: set[str], inferred: set[str]
) -> dict[str, Any]:
    """A row's evidence link (format 6), as the compiler writes it."""
    from aa_review.core.package import derive

    ids = row.get("source_evidence_ref_ids") or [
        derive.evidence_id(x) for x in row.get("evidence_refs") or [] if isinstance(x, str)
    ]
    return {
        "row_id": str(row.get("row_id") or row.get("pair_id") or ""),
        "row_file": file,
        "data_type": row.get("data_type"),
        "source_task_id": row.get("source_task_id", task_id),
        "source_trace_id": row.get("source_trace_id"),
        "source_step_ids": row.get("source_step_ids") or [],
        "source_artifact_refs": row.get("source_artifact_refs") or [],
        "evidence_ref_ids": ids,
        "visible_evidence_ref_ids": [i for i in ids if i in visible],
        "inferred_evidence_ref_ids": [i for i in ids if i in inferred],
    }


def _read_map(tree: _Tree) -> tuple[list[tuple[str, Any]], list[dict[str, Any]] | None]:
    """The map's keys in order (catalog and links left out) and its catalog."""
    keys: list[tuple[str, Any]] = []
    catalog = None
    with open(tree.safe.resolve(MAP), "rb") as fh:
        for key, value in ObjectStream(fh, MAP).items(
            frozenset({"evidence_catalog", "row_evidence_links"})
        ):
            if key == "evidence_catalog":
                catalog = list(value) if isinstance(value, Iterator) else value
            elif key == "row_evidence_links":
                keys.append((key, None))
                continue
            keys.append((key, None if key == "evidence_catalog" else value))
    return keys, catalog


def _write_map(
    tree: _Tree,
    keys: list[tuple[str, Any]],
    catalog: list[dict[str, Any]],
    links: list[bytes],
    stats: dict[str, Any],
    orphans: list[str],
) -> None:
    parts: list[str | None] = []  # None: where the links go (bytes, joined below)
    for key, value in keys:
        if key == "evidence_catalog":
            body = ",\n".join("    " + dumps_line(e) for e in catalog)
            parts.append(
                '  "evidence_catalog": [\n' + body + "\n  ]"
                if catalog
                else '  "evidence_catalog": []'
            )
        elif key == "row_evidence_links":
            parts.append(None)
        else:
            value = (
                stats
                if key == "coverage_statistics"
                else orphans
                if key == "orphan_evidence_ref_ids"
                else value
            )
            parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    chunks: list[bytes] = [b"{\n"]
    for i, part in enumerate(parts):
        if i:
            chunks.append(b",\n")
        if part is None:
            chunks.append(
                b'  "row_evidence_links": ['
                + (b"\n    " + b",\n    ".join(links) + b"\n  ]" if links else b"]")
            )
        else:
            chunks.append(part.encode())
    chunks.append(b"\n}\n")
    tree.write_rel(MAP, b"".join(chunks))


def _update_json(tree: _Tree, rel: str, updates: dict[str, Any]) -> None:
    raw = tree.read(rel)
    if raw is None:
        return
    doc = json.loads(raw)
    if not isinstance(doc, dict):
        return
    new = {**doc, **{k: v for k, v in updates.items() if k in doc}}
    if new != doc:
        tree.write_rel(rel, (json.dumps(new, indent=2) + "\n").encode())


def _update_index(tree: _Tree) -> None:
    raw = tree.read(INDEX)
    if raw is None or not tree.rewritten:
        return
    entries = json.loads(raw)
    if not isinstance(entries, list):
        return
    for e in entries:
        rel = e.get("package_relative_path") if isinstance(e, dict) else None
        if rel in tree.rewritten:
            data = tree.read(rel) or b""
            e["size_bytes"] = len(data)
            e["content_hash"] = hashlib.sha256(data).hexdigest()
    tree.write_rel(
        INDEX, ("[\n" + ",\n".join("  " + dumps_line(e) for e in entries) + "\n]\n").encode()
    )


def derive_package(
    source: Path,
    out_dir: Path,
    changes: ChangeSpec = ChangeSpec(),
    *,
    seed: int = 0,
    package_id: str | None = None,
    link_unchanged: bool = False,
) -> DerivedPackage:
    """Copy the package at ``source`` into ``out_dir`` and make ``changes`` to the copy.

    Parameters
    ----------
    source : Path
        A package folder (generated packages are the intended input).
    out_dir : Path
        Folder receiving the derived package (not the source's own folder).
    changes : ChangeSpec
        What to change; rows and evidence items are chosen from ``seed``.
    package_id : str, optional
        Folder name of the copy; by default the source's (a package id is its
        folder's name, so the copy keeps its identity).
    link_unchanged : bool
        Hard-link files the changes leave alone instead of copying them (for large
        benchmark packages); changed files are always replaced, never written through.

    Returns
    -------
    DerivedPackage
        Its root and the record of every change made (``changes``).

    Besides the row files, their byte-identical copies (``tdo/`` and the format's
    copies) are rewritten; the evidence map's catalog, links, coverage statistics and
    orphan list, the compiler manifest's and quality report's row and link counts,
    and ``artifacts_index.json`` sizes and hashes follow. Files derived from rows
    (process supervision, rollouts...) are left as they were.
    """
    from aa_review.core.package.loader import find_root

    src = find_root(Path(source))
    pid = package_id or src.name
    root = Path(out_dir) / pid
    if root.resolve() == src.resolve() or src.resolve() in root.resolve().parents:
        raise ValueError("the derived package must go to a folder outside its source")
    _prepare_root(root)
    _copy_tree(src, root, link_unchanged)
    tree = _Tree(root)
    rng = random.Random(seed)
    rec = ChangeRecord()
    manifest = json.loads(tree.read(MANIFEST) or b"{}")
    task_id = manifest.get("source_task_id") if isinstance(manifest, dict) else None
    keys, catalog = _read_map(tree) if tree.read(MAP) is not None else ([], None)
    wants_evidence = any(
        (
            changes.evidence_rehashed,
            changes.evidence_hidden,
            changes.evidence_ref_rewritten,
            changes.evidence_added,
            changes.evidence_removed,
        )
    )
    if wants_evidence and catalog is None:
        raise ValueError("evidence changes need a v0.2 package (its map has the catalog)")
    new_catalog, edits = (
        edit_catalog(tree.safe, catalog or [], changes, rng, rec, tree.write)
        if catalog is not None
        else ([], None)
    )
    plan = plan_rows(root, changes, rng, tree.read)
    rebuild_map = catalog is not None and (
        new_catalog != catalog
        or any((plan.remove, plan.change, plan.move_end, plan.to_other, plan.add))
    )
    visible = {e["evidence_id"] for e in new_catalog if e.get("visibility") == "visible"}
    inferred = {e["evidence_id"] for e in new_catalog if e.get("visibility") == "inferred"}
    links: list[bytes] = []
    by_file: dict[str, int] = {}
    by_type: dict[str, int] = {}

    def summarize(name: str, row: dict[str, Any]) -> bytes:
        t = row.get("data_type")
        if isinstance(t, str):
            by_type[t] = by_type.get(t, 0) + 1
        return dumps_line(_link(name, row, task_id, visible, inferred)).encode()

    for f, rows, touched in rewrite_rows(
        plan,
        changes,
        edits or EvidenceEdits(),
        rec,
        tree.read,
        task_id,
        summarize if rebuild_map else None,
    ):
        rel, _ = ROW_FILES[f]
        by_file[rel.rsplit("/", 1)[1]] = len(rows)
        if touched:
            data = b"".join(r.line + b"\n" for r in rows)
            tree.write_rel(rel, data)
            for dst, s in copy_pairs():
                if s == rel and tree.safe.resolve(dst).is_file():
                    tree.write_rel(dst, data)
        links += [r.value for r in rows if r.value is not None]
    if rebuild_map:
        _finish_map(tree, keys, new_catalog, links, by_file, by_type)
    rec.contract_edits += edit_contracts(tree, changes.contract_edits)
    _update_index(tree)
    return DerivedPackage(
        root=root,
        source=src,
        package_id=pid,
        changes=rec,
        rows_by_file=by_file,
        rewritten=list(tree.rewritten),
    )


def _finish_map(
    tree: _Tree,
    keys: list[tuple[str, Any]],
    catalog: list[dict[str, Any]],
    links: list[bytes],
    by_file: dict[str, int],
    by_type: dict[str, int],
) -> None:
    ids_in_catalog = {e["evidence_id"] for e in catalog}
    orphans: dict[str, None] = {}
    with_ids = 0
    for raw in links:
        ids = orjson.loads(raw)["evidence_ref_ids"]
        with_ids += 1 if ids else 0
        for i in ids:
            if i not in ids_in_catalog:
                orphans[i] = None
    resolved = sum(1 for e in catalog if e.get("resolves"))
    stats = {
        "evidence_ref_count": len(catalog),
        "resolved_evidence_ref_count": resolved,
        "unresolved_evidence_ref_count": len(catalog) - resolved,
        "row_link_count": len(links),
        "row_count_with_evidence_ids": with_ids,
        "orphan_evidence_id_count": len(orphans),
    }
    _write_map(tree, keys, catalog, links, stats, list(orphans))
    manifest = json.loads(tree.read(MANIFEST) or b"{}")
    claimed = manifest.get("rows_by_type") if isinstance(manifest, dict) else None
    rows_by_type = {t: by_type.get(t, 0) for t in claimed or {}}
    rows_by_type.update({t: n for t, n in by_type.items() if t not in rows_by_type})
    _update_json(
        tree,
        MANIFEST,
        {
            "training_row_counts_by_file": dict(sorted(by_file.items())),
            "source_evidence_ref_count": len(catalog),
            "source_evidence_row_link_count": len(links),
            "rows_by_type": rows_by_type,
        },
    )
    _update_json(
        tree,
        QUALITY,
        {
            "training_row_counts_by_file": dict(sorted(by_file.items())),
            "source_evidence_map_coverage": stats,
        },
    )

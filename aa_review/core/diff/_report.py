"""A diff as one JSON document (``aa-review diff --json``) and as text for a terminal."""

from __future__ import annotations

import json
from typing import Any

from aa_review.core.diff._fingerprint import EvidenceFacts
from aa_review.core.diff._model import LEVELS, PackageDiff, RowList

__all__ = ["to_json", "to_text", "DIFF_SCHEMA_ID"]

DIFF_SCHEMA_ID = "urn:aa-review:schema:diff-report:v1"


def _rows(rl: RowList) -> list[dict[str, Any]]:
    return [
        {"row_id": r.row_id, "file": r.file, "line": r.line, "data_type": r.data_type} for r in rl
    ]


def _evidence(e: EvidenceFacts | None) -> dict[str, Any] | None:
    return None if e is None else e._asdict()


def to_json(
    d: PackageDiff,
    *,
    fail_on: str = LEVELS[0],
    tool: str = "aa-review",
    old_path: str | None = None,
    new_path: str | None = None,
) -> dict[str, Any]:
    """The document ``aa-review diff --json`` prints (schema ``diff_report.schema.json``)."""
    r = d.rows
    levels = d.levels()
    ev_counts = dict.fromkeys(("added", "removed", "changed", "visibility"), 0)
    for e in d.evidence:
        ev_counts[e.kind] += 1
    doc: dict[str, Any] = {
        "tool": tool,
        "kind": "package_diff",
        "old": {
            **d.old,
            "path": old_path,
            "source": "fingerprint" if d.old_is_fingerprint else "package",
        },
        "new": {**d.new, "path": new_path, "source": "package"},
        "result": {
            "changed": d.highest() is not None,
            "highest": d.highest(),
            "levels": levels,
            "fail_on": fail_on,
            "fails": d.changed_at(fail_on),
        },
        "version_change": None
        if d.version_change is None
        else {
            "old": d.version_change[0],
            "new": d.version_change[1],
            "compared": ["identity", "evidence by ref", "counts", "contracts"],
        },
        "identity": {k: {"old": a, "new": b} for k, (a, b) in d.identity_changes.items()},
        "rows": {
            "compared": r.compared,
            "reason": r.reason,
            "counts": {
                "added": len(r.added),
                "removed": len(r.removed),
                "changed": len(r.changed),
                "same_id_new_content": len(r.same_id_new_content),
                "moved": len(r.moved),
                "reformatted": len(r.reformatted),
                "shifted": sum(r.shifted.values()),
                "unchanged": r.unchanged,
            },
            "changed_fields": r.changed_fields(),
            "added": _rows(r.added),
            "removed": _rows(r.removed),
            "changed": [
                {
                    "row_id": c.row_id,
                    "data_type": c.data_type,
                    "old": {"file": c.old.file, "line": c.old.line},
                    "new": {"file": c.new.file, "line": c.new.line},
                    "fields": list(c.fields) if c.fields is not None else None,
                    "content_hash_changed": c.content_hash_changed,
                    "evidence_added": list(c.evidence_added),
                    "evidence_removed": list(c.evidence_removed),
                    "id_recomputes": {"old": c.id_recomputes[0], "new": c.id_recomputes[1]},
                    "content_hash_recomputes": {
                        "old": c.content_hash_recomputes[0],
                        "new": c.content_hash_recomputes[1],
                    },
                    "note": c.note,
                }
                for c in r.changed
            ],
            "moved": [
                {
                    "row_id": new.row_id,
                    "data_type": new.data_type,
                    "how": how,
                    "old": {"file": old.file, "line": old.line},
                    "new": {"file": new.file, "line": new.line},
                }
                for old, new, how in r.moved
            ],
            "reformatted": _rows(r.reformatted),
            "shifted": dict(r.shifted),
        },
        "evidence": {
            "counts": {
                **ev_counts,
                "hidden_while_cited": sum(e.hidden_while_cited for e in d.evidence),
            },
            "changes": [
                {
                    "kind": e.kind,
                    "evidence_id": e.evidence_id,
                    "ref": e.ref,
                    "fields": list(e.fields),
                    "matched_by": e.matched_by,
                    "cited_by": e.cited_by,
                    "hidden_while_cited": e.hidden_while_cited,
                    "old": _evidence(e.old),
                    "new": _evidence(e.new),
                }
                for e in d.evidence
            ],
        },
        "links": {
            "rows": len(d.links),
            "by_evidence": dict(d.links.by_evidence),
            "row_ids": d.links.rows.ids(),
        },
        "contracts": [
            {
                "document": c.document,
                "item": c.item,
                "kind": c.kind,
                "fields": [
                    {"path": f.path, "kind": f.kind, "old": f.old, "new": f.new} for f in c.fields
                ],
            }
            for c in d.contracts
        ],
        "counts": d.counts,
        "findings": None
        if d.findings is None
        else {
            "new": list(d.findings.new),
            "fixed": list(d.findings.fixed),
            "persisting": len(d.findings.persisting),
            "persisting_by_code": _by_code(d.findings.persisting),
        },
        "query": d.query,
    }
    return doc


def _by_code(findings: tuple[dict[str, Any], ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in findings:
        out[str(f.get("code"))] = out.get(str(f.get("code")), 0) + 1
    return dict(sorted(out.items()))


def _v(x: Any) -> str:
    return x if isinstance(x, str) else json.dumps(x)


def _short(file: str) -> str:
    # Row files all live under experience_compiler/; the text report leaves that out.
    return file.removeprefix("experience_compiler/")


def _place(p: dict[str, Any]) -> str:
    return f"{_short(p['file'])}:{p['line']}"


def _more(lines: list[str], items: list[Any], limit: int, render: Any) -> None:
    for item in items[:limit]:
        lines.append(render(item))
    if len(items) > limit:
        lines.append(f"    ... and {len(items) - limit:,} more (--json lists every one)")


def _loc(f: dict[str, Any]) -> str:
    locs: list[Any] = (
        f["locations"] if isinstance(f.get("locations"), list) else [f.get("location")]
    )
    parts = []
    for loc in locs:
        if isinstance(loc, dict):
            where = loc.get("file") or ""
            if loc.get("line"):
                where += f":{loc['line']}"
            for k in ("row_id", "evidence_id", "ref", "key_path", "contract"):
                if loc.get(k):
                    where += f" {k.split('_')[0]} {loc[k]}"
            parts.append(where.strip())
    return "; ".join(p for p in parts if p)


def to_text(doc: dict[str, Any], limit: int = 20) -> str:
    """A terminal report of :func:`to_json`'s document; long lists stop after ``limit``."""
    lines: list[str] = []
    old, new = doc["old"], doc["new"]
    src = " (fingerprint)" if old["source"] == "fingerprint" else ""
    lines.append(f"old       {old['package_id']}{src}  (format {old['format_version']})")
    lines.append(f"new       {new['package_id']}  (format {new['format_version']})")
    vc = doc["version_change"]
    if vc:
        lines.append(
            f"version   {vc['old']} -> {vc['new']}: compared at the level both share "
            f"({', '.join(vc['compared'])})"
        )
    for k, v in doc["identity"].items():
        lines.append(f"identity  {k}: {_v(v['old'])} -> {_v(v['new'])}")
    _text_rows(lines, doc, limit)
    _text_evidence(lines, doc, limit)
    _text_contracts(lines, doc, limit)
    c = doc["counts"]
    lines.append("counts    old -> new (only those that differ, and the totals)")
    for key, label in (
        ("rows_by_data_type", "type"),
        ("rows_by_file", "file"),
        ("evidence_by_visibility", "visibility"),
    ):
        for k, (a, b) in c[key].items():
            if a != b:
                lines.append(f"  {label + ' ' + k:<46}{a:>9,} -> {b:,}")
    lines.append(f"  {'rows':<46}{c['rows'][0]:>9,} -> {c['rows'][1]:,}")
    lines.append(
        f"  {'evidence items':<46}{c['evidence_items'][0]:>9,} -> {c['evidence_items'][1]:,}"
    )
    if c["loading_problems"] != [0, 0]:
        lines.append(
            f"  {'loading problems':<46}{c['loading_problems'][0]:>9,} -> "
            f"{c['loading_problems'][1]:,}"
        )
    f = doc["findings"]
    if f is None:
        lines.append("findings  not compared (--findings audits both packages)")
    else:
        lines.append(
            f"findings  {len(f['new'])} new, {len(f['fixed'])} fixed, {f['persisting']} persisting"
        )
        _more(lines, f["new"], limit, lambda x: f"  new     {x.get('code'):<28} {_loc(x)}")
        _more(lines, f["fixed"], limit, lambda x: f"  fixed   {x.get('code'):<28} {_loc(x)}")
    if doc["query"]:
        lines.append(f"query     rows shown: those matching {doc['query']!r}")
    res = doc["result"]
    lv = ", ".join(f"{n} {k}" for k, n in res["levels"].items() if n)
    lines.append(
        "result    "
        + (f"changed (most severe: {res['highest']}; {lv})" if res["changed"] else "no change")
    )
    return "\n".join(lines) + "\n"


def _text_rows(lines: list[str], doc: dict[str, Any], limit: int) -> None:
    rows = doc["rows"]
    if not rows["compared"]:
        lines.append(f"rows      not compared: {rows['reason']}")
        return
    n = rows["counts"]
    lines.append(
        f"rows      {n['added']:,} added, {n['removed']:,} removed, {n['changed']:,} "
        f"changed ({n['same_id_new_content']:,} with a new content hash under the same "
        f"id), {n['moved']:,} moved, {n['reformatted']:,} re-serialized, "
        f"{n['shifted']:,} shifted by rows added or removed before them, "
        f"{n['unchanged']:,} unchanged in content"
    )
    _more(lines, rows["added"], limit, lambda r: f"  added    {r['row_id']}  {_place(r)}")
    _more(lines, rows["removed"], limit, lambda r: f"  removed  {r['row_id']}  {_place(r)}")

    def changed(c: dict[str, Any]) -> str:
        fields = (
            ", ".join(c["fields"])
            if c["fields"] is not None
            else "fields unknown (the old side is a fingerprint)"
        )
        flags = []
        if c["content_hash_changed"]:
            flags.append("new content hash, same id")
        if c["id_recomputes"]["new"] is False:
            flags.append("id no longer recomputes from the row (format 12.6)")
        if c["evidence_added"] or c["evidence_removed"]:
            flags.append(
                f"cites +{len(c['evidence_added'])} -{len(c['evidence_removed'])} evidence"
            )
        where = (
            _place(c["new"])
            if c["old"] == c["new"]
            else f"{_place(c['old'])} -> {_place(c['new'])}"
        )
        return f"  changed  {c['row_id']}  {where}\n           {fields}" + (
            f"  [{'; '.join(flags)}]" if flags else ""
        )

    _more(lines, rows["changed"], limit, changed)
    _more(
        lines,
        rows["moved"],
        limit,
        lambda m: (
            f"  moved    {m['row_id']}  {_place(m['old'])} -> {_place(m['new'])}"
            f"  ({'to another file' if m['how'] == 'file' else 'order changed'})"
        ),
    )
    _more(
        lines,
        rows["reformatted"],
        limit,
        lambda r: f"  re-serialized  {r['row_id']}  {_place(r)} (same values)",
    )


def _text_evidence(lines: list[str], doc: dict[str, Any], limit: int) -> None:
    ev = doc["evidence"]
    n = ev["counts"]
    lines.append(
        f"evidence  {n['added']} added, {n['removed']} removed, {n['changed']} changed, "
        f"{n['visibility']} visibility changed ({n['hidden_while_cited']} now hidden "
        "while rows cite them)"
    )

    def one(e: dict[str, Any]) -> str:
        head = f"  {e['kind']:<11}{e['evidence_id']}  {e['ref']}"
        if e["kind"] in ("added", "removed"):
            return head + f"  (cited by {e['cited_by']:,} rows)"
        parts = [f"{f}: {_v(e['old'][f])} -> {_v(e['new'][f])}" for f in e["fields"]]
        tail = f"\n             {'; '.join(parts)}; cited by {e['cited_by']:,} rows"
        if e["hidden_while_cited"]:
            tail += "  [MOST SEVERE: hidden evidence still cited]"
        return head + tail

    _more(lines, ev["changes"], limit, one)
    links = doc["links"]
    if links["rows"]:
        lines.append(f"links     {links['rows']:,} rows cite evidence that changed or was removed")


def _text_contracts(lines: list[str], doc: dict[str, Any], limit: int) -> None:
    changes = doc["contracts"]
    lines.append(f"contracts {len(changes)} change{'s' if len(changes) != 1 else ''}")

    def one(c: dict[str, Any]) -> str:
        item = f" {c['item']}" if c["item"] else ""
        parts = []
        for f in c["fields"]:
            if f["kind"] == "added":
                parts.append(f"{f['path'] or 'value'} +{_v(f['new'])}")
            elif f["kind"] == "removed":
                parts.append(f"{f['path'] or 'value'} -{_v(f['old'])}")
            else:
                parts.append(f"{f['path'] or 'value'} {_v(f['old'])} -> {_v(f['new'])}")
        return f"  {c['kind']:<9}{c['document']}{item}" + (f": {'; '.join(parts)}" if parts else "")

    _more(lines, changes, limit, one)

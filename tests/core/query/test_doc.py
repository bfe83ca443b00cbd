"""docs/query.md is tested: every example query it lists is run against a generated
package and compared with what the page says it keeps, computed here without the
query engine; every error example fails at the stated column with the stated message."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.findings import Severity
from aa_review.core.query import (
    QueryError,
    check_query,
    filter_evidence,
    filter_findings,
    filter_rows,
)

from .oracles import cited_ids, row_id, shown, visibility_of

DOC = Path(__file__).resolve().parents[3] / "docs" / "query.md"


def examples() -> dict[str, list[list[str]]]:
    """Table rows (cells) under each '### Name' heading of the Examples section."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Examples\n", 1)[1].split("\n## ", 1)[0]
    out: dict[str, list[list[str]]] = {}
    current = ""
    for line in section.splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            out[current] = []
        elif line.startswith("| `") and current:
            out[current].append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


def code(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell[1:-1]


RowPred = Callable[[dict[str, Any], str, int], bool]


def row_oracles(pkg, findings) -> dict[str, RowPred]:
    vis = visibility_of(pkg)
    named = lambda pred: {loc.row_id for f in findings if pred(f) for loc in f.locations}
    privacy = named(lambda f: f.code.startswith("privacy"))
    warned = named(lambda f: f.severity is Severity.WARNING)
    conf = lambda r: shown(r.get("confidence"))
    event = lambda r: r["data_type"].endswith("_event")
    return {
        "type:failure_case": lambda r, f, n: r["data_type"] == "failure_case",
        "type:failure_case OR type:preference_pair": lambda r, f, n: (
            r["data_type"] in ("failure_case", "preference_pair")
        ),
        "type:*_event": lambda r, f, n: event(r),
        "-type:*_event": lambda r, f, n: not event(r),
        "NOT type:*_event": lambda r, f, n: not event(r),
        "confidence < 0.7": lambda r, f, n: conf(r) is not None and conf(r) < 0.7,
        "confidence<0.7": lambda r, f, n: conf(r) is not None and conf(r) < 0.7,
        "confidence>=0.93": lambda r, f, n: conf(r) is not None and conf(r) >= 0.93,
        "confidence=0.9299999999999999": lambda r, f, n: r.get("confidence") == 0.9299999999999999,
        "confidence:none": lambda r, f, n: "confidence" not in r,
        "quality>=0.9 (type:failure_case OR type:*_pair)": lambda r, f, n: (
            (shown(r.get("quality_score")) or 0) >= 0.9
            and (r["data_type"] == "failure_case" or r["data_type"].endswith("_pair"))
        ),
        "evidence.visibility:hidden_excluded": lambda r, f, n: any(
            vis.get(e) == "hidden_excluded" for e in cited_ids(r)
        ),
        "evidence<32": lambda r, f, n: len(cited_ids(r)) < 32,
        "file:environment/ line<=2": lambda r, f, n: "environment/" in f and n <= 2,
        '"failure_case"': lambda r, f, n: any(
            "failure_case" in x
            for x in (row_id(r), r["data_type"], f, str(r.get("source_task_id")))
        ),
        "finding:privacy": lambda r, f, n: row_id(r) in privacy,
        "severity=warning -type:environment_response_pair": lambda r, f, n: (
            row_id(r) in warned and r["data_type"] != "environment_response_pair"
        ),
    }


def test_row_examples(pkg, audit_findings) -> None:
    oracles = row_oracles(pkg, audit_findings)
    listed = [code(cells[0]) for cells in examples()["Rows"]]
    assert sorted(listed) == sorted(oracles), "every example needs its answer here"
    ix = pkg.index
    rows = [(pkg.read_row(i), ix.files[int(ix.file[i])], int(ix.line[i])) for i in range(len(ix))]
    for q in listed:
        got = filter_rows(pkg, q, audit_findings)
        got_list = list(range(len(ix))) if got is None else got.tolist()
        want = [i for i, (r, f, n) in enumerate(rows) if oracles[q](r, f, n)]
        assert got_list == want, q
        assert 0 < len(want) < len(ix), f"{q}: an example that shows nothing"
    # Stated relations: "the same rows as", "including those stored as ...".
    assert (
        filter_rows(pkg, "confidence<0.7").tolist() == filter_rows(pkg, "confidence < 0.7").tolist()
    )
    noisy = {i for i, (r, _f, _n) in enumerate(rows) if r.get("confidence") == 0.9299999999999999}
    assert noisy and noisy <= set(filter_rows(pkg, "confidence>=0.93").tolist())
    exact93 = {i for i, (r, _f, _n) in enumerate(rows) if r.get("confidence") == 0.93}
    assert exact93 and exact93.isdisjoint(filter_rows(pkg, "confidence=0.9299999999999999"))


def test_evidence_examples(pkg) -> None:
    ix = pkg.index
    cited = [0] * len(ix.evidence_ids)
    for i in range(len(ix)):
        for e in cited_ids(pkg.read_row(i)):
            cited[ix.evidence_pos[e]] += 1
    items = [(pkg.evidence_at(i), cited[i]) for i in range(len(ix.evidence_ids))]
    oracles: dict[str, Callable[[Any, int], bool]] = {
        "visibility:hidden_excluded": lambda e, n: (
            e is not None and e.visibility == "hidden_excluded"
        ),
        "ref:*.csv": lambda e, n: e is not None and e.ref.endswith(".csv"),
        "type:artifact OR type:trace": lambda e, n: (
            e is not None and e.evidence_type in ("artifact", "trace")
        ),
        "cited<100 -visibility:hidden_excluded": lambda e, n: (
            n < 100 and (e is None or e.visibility != "hidden_excluded")
        ),
    }
    listed = [code(cells[0]) for cells in examples()["Evidence"]]
    assert sorted(listed) == sorted(oracles)
    for q in listed:
        got = filter_evidence(pkg, q)
        want = [i for i, (e, n) in enumerate(items) if oracles[q](e, n)]
        assert got is not None and got.tolist() == want, q
        assert 0 < len(want) < len(items), q


def test_findings_examples(pkg, audit_findings) -> None:
    from aa_review.core.audits import CHECKS

    ix = pkg.index
    at_line = {(ix.files[int(ix.file[i])], int(ix.line[i])): i for i in range(len(ix))}
    by_id: dict[str, int] = {}
    for i in range(len(ix)):
        by_id.setdefault(row_id(pkg.read_row(i)), i)

    def rows_of(f: Any) -> list[tuple[dict[str, Any], str]]:
        """Every row the finding locates (a finding may concern many)."""
        out = []
        for loc in f.locations:
            i = at_line.get((loc.file, loc.line))
            i = by_id.get(loc.row_id or "") if i is None else i
            if i is not None:
                out.append((pkg.read_row(i), ix.files[int(ix.file[i])]))
        return out

    err = Severity.ERROR.rank
    oracles: dict[str, Callable[[Any], bool]] = {
        "-quirk:yes": lambda f: not f.quirk,
        "severity:error": lambda f: f.severity.rank >= err,
        "severity=error": lambda f: f.severity is Severity.ERROR,
        "code:privacy OR code:link.bad": lambda f: f.code.startswith(("privacy", "link.bad")),
        "check:quirks": lambda f: f.code in CHECKS["quirks"].codes,
        "type:failure_case": lambda f: any(r["data_type"] == "failure_case" for r, _ in rows_of(f)),
        "row.file:environment/ quality<0.6": lambda f: any(
            "environment/" in file and (shown(r.get("quality_score")) or 1) < 0.6
            for r, file in rows_of(f)
        ),
    }
    listed = [code(cells[0]) for cells in examples()["Findings"]]
    assert sorted(listed) == sorted(oracles)
    for q in listed:
        want = [i for i, f in enumerate(audit_findings) if oracles[q](f)]
        assert filter_findings(audit_findings, q, pkg) == want, q
        assert 0 < len(want) < len(audit_findings), q


def test_error_examples() -> None:
    listed = examples()["Errors"]
    assert len(listed) >= 5
    for cells in listed:
        q, column, message = code(cells[0]), int(cells[1]), cells[2]
        with pytest.raises(QueryError) as info:
            check_query(q, "rows")
        assert info.value.column == column, q
        assert info.value.message.startswith(message), (q, info.value.message)


def test_command_line_examples_are_valid_queries() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## On the command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    found = 0
    for line in block.strip().splitlines():
        words = shlex.split(line.split("#", 1)[0] if " # " in line else line)
        if "--query" in words:
            q = words[words.index("--query") + 1]
            check_query(q, "findings" if words[1] == "audit" else "rows")
            found += 1
    assert found >= 5


def test_window_doc_links_here() -> None:
    window = (DOC.parent / "window.md").read_text(encoding="utf-8")
    assert "(query.md)" in window
    assert not re.search(r"^\| `code:` \|", window, re.MULTILINE), "fields are documented once"


def test_change_examples(varied_root: Path, tmp_path: Path) -> None:
    """The ``change`` examples, on a changed copy whose changes the generator recorded."""
    from aa_review.core.package import open_package
    from aa_review.core.query import RowsScope
    from aa_review.core.session import prepare_comparison
    from aa_review.generator import ChangeSpec, derive_package

    derived = derive_package(
        varied_root,
        tmp_path / "new",
        ChangeSpec(
            rows_added=2,
            rows_removed=2,
            rows_changed=3,
            rows_moved=2,
            rows_reformatted=2,
            evidence_removed=1,
        ),
        seed=13,
    )  # seed 13: an item 70 of the 120 rows cite
    rec, base, new = derived.changes, open_package(varied_root), open_package(derived.root)
    scope = RowsScope(new)
    with pytest.raises(QueryError, match="'change' needs a baseline to compare with"):
        scope.filter("change:added")
    scope.changes = prepare_comparison(base, new).masks
    ids = [new.index.row_id_str(i) for i in range(len(new.index))]
    cites_gone = {
        row_id(r)
        for r in map(new.read_row, range(len(ids)))
        if set(rec.evidence_removed) & set(cited_ids(r))
    }
    moved = set(rec.rows_moved) | set(rec.rows_reformatted)
    oracles: dict[str, Callable[[str], bool]] = {
        "change:added": lambda i: i in rec.rows_added,
        "change:changed": lambda i: i in rec.rows_changed,
        "change:moved OR change:reformatted": lambda i: i in moved,
        "change:linked -change:changed": lambda i: i in cites_gone and i not in rec.rows_changed,
        "-change:linked": lambda i: i not in cites_gone,
    }
    listed = [code(cells[0]) for cells in examples()["Changes"]]
    assert sorted(listed) == sorted(oracles)
    for q in listed:
        got = scope.filter(q)
        assert got is not None
        want = [n for n, i in enumerate(ids) if oracles[q](i)]
        assert got.tolist() == want, q
        assert 0 < len(want) < len(ids), f"{q}: an example that shows nothing"
    with pytest.raises(QueryError, match="'change' takes one of"):
        scope.filter("change:renamed")

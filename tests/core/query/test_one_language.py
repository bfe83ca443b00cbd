"""One query language, one parser: every query docs/query.md and docs/window.md give as an
example answers the same through the core (what the window evaluates), ``aa-review rows``,
``aa-review audit`` and ``aa-review diff``; a wrong one is refused by each alike."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from aa_review.cli import main
from aa_review.core.package import Package, open_package
from aa_review.core.query import RowsScope, filter_findings, filter_rows

from .test_doc import DOC, code, examples

WINDOW_DOC = DOC.parent / "window.md"
ROW_LISTS = ("added", "changed", "moved", "reformatted")
DIFF = ("diff", "--json")  # finding: and severity: audit both packages, as rows does


def cli(*args: str) -> tuple[int, str, str]:
    """The command in this process, as a user types it (each word a separate argument)."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    out.flush()
    return status, out.buffer.getvalue().decode(), err.getvalue()  # type: ignore[attr-defined]


def window_change_examples() -> list[str]:
    """The ``change:`` queries docs/window.md gives for the rows query in compare mode."""
    line = next(x for x in WINDOW_DOC.read_text().splitlines() if x.startswith("| Rows query |"))
    return [q for q in re.findall(r"`([^`]+)`", line) if "change:" in q and q != "change:"]


def prose_change_examples() -> list[str]:
    """``change:re*``, given in docs/query.md's text on the change field."""
    assert "(`change:re*`)" in DOC.read_text()
    return ["change:re*"]


ROWS = [code(c[0]) for c in examples()["Rows"]]
FINDINGS = [code(c[0]) for c in examples()["Findings"]]
CHANGES = [code(c[0]) for c in examples()["Changes"]]
COMPARE = sorted({*CHANGES, *window_change_examples(), *prose_change_examples()})
ERRORS = [(code(c[0]), c[2]) for c in examples()["Errors"]]


def test_the_examples_are_found() -> None:
    assert len(ROWS) > 10 and len(FINDINGS) > 5 and len(CHANGES) >= 5
    assert {"change:added OR change:moved", "-change:linked", "change:re*"} <= set(COMPARE)


@pytest.fixture(scope="module")
def pair(varied_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The varied package as the baseline and a changed copy (every kind of row change)."""
    from aa_review.core.diff import audit_findings
    from aa_review.core.session import prepare_comparison
    from aa_review.generator import ChangeSpec, derive_package

    derived = derive_package(
        varied_root,
        tmp_path_factory.mktemp("one_language"),
        ChangeSpec(
            rows_added=2,
            rows_removed=2,
            rows_changed=3,
            rows_moved=2,
            rows_reformatted=2,
            evidence_removed=1,
        ),
        seed=13,
    )
    base, new = open_package(varied_root), open_package(derived.root)
    status, out, err = cli(*DIFF, str(varied_root), str(derived.root))
    assert status == 1, err
    return {
        "full": json.loads(out),
        "old": varied_root,
        "new": derived.root,
        "base": base,
        "pkg": new,
        "comparison": prepare_comparison(base, new),
        "findings": (audit_findings(base), audit_findings(new)),
    }


def _positions(pkg: Package, rows: list[dict[str, Any]]) -> list[int]:
    ix = pkg.index
    at = {(ix.files[int(ix.file[i])], int(ix.line[i])): i for i in range(len(ix))}
    return [at[(r["file"], int(r["line"]))] for r in rows]


@pytest.mark.parametrize("query", ROWS)
def test_rows_examples_answer_alike_in_the_core_and_rows(
    pkg: Package, audit_findings: list, varied_root: Path, query: str
) -> None:
    core = filter_rows(pkg, query, audit_findings)
    assert core is not None
    status, out, err = cli(
        "rows", str(varied_root), "--query", query, "--json", "--columns", "file,line"
    )
    assert status == 0, err
    assert _positions(pkg, json.loads(out)["rows"]) == core.tolist()


@pytest.mark.parametrize("query", FINDINGS)
def test_findings_examples_answer_alike_in_the_core_and_audit(
    pkg: Package, audit_findings: list, varied_root: Path, query: str
) -> None:
    want = [audit_findings[i] for i in filter_findings(audit_findings, query, pkg)]
    status, out, err = cli("audit", str(varied_root), "--query", query, "--json")
    assert status in (0, 1), err
    got = json.loads(out)["findings"]
    assert [(f["code"], f["message"]) for f in got] == [(f.code, f.message) for f in want]


def _ids(pkg: Package, positions: Any) -> set[str]:
    return {pkg.index.row_id_str(int(p)) for p in positions}


@pytest.mark.parametrize("query", COMPARE + ROWS)
def test_examples_answer_in_diff_as_in_the_windows_compare_mode(
    pair: dict[str, Any], query: str
) -> None:
    """``diff --query`` lists, of each kind of change, the rows the window's rows query
    keeps in compare mode: the new package's rows (with the comparison's change masks),
    the baseline's for removed rows."""
    c, (old_findings, new_findings) = pair["comparison"], pair["findings"]
    new_scope = RowsScope(pair["pkg"], new_findings)
    new_scope.changes = c.masks
    old_scope = RowsScope(pair["base"], old_findings)
    old_scope.changes = c.old_masks
    keep_new = _ids(pair["pkg"], new_scope.filter(query))
    keep_old = _ids(pair["base"], old_scope.filter(query))
    full = pair["full"]["rows"], pair["full"]["links"]
    status, out, err = cli(*DIFF, str(pair["old"]), str(pair["new"]), "--query", query)
    assert status in (0, 1), (query, err)
    doc = json.loads(out)
    listed = 0
    for kind in ROW_LISTS:
        want = {r["row_id"] for r in full[0][kind]} & keep_new
        assert {r["row_id"] for r in doc["rows"][kind]} == want, (query, kind)
        listed += len(want)
    want = {r["row_id"] for r in full[0]["removed"]} & keep_old
    assert {r["row_id"] for r in doc["rows"]["removed"]} == want, (query, "removed")
    assert set(doc["links"]["row_ids"]) == set(full[1]["row_ids"]) & keep_new, query
    if query in CHANGES:
        assert listed + len(want) > 0, f"{query}: an example that lists nothing"


@pytest.mark.parametrize(("query", "message"), ERRORS)
def test_a_wrong_query_is_refused_alike_by_rows_audit_and_diff(
    pair: dict[str, Any], query: str, message: str
) -> None:
    old, new = str(pair["old"]), str(pair["new"])
    for argv in (
        ("rows", new, "--query", query),
        ("audit", new, "--query", query),
        ("diff", old, new, "--query", query),
    ):
        status, out, err = cli(*argv)
        assert status == 2 and out == "", argv
        assert message in err and "Traceback" not in err, (argv, err)


def test_change_needs_a_baseline_outside_diff(pair: dict[str, Any]) -> None:
    status, _out, err = cli("rows", str(pair["new"]), "--query", "change:added OR change:moved")
    assert status == 2 and "'change' needs a baseline to compare with" in err
    assert "aa-review diff" in err  # where a baseline is given

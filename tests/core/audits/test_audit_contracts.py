"""The Contracts tab and the audit judge a package's contracts alike (one comparison)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from audit_helpers import located

from aa_review.core import contracts
from aa_review.core.audits import audit_package
from aa_review.core.package import open_package

CSV = "attempts/revised/artifacts/reconciliation_report.csv"
JSON = "attempts/revised/artifacts/audit_summary.json"
TOTALS = "attempts/revised/artifacts/vendor_totals.csv"
# A preview difference -> the audit code that reports it (docs/findings.md); an unreadable
# file is reported by the pre-final checklist instead.
CODE = {
    "missing_file": "contract.missing_file",
    "missing_column": "contract.columns",
    "extra_column": "contract.columns",
    "column_order": "contract.columns",
    "non_numeric": "contract.numeric",
    "too_few_rows": "contract.min_rows",
    "missing_key": "contract.json_keys",
    "wrong_type": "contract.json_types",
    "empty": "contract.empty",
    "unreadable": None,
}
PER_FILE = set(CODE.values()) - {None}


def assert_window_agrees_with_audit(root: Path) -> set[str]:
    """Every compared entry's verdict and difference kinds are the audit's findings for its
    file, and the checklist fails exactly the checks the audit reports; the codes found."""
    pkg = open_package(root)
    report = audit_package(pkg)
    by_file: dict[str, set[str]] = {}
    for f in report.findings:
        if f.code in PER_FILE:
            by_file.setdefault(f.location.file, set()).add(f.code)
    compared = set()
    for e in contracts.contract_entries(pkg):
        pv = contracts.preview(pkg, e)
        if e.artifact_ref is None:
            assert not pv.compared
            continue
        compared.add(e.artifact_ref)
        want = {CODE[d.kind] for d in pv.diffs} - {None}
        assert want == by_file.get(e.artifact_ref, set()), (e.key, pv.diffs)
        unreadable = any(d.kind == "unreadable" for d in pv.diffs)
        assert pv.ok is (not want and not unreadable)
    assert set(by_file) <= compared
    failing = {c.check_id for c in contracts.checklist(pkg) if c.status == "fail"}
    reported = {
        f.message.split(" fails:")[0] for f in report.findings if f.code == "contract.checklist"
    }
    assert failing == reported
    return {f.code for f in report.findings if f.code.startswith("contract.")}


@pytest.mark.parametrize(
    ("seed", "defects", "codes"),
    [
        (1, (), set()),
        (1, ("contract_drift",), {"contract.numeric"}),
        (2, ("contract_drift",), {"contract.columns", "contract.checklist"}),
    ],
)
def test_generated_packages(
    make_package, seed: int, defects: tuple[str, ...], codes: set[str]
) -> None:
    g = make_package(seed=seed, defects=defects)
    assert assert_window_agrees_with_audit(g.root) == codes


def _csv_cells(root: Path, change: Callable[[list[list[str]]], None]) -> None:
    import csv
    import io

    path = root / CSV
    rows = list(csv.reader(io.StringIO(path.read_text())))
    change(rows)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue())


def _json(root: Path, change: Callable[[dict], None]) -> None:  # type: ignore[type-arg]
    doc = json.loads((root / JSON).read_text())
    change(doc)
    (root / JSON).write_text(json.dumps(doc))


MUTATIONS: dict[str, tuple[Callable[[Path], None], set[str]]] = {
    "thousands separators": (
        lambda r: _csv_cells(r, lambda rows: rows[1].__setitem__(3, "4,648.26")),
        set(),
    ),
    "n/a in a numeric column": (
        lambda r: _csv_cells(r, lambda rows: rows[2].__setitem__(3, "n/a")),
        {"contract.numeric"},
    ),
    "columns swapped": (
        lambda r: _csv_cells(
            r, lambda rows: [row.__setitem__(slice(0, 2), row[1::-1]) for row in rows]
        ),
        {"contract.columns", "contract.checklist"},
    ),
    "header only": (
        lambda r: (r / CSV).write_text("invoice_id\n"),
        {"contract.columns", "contract.min_rows", "contract.checklist"},
    ),
    "missing file": (
        lambda r: (r / TOTALS).unlink(),
        {"contract.missing_file", "contract.checklist"},
    ),
    "keys and types": (
        lambda r: _json(r, lambda d: (d.pop("matched"), d.update(total_invoices="12"))),
        {"contract.json_keys", "contract.json_types"},
    ),
    "integer for a float": (
        lambda r: _json(r, lambda d: d.update(total_invoices=12.5)),
        {"contract.json_types"},
    ),
    "blank non-empty column": (
        lambda r: _csv_cells(r, lambda rows: [row.__setitem__(1, "") for row in rows[1:]]),
        {"contract.empty"},
    ),
    "empty non-empty field": (
        lambda r: _json(r, lambda d: d.update(assumptions=[])),
        {"contract.empty"},
    ),
    "broken JSON": (lambda r: (r / JSON).write_text("{broken"), {"contract.checklist"}),
    "top level array": (lambda r: (r / JSON).write_text("[1, 2]"), set()),
    "top level scalar": (
        lambda r: (r / JSON).write_text("3"),
        {"contract.json_types", "contract.checklist"},
    ),
    "not UTF-8": (lambda r: (r / CSV).write_bytes(b"invoice_id\n\xff\n"), {"contract.checklist"}),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_edited_sample(sample_copy: Path, name: str) -> None:
    mutate, codes = MUTATIONS[name]
    mutate(sample_copy)
    assert assert_window_agrees_with_audit(sample_copy) == codes


def test_thousands_separators_in_the_audit(sample_copy: Path) -> None:
    """One number test: a separator passes both, the first bad cell is named by both."""
    _csv_cells(
        sample_copy,
        lambda rows: (rows[1].__setitem__(3, "4,648.26"), rows[3].__setitem__(4, "1.2.3")),
    )
    report = audit_package(sample_copy)
    f = located(report.findings, "contract.numeric", file=CSV)
    assert f.message.startswith("numeric column 'amount_usd' holds '1.2.3'")
    assert f.location.contract == "transfer_checklist.artifact_contracts[4]"
    assert (
        "(also artifact_contract.required_artifacts[4], output_contract.required_outputs[4])"
        in f.message
    )
    pkg = open_package(sample_copy)
    (entry,) = [
        e for e in contracts.contract_entries(pkg) if e.kind == "output" and e.artifact_ref == CSV
    ]
    (d,) = contracts.preview(pkg, entry).diffs
    assert d.message == "numeric column 'amount_usd' holds '1.2.3'" and d.line == 4
    assert f.location.contract in entry.group

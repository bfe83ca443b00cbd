"""A finding reaches every row it concerns, and every count agrees, with or without a query."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from aa_review.cli import main
from aa_review.generator import generate_package

# defect spread over N rows -> the code whose findings must locate those N rows
SPREAD = {
    "hidden_cited": "link.hidden_cited",
    "ref_dotdot": "ref.escape",
    "ref_absolute": "ref.absolute",
    "ref_unresolved": "ref.unresolved",
    "orphan_evidence_id": "link.orphan",
    "private_path": "privacy.private_path",
}


def audit_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["audit", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def audit_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    main(["audit", *argv])
    return capsys.readouterr().out


def rows_of(defect: Any) -> set[tuple[str, int, str]]:
    return {(r["file"], r["line"], r["row_id"]) for r in defect.rows}


def located_rows(doc: dict[str, Any], code: str) -> set[tuple[str, int, str]]:
    return {
        (loc["file"], loc["line"], loc["row_id"])
        for f in doc["findings"]
        if f["code"] == code
        for loc in f["locations"]
        if "row_id" in loc
    }


def assert_counts_agree(doc: dict[str, Any]) -> None:
    """by_severity, the per-check summary, locations and the findings listed agree."""
    findings = doc["findings"]
    assert doc["by_severity"] == dict(Counter(f["severity"] for f in findings))
    by_code: Counter[str] = Counter()
    for s in doc["summary"]:
        by_code.update(s["codes"])
    assert by_code == Counter(f["code"] for f in findings)
    assert sum(sum(s["by_severity"].values()) for s in doc["summary"]) == len(findings)
    assert all(f["location_count"] == len(f["locations"]) >= 1 for f in findings)
    total = sum(f["location_count"] for f in findings)
    assert doc["locations"] == total == sum(s["locations"] for s in doc["summary"])
    assert doc["gathered"] == _gathered(findings)


def _gathered(findings: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in findings:
        if f["gathered"]:
            out[f["code"]] = out.get(f["code"], 0) + f["gathered"]
    return dict(sorted(out.items()))


def summary_numbers(text: str) -> tuple[int, int, dict[str, int]]:
    """(findings, locations, by severity) from the text output's summary line."""
    line = next(x for x in text.splitlines() if x.startswith("summary"))
    m = re.search(r"([\d,]+) findings? at ([\d,]+) locations? \(([^)]*)\)", line)
    assert m, line
    sev = {k: int(n.replace(",", "")) for n, k in (part.split() for part in m.group(3).split(", "))}
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")), sev


@pytest.fixture(scope="module")
def spread_pkg(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Any]:
    """Per N, one package where each defect of SPREAD sits in N rows of its own."""
    out = {}
    for n in (2, 7):
        root = tmp_path_factory.mktemp(f"spread{n}")
        out[n] = generate_package(
            root, rows=60, seed=6, defects=list(SPREAD), defect_rows=dict.fromkeys(SPREAD, n)
        )
    return out


@pytest.mark.parametrize("n", [2, 7])
def test_every_affected_row_is_located_in_the_json(spread_pkg, capsys, n: int) -> None:
    g = spread_pkg[n]
    code, doc = audit_json(capsys, str(g.root))
    assert code == 1
    for d in g.defects:
        assert len(d.rows) == n
        want, got = rows_of(d), located_rows(doc, SPREAD[d.name])
        assert want <= got, (d.name, want - got)
        if d.name != "ref_unresolved":  # its catalog entry is also located, without a row
            assert got == want, (d.name, got - want)
    grouped = [f for f in doc["findings"] if f["code"] in ("link.hidden_cited", "link.orphan")]
    assert [f["location_count"] for f in grouped] == [n, n]
    assert_counts_agree(doc)
    found, locations, sev = summary_numbers(audit_text(capsys, str(g.root)))
    assert (found, locations, sev) == (len(doc["findings"]), doc["locations"], doc["by_severity"])


def test_five_hundred_rows_are_all_located(tmp_path: Path, capsys) -> None:
    g = generate_package(
        tmp_path, rows=540, seed=7, defects=["hidden_cited"], defect_rows={"hidden_cited": 500}
    )
    code, doc = audit_json(capsys, str(g.root))
    (hidden,) = [f for f in doc["findings"] if f["code"] == "link.hidden_cited"]
    assert code == 1 and hidden["location_count"] == 500 == len(hidden["locations"])
    assert located_rows(doc, "link.hidden_cited") == rows_of(g.defects[0])
    assert hidden["message"].startswith("500 rows cite hidden evaluation material")
    assert_counts_agree(doc)
    text = audit_text(capsys, str(g.root))
    assert "500 locations" in text and "and 490 more locations (--json lists every one)" in text
    assert summary_numbers(text)[:2] == (len(doc["findings"]), doc["locations"])


def test_query_filters_the_counts_and_is_recorded(spread_pkg, capsys) -> None:
    g = spread_pkg[2]
    _, full = audit_json(capsys, str(g.root))
    code, doc = audit_json(capsys, str(g.root), "--query", "code:link")
    assert code == 1 and doc["query"] == "code:link"
    kept = [f for f in full["findings"] if f["code"].startswith("link.")]
    assert [f["code"] for f in doc["findings"]] == [f["code"] for f in kept]
    assert_counts_agree(doc)
    assert doc["unfiltered"] == {
        "findings": len(full["findings"]),
        "locations": full["locations"],
        "by_severity": full["by_severity"],
    }
    assert set(doc["by_severity"]) == {"critical", "error"}  # hidden_cited, orphan
    assert all(not s["codes"] or s["check"] == "links" for s in doc["summary"])
    text = audit_text(capsys, str(g.root), "--query", "code:link")
    line = next(x for x in text.splitlines() if x.startswith("summary"))
    assert f"{len(kept)} of {len(full['findings'])} findings kept by the query 'code:link'" in line
    assert "query     code:link" in text
    code, doc = audit_json(capsys, str(g.root), "--query", "quirk:yes")
    assert code == 0 and set(doc["by_severity"]) == {"low"} and doc["query"] == "quirk:yes"


def test_a_row_query_keeps_the_finding_naming_that_row(spread_pkg, capsys) -> None:
    g = spread_pkg[7]
    d = next(d for d in g.defects if d.name == "hidden_cited")
    last = d.rows[-1]["row_id"]
    _, doc = audit_json(capsys, str(g.root), "--query", f"row:{last}")
    assert "link.hidden_cited" in {f["code"] for f in doc["findings"]}
    assert_counts_agree(doc)


def test_corpus_query_filters_every_package_and_the_totals(
    spread_pkg, tmp_path: Path, capsys
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for n, g in spread_pkg.items():
        shutil.copytree(g.root, corpus / f"p{n}")
    code, doc = audit_json(capsys, str(corpus), "--workers", "1", "--query", "severity:critical")
    assert code == 1 and doc["query"] == "severity:critical"
    reports = [e["report"] for e in doc["entries"]]
    assert all(r["query"] == "severity:critical" for r in reports)
    for r in reports:
        assert_counts_agree(r)
        assert set(r["by_severity"]) <= {"critical"}
    t = doc["totals"]
    assert t["findings"] == sum(len(r["findings"]) for r in reports)
    assert t["locations"] == sum(r["locations"] for r in reports)
    assert t["by_severity"] == {
        "critical": sum(r["by_severity"].get("critical", 0) for r in reports)
    }
    assert t["codes"] == {"link.hidden_cited": 2}
    # each package's hidden rows are all there, from the other process
    for e, n in zip(doc["entries"], sorted(spread_pkg), strict=True):
        d = next(d for d in spread_pkg[n].defects if d.name == "hidden_cited")
        assert located_rows(e["report"], "link.hidden_cited") == rows_of(d)
    text = audit_text(capsys, str(corpus), "--workers", "1", "--query", "severity:critical")
    assert "query       severity:critical" in text and "kept by the query" in text

"""Worst first: severity (critical > error > warning > low > info), then count, is the
default order of findings, of their groups and of their exports, in the CLI as in the core
the window shows; one key, owned by ``core.findings``."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from aa_review.core.findings import Finding, Location, Severity, worst_first, worst_first_key
from aa_review.core.query import FindingsIndex
from aa_review.core.query.export import export_findings
from aa_review.core.session.triage import group_findings

RANK = {"info": 0, "low": 1, "warning": 2, "error": 3, "critical": 4}


def _f(code: str, sev: Severity, n: int) -> Finding:
    locs = [Location(file=f"{code}.jsonl", line=i + 1) for i in range(n)]
    return Finding(code=code, severity=sev, message=code, locations=locs)


@pytest.fixture
def check_order() -> list[Finding]:
    """As the checks list them: the critical one late, a bigger warning after a small one."""
    return [
        _f("input.a", Severity.LOW, 9),
        _f("hash.b", Severity.WARNING, 1),
        _f("refs.c", Severity.ERROR, 2),
        _f("links.d", Severity.WARNING, 5),
        _f("rows.e", Severity.INFO, 40),
        _f("privacy.f", Severity.CRITICAL, 1),
        _f("files.g", Severity.WARNING, 5),
    ]


def test_findings_come_by_severity_then_locations_ties_in_check_order(
    check_order: list[Finding],
) -> None:
    codes = [check_order[i].code for i in worst_first(check_order)]
    assert codes == ["privacy.f", "refs.c", "links.d", "files.g", "hash.b", "input.a", "rows.e"]
    assert worst_first(check_order, [6, 1, 3]) == [3, 6, 1]  # of the positions given
    assert worst_first_key(Severity.CRITICAL, 1) < worst_first_key(Severity.ERROR, 100)
    assert worst_first_key(Severity.ERROR, 3) < worst_first_key(Severity.ERROR, 2)


def test_groups_come_worst_first_then_by_their_count(check_order: list[Finding]) -> None:
    groups = group_findings(FindingsIndex(check_order), None, "severity")
    assert [g.value for g in groups] == ["critical", "error", "warning", "low", "info"]
    many = [*check_order, _f("links.d", Severity.LOW, 1), _f("links.d", Severity.LOW, 1)]
    groups = group_findings(FindingsIndex(many), None, "code")
    # links.d: 3 findings, worst a warning; files.g and hash.b: one warning each.
    assert [g.value for g in groups][:5] == ["privacy.f", "refs.c", "links.d", "files.g", "hash.b"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "json"])
def test_findings_are_exported_worst_first(
    check_order: list[Finding], tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / f"f.{fmt}"
    export_findings(check_order, None, out, query="", digest=None)
    if fmt == "csv":
        with out.open(newline="") as fh:
            index = list(dict.fromkeys(int(r["finding_index"]) for r in csv.DictReader(fh)))
    elif fmt == "jsonl":
        index = [json.loads(line)["finding_index"] for line in out.read_text().splitlines()]
    else:
        index = [f["finding_index"] for f in json.loads(out.read_text())["findings"]]
    assert index == worst_first(check_order)  # finding_index: still the audit's place


def test_the_cli_lists_findings_worst_first(
    generated_sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from aa_review.cli import main as cli_main

    cli_main(["audit", str(generated_sample)])
    text = capsys.readouterr().out
    cli_main(["audit", str(generated_sample), "--json"])
    report = json.loads(capsys.readouterr().out)
    head = re.compile(r"^([A-Z]+) +(\S+)(?: \(quirk\))?  (.*)$")
    listed = []
    for line in text.splitlines():
        m = head.match(line)
        if m and m.group(1).lower() in RANK:
            many = re.match(r"([\d,]+) locations$", m.group(3))
            listed.append(
                (m.group(1).lower(), m.group(2), int(many[1].replace(",", "")) if many else 1)
            )
    assert len(listed) == len(report["findings"]) > 3
    keys = [(-RANK[s], -n) for s, _, n in listed]
    assert keys == sorted(keys)
    found = [Finding.model_validate(f) for f in report["findings"]]
    assert [c for _, c, _ in listed] == [found[i].code for i in worst_first(found)]

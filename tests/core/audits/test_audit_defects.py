"""Each generated defect, alone in a package, is found with its code and location."""

from __future__ import annotations

import pytest
from audit_helpers import located as _located
from audit_helpers import non_quirk

from aa_review.core.audits import audit_package
from aa_review.core.package.catalog import MAP_PATH
from aa_review.generator import DEFECT_NAMES

MANIFEST = "experience_compiler/compiler_manifest.json"
QUALITY = "experience_compiler/quality_report.json"

# defect -> (expected codes, codes the same defect may also show)
EXPECTED: dict[str, tuple[set[str], set[str]]] = {
    "hash_changed": ({"hash.changed"}, set()),
    "evidence_missing": ({"hash.missing", "ref.unresolved"}, set()),
    "evidence_oversize_hashed": ({"hash.unhashable"}, set()),
    "evidence_bad_encoding": ({"input.evidence_encoding"}, set()),
    "ref_absolute": ({"ref.absolute"}, set()),
    "ref_dotdot": ({"ref.escape"}, set()),
    "symlink_out": ({"ref.symlink_out"}, set()),
    "ref_unresolved": ({"ref.unresolved"}, set()),
    "orphan_evidence_id": ({"link.orphan"}, set()),
    "uncited_evidence": ({"link.uncited"}, set()),
    "hidden_cited": ({"link.hidden_cited"}, set()),
    "link_mismatch": ({"link.mismatch"}, set()),
    "evidence_id_mismatch": ({"link.bad_evidence_id"}, set()),
    "coverage_mismatch": ({"count.coverage"}, set()),
    "counts_mismatch": ({"count.rows_by_type", "count.rows_by_file"}, set()),
    "orphan_list_mismatch": ({"count.orphan_list"}, set()),
    "missing_row_id": ({"row.missing_id"}, set()),
    "duplicate_row_id": ({"row.duplicate_id"}, set()),
    "missing_lineage": ({"row.missing_lineage"}, set()),
    "missing_domain": ({"row.missing_domain"}, set()),
    "missing_evidence_ids": ({"row.missing_evidence_ids"}, set()),
    "missing_core_input": ({"row.missing_core_input"}, set()),
    "missing_core_target": ({"row.missing_core_target"}, set()),
    "schema_version_mismatch": ({"row.schema_version"}, set()),
    "row_id_mismatch": ({"row.id_mismatch"}, set()),
    "row_hash_mismatch": ({"row.hash_mismatch"}, set()),
    "private_path": ({"privacy.private_path"}, set()),
    "forbidden_key": ({"privacy.forbidden_key"}, set()),
    "secret_token": ({"privacy.secret"}, set()),
    "contract_drift": ({"contract.numeric"}, set()),  # seed 1: a numeric column holds n/a
    "copy_differs": ({"copy.differs"}, set()),
    "malformed_line": ({"input.malformed_line"}, set()),
    "bad_encoding": ({"input.bad_encoding"}, set()),
    "truncated_file": ({"input.truncated"}, set()),
    "empty_file": ({"input.empty_file"}, set()),
    "huge_line": ({"input.line_too_long"}, set()),
    "manifest_missing_file": ({"manifest.missing_output"}, set()),
}


def test_every_generator_defect_has_an_expectation() -> None:
    assert set(EXPECTED) == set(DEFECT_NAMES)


@pytest.mark.parametrize("name", [n for n in DEFECT_NAMES if n != "huge_line"])
def test_defect_found_alone(make_package, name: str) -> None:
    g = make_package(defects=(name,))
    report = audit_package(g.root)
    want, allowed = EXPECTED[name]
    found = {f.code for f in non_quirk(report)}
    assert want <= found, f"{name}: expected {want}, found {found}"
    assert found <= want | allowed, f"{name}: unrelated findings {found - want - allowed}"
    assert all(f.severity.value == "low" for f in report.findings if f.quirk)
    assert report.complete and report.exit_code("warning") == 1
    _check_location(name, g.defects[0], report.findings, g)


def _check_location(name, d, findings, g) -> None:  # type: ignore[no-untyped-def]
    code = sorted(EXPECTED[name][0])[0]
    if name in ("hash_changed", "evidence_missing", "evidence_oversize_hashed"):
        _located(
            findings,
            {"evidence_missing": "hash.missing"}.get(name, code),
            file=d.ref,
            ref=d.ref,
            evidence_id=d.evidence_id,
        )
    elif name == "evidence_bad_encoding":
        f = _located(
            findings,
            code,
            file=d.ref,
            ref=d.ref,
            evidence_id=d.evidence_id,
            line=d.line,
            byte_offset=d.extra["byte_offset"],
        )
        assert f.severity.value == "warning" and "0xe9" in f.message
        # the compiler's two hash conventions are still explained beside it (format 12.5)
        _located(findings, "quirk.hash_conventions", file=d.ref)
        data = (g.root / d.ref).read_bytes()
        data[: d.extra["byte_offset"]].decode("utf-8")  # every byte before it is fine
    elif name in (
        "ref_absolute",
        "ref_dotdot",
        "symlink_out",
        "ref_unresolved",
        "uncited_evidence",
        "evidence_id_mismatch",
    ):
        _located(findings, code, file=MAP_PATH, ref=d.ref, evidence_id=d.evidence_id)
    elif name == "hidden_cited":
        hits = [f for f in findings if f.code == "link.hidden_cited"]
        assert len(hits) == 1 and hits[0].severity.value == "critical"
        locs = list(hits[0].locations)  # every row cites it: all of them located
        assert len(locs) == g.row_count and {loc.ref for loc in locs} == {d.ref}
        assert all(loc.row_id and loc.file and loc.line for loc in locs)
        assert len({(loc.file, loc.line) for loc in locs}) == g.row_count
    elif name == "orphan_evidence_id":
        _located(
            findings, code, file=d.file, line=d.line, row_id=d.row_id, evidence_id=d.evidence_id
        )
    elif name == "link_mismatch":
        f = _located(findings, code, row_id=d.row_id)
        assert f.location.key_path.startswith("row_evidence_links[")
        assert "evidence_ref_ids" in f.message
    elif name == "coverage_mismatch":
        _located(
            findings,
            code,
            file=MAP_PATH,
            key_path="coverage_statistics.resolved_evidence_ref_count",
        )
        _located(
            findings,
            code,
            file=QUALITY,
            key_path="source_evidence_map_coverage.resolved_evidence_ref_count",
        )
    elif name == "counts_mismatch":
        _located(
            findings,
            "count.rows_by_type",
            file=MANIFEST,
            key_path="rows_by_type.evaluation_example",
        )
        _located(
            findings,
            "count.rows_by_file",
            file=MANIFEST,
            key_path="training_row_counts_by_file.evaluation_examples.jsonl",
        )
    elif name == "orphan_list_mismatch":
        f = _located(findings, code, file=MAP_PATH, key_path="orphan_evidence_ref_ids")
        assert d.evidence_id in f.message
    elif name == "missing_row_id":
        f = _located(findings, code, file=d.file, line=d.line)
        assert f.location.row_id is None
    elif name in (
        "duplicate_row_id",
        "missing_lineage",
        "missing_domain",
        "missing_evidence_ids",
        "missing_core_input",
        "missing_core_target",
        "schema_version_mismatch",
        "row_id_mismatch",
        "row_hash_mismatch",
        "private_path",
        "forbidden_key",
        "secret_token",
    ):
        f = _located(findings, code, file=d.file, line=d.line, row_id=d.row_id)
        assert f.location.key_path
        if name == "forbidden_key":
            assert f.location.key_path == "task_lineage.buyer"
        if name == "secret_token":
            assert f.severity.value == "critical"
            secret = _secret_of(g, d)
            assert secret and secret not in f.message and "masked" in f.message
    elif name == "contract_drift":
        f = _located(findings, code, file=d.ref)
        assert f.location.contract and d.extra["column"] in f.message
    elif name == "copy_differs":
        _located(findings, code, file=d.file)
    elif name in ("malformed_line", "bad_encoding", "truncated_file"):
        _located(findings, code, file=d.file, line=d.line)
    elif name == "empty_file":
        _located(findings, code, file=d.file)
    elif name == "manifest_missing_file":
        _located(findings, code, file=MANIFEST, ref=d.file)
    else:
        raise AssertionError(f"no location rule for {name}")


def _secret_of(g, d) -> str:  # type: ignore[no-untyped-def]
    import orjson

    row = orjson.loads((g.root / d.file).read_bytes().splitlines()[d.line - 1])
    text = row["expected_output"] if "expected_output" in row else row["state_change"]
    for marker in ("sk-proj-", "Bearer ", "-----BEGIN"):
        if marker in text:
            return text[text.index(marker) :][:40]
    return ""


def test_contract_drift_columns(make_package) -> None:
    g = make_package(seed=2, defects=("contract_drift",))
    report = audit_package(g.root)
    d = g.defects[0]
    f = _located(report.findings, "contract.columns", file=d.ref)
    assert "balance_usd" in f.message and f.location.contract
    failing = [f for f in report.findings if f.code == "contract.checklist"]
    assert failing and "csv_tsv_headers_match" in failing[0].message
    assert {f.code for f in non_quirk(report)} == {"contract.columns", "contract.checklist"}


def test_huge_line_is_reported_not_parsed(make_package) -> None:
    g = make_package(defects=("huge_line",))
    report = audit_package(g.root)
    d = g.defects[0]
    _located(report.findings, "input.line_too_long", file=d.file, line=d.line)
    assert {f.code for f in non_quirk(report)} == {"input.line_too_long"}


@pytest.mark.parametrize(
    "name",
    [
        "hidden_cited",
        "row_hash_mismatch",
        "private_path",
        "malformed_line",
        "counts_mismatch",
        "symlink_out",
    ],
)
def test_defects_in_v01_packages(make_package, name: str) -> None:
    g = make_package(version="v0.1", defects=(name,))
    report = audit_package(g.root)
    want, _ = EXPECTED[name]
    assert want <= {f.code for f in non_quirk(report)}
    assert report.identity.format_version == "v0.1"

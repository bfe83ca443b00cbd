"""Codes no generator defect produces: a clean package edited by hand, one change each."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from audit_helpers import located

from aa_review.core.audits import audit_package
from aa_review.core.package import derive
from aa_review.core.package.catalog import MAP_PATH

EC = "experience_compiler"
FAILURES = f"{EC}/training_time_package/failure_cases.jsonl"
CHECKLIST = f"{EC}/runtime_learning_package/prefinal_verification_checklist.json"
MANIFEST = f"{EC}/compiler_manifest.json"
# Knock-on findings an edit after compiling always causes (the index describes the old bytes).
INDEX = {"artifacts.hash", "artifacts.size", "artifacts.missing"}


@pytest.fixture
def pkg(make_package, tmp_path: Path) -> Path:
    g = make_package(seed=1)
    root = tmp_path / g.root.name
    shutil.copytree(g.root, root, symlinks=True)
    return root


def edit_row(root: Path, change: Callable[[dict], None], line: int = 1) -> dict:
    """Change row ``line`` of failure_cases.jsonl and re-seal its content hash."""
    path = root / FAILURES
    lines = path.read_bytes().split(b"\n")
    row = json.loads(lines[line - 1])
    change(row)
    row["row_content_hash"] = derive.row_content_hash(row)
    lines[line - 1] = json.dumps(row).encode()
    path.write_bytes(b"\n".join(lines))
    return row


def edit_catalog(root: Path, ref: str, old: str, new: str) -> int:
    """Replace text in the catalog line of ``ref``; returns the entry's index."""
    path = root / MAP_PATH
    lines = path.read_text().split("\n")
    entries = [i for i, s in enumerate(lines) if s.strip().startswith('{"evidence_id"')]
    for k, i in enumerate(entries):
        if f'"ref": "{ref}"' in lines[i]:
            assert old in lines[i]
            lines[i] = lines[i].replace(old, new)
            path.write_text("\n".join(lines))
            return k
    raise AssertionError(ref)


def _text_key(row: dict) -> str:
    return next(k for k in ("expected_output", "state_change") if isinstance(row.get(k), str))


def test_hash_not_recorded_and_malformed(pkg: Path) -> None:
    ref = "input/fx_rates.csv"
    k = edit_catalog(pkg, ref, '"content_hash": "sha256:', '"content_hash": "md5:')
    report = audit_package(pkg)
    located(
        report.findings,
        "hash.malformed",
        file=ref,
        evidence_id=derive.evidence_id(ref),
        key_path=f"evidence_catalog[{k}].content_hash",
    )
    text = (pkg / MAP_PATH).read_text()
    (pkg / MAP_PATH).write_text(
        re.sub(r'"content_hash": "md5:[0-9a-f]+"', '"content_hash": null', text)
    )
    report = audit_package(pkg)
    located(report.findings, "hash.not_recorded", file=ref, ref=ref)
    assert "hash.row_disagrees" in {f.code for f in report.findings}  # rows still record it


def test_catalog_field_and_duplicate(pkg: Path) -> None:
    ref = "input/invoices.csv"
    k = edit_catalog(pkg, ref, '"evidence_type": "package_file"', '"evidence_type": "artifact"')
    report = audit_package(pkg)
    f = located(
        report.findings,
        "evidence.field_mismatch",
        file=MAP_PATH,
        ref=ref,
        key_path=f"evidence_catalog[{k}].evidence_type",
    )
    assert "package_file" in f.message
    path = pkg / MAP_PATH
    lines = path.read_text().split("\n")
    i = next(i for i, s in enumerate(lines) if f'"ref": "{ref}"' in s)
    lines.insert(i + 1, lines[i])
    path.write_text("\n".join(lines))
    report = audit_package(pkg)
    located(
        report.findings,
        "evidence.duplicate",
        file=MAP_PATH,
        ref=ref,
        key_path=f"evidence_catalog[{k + 1}]",
    )


@pytest.mark.parametrize(
    ("change", "code", "key"),
    [
        (
            lambda r: r.update(visible_input_refs=["./" + r["visible_input_refs"][0]]),
            "ref.not_normalized",
            "visible_input_refs[0]",
        ),
        (
            lambda r: r.update(accepted=False, rejection_reason="quality_score_below_threshold"),
            "row.not_accepted",
            "accepted",
        ),
        (lambda r: r.update(quality_score=0.3), "row.low_score", "quality_score"),
        (
            lambda r: r.update({_text_key(r): r[_text_key(r)] + " sold on the marketplace"}),
            "privacy.forbidden_token",
            None,
        ),
        (
            lambda r: r.update({_text_key(r): r[_text_key(r)] + " (curated list)"}),
            "privacy.unsanitized_text",
            None,
        ),
    ],
)
def test_row_level_codes(pkg: Path, change, code: str, key: str | None) -> None:  # type: ignore[no-untyped-def]
    row = edit_row(pkg, change)
    report = audit_package(pkg)
    f = located(report.findings, code, file=FAILURES, line=1, row_id=row["row_id"])
    if key:
        assert f.location.key_path == key
    else:
        assert f.location.key_path == _text_key(row)
    unrelated = {x.code for x in report.findings if not x.quirk} - {code} - INDEX
    assert unrelated == set(), unrelated


def test_row_in_the_wrong_file(pkg: Path) -> None:
    row = edit_row(pkg, lambda r: r.update(data_type="task_variant"))
    report = audit_package(pkg)
    located(report.findings, "row.data_type", file=FAILURES, line=1, row_id=row["row_id"])


def test_contract_codes(pkg: Path) -> None:
    gone = "attempts/revised/artifacts/vendor_totals.csv"
    (pkg / gone).unlink()
    summary = pkg / "attempts/revised/artifacts/audit_summary.json"
    doc = json.loads(summary.read_text())
    del doc["matched"]
    doc["total_invoices"] = str(doc["total_invoices"])
    summary.write_text(json.dumps(doc, indent=2))
    checklist = json.loads((pkg / CHECKLIST).read_text())
    checklist["required_output_count"] += 1
    (pkg / CHECKLIST).write_text(json.dumps(checklist, indent=2))
    report = audit_package(pkg)
    f = located(report.findings, "contract.missing_file", file=gone)
    assert f.location.contract.startswith("transfer_checklist.artifact_contracts[")
    f = located(report.findings, "contract.json_keys", file=str(summary.relative_to(pkg)))
    assert "matched" in f.message
    located(report.findings, "contract.json_types", file=str(summary.relative_to(pkg)))
    located(report.findings, "contract.mismatch", file=CHECKLIST, key_path="required_output_count")
    exists = located(report.findings, "contract.checklist", file=gone)
    assert "required_files_exist" in exists.message


def test_copy_missing_and_index(pkg: Path) -> None:
    copy = f"{EC}/reward/preference_pairs.jsonl"
    (pkg / copy).unlink()
    (pkg / "README.md").write_text("edited after compiling\n")
    report = audit_package(pkg)
    located(report.findings, "copy.missing", file=copy)
    located(report.findings, "artifacts.missing", file="artifacts_index.json", ref=copy)
    located(report.findings, "artifacts.hash", file="artifacts_index.json", ref="README.md")
    located(report.findings, "artifacts.size", file="artifacts_index.json", ref="README.md")


def test_manifest_schema_and_derived_counts(pkg: Path) -> None:
    m = json.loads((pkg / MANIFEST).read_text())
    m["source_evidence_map_schema_version"] = "aa-source-evidence-map-v0.1"
    (pkg / MANIFEST).write_text(json.dumps(m, indent=2))
    ps = pkg / f"{EC}/training_time_package/process_supervision.jsonl"
    ps.write_bytes(b"".join(ps.read_bytes().splitlines(keepends=True)[:-1]))
    report = audit_package(pkg)
    located(
        report.findings,
        "manifest.schema_version",
        file=MANIFEST,
        key_path="source_evidence_map_schema_version",
    )
    located(report.findings, "count.derived", file=str(ps.relative_to(pkg)))


def test_quirks_are_located(make_package) -> None:
    report = audit_package(make_package().root)
    quirks = [f for f in report.findings if f.quirk]
    assert quirks and all(f.location.file for f in quirks)
    recipe = located(quirks, "quirk.recipe_absent", file=MANIFEST)
    assert recipe.location.ref.endswith("compiler_recipe.json") and recipe.location.key_path


def test_crlf_is_a_quirk_and_a_bad_byte_is_located(pkg: Path) -> None:
    """Format 7.3/12.5: a CRLF file keeps its catalog hash (the quirk explains the byte hash
    differing); a non-UTF-8 byte is a warning naming its offset, since the text-mode hash
    replaces it with U+FFFD and so does not bind the file's bytes."""
    ref = "input/reconciliation_policy.md"
    path = pkg / ref
    lf = path.read_bytes()
    compiled = derive.content_hash_bytes(lf)
    crlf = lf.replace(b"\n", b"\r\n")
    path.write_bytes(crlf)
    report = audit_package(pkg)
    located(report.findings, "quirk.hash_conventions", file=ref)
    assert not {"input.evidence_encoding", "hash.changed"} & {f.code for f in report.findings}
    bad = crlf.replace(b"Resolve", b"R\xe9solve", 1)
    path.write_bytes(bad)
    edit_catalog(pkg, ref, compiled, derive.content_hash_bytes(bad))  # as the compiler hashes
    offset = bad.index(b"\xe9")
    report = audit_package(pkg)
    f = located(
        report.findings,
        "input.evidence_encoding",
        file=ref,
        ref=ref,
        byte_offset=offset,
        line=bad[:offset].count(b"\n") + 1,
    )
    assert f.severity.value == "warning" and f"byte {offset:,}" in f.message
    located(report.findings, "quirk.hash_conventions", file=ref)
    # why it is reported: another byte there leaves the catalog hash unchanged
    assert derive.content_hash_bytes(bad.replace(b"\xe9", b"\xff")) == derive.content_hash_bytes(
        bad
    )
    others = {x.code for x in report.findings if not x.quirk} - INDEX - {"hash.row_disagrees"}
    assert others == {"input.evidence_encoding"}, others

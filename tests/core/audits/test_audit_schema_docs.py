"""The shipped JSON Schema and docs/findings.md stay in step with the code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from aa_review.cli import main
from aa_review.core.audits import CHECKS, CODES, AuditDocument, AuditReport
from aa_review.core.audits._schema import SCHEMA_PATH, schema_text

DOCS = Path(__file__).resolve().parents[3] / "docs" / "findings.md"


def test_shipped_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "regenerate with: python -m aa_review.core.audits._schema"
    )


def _validator():  # type: ignore[no-untyped-def]
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_schema_names_its_dialect_and_id() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("urn:aa-review:schema:audit-report:")


def test_real_output_validates_against_the_schema(tmp_path, make_package, capsys) -> None:
    import shutil

    from aa_review.generator import generate_package

    g = generate_package(
        tmp_path / "one",
        rows=60,
        seed=2,
        defects=["hidden_cited", "row_hash_mismatch"],
        defect_rows={"hidden_cited": 9, "row_hash_mismatch": 4},
    )
    validator = _validator()
    for extra in ([], ["--query", "severity:error"], ["--check", "row.hash_mismatch"]):
        assert main(["audit", str(g.root), "--json", *extra]) == 1
        doc = json.loads(capsys.readouterr().out)
        errors = sorted(validator.iter_errors(doc), key=str)
        assert not errors, errors[0]
        assert any(f["location_count"] > 1 for f in doc["findings"]) or extra
    # a multi-row finding lists every row in the output
    assert main(["audit", str(g.root), "--json", "--check", "link.hidden_cited"]) == 1
    doc = json.loads(capsys.readouterr().out)
    hidden = doc["findings"][0]
    assert hidden["location_count"] == len(hidden["locations"]) == 9
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copytree(g.root, corpus / g.root.name)
    shutil.copytree(make_package(seed=3).root, corpus / "clean")
    (corpus / "not_a_package").mkdir()
    for extra in ([], ["--query", "code:link"]):
        assert main(["audit", str(corpus), "--json", "--workers", "1", *extra]) == 2
        doc = json.loads(capsys.readouterr().out)
        errors = sorted(validator.iter_errors(doc), key=str)
        assert doc["kind"] == "corpus" and not errors, errors[0]
    # the schema is not a rubber stamp: a report missing its counts is refused
    broken = dict(doc["entries"][0]["report"])
    del broken["locations"]
    assert not validator.is_valid(broken)


def test_cli_output_validates_against_the_models(make_package, capsys) -> None:
    g = make_package(defects=("secret_token",))
    assert main(["audit", str(g.root), "--json"]) == 1
    out = capsys.readouterr().out
    doc = AuditDocument.model_validate_json(out)
    assert isinstance(doc.root, AuditReport)
    # Round trip: nothing in the output is unknown to (or dropped by) the models.
    assert json.loads(doc.model_dump_json()) == json.loads(out)
    schema = json.loads(SCHEMA_PATH.read_text())
    required = schema["$defs"]["AuditReport"]["required"]
    assert set(required) <= set(json.loads(out))


def test_every_code_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \|", text, re.M))
    registered = {c for ch in CHECKS.values() for c in ch.codes} | set(CODES)
    assert registered - documented == set(), "document these in docs/findings.md"
    assert documented - set(CODES) == set(), "docs name codes the engine does not have"
    for name in CHECKS:
        assert f"| `{name}` |" in text


def test_quirk_codes_are_low() -> None:
    quirks = [info for info in CODES.values() if info.quirk]
    assert quirks and all(info.severity.value == "low" for info in quirks)
    assert all(info.code.startswith("quirk.") or info.code == "ref.prefix_only" for info in quirks)

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
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), \
        "regenerate with: python -m aa_review.core.audits._schema"


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
    assert all(info.code.startswith("quirk.") or info.code == "ref.prefix_only"
               for info in quirks)

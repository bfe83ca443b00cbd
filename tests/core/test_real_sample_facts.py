"""The generator's stand-in against the real sample's recorded facts, on every clone.

The real sample (``../shared/samples``) is not part of a clone. What the tests need of it
is recorded in ``tests/data/real_sample_facts.json``: each file's digest and the digest
of its JSON shape, the line indents of the hand-laid files, the evidence kinds, the rows
per type and the audit's findings. The stand-in every test opens is held to those here;
when the real sample is beside the checkout, the record is held to it as well (and
``test_generator.py`` / ``audits/test_audit_clean.py`` compare the two directly).

Rewrite the record after a deliberate change of the real sample with
``python tests/core/test_real_sample_facts.py [SAMPLE_FOLDER]``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from test_generator import EC, MAP, indents, json_shapes, load, tree

from aa_review.core.audits import audit_package

RECORD = Path(__file__).resolve().parents[1] / "data" / "real_sample_facts.json"
# The files the compiler lays out by hand (one entry, link or step per line).
CUSTOM = (
    "artifacts_index.json",
    MAP,
    "attempts/baseline/agent_trace.json",
    "attempts/revised/agent_trace.json",
)
MANIFEST = EC + "compiler_manifest.json"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def facts(root: Path) -> dict[str, Any]:
    """What the tests compare of a package: the same for the real sample and its stand-in."""
    files, shapes = tree(root), json_shapes(root)
    report = audit_package(root)
    catalog = load(root, MAP)["evidence_catalog"]
    return {
        "files": {
            rel: {
                "sha256": _digest(data),
                "shape": _digest(json.dumps(shapes[rel]).encode()) if rel in shapes else None,
            }
            for rel, data in files.items()
        },
        "indents": {rel: sorted(set(indents(files[rel]))) for rel in CUSTOM},
        "evidence_type": sorted({e["evidence_type"] for e in catalog}),
        "visibility": sorted({e["visibility"] for e in catalog}),
        "rows_by_type": load(root, MANIFEST)["rows_by_type"],
        "audit": {
            "rows": report.counts.rows,
            "links": report.counts.links,
            "findings": [[f.code, f.location.short()] for f in report.findings],
        },
    }


def recorded() -> dict[str, Any]:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_the_record_is_the_real_sample(real_sample: Path) -> None:
    """Beside the real sample (else skipped): the record still describes it."""
    assert facts(real_sample) == recorded(), (
        "the real sample changed: rewrite the record (see this module's docstring)"
    )


def test_the_stand_in_has_the_recorded_sample_shapes(generated_sample: Path) -> None:
    """The stand-in every other test opens has the real sample's files and shapes."""
    want, ours = recorded(), facts(generated_sample)
    assert list(ours["files"]) == list(want["files"])
    assert {r: f["shape"] for r, f in ours["files"].items()} == {
        r: f["shape"] for r, f in want["files"].items()
    }
    same = [r for r, f in ours["files"].items() if f["sha256"] == want["files"][r]["sha256"]]
    assert len(same) > len(ours["files"]) // 2  # all not drawn from the seed is byte-identical
    for key in ("indents", "evidence_type", "visibility", "rows_by_type"):
        assert ours[key] == want[key], key


def test_the_stand_in_is_written_as_the_compiler_writes(generated_sample: Path) -> None:
    """The compiler's writers: indent=2 files, ``json.dumps`` lines, hand-laid CUSTOM files."""
    for rel, data in tree(generated_sample).items():
        if rel.endswith(".jsonl"):
            assert all(json.dumps(json.loads(x)) == x.decode() for x in data.splitlines()), rel
        elif rel.endswith(".json") and rel not in CUSTOM:
            assert data.decode() == json.dumps(json.loads(data), indent=2) + "\n", rel


def test_the_stand_in_audits_as_the_real_sample_did(generated_sample: Path) -> None:
    """Clean but for the real sample's quirks: the same findings, at the same places."""
    want = recorded()["audit"]
    report = audit_package(generated_sample)
    assert [[f.code, f.location.short()] for f in report.findings] == want["findings"]
    assert (report.counts.rows, report.counts.links) == (want["rows"], want["links"]) == (60, 60)
    assert all(f.quirk and f.severity.value == "low" for f in report.findings)
    assert {
        "quirk.recipe_absent",
        "quirk.tdo_compiler_id",
        "quirk.trajectory_traces_ref",
        "quirk.shared_contract_path",
        "quirk.checklist_ref_prefix",
    } <= {f.code for f in report.findings}
    for f in report.findings:  # a quirk says why it is not a defect
        assert "(format 12." in f.message


if __name__ == "__main__":
    sys.path.insert(0, str(RECORD.parents[1]))
    from conftest import SAMPLE_ID, real_samples_dir

    sample = Path(sys.argv[1]) if len(sys.argv) > 1 else real_samples_dir() / SAMPLE_ID
    RECORD.write_text(json.dumps(facts(sample), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.name} from {sample.name}")

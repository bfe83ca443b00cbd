"""A generated package whose rows vary (confidence, quality, evidence cited), built once."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from aa_review.core.package import Package, open_package
from aa_review.generator import generate_package

# Stored values cycled over the rows; None removes the field. 0.9299999999999999 is
# shown as 0.930; 0.0625 and 0.3125 are binary ties that the table rounds to even.
CONFIDENCES = [
    0.9299999999999999,
    0.93,
    0.7,
    0.6999,
    0.65,
    0.5,
    0.0625,
    0.3125,
    1.0,
    None,
    0.123456,
    0.85,
]
QUALITIES = [0.91, 0.5, 0.75, 0.9099999999999999, None, 0.2]


def vary_rows(root: Path) -> None:
    """Rewrite every row file: spread confidence and quality, cite fewer evidence ids
    (a third of the rows keep the hidden item), so every filter has something to find."""
    pkg = open_package(root)
    hidden = {e.evidence_id for e in pkg.catalog if e.visibility == "hidden_excluded"}
    i = 0
    for rel in pkg.index.files:
        path = root / rel
        out = []
        for line in path.read_bytes().splitlines():
            if not line.strip():
                out.append(line)
                continue
            row = orjson.loads(line)
            for key, values in (("confidence", CONFIDENCES), ("quality_score", QUALITIES)):
                value = values[i % len(values)]
                if value is None:
                    row.pop(key, None)
                else:
                    row[key] = value
            ids = [
                e for e in row.get("source_evidence_ref_ids") or [] if e not in hidden or i % 3 == 0
            ]
            row["source_evidence_ref_ids"] = ids[: len(ids) - i % 4]
            out.append(orjson.dumps(row))
            i += 1
        path.write_bytes(b"\n".join(out) + b"\n")


@pytest.fixture(scope="session")
def varied_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = generate_package(
        tmp_path_factory.mktemp("query"),
        rows=120,
        seed=3,
        defects=["hidden_cited", "private_path", "missing_lineage"],
    ).root
    vary_rows(root)
    return root


@pytest.fixture(scope="session")
def pkg(varied_root: Path) -> Package:
    return open_package(varied_root)


@pytest.fixture(scope="session")
def audit_findings(pkg: Package) -> list:
    from aa_review.core.audits import audit_package

    return list(audit_package(pkg, digest=False).findings)

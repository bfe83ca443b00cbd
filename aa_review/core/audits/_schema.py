"""The shipped JSON Schema (2020-12) of ``aa-review audit --json`` output, generated from
the models as they serialize: every key the output always has is required.

Regenerate after changing a model: ``python -m aa_review.core.audits._schema``; change
``SCHEMA_ID`` in ``_model.py`` when the output changes shape.
"""

from __future__ import annotations

import json
from pathlib import Path

from aa_review.core.audits._model import AuditDocument

__all__ = ["SCHEMA_PATH", "schema_text"]

SCHEMA_PATH = Path(__file__).with_name("audit_report.schema.json")


def schema_text() -> str:
    """The schema as shipped: sorted keys, 2-space indent, final newline."""
    return json.dumps(AuditDocument.schema_dict(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")

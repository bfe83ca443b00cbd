"""Regenerate tests/data/dossier/*.json: ``python tests/core/dossier/make_fixtures.py``.

The golden files are data; this script only documents how they were made. The
passing dossier and the archive come from the same builders as the demo workspace.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from dossier_builder import DATA, LEAD2, relink_all

from aa_review.core.dossier import json_digest, section_digests
from aa_review.demo._sample_archive import SAMPLE_PRINCIPALS, h, sample_archive
from aa_review.demo._sample_dossier import sample_dossier


def write(name: str, tree: object) -> None:
    (DATA / name).write_text(json.dumps(tree, indent=2, ensure_ascii=False) + "\n", "utf-8")


ARCHIVE = sample_archive()
PRINCIPALS = {"principals": SAMPLE_PRINCIPALS}

if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    passing = sample_dossier(ARCHIVE)
    write("principals.json", PRINCIPALS)
    write("archive.json", ARCHIVE)
    write("dossier_passing.json", passing)
    # The demo's call shape (far expiry, a bound package), for test_dossier_sample.py.
    bound_sample = sample_dossier(
        ARCHIVE,
        expires_at="2099-12-31T00:00:00Z",
        source_packages=[{"package_id": "pkg_demo", "package_digest": h("pkg_demo")}],
    )
    (DATA / "sample_dossier_bound.json").write_text(
        json.dumps(bound_sample, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8"
    )

    bound = copy.deepcopy(passing)
    bound["state"] = "evidence_bound"
    bound["revision"] = 1
    bound["dossier_id"] = "dos-bound-2b71"
    bound["binding"] = {
        "evidence_digest": json_digest(bound["evidence"]),
        "section_digests": section_digests(bound["evidence"]),
        "bound_by": LEAD2,
        "bound_at": "2026-02-22T00:00:00Z",
    }
    write("dossier_evidence_bound.json", bound)

    contaminated = copy.deepcopy(passing)
    contaminated["dossier_id"] = "dos-contam-51e0"
    contaminated["evidence"]["dataset_plan"]["training_source_items"] += [
        "item-cal-1",
        "item-exploit",
        "item-leak",
    ]
    relink_all(contaminated)
    write("dossier_failing_contaminated.json", contaminated)

    weak = copy.deepcopy(passing)
    weak["dossier_id"] = "dos-weak-0c44"
    weak["evidence"]["power_analysis"]["parameters"]["clusters_per_arm"] = 6
    relink_all(weak)  # claims now overstate the power of the smaller design
    write("dossier_failing_underpowered.json", weak)

    thin = copy.deepcopy(passing)
    thin["dossier_id"] = "dos-thin-9d12"
    for section in ("recurrence", "lower_rungs", "cost_envelope", "expiry"):
        del thin["evidence"][section]
    thin["authorization"] = None
    write("dossier_failing_missing.json", thin)
    print("fixtures written to", DATA)

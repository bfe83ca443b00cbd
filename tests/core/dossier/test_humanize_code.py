"""Reason codes read as words in the journal and tables; the ids they name stay exact."""

from aa_review.core.dossier._preview import humanize_code
from aa_review.core.dossier._timeline import _what


def test_gate_codes_read_as_words() -> None:
    assert humanize_code("G1_POWER_BELOW_TARGET") == "G1: power below target"
    assert humanize_code("DOSSIER_EPOCH_CHANGED") == "dossier epoch changed"


def test_the_package_id_after_the_colon_keeps_its_underscores() -> None:
    # Seen in the journal: "dossier package changed:pkg demo 01" for pkg_demo_01.
    assert (
        humanize_code("DOSSIER_PACKAGE_CHANGED:pkg_demo_01")
        == "dossier package changed: pkg_demo_01"
    )


def test_an_expiry_entry_names_the_bound_package_as_bound() -> None:
    what, outcome = _what(
        "transition",
        {"action": "expire", "reasons": ["DOSSIER_PACKAGE_CHANGED:pkg_x_y"]},
        "expired",
    )
    assert "pkg_x_y" in what and outcome == "applied"

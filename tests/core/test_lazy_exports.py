"""The one mechanism behind the core packages' names imported on first use."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "package", ["aa_review.core.package", "aa_review.core.diff", "aa_review.core.contracts"]
)
def test_an_unknown_name_is_an_attribute_error_naming_the_package(package: str) -> None:
    import importlib

    mod = importlib.import_module(package)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nope'"):
        mod.nope  # noqa: B018
    assert dir(mod) == sorted(mod.__all__)


def test_a_name_is_imported_on_first_use_and_kept() -> None:
    """In a fresh interpreter: importing the package imports none of its submodules; a
    name asked for imports its own, and is then a plain global of the package."""
    code = (
        "import sys, aa_review.core.contracts as c\n"
        "assert 'aa_review.core.contracts._entries' not in sys.modules\n"
        "f = c.contract_entries\n"
        "assert 'aa_review.core.contracts._entries' in sys.modules\n"
        "assert vars(c)['contract_entries'] is f\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_audit_registry_is_filled_before_it_is_read() -> None:
    code = (
        "import aa_review.core.audits as a\n"
        "selected, _ = a.resolve_selection(None)  # before anything imports the checks\n"
        "assert selected, 'no check registered'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)

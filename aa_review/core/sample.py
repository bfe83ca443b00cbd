"""The bundled demo: a generated package (and dossier workspace) shipped inside aa_review."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["bundled_sample_dir", "bundled_package", "bundled_workspace", "SAMPLE_PACKAGE_ID"]

SAMPLE_PACKAGE_ID = "pkg_demo_invoice_reconciliation"


def bundled_sample_dir() -> Path:
    """Folder holding the demo package and its dossier workspace (inside the installed package)."""
    return Path(str(resources.files("aa_review") / "data" / "sample"))


def bundled_package() -> Path:
    return bundled_sample_dir() / SAMPLE_PACKAGE_ID


def bundled_workspace() -> Path:
    return bundled_sample_dir() / "dossier_workspace"

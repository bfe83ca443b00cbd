"""The demo package the window opens by default, made by the embedded generator on first use.

It is written to the user's data folder, not inside the installed program: the
dossier workspace beside it is meant to be stepped through its states, which
writes a journal. Generation is deterministic, so every user gets the same bytes.
The demo workspace is several people on one machine: the keys of all its principals
are in this user's key store (the window and ``aa-review dossier status`` say so).

The demo is varied (rows cite subsets of a 64-item catalog, scores spread, a few
rows under the compiler's score threshold) and carries a few defects, so that every
linked view and every severity shows something on first run. No row cites hidden
evidence: the demo dossier binds this package, and its ready dossier must pass G9.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from aa_review import __version__

__all__ = [
    "SAMPLE_PACKAGE_ID",
    "SAMPLE_ROWS",
    "SAMPLE_SEED",
    "SAMPLE_DEFECTS",
    "sample_home",
    "ensure_sample",
    "sample_ready",
    "bundled_package",
    "bundled_workspace",
    "generate_demo",
]

SAMPLE_PACKAGE_ID = "pkg_demo_invoice_reconciliation"
SAMPLE_ROWS = 120
SAMPLE_SEED = 7
# One finding or more of each severity: a secret (critical), an edited row and an edited
# evidence file (error), a contract column holding text (warning); the quirks are low.
SAMPLE_DEFECTS = ("secret_token", "row_hash_mismatch", "hash_changed", "contract_drift")
_MARKER = ".aa-review-sample-complete"
# Raised whenever what the demo holds changes within a version (its package, its dossier
# workspace, the journal's format), so that a demo written by an earlier build is left as
# it is and a fresh one is made beside it: a workspace is never rewritten under its user.
DEMO_REVISION = 2


def sample_home() -> Path:
    """Where the demo lives: ``$AA_REVIEW_SAMPLE_DIR``, else the XDG data folder.

    The folder is named after the version and :data:`DEMO_REVISION`
    (``sample-0.1.0-r2``): a new demo never replaces one a user may have worked in.
    """
    env = os.environ.get("AA_REVIEW_SAMPLE_DIR")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "aa-review" / f"sample-{__version__}-r{DEMO_REVISION}"


def sample_ready(home: Path | None = None) -> bool:
    """Whether the demo is already made (opening it then takes no generating)."""
    return (Path(home or sample_home()) / _MARKER).exists()


def ensure_sample(
    home: Path | None = None, progress: Callable[[tuple[str, float]], None] | None = None
) -> Path:
    """Create the demo (package and dossier workspace) unless it is already complete.

    Returns the folder holding both. Written into a temporary sibling and renamed,
    so an interrupted first run never leaves half a package behind. ``progress`` is
    told each stage, as ``(what, fraction done)``.
    """
    home = Path(home or sample_home())
    if sample_ready(home):
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".sample-", dir=home.parent))
    say = progress or (lambda _p: None)
    try:
        say(("the package", 0.05))
        generate_demo(tmp)
        say(("its dossier workspace", 0.8))
        _write_workspace(tmp)
        (tmp / _MARKER).write_text(f"aa-review {__version__}\n")
        if home.exists():
            shutil.rmtree(home)
        os.replace(tmp, home)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return home


def generate_demo(folder: Path) -> Path:
    """Write the demo package into ``folder`` (its root is ``folder/SAMPLE_PACKAGE_ID``)."""
    from aa_review.generator import Variation, generate_package

    # Hidden items are catalogued but never cited (hidden_every=0): see the module docstring.
    variation = Variation(items=64, hidden=2, hidden_every=0, low_score_every=40)
    return generate_package(
        folder,
        rows=SAMPLE_ROWS,
        seed=SAMPLE_SEED,
        package_id=SAMPLE_PACKAGE_ID,
        defects=SAMPLE_DEFECTS,
        variation=variation,
    ).root


def _write_workspace(folder: Path) -> None:
    """The demo dossier workspace beside the package, binding it."""
    from aa_review.demo.sample import write_sample_workspace

    write_sample_workspace(folder / "dossier_workspace", folder / SAMPLE_PACKAGE_ID)


def bundled_package() -> Path:
    return ensure_sample() / SAMPLE_PACKAGE_ID


def bundled_workspace() -> Path:
    return ensure_sample() / "dossier_workspace"

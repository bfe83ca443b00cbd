"""A saved review session: package, filters, selection and layout, with relative paths."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aa_review.core.util.atomic import atomic_write
from aa_review.core.util.errors import AAReviewError

__all__ = ["SessionState", "save_session", "load_session", "SESSION_SUFFIX"]

SESSION_SUFFIX = ".aareview.json"


class SessionState(BaseModel):
    """What a session file holds. ``package`` is relative to the session file's folder."""

    model_config = ConfigDict(extra="ignore")

    version: int = 1
    package: str | None = Field(None, description="Package folder, relative to this file")
    rows_query: str = ""
    findings_query: str = ""
    selected_row_id: str | None = None
    selected_evidence_id: str | None = None
    selected_contract: str | None = None
    central_tab: int = 0
    layout: str | None = Field(None, description="QMainWindow.saveState(), base64")
    subsets: dict[str, list[str]] = Field(
        default_factory=dict, description="Named subsets: their rows by row id"
    )
    active_subset: str | None = None


def save_session(path: Path, state: SessionState, package_root: Path | None) -> None:
    """Write ``state`` atomically; the package path is stored relative to ``path``'s folder."""
    path = Path(path)
    rel = None
    if package_root is not None:
        rel = Path(os.path.relpath(Path(package_root).resolve(), path.resolve().parent)).as_posix()
    doc = state.model_copy(update={"package": rel}).model_dump(mode="json")
    atomic_write(path, lambda fh: fh.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2)), "wb")


def load_session(path: Path) -> tuple[SessionState, Path | None]:
    """Read a session file; returns the state and the package folder it names (absolute)."""
    path = Path(path)
    try:
        state = SessionState.model_validate(orjson.loads(path.read_bytes()))
    except (OSError, orjson.JSONDecodeError, ValidationError) as exc:
        raise AAReviewError(f"{path}: not a usable aa-review session ({exc})") from None
    pkg = (path.resolve().parent / state.package).resolve() if state.package else None
    return state, pkg

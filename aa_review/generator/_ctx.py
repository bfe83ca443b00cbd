"""Shared state while one package is written: paths, scenario, plan, clock, versions, hooks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._clock import Clock
from ._jsonfast import dumps_file, dumps_line
from ._plan import TracePlan
from ._scenario import Scenario

__all__ = ["Ctx", "Versions", "VERSIONS"]


@dataclass(frozen=True)
class Versions:
    """Schema and tool version strings of one compiler generation."""

    compiler: str
    row: str
    evidence_map: str
    package: str
    environment: str
    replay: str
    setup: str
    reset: str
    eval: str


VERSIONS = {
    "v0.2": Versions(
        "aa-experience-compiler-v0.2",
        "aa-training-row-v0.2",
        "aa-source-evidence-map-v0.2",
        "0.2.1",
        "aa-environment-package-v0.2",
        "aa-replay-plan-v0.2",
        "aa-environment-setup-v0.2",
        "aa-environment-reset-v0.2",
        "aa-eval-package-v0.2",
    ),
    "v0.1": Versions(
        "aa-experience-compiler-v0.1",
        "aa-training-row-v0.1",
        "aa-source-evidence-map-v0.1",
        "0.1.9",
        "aa-environment-package-v0.1",
        "aa-replay-plan-v0.1",
        "aa-environment-setup-v0.1",
        "aa-environment-reset-v0.1",
        "aa-eval-package-v0.1",
    ),
}


@dataclass
class Ctx:
    """Everything the writers of one package share.

    ``text_hooks`` let a defect rewrite a file's text as it is written (so every
    hash computed later sees the final bytes); ``state`` carries values computed
    by one stage for later ones (evidence refs, contracts, counts, ...).
    """

    root: Path
    sc: Scenario
    plan: TracePlan
    clock: Clock
    seed: int
    version: str
    text_hooks: dict[str, Callable[[str], str]] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    variation: Any = None  # a _variation.Variation: rows cite subsets, scores spread

    @property
    def v(self) -> Versions:
        return VERSIONS[self.version]

    @property
    def pkg(self) -> str:
        return self.sc.package_id

    @property
    def v02(self) -> bool:
        return self.version == "v0.2"

    def path(self, rel: str) -> Path:
        return self.root / rel

    def write_text(self, rel: str, text: str) -> None:
        """Write a UTF-8 text file (LF newlines), after any defect hook for ``rel``.

        A hook may put a byte that is not UTF-8 into the file as a surrogate escape
        (``"\\udce9"`` is the byte 0xE9).
        """
        hook = self.text_hooks.get(rel)
        if hook is not None:
            text = hook(text)
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n", errors="surrogateescape") as fh:
            fh.write(text)

    def write_json(self, rel: str, obj: Any) -> None:
        """Write a JSON file as the compiler does (``indent=2`` and a newline)."""
        self.write_text(rel, dumps_file(obj))

    def write_jsonl(self, rel: str, rows: list[dict[str, Any]]) -> None:
        """Write small JSONL files with ``json.dumps`` lines."""
        self.write_text(rel, "".join(dumps_line(r) + "\n" for r in rows))

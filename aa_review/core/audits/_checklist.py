"""The pre-final checklist as findings (the core evaluates it), its contract refs and counts."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from aa_review.core.contracts import checklist
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.documents import DOC_PATHS
from aa_review.core.package.layout import EC_DIR

if TYPE_CHECKING:
    from aa_review.core.audits._context import AuditContext
    from aa_review.core.contracts import FileCheck
    from aa_review.core.package.model import Package

__all__ = ["evaluate_checklist"]


def evaluate_checklist(
    pkg: Package, ctx: AuditContext, checks: Sequence[FileCheck]
) -> Iterator[Finding]:
    """A finding per failing check, as the Contracts tab evaluates it; then the refs and counts."""
    cl = pkg.docs.checklist
    if cl is None:
        return
    for i, result in enumerate(checklist(pkg, checks)):
        if result.status == "fail" and ctx.on("contract.checklist"):
            more = len(result.failed) - 5
            yield ctx.finding(
                "contract.checklist",
                f"{result.check_id} fails: "
                f"{result.failure(5)}" + (f" and {more} more (each located)" if more > 0 else ""),
                locations=Locations.columns(
                    len(result.failed),
                    file=list(result.failed),
                    contract=f"prefinal_verification_checklist.checks[{i}]",
                    key_path=f"checks[{i}]",
                ),
            )
    yield from _refs_and_counts(pkg, ctx, cl, DOC_PATHS["checklist"])


def _refs_and_counts(pkg: Package, ctx: AuditContext, cl: Any, path: str) -> Iterator[Finding]:
    for key in ("output_contract_ref", "artifact_contract_ref"):
        ref = getattr(cl, key)
        if not isinstance(ref, str) or pkg.safe.exists(ref):
            continue
        if pkg.safe.exists(f"{EC_DIR}/{ref}"):
            if ctx.on("quirk.checklist_ref_prefix"):
                yield ctx.finding(
                    "quirk.checklist_ref_prefix",
                    f"{key} {ref!r} lacks the "
                    f"'{EC_DIR}/' prefix (format 12.18); it names "
                    f"{EC_DIR}/{ref}",
                    file=path,
                    key_path=key,
                )
        elif ctx.on("contract.mismatch"):
            yield ctx.finding(
                "contract.mismatch",
                f"{key} {ref!r} names no contract file",
                file=path,
                key_path=key,
            )
    for key, doc, attr in (
        ("required_output_count", pkg.docs.output_contract, "required_outputs"),
        ("required_artifact_count", pkg.docs.artifact_contract, "required_artifacts"),
    ):
        have = getattr(cl, key)
        if (
            doc is not None
            and have is not None
            and have != len(getattr(doc, attr))
            and ctx.on("contract.mismatch")
        ):
            yield ctx.finding(
                "contract.mismatch",
                f"{key} is {have}, the contract lists {len(getattr(doc, attr))}",
                file=path,
                key_path=key,
            )

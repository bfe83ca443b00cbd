"""Typed, frozen views of a package's JSON documents; unknown fields are kept."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Record",
    "Evidence",
    "CoverageStatistics",
    "CompilerManifest",
    "CompilerReport",
    "QualityReport",
    "EvidenceMapHeader",
    "RowLink",
    "ContractItem",
    "OutputContract",
    "ArtifactContract",
    "ChecklistItem",
    "PrefinalChecklist",
]


class Record(BaseModel):
    """Base of every package document: frozen, lenient, and keeping unknown keys.

    Packages come from several compiler versions; a key this version does not
    know is kept in ``model_extra`` (and shown), never dropped.
    """

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    def extras(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class Evidence(Record):
    """One catalogued evidence item (``source_evidence_map.evidence_catalog[]``)."""

    evidence_id: str = Field(description="'evidence_' + 16 hex of SHA-256(ref)")
    ref: str = Field(description="Package-relative POSIX path")
    evidence_type: str | None = None
    visibility: str | None = Field(None, description="visible | hidden_excluded | inferred")
    resolves: bool | None = None
    content_hash: str | None = Field(None, description="'sha256:' + hex, or null")
    confidence: float | None = None


class CoverageStatistics(Record):
    evidence_ref_count: int | None = None
    resolved_evidence_ref_count: int | None = None
    unresolved_evidence_ref_count: int | None = None
    row_link_count: int | None = None
    row_count_with_evidence_ids: int | None = None
    orphan_evidence_id_count: int | None = None


class CompilerManifest(Record):
    """``experience_compiler/compiler_manifest.json``."""

    schema_version: str | None = None
    training_row_schema_version: str | None = None
    source_evidence_map_schema_version: str | None = None
    package_version: str | None = None
    compiler_id: str | None = None
    compiler_status: str | None = None
    source_package_id: str | None = None
    source_task_id: str | None = None
    title: str | None = None
    domain: str | None = None
    rows_by_type: dict[str, int] | None = None
    training_row_counts_by_file: dict[str, int] | None = None
    source_evidence_ref_count: int | None = None
    source_evidence_row_link_count: int | None = None
    compiler_output_refs: list[str] | None = None
    created_at: str | None = None


class CompilerReport(Record):
    compiler_id: str | None = None
    compiler_status: str | None = None
    rounds_run: int | None = None
    stop_reason: str | None = None


class QualityReport(Record):
    training_row_counts_by_file: dict[str, int] | None = None
    source_evidence_map_coverage: CoverageStatistics | None = None


class EvidenceMapHeader(Record):
    """``source_evidence_map.json`` without its two large arrays."""

    schema_version: str | None = None
    source_package_id: str | None = None
    source_task_id: str | None = None
    task_refs: list[str] | None = None
    artifact_refs: list[str] | None = None
    evaluation_refs: list[str] | None = None
    loop_review_refs: list[str] | None = None
    trace_refs: list[str] | None = None
    coverage_statistics: CoverageStatistics | None = None
    orphan_evidence_ref_ids: list[str] | None = None


class RowLink(Record):
    """One ``row_evidence_links[]`` entry: the map's claim about a row."""

    row_id: str | None = None
    row_file: str | None = None
    data_type: str | None = None
    source_task_id: str | None = None
    source_trace_id: str | None = None
    source_step_ids: list[int] | None = None
    source_artifact_refs: list[str] | None = None
    evidence_ref_ids: list[str] | None = None
    visible_evidence_ref_ids: list[str] | None = None
    inferred_evidence_ref_ids: list[str] | None = None


class ContractItem(Record):
    """A required output or artifact of a contract."""

    path: str
    format: str | None = None
    artifact_type: str | None = None
    columns: list[str] | None = None
    numeric_columns: list[str] | None = None
    non_empty_columns: list[str] | None = None
    keys: list[str] | None = None
    expected_types: dict[str, str] | None = None
    non_empty_fields: list[str] | None = None
    min_rows: int | None = None
    top_level_type: str | None = None

    @property
    def kind(self) -> str:
        return (self.format or self.artifact_type or "").lower()


class OutputContract(Record):
    contract_kind: str | None = None
    required_outputs: list[ContractItem] = Field(default_factory=list)


class ArtifactContract(Record):
    contract_kind: str | None = None
    required_artifacts: list[ContractItem] = Field(default_factory=list)


class ChecklistItem(Record):
    check_id: str
    description: str | None = None
    verification_method: str | None = None
    blocking: bool | None = None
    repair_hint: str | None = None


class PrefinalChecklist(Record):
    checks: list[ChecklistItem] = Field(default_factory=list)
    output_contract_ref: str | None = None
    artifact_contract_ref: str | None = None
    required_output_count: int | None = None
    required_artifact_count: int | None = None

"""The stable finding codes: default severity, quirk flag and a one-line meaning per code."""

from __future__ import annotations

from dataclasses import dataclass

from aa_review.core.findings import Severity

__all__ = ["CodeInfo", "CODES", "code_info"]

C, E, W, L = Severity.CRITICAL, Severity.ERROR, Severity.WARNING, Severity.LOW


@dataclass(frozen=True)
class CodeInfo:
    """What a finding code means; ``docs/findings.md`` documents each one further."""

    code: str
    severity: Severity
    meaning: str
    quirk: bool = False


_TABLE: list[tuple[str, Severity, str]] = [
    # Loading problems, passed through from the package loader (severity as the loader sets it).
    ("input.missing_file", W, "a file the format requires is absent (ERROR for the evidence map)"),
    ("input.unsafe_file", C, "a required file is a symlink leading out of the package"),
    ("input.too_large", E, "a document is too large to read"),
    ("input.bad_json", E, "a JSON document does not parse"),
    ("input.bad_encoding", E, "a file or line is not valid UTF-8"),
    ("input.empty_file", E, "a file is empty although it should hold data"),
    ("input.not_an_object", E, "a document or line is not a JSON object"),
    ("input.bad_field", E, "a field has an unusable type"),
    ("input.malformed_line", E, "a JSONL line is not valid JSON"),
    ("input.truncated", E, "the last line of a JSONL file is cut off"),
    ("input.line_too_long", E, "a JSONL line is too long to be a row"),
    ("input.blank_line", L, "a blank line in a JSONL file"),
    (
        "input.evidence_encoding",
        W,
        "an evidence file is not valid UTF-8: its catalog hash does not bind its bytes",
    ),
    ("input.special_file", E, "a file the format names is a FIFO, socket or device (not opened)"),
    ("input.unreadable", E, "a file the format names exists but cannot be read"),
    ("input.too_deep", E, "a JSON document or line nests deeper than any the compiler writes"),
    # Evidence content hashes (format 7.3).
    ("hash.changed", E, "an evidence file's content no longer matches its catalog hash"),
    ("hash.missing", E, "a catalog entry has a content hash but its file is gone"),
    ("hash.unhashable", E, "a file over 2,000,000 bytes claims a catalog hash"),
    ("hash.not_recorded", W, "an existing small file has no catalog hash"),
    ("hash.unreadable", E, "a package file cannot be read (no digest can be computed)"),
    ("hash.malformed", E, "a content hash is not 'sha256:' + 64 hex digits"),
    ("hash.row_disagrees", E, "a row's source_content_hashes disagrees with the catalog"),
    # Refs.
    ("ref.absolute", E, "an absolute ref (never opened)"),
    ("ref.escape", E, "a ref with a '..' component (never opened)"),
    ("ref.symlink_out", C, "a ref whose path crosses a symlink out of the package (never opened)"),
    ("ref.unresolved", W, "a cited ref names no file in the package"),
    ("ref.not_normalized", W, "a ref the compiler would have normalized differently"),
    # Catalog entries against the derivation rules (format 7.1-7.2).
    ("evidence.field_mismatch", E, "a catalog field disagrees with what the ref derives"),
    ("evidence.duplicate", E, "an evidence id is catalogued more than once"),
    # Row <-> evidence links.
    ("link.orphan", E, "a row cites an evidence id the catalog lacks"),
    ("link.uncited", W, "a catalog entry no row cites"),
    ("link.hidden_cited", C, "a training row cites hidden evaluation material"),
    ("link.mismatch", E, "row_evidence_links disagrees with the rows"),
    ("link.bad_evidence_id", E, "an evidence id is not the hash of its ref"),
    # Counts.
    ("count.coverage", E, "coverage statistics do not recount"),
    ("count.rows_by_type", E, "rows_by_type disagrees with the rows"),
    ("count.rows_by_file", E, "training_row_counts_by_file disagrees with the rows"),
    ("count.orphan_list", E, "orphan_evidence_ref_ids disagrees with the actual orphans"),
    ("count.derived", W, "a derived file's row count disagrees with its source rows"),
    # Rows (format 4 and the row validator, format 8).
    ("row.missing_id", E, "a row has no row_id / pair_id"),
    ("row.duplicate_id", E, "two rows share one id"),
    ("row.missing_lineage", E, "task_lineage is missing or has no source_task_id"),
    ("row.missing_domain", E, "domain or workflow_family is empty"),
    ("row.missing_evidence_ids", E, "source_evidence_ref_ids is empty"),
    ("row.missing_core_input", E, "a training/eval/verifier/reward row has no input"),
    ("row.missing_core_target", E, "a training/eval/verifier/reward row has no target"),
    ("row.schema_version", E, "a row's schema_version is not the package's row schema"),
    ("row.id_mismatch", E, "a row id does not recompute from the row"),
    ("row.hash_mismatch", E, "row_content_hash does not recompute from the row"),
    ("row.data_type", E, "a row's data_type is not its file's type"),
    ("row.not_accepted", E, "a row in a training file is not marked accepted"),
    ("row.insufficient_evidence", W, "a row has no concrete source evidence"),
    ("row.low_score", W, "a score is below the compiler's default threshold"),
    ("row.unverifiable", W, "a row id or content hash cannot be checked (a path was removed)"),
    ("row.changed_on_disk", E, "a row changed on disk while the package was open"),
    # Privacy (format 8.1 and 9).
    ("privacy.private_path", E, "a local private path in a row"),
    ("privacy.forbidden_key", E, "a forbidden key in a row"),
    ("privacy.forbidden_token", E, "a forbidden token (marketplace, buyer, ...) in row text"),
    ("privacy.secret", C, "a secret-looking value in a row (shown masked)"),
    ("privacy.unsanitized_text", W, "row text the public sanitizer would have rewritten"),
    # Contracts (format 3.3).
    ("contract.missing_file", E, "a contracted artifact does not exist"),
    ("contract.columns", E, "a CSV header differs from the contract's columns"),
    ("contract.numeric", W, "a contract numeric column holds non-numbers"),
    ("contract.min_rows", W, "a CSV or JSON array has fewer rows than the contract's min_rows"),
    ("contract.json_keys", E, "a JSON artifact lacks contracted keys"),
    ("contract.json_types", W, "a JSON artifact value has another type than contracted"),
    ("contract.empty", W, "a contracted non-empty column or field is empty"),
    ("contract.checklist", E, "a pre-final verification check fails"),
    ("contract.mismatch", E, "the output, artifact and transfer contracts disagree"),
    # Copies.
    ("copy.differs", E, "a copy is not byte-identical to its source"),
    ("copy.missing", W, "a copy the compiler writes is absent"),
    # Package-level files.
    ("artifacts.hash", E, "artifacts_index.json's hash differs from the file's bytes"),
    ("artifacts.size", E, "artifacts_index.json's size differs from the file"),
    ("artifacts.missing", E, "a file listed in artifacts_index.json is absent"),
    (
        "artifacts.index_unreadable",
        E,
        "artifacts_index.json cannot be read: no artifacts check ran",
    ),
    ("artifacts.index_missing", W, "artifacts_index.json is absent: no artifacts check ran"),
    (
        "artifacts.manifest_changed",
        W,
        "manifest.json differs from its indexed hash, not as 12.21 says",
    ),
    # Entries of the package folder itself (listed, never followed or opened when special).
    ("file.special", E, "a FIFO, socket or device in the package (never opened)"),
    (
        "file.hard_link",
        L,
        "a file with more than one hard link (it may be shared with a file outside)",
    ),
    ("file.name_encoding", W, "a file or folder name that is not UTF-8 (shown escaped)"),
    ("manifest.missing_output", E, "compiler_output_refs lists a file that is absent"),
    ("manifest.schema_version", E, "the manifest and evidence map name different schemas"),
    # The audit itself.
    ("audit.check_failed", E, "a check could not run to the end (the audit is incomplete)"),
]

_QUIRKS: list[tuple[str, str]] = [
    ("ref.prefix_only", "a traces/, outputs/ or evaluation/ ref 'resolves' with no file (12.4)"),
    ("quirk.recipe_absent", "compiler_recipe.json is listed but never written (12.1)"),
    ("quirk.tdo_compiler_id", "compiler_report keeps the tdo_ compiler id (12.2)"),
    ("quirk.always_catalogued", "task spec / rubric catalogued although absent (12.3)"),
    ("quirk.trajectory_traces_ref", "trajectory rows cite the absent traces file (12.4)"),
    ("quirk.large_file_no_hash", "a file over 2,000,000 bytes has no catalog hash (12.5)"),
    ("quirk.hash_conventions", "catalog (text) and artifacts_index (bytes) hashes differ (12.5)"),
    ("quirk.id_before_sanitize", "an id hashes the text from before sanitizing (12.6)"),
    ("quirk.upper_replacement", "an upper-cased sanitizer replacement hit inside a word (12.7)"),
    ("quirk.bogus_list_ref", "environment_spec lists a str(list) as a ref (12.8)"),
    ("quirk.dedup_counts", "round accepted counts exceed rows_by_type after de-dup (12.9)"),
    ("quirk.duplicate_row_rejected", "rows sharing an id were rejected as duplicates (12.10)"),
    ("quirk.uncatalogued_grading", "a grading/feedback file outside the fixed names (12.14)"),
    ("quirk.private_re_overmatch", "the compiler's '.env' pattern matches '.environment' (12.15)"),
    ("quirk.token_substring", "a forbidden token inside a longer word (12.15)"),
    ("quirk.shared_contract_path", "baseline and revised artifacts share a contract path (12.17)"),
    ("quirk.checklist_ref_prefix", "checklist contract refs lack experience_compiler/ (12.18)"),
    ("quirk.canonical_skill_refs", "canonical_skill.evidence_reference_ids holds refs (12.18)"),
    (
        "quirk.index_manifest_hash",
        "artifacts_index hashes manifest.json before it was final (12.21)",
    ),
    ("quirk.bad_line_zero_count", "a file with a bad line is counted as 0 rows (12.22)"),
]

CODES: dict[str, CodeInfo] = {c: CodeInfo(c, s, m) for c, s, m in _TABLE}
CODES.update({c: CodeInfo(c, L, m, quirk=True) for c, m in _QUIRKS})


def code_info(code: str) -> CodeInfo:
    """The table entry for ``code``; unknown ``input.*`` codes get a generic entry."""
    info = CODES.get(code)
    if info is None:
        return CodeInfo(code, E, "loading problem" if code.startswith("input.") else "?")
    return info

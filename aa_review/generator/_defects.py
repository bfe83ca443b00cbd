"""The defect catalogue and the planner that turns requested names into generation hooks.

Each defect leaves every other invariant intact: when a row is changed its
``row_content_hash`` (and, if the change touches the id seed, its ``row_id``)
is recomputed so the only fault is the one named; copies of a damaged file get
the same damage; ``artifacts_index.json`` is always built last, so it describes
the files as they end up.
"""

from __future__ import annotations

from ._counts import Counts
from ._ctx import Ctx
from ._defect_targets import Targets
from ._defects_evidence import EVIDENCE_INJECTORS
from ._defects_files import FILE_INJECTORS
from ._defects_rows import ROW_INJECTORS
from ._hooks import Hooks

__all__ = ["DEFECTS", "DEFECT_NAMES", "plan_defects", "CATALOG_DEFECTS", "SPREADABLE"]

DEFECTS: tuple[tuple[str, str], ...] = (
    (
        "hash_changed",
        "input/invoices.csv is edited after compiling: its catalog content_hash and the rows' "
        "source_content_hashes no longer match the file (artifacts_index.json follows the file).",
    ),
    (
        "evidence_missing",
        "input/payments.csv, a catalogued evidence file (resolves: true, hashed), is deleted "
        "after compiling (artifacts_index.json no longer lists it).",
    ),
    (
        "evidence_oversize_hashed",
        "input/reconciliation_policy.md grows past 2,000,000 bytes before compiling, "
        "yet its catalog entry (and the rows' source_content_hashes) carry its hash.",
    ),
    (
        "evidence_bad_encoding",
        "input/reconciliation_policy.md gains a line with a Latin-1 byte (0xE9) before "
        "compiling; the catalog hashes it as the compiler does, with U+FFFD in its place.",
    ),
    (
        "ref_absolute",
        "The catalog and every row's evidence_refs/source_evidence_ref_ids cite /etc/passwd "
        "(catalogued unresolved; the file is never opened); row hashes are recomputed.",
    ),
    (
        "ref_dotdot",
        "The catalog and every row cite ../outside.txt (catalogued unresolved, never opened); row "
        "hashes are recomputed.",
    ),
    (
        "symlink_out",
        "input/fx_rates.csv becomes a symlink to an identical file outside the package root "
        "(<package_id>.outside/ beside it), so only the link escapes; hashes still match and "
        "artifacts_index.json, which never follows a link out, leaves it out.",
    ),
    (
        "ref_unresolved",
        "The catalog claims resolves: true (confidence 1.0, null hash) for "
        "attempts/revised/artifacts/exceptions_detail.csv, which does not exist; every row "
        "cites it.",
    ),
    (
        "orphan_evidence_id",
        "One row cites attempts/revised/artifacts/review_notes.md, absent from the catalog, "
        "in evidence_refs and source_evidence_ref_ids; its link, orphan_evidence_ref_ids and "
        "coverage orphan count report it; its row_content_hash is recomputed.",
    ),
    (
        "uncited_evidence",
        "attempts/revised/stdout.txt is catalogued (correct hash) but no row cites it; "
        "catalog counts follow.",
    ),
    (
        "hidden_cited",
        "Every row cites hidden_reference/expected_vendor_totals.csv, catalogued "
        "hidden_excluded; links list it as not visible; row hashes are recomputed.",
    ),
    (
        "link_mismatch",
        "One row_evidence_links entry drops the last id of its row's source_evidence_ref_ids "
        "(and of the visible ids); the row itself is untouched.",
    ),
    (
        "evidence_id_mismatch",
        "feedback/revision_plan.json is catalogued under an id that is not "
        "evidence_ + sha256(ref)[:16]; rows and links use that same id consistently.",
    ),
    (
        "coverage_mismatch",
        "coverage_statistics (and quality_report.source_evidence_map_coverage) move one entry "
        "from resolved to unresolved; the catalog itself is right.",
    ),
    (
        "counts_mismatch",
        "compiler_manifest.json counts one evaluation row too many in rows_by_type and "
        "training_row_counts_by_file; other manifests count right.",
    ),
    (
        "orphan_list_mismatch",
        "orphan_evidence_ref_ids lists an id no link cites; the coverage orphan count stays "
        "0 (the true recount).",
    ),
    (
        "missing_row_id",
        'One row has no row_id (its link\'s row_id is ""); row_content_hash recomputed.',
    ),
    (
        "duplicate_row_id",
        "One row is written twice in a row (same id, same bytes); counts, links and copies "
        "include both lines.",
    ),
    ("missing_lineage", "One row has no task_lineage; row_content_hash recomputed."),
    ("missing_domain", "One row has no domain; row_content_hash recomputed."),
    (
        "missing_evidence_ids",
        "One row has empty evidence_refs, source_evidence_ref_ids and source_content_hashes "
        "(its link has no ids, coverage counts it as a row without ids); row_content_hash "
        "recomputed.",
    ),
    (
        "missing_core_input",
        "One fixed-type row has input {}; row_id (its seed includes input) and "
        "row_content_hash recomputed, links follow.",
    ),
    (
        "missing_core_target",
        "One fixed-type row has target {}; row_id and row_content_hash recomputed.",
    ),
    (
        "schema_version_mismatch",
        "One row carries the other generation's training-row schema_version; "
        "row_content_hash recomputed.",
    ),
    (
        "row_id_mismatch",
        "One row's id has a changed digest so it does not recompute; row_content_hash "
        "recomputed over the changed id, the link uses the stored id.",
    ),
    ("row_hash_mismatch", "One row's row_content_hash has a changed digest."),
    (
        "private_path",
        "One row's text names /home/alice/recon/notes.txt; row_content_hash recomputed.",
    ),
    (
        "forbidden_key",
        "One row's task_lineage holds a nested buyer key; row_content_hash recomputed.",
    ),
    (
        "secret_token",
        "One public row's text ends with an sk- API key, a bearer token or a PEM private key "
        "(chosen by seed); row_content_hash recomputed.",
    ),
    (
        "contract_drift",
        "A revised CSV deliverable drifts from its contract: vendor_totals.csv lost balance_usd, "
        "or reconciliation_report.csv has n/a in a numeric column (chosen by seed); the catalog "
        "hashes the file as written.",
    ),
    (
        "copy_differs",
        "experience_compiler/evals/evaluation_examples.jsonl is a stale copy missing its "
        "source's last row.",
    ),
    (
        "malformed_line",
        "One line of a row file (and its copies) is cut in half after compiling; counts and "
        "links still describe the compiled row.",
    ),
    (
        "bad_encoding",
        "One line of a row file (and its copies) carries non-UTF-8 bytes inside a text value.",
    ),
    (
        "truncated_file",
        "A row file (and its copies) ends mid-line: its last line is cut, with no newline.",
    ),
    (
        "empty_file",
        "task_variants.jsonl (and its copies) is empty although the manifest counts its row.",
    ),
    (
        "huge_line",
        "One row's scoring_hint is about 50 MB of text (row_content_hash recomputed). Only "
        "when asked.",
    ),
    (
        "manifest_missing_file",
        "experience_compiler/compiler_trace.jsonl, listed in compiler_output_refs, is "
        "deleted (besides the known compiler_recipe.json quirk).",
    ),
)
DEFECT_NAMES = tuple(name for name, _ in DEFECTS)
# Defects about the catalog or links: 0.1.x maps have neither (format section 6).
CATALOG_DEFECTS = frozenset(
    {
        "ref_unresolved",
        "uncited_evidence",
        "link_mismatch",
        "evidence_id_mismatch",
        "coverage_mismatch",
        "orphan_list_mismatch",
        "orphan_evidence_id",
        "evidence_oversize_hashed",
    }
)


# Defects that can go into several rows at once (``defect_rows``): every one-row defect
# but the 50 MB line, and the refs that every row cites by default.
SPREADABLE = frozenset(
    {
        "hidden_cited",
        "ref_absolute",
        "ref_dotdot",
        "ref_unresolved",
        "orphan_evidence_id",
        "missing_row_id",
        "missing_lineage",
        "missing_domain",
        "missing_evidence_ids",
        "missing_core_input",
        "missing_core_target",
        "schema_version_mismatch",
        "row_id_mismatch",
        "row_hash_mismatch",
        "private_path",
        "forbidden_key",
        "secret_token",
    }
)


def plan_defects(
    names: list[str], ctx: Ctx, counts: Counts, spread: dict[str, int] | None = None
) -> Hooks:
    """Hooks that inject ``names`` into the package ``ctx`` is about to write.

    ``spread``: for defects of :data:`SPREADABLE`, how many rows carry it.
    """
    injectors = {**EVIDENCE_INJECTORS, **FILE_INJECTORS, **ROW_INJECTORS}
    unknown = [n for n in names if n not in injectors]
    if unknown:
        raise ValueError(f"unknown defect(s) {unknown}; see DEFECTS for the names")
    spread = dict(spread or {})
    odd = sorted(set(spread) - (set(names) & SPREADABLE))
    if odd:
        raise ValueError(
            f"defect_rows names {odd}: only defects asked for and among "
            f"{sorted(SPREADABLE)} can go into several rows"
        )
    if any(not isinstance(n, int) or n < 1 for n in spread.values()):
        raise ValueError("defect_rows counts must be whole numbers of at least 1")
    if len(set(names)) != len(names):
        raise ValueError("each defect can be asked for once")
    if not ctx.v02 and CATALOG_DEFECTS & set(names):
        raise ValueError(
            f"{sorted(CATALOG_DEFECTS & set(names))} need an evidence catalog; v0.1 maps have none"
        )
    hooks = Hooks()
    targets = Targets(counts, names, spread)
    slots = {name: hooks.slot() for name in names}  # records keep the order asked for
    # Defects that need a fixed-type row choose first; the others can fall back to surface rows.
    for name in sorted(names, key=lambda n: n not in _FIXED_ROW_DEFECTS):
        injectors[name](ctx, hooks, targets, slots[name])
    return hooks


# Their change reaches the row id, which derived rows (ps_/rl_ ids) would echo;
# fixed rows have no derived rows.
_FIXED_ROW_DEFECTS = (
    "missing_core_input",
    "missing_core_target",
    "missing_row_id",
    "row_id_mismatch",
)
# (missing_core_* come first: only four row files qualify for them.)

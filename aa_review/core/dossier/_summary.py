"""Plain-text summaries of a check record for the window (no Qt): metrics and blocking reasons."""

from __future__ import annotations

from typing import Any

from aa_review.core.dossier._preview import humanize_code
from aa_review.core.dossier._validator import CheckRecord

__all__ = ["gate_rows", "metrics_lines", "metric_text", "GATE_TITLES"]

GATE_TITLES = {
    "G1": "Evaluation coverage and power",
    "G2": "Source and feasibility reports",
    "G3": "Recurrence of the residual",
    "G4": "Lower-rung plateau",
    "G5": "Verifiable outcomes",
    "G6": "Base-model license",
    "G7": "Budgets and rollback",
    "G8": "Amendment authorization",
    "G9": "Dataset plan vs archive",
    "G10": "Separation; untouched epoch",
    "G11": "Capacity and cost envelope",
}


def metric_text(v: Any) -> str:
    """A metric's value for reading: floats to 4 significant digits, containers flat."""
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, dict):
        return ", ".join(f"{k}={metric_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(metric_text(x) for x in v) + "]"
    return str(v)


def gate_rows(record: CheckRecord) -> list[tuple[str, str, str, str, str]]:
    """(gate, title, status, reasons in words, metrics) for G1..G11."""
    rows = []
    for gid, g in record.gates.items():
        reasons = "; ".join(humanize_code(c) for c in g.reason_codes) or "—"
        metrics = "; ".join(f"{k}: {metric_text(v)}" for k, v in g.metrics.items())
        rows.append((gid, GATE_TITLES.get(gid, ""), g.status.value, reasons, metrics))
    return rows


def metrics_lines(record: CheckRecord, private: bool) -> list[str]:
    """The headline figures section 12 asks for, one line each."""
    g1, g3, g11 = record.gates["G1"], record.gates["G3"], record.gates["G11"]
    m = g1.metrics
    lines = []
    if "effective_sample_size" in m:
        lines.append(
            f"Effective sample: G = {m.get('independent_groups')} groups, "
            f"N = {m.get('observation_units')} units, DEFF = "
            f"{metric_text(m.get('design_effect'))}, "
            f"ESS = {metric_text(m.get('effective_sample_size'))}"
        )
    if "power_base" in m:
        ci_b = g1.detail.get("power_base_ci95") if private else None
        ci_w = g1.detail.get("power_worst_case_ci95") if private else None

        def ci(c: Any) -> str:
            return f" [{c[0]:.3f}, {c[1]:.3f}]" if c else ""

        lines.append(
            f"Power: base {metric_text(m['power_base'])}{ci(ci_b)}, worst case "
            f"{metric_text(m.get('power_worst_case', 'n/a'))}{ci(ci_w)} (goal ≥ 0.80; "
            f"adjusted α = {metric_text(m.get('adjusted_alpha'))})"
        )
    if g3.metrics:
        lines.append(
            "Recurrence scope: "
            + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in g3.metrics.items())
        )
    if g11.metrics:
        lines.append("Resource envelope: " + metric_text(g11.metrics))
    if record.dossier_reason_codes:
        lines.append(
            "Dossier-level: " + "; ".join(humanize_code(c) for c in record.dossier_reason_codes)
        )
    return lines

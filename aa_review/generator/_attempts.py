"""attempts/<kind>/: deliverable artifacts, actual_outputs.json, manifest, stdout and the trace."""

from __future__ import annotations

import json
from typing import Any

from ._ctx import Ctx
from ._plan import ATTEMPTS, iter_steps
from ._steps import KINDS
from ._trace_stats import TraceStats

__all__ = ["write_attempts", "attempt_refs", "artifact_texts"]

_FILES = {
    "baseline": ("reconciliation_report.csv", "audit_summary.json"),
    "revised": ("reconciliation_report.csv", "audit_summary.json", "vendor_totals.csv"),
}
SUMMARY = {
    "baseline": "Baseline reconciliation with USD conversion; vendor totals not produced.",
    "revised": "Revised reconciliation with exception labels, vendor totals and audit summary.",
}
INPUT_REFS = [
    "input/invoices.csv",
    "input/payments.csv",
    "input/fx_rates.csv",
    "input/reconciliation_policy.md",
]


def attempt_refs(kind: str) -> list[str]:
    """Deliverable refs of an attempt (also its artifact refs and created files)."""
    return [f"attempts/{kind}/artifacts/{name}" for name in _FILES[kind]]


def _reconcile(ctx: Ctx) -> list[tuple[list[str], float, float, str]]:
    fx = ctx.sc.fx
    out = []
    for inv, pay in zip(ctx.sc.invoices, ctx.sc.payments, strict=True):
        rate = fx[inv[4]]
        amount, paid = float(inv[5]), float(pay[5])
        status = "matched" if amount == paid else "exception"
        exc = "" if status == "matched" else ("partial_payment" if paid < amount else "overpayment")
        out.append((inv, round(amount * rate, 2), round(paid * rate, 2), exc))
    return out


def artifact_texts(ctx: Ctx, kind: str) -> dict[str, str]:
    """Text of each deliverable of attempt ``kind``, keyed by ref."""
    rec = _reconcile(ctx)
    header = ["invoice_id", "vendor", "currency", "amount", "amount_usd", "paid_usd", "status"]
    revised = kind == "revised"
    lines = [",".join(header + (["exception_type"] if revised else []))]
    for inv, usd, paid, exc in rec:
        row = [
            inv[0],
            inv[1],
            inv[4],
            inv[5],
            f"{usd:.2f}",
            f"{paid:.2f}",
            "exception" if exc else "matched",
        ]
        lines.append(",".join(row + ([exc] if revised else [])))
    counts = {
        "partial_payment": sum(1 for r in rec if r[3] == "partial_payment"),
        "overpayment": sum(1 for r in rec if r[3] == "overpayment"),
    }
    summary = {
        "exception_counts": counts,
        "assumptions": [
            f"fx rates effective {ctx.sc.year}-02-01",
            "3-day grace period after due date",
        ],
        "total_invoices": len(rec),
        "matched": sum(1 for r in rec if not r[3]),
        "reviewer_notes": "",
        "generated_by": kind,
    }
    texts = {
        f"attempts/{kind}/artifacts/reconciliation_report.csv": "\n".join(lines) + "\n",
        f"attempts/{kind}/artifacts/audit_summary.json": json.dumps(summary, indent=2) + "\n",
    }
    if revised:
        tot: dict[str, list[float]] = {}
        for inv, usd, paid, _ in rec:
            t = tot.setdefault(inv[1], [0.0, 0.0])
            t[0] += usd
            t[1] += paid
        vt = ["vendor,total_invoiced_usd,total_paid_usd,balance_usd"] + [
            f"{v},{a:.2f},{p:.2f},{max(a - p, 0.0):.2f}" for v, (a, p) in tot.items()
        ]
        texts["attempts/revised/artifacts/vendor_totals.csv"] = "\n".join(vt) + "\n"
    return texts


def _actual_outputs(ctx: Ctx, kind: str) -> dict[str, Any]:
    refs = attempt_refs(kind)
    return {
        "task_id": ctx.sc.task_id,
        "attempt_id": ctx.sc.attempt_id(kind),
        "attempt_kind": kind,
        "status": "success",
        "output_summary": SUMMARY[kind],
        "primary_output_ref": refs[0],
        "input_artifact_refs": INPUT_REFS,
        "deliverable_refs": refs,
        "final_message_ref": None,
        "artifact_refs": refs,
        "files_created": refs,
        "files_modified": [],
        "files_deleted": [],
        "stdout_ref": f"attempts/{kind}/stdout.txt",
        "stderr_ref": None,
        "raw_log_refs": [],
        "error_type": None,
        "error_message": None,
        "metadata_json": {},
    }


def write_attempts(ctx: Ctx) -> TraceStats:
    """Write both attempts; returns what the traces contained (environment files, index)."""
    stats = TraceStats()
    starts = {"baseline": 1200.209458, "revised": 4200.418916}
    for kind in ATTEMPTS:
        for rel, text in artifact_texts(ctx, kind).items():
            ctx.write_text(rel, text)
        ctx.write_json(f"attempts/{kind}/actual_outputs.json", _actual_outputs(ctx, kind))
        ctx.write_json(
            f"attempts/{kind}/attempt_manifest.json",
            {
                "attempt_id": ctx.sc.attempt_id(kind),
                "attempt_kind": kind,
                "task_id": ctx.sc.task_id,
                "runner_backend": "codex_cli",
                "status": "completed",
                "started_at": ctx.clock.at(starts[kind]),
            },
        )
        ctx.write_text(f"attempts/{kind}/stdout.txt", f"reconcile run for {kind} finished\n")
        _write_trace(ctx, kind, starts[kind] + 0.104729, stats)
    return stats


def _write_trace(ctx: Ctx, kind: str, start: float, stats: TraceStats) -> None:
    sc = ctx.sc
    kinds = ctx.plan.kinds(kind)
    tools = sorted({KINDS[k].tool for k in set(kinds)})
    refs = attempt_refs(kind)
    head = {
        "schema_version": "aa-trace-v0.1",
        "trace_id": sc.trace_id(kind),
        "run_id": f"run_{ctx.pkg}",
        "package_id": ctx.pkg,
        "trace_mode": "live",
        "task": sc.title,
        "task_id": sc.task_id,
        "attempt_id": sc.attempt_id(kind),
        "attempt_kind": kind,
        "attempt_status": "completed",
        "agent_tools": tools,
        "started_at": ctx.clock.at(start),
        "ended_at": ctx.clock.at(start + 2000.104729 + 0.5 * len(kinds)),
        "environment_domain": "mixed",
        "actual_outputs_ref": f"attempts/{kind}/actual_outputs.json",
        "input_artifact_refs": INPUT_REFS,
        "artifact_refs": refs,
        "deliverable_refs": refs,
        "output_summary": SUMMARY[kind],
        "termination_reason": "task_complete",
    }
    for tool in tools:
        stats.tools.add(tool)
    ctx.state.setdefault("trace_heads", {})[f"attempts/{kind}/agent_trace.json"] = {
        **head,
        "steps": [1],
        "metadata_json": {},
    }
    rel = f"attempts/{kind}/agent_trace.json"
    p = ctx.path(rel)
    p.parent.mkdir(parents=True, exist_ok=True)
    with open(p, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()))
        fh.write('  "steps": [\n')
        buf: list[str] = []
        first = True
        for step in iter_steps(ctx.plan, kind, sc.instruction, sc.vendors, ctx.seed):
            stats.add(kind, sc, step)
            buf.append(("    " if first else ",\n    ") + json.dumps(step))
            first = False
            if len(buf) >= 2048:
                fh.write("".join(buf))
                buf.clear()
        fh.write("".join(buf) + '\n  ],\n  "metadata_json": {}\n}\n')

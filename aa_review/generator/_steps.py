"""Agent trace steps: one template per kind of tool use, filled from the step number and seed.

A kind fixes the tool, surface and the training-row types the compiler derives
from the step (format 4.2 surface rules), so the planner knows each step's
row yield without building it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

__all__ = ["Kind", "KINDS", "KIND_INDEX", "mix", "make_step", "user_step", "step_outcome"]


@dataclass(frozen=True)
class Kind:
    """A step template: tool, surface and the surface-row types it yields."""

    name: str
    operation: str
    tool: str
    domain: str
    surface: str
    row_types: tuple[str, ...]


KINDS: tuple[Kind, ...] = (
    Kind("cli", "execute", "bash", "terminal", "cli", ("software_execution_event",)),
    Kind(
        "pdf", "read", "pdf_reader", "multimodal", "pdf", ("multimodal_artifact", "document_event")
    ),
    Kind(
        "pdf2", "read", "pdf_reader", "multimodal", "pdf", ("multimodal_artifact", "document_event")
    ),
    Kind("api", "read", "http_client", "api", "api", ("api_interaction_event",)),
    Kind("file", "write", "file_writer", "file", "file", ("software_execution_event",)),
    Kind("database", "read", "sql_client", "database", "database", ("database_event",)),
    Kind("browser", "read", "browser", "browser", "browser", ("ui_interaction_event",)),
    Kind("planner", "plan", "planner", "software", "other_tool", ()),
    Kind("mcp", "read", "mcp_client", "mcp", "mcp_tool", ("mcp_interaction_event",)),
    Kind("device", "verify", "scanner_bridge", "device", "device", ("physical_environment_event",)),
    Kind("search", "search", "web_search", "search", "search", ("search_retrieval_event",)),
    Kind("mixed", "verify", "sync_checker", "mixed", "mixed", ("cross_system_event",)),
    Kind("messaging", "answer", "team_chat", "software", "messaging", ("collaboration_event",)),
    Kind("codebase", "edit", "python", "codebase", "codebase", ("software_execution_event",)),
    Kind(
        "table",
        "analyze",
        "table_extractor",
        "spreadsheet",
        "table",
        ("multimodal_artifact", "structured_table_event"),
    ),
    Kind(
        "subagent", "plan", "subagent_dispatch", "software", "other_tool", ("multi_agent_handoff",)
    ),
    Kind("saas", "read", "erp_console", "software", "saas_app", ("enterprise_app_event",)),
    Kind(
        "spreadsheet",
        "write",
        "sheet_editor",
        "spreadsheet",
        "spreadsheet",
        ("structured_table_event",),
    ),
    Kind("async", "execute", "job_runner", "software", "async_job", ("async_workflow_event",)),
)
KIND_INDEX = {k.name: i for i, k in enumerate(KINDS)}


def mix(*values: int) -> int:
    """A cheap deterministic 32-bit hash of small integers (per-step variation)."""
    x = 0x9E3779B9
    for v in values:
        x = ((x ^ (v & 0xFFFFFFFF)) * 0x45D9F3B) & 0xFFFFFFFF
        x = ((x ^ (x >> 16)) * 0x45D9F3B) & 0xFFFFFFFF
        x ^= x >> 16
    return x


def step_outcome(kind: str, n: int, h: int) -> str:
    """``completed`` every fifth step, a rare ``failed`` API call late in long traces."""
    if kind == "api" and n > 21 and h % 11 == 0:
        return "failed"
    return "completed" if n % 5 == 4 else "progress"


def user_step(instruction: str) -> dict[str, Any]:
    """Step 1 of every trace: the task request."""
    return {
        "step": 1,
        "turn": 1,
        "actor": "user",
        "action": "user_message",
        "input": instruction,
        "state_change": "Task request received with four input files.",
        "actor_kind": "user",
        "message_role": "direct_request",
        "interaction_surface": "messaging",
    }


def make_step(kind: Kind, n: int, attempt: str, vendors: list[str], h: int) -> dict[str, Any]:
    """The trace step ``n`` of kind ``kind`` in attempt ``attempt``."""
    outcome = step_outcome(kind.name, n, h)
    v = vendors[h % len(vendors)]
    c = 2 + (h >> 4) % 30
    text, extra = _FILL[kind.name](n, attempt, v, c, h, outcome)
    inp, out, state = text
    step: dict[str, Any] = {
        "step": n,
        "turn": 1,
        "actor": "apprentice_agent",
        "action": "agent_step",
        "operation": kind.operation,
        "tool": kind.tool,
        "environment_domain": kind.domain,
        "execution_mode": "serial",
        "observation": f"state before step {n}",
        "input": inp,
        "output": out,
        "state_change": state,
        "caused_by": [n - 1],
        "causal_type": "execution_of_plan",
        "success": True if outcome == "completed" else (False if outcome == "failed" else None),
        "step_outcome": outcome,
    }
    if outcome == "failed":
        step["error_type"] = "http_503"
    step["actor_kind"] = "apprentice_agent"
    step["interaction_surface"] = kind.surface
    step.update(extra)
    return step


# What a ``_fill_*`` template gives: (input, output, state change) and the kind's own fields.
_Filled = tuple[tuple[str, str, str], dict[str, Any]]
_Fill = Callable[[int, str, str, int, int, str], _Filled]


def _month(h: int) -> str:
    return f"2026-0{2 + (h >> 9) % 2}"


def _fill_cli(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    cmd = f"python3 scripts/reconcile.py --month {_month(h)}"
    return (
        f"{cmd} --batch {n}",
        f"Batch {n}: {20 + c} invoices matched, {c % 6} exceptions.",
        f"reconciliation batch {n} processed",
    ), {"command": cmd, "exit_code": 0, "stdout_ref": f"attempts/{attempt}/stdout.txt"}


def _fill_pdf(n: int, attempt: str, v: str, c: int, h: int, o: str, two: bool = False) -> _Filled:
    p = 1 + (h >> 5) % 3
    doc = f"input/scans/invoice_scan_0{p}.pdf"
    extra: dict[str, Any] = {
        "modality": "pdf",
        "document_ref": doc,
        "document_type": "invoice_scan",
        "mime_type": "application/pdf",
    }
    if two:
        extra["artifact_refs"] = [
            "input/scans/invoice_scan_01.pdf",
            "input/scans/invoice_scan_02.pdf",
        ]
    else:
        extra["page_refs"] = [doc]
    return (
        f"Read scanned invoice page {p}",
        f"Scanned page {p} confirms invoice totals.",
        f"scanned invoice page {p} checked",
    ), extra


def _fill_api(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    page = 1 + (h >> 6) % 6
    out = (
        "Ledger service unavailable (HTTP 503)."
        if o == "failed"
        else f"Received {c} payment records."
    )
    return (
        f"GET /v1/payments?vendor={v.replace(' ', '_')}&page={page}",
        out,
        f"payment page {page} cached for {v}",
    ), {
        "api_provider": "ledger_service",
        "api_service": "payments",
        "api_endpoint": "/v1/payments",
        "api_method": "GET",
        "http_status": 503 if o == "failed" else 200,
        "resource_id": f"pay-batch-{1 + (h >> 8) % 4}",
        "object_type": "payment",
    }


def _fill_file(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Update vendor totals for {v}",
        f"Wrote {c % 9 + 1} rows for {v}.",
        f"vendor totals updated for {v}",
    ), {"file_path": f"attempts/{attempt}/artifacts/vendor_totals.csv", "file_operation": "write"}


def _fill_database(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"SELECT invoice_id, amount FROM invoices WHERE batch = {n}",
        f"{c} invoice rows returned.",
        f"invoice rows for batch {n} loaded",
    ), {
        "database_type": "sqlite",
        "database_name": "ap_ledger",
        "schema_name": "main",
        "table_name": "vendors",
        "query_type": "select",
        "row_count": c,
    }


def _fill_browser(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    p = 1 + (h >> 5) % 9
    return (
        f"Open the remittance portal page {p}",
        f"Portal page {p} lists {c % 12 + 1} remittances.",
        f"remittance portal page {p} reviewed",
    ), {
        "ui_surface": "browser",
        "app_name": "remittance_portal",
        "action_type": "navigate",
        "page_title": "Remittances",
    }


def _fill_planner(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (f"Plan next check {n}", f"Check {n} scheduled.", f"check {n} planned"), {}


def _fill_mcp(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Look up currency table for batch {n}",
        f"Currency table returned {c % 4 + 1} rates.",
        f"currency table loaded for batch {n}",
    ), {
        "mcp_server": "fx-rates-server",
        "mcp_capability_type": "tool",
        "mcp_tool_name": "get_rates",
    }


def _fill_device(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    q = (h >> 7) % 4
    return (
        f"Check scanner queue status {q}",
        f"Scanner queue {q} idle.",
        f"scanner queue {q} idle",
    ), {
        "device_type": "document_scanner",
        "simulation_or_real_world": "simulation",
        "safety_state": "normal",
    }


def _fill_search(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    q = f"vendor alias rules for {v}"
    k = c % 5 + 1
    return (q, f"Found {k} alias notes for {v}.", f"alias notes collected for {v}"), {
        "query": q,
        "search_scope": "internal_wiki",
        "result_count": k,
    }


def _fill_mixed(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Compare ledger and ERP balances for {v}",
        f"Ledger and ERP agree for {v}.",
        f"balances aligned for {v}",
    ), {
        "connected_surfaces": ["api", "database"],
        "system_of_record": "ap_ledger",
        "consistency_checks": ["balance_match"],
    }


def _fill_messaging(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    inv = f"INV-{1001 + (h >> 3) % 12}"
    return (
        f"Ask the AP lead about invoice {inv}",
        "AP lead confirmed the partial payment rule.",
        f"clarification recorded for {inv}",
    ), {
        "platform_name": "team_chat",
        "channel_id": "ap-close",
        "thread_id": f"thread-{1 + (h >> 5) % 4}",
        "sender_role": "apprentice_agent",
        "recipient_role": "ap_lead",
        "message_type": "question",
    }


def _fill_codebase(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Refine matching helper revision {n}",
        f"Matching helper revision {n} passes {c % 9 + 1} checks.",
        f"matching helper revision {n}",
    ), {
        "file_path": "scripts/reconcile.py",
        "test_command": "python3 -m unittest scripts.test_reconcile",
    }


def _fill_table(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    k = c % 6 + 1
    return (
        f"Extract exception table block {n}",
        f"Exception table block {n} has {k} rows.",
        f"exception table block {n} extracted",
    ), {
        "modality": "table",
        "table_extract_refs": [f"attempts/{attempt}/artifacts/reconciliation_report.csv"],
        "sheet_name": "Exceptions",
        "row_count": k,
    }


def _fill_subagent(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    k = c % 8 + 1
    return (
        f"Delegate alias cleanup chunk {k}",
        f"Alias cleanup chunk {k} returned.",
        f"alias cleanup chunk {k} delegated",
    ), {
        "subagent_id": f"alias_helper_{1 + (h >> 6) % 2}",
        "delegation_id": f"dlg-{n}",
        "parent_agent_id": "apprentice_main",
        "handoff_reason": "parallel alias normalization",
        "coordination_pattern": "planner_worker",
    }


def _fill_saas(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Open ERP vendor record for {v}",
        f"ERP record shows payment terms net {30 + 15 * (c % 3)}.",
        f"ERP vendor record for {v} reviewed",
    ), {"service_name": "erp_suite", "record_id": f"VEND-{n:03d}", "resource_type": "vendor"}


def _fill_spreadsheet(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Write totals block {n} into the summary sheet",
        f"Sheet range updated for block {n}.",
        f"summary sheet block {n} written",
    ), {
        "sheet_name": "Totals",
        "cell_range": f"A{n + 2}:D{n + 9}",
        "row_count": 8,
        "column_count": 4,
    }


def _fill_async(n: int, attempt: str, v: str, c: int, h: int, o: str) -> _Filled:
    return (
        f"Submit bank statement import job {n}",
        f"Import job {n} finished with {c} statements.",
        f"bank statement import job {n} completed",
    ), {
        "job_id": f"job-{n}",
        "job_type": "bank_statement_import",
        "queue_name": "ap-imports",
        "job_status": "completed",
    }


_FILL: dict[str, _Fill] = {
    "cli": _fill_cli,
    "pdf": _fill_pdf,
    "pdf2": partial(_fill_pdf, two=True),
    "api": _fill_api,
    "file": _fill_file,
    "database": _fill_database,
    "browser": _fill_browser,
    "planner": _fill_planner,
    "mcp": _fill_mcp,
    "device": _fill_device,
    "search": _fill_search,
    "mixed": _fill_mixed,
    "messaging": _fill_messaging,
    "codebase": _fill_codebase,
    "table": _fill_table,
    "subagent": _fill_subagent,
    "saas": _fill_saas,
    "spreadsheet": _fill_spreadsheet,
    "async": _fill_async,
}

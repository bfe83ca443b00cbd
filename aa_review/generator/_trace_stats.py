"""What the traces contained, gathered while they are written (environment spec, artifact index)."""

from __future__ import annotations

from typing import Any

from ._scenario import Scenario

__all__ = ["TraceStats", "UI_SOFTWARE"]

UI_SOFTWARE = frozenset(
    {
        "browser",
        "computer_use",
        "cli",
        "codebase",
        "file",
        "saas_app",
        "cloud_console",
        "desktop_app",
        "terminal",
    }
)


class _OrderedSet(dict[Any, None]):
    def add(self, value: Any) -> None:
        self.setdefault(value, None)

    def extend_list(self, values: list[str]) -> None:
        """The compiler's ref lists take the items and then ``str(list)`` (format 12.8)."""
        for v in values:
            self.add(v)
        self.add(str(values))


class TraceStats:
    """Distinct surfaces, tools, endpoints, ... of both traces, in first-seen order."""

    surfaces: _OrderedSet
    tools: _OrderedSet
    operations: _OrderedSet
    modalities: _OrderedSet
    mm_refs: _OrderedSet
    ui: _OrderedSet
    api_providers: _OrderedSet
    endpoints: _OrderedSet
    mcp_servers: _OrderedSet
    mcp_tools: _OrderedSet
    db_types: _OrderedSet
    db_schemas: _OrderedSet
    db_tables: _OrderedSet
    sheets: _OrderedSet
    commands: _OrderedSet
    jobs: _OrderedSet
    queues: _OrderedSet
    platforms: _OrderedSet
    threads: _OrderedSet
    documents: _OrderedSet
    extracts: _OrderedSet
    agents: _OrderedSet
    systems_of_record: _OrderedSet

    def __init__(self) -> None:
        names = (
            "surfaces",
            "tools",
            "operations",
            "modalities",
            "mm_refs",
            "ui",
            "api_providers",
            "endpoints",
            "mcp_servers",
            "mcp_tools",
            "db_types",
            "db_schemas",
            "db_tables",
            "sheets",
            "commands",
            "jobs",
            "queues",
            "platforms",
            "threads",
            "documents",
            "extracts",
            "agents",
            "systems_of_record",
        )
        for n in names:
            setattr(self, n, _OrderedSet())
        self.coordination: str | None = None
        self.physical = False
        self.linked: dict[str, list[dict[str, Any]]] = {}
        self.step_counts: dict[str, int] = {}

    def add(self, attempt: str, sc: Scenario, step: dict[str, Any]) -> None:
        """Fold one step in."""
        self.step_counts[attempt] = self.step_counts.get(attempt, 0) + 1
        g = step.get
        self.surfaces.add(step["interaction_surface"])
        if step["actor"] == "user":
            return
        self.operations.add(step["operation"])
        surface = step["interaction_surface"]
        if surface in UI_SOFTWARE:
            self.ui.add(surface)
        for key, attr in (
            ("modality", "modalities"),
            ("api_provider", "api_providers"),
            ("api_endpoint", "endpoints"),
            ("mcp_server", "mcp_servers"),
            ("mcp_tool_name", "mcp_tools"),
            ("database_type", "db_types"),
            ("schema_name", "db_schemas"),
            ("table_name", "db_tables"),
            ("sheet_name", "sheets"),
            ("command", "commands"),
            ("test_command", "commands"),
            ("job_id", "jobs"),
            ("queue_name", "queues"),
            ("platform_name", "platforms"),
            ("thread_id", "threads"),
            ("document_ref", "documents"),
            ("subagent_id", "agents"),
            ("system_of_record", "systems_of_record"),
        ):
            value = g(key)
            if value is not None:
                getattr(self, attr).add(value)
        if g("artifact_refs"):
            self.mm_refs.extend_list(step["artifact_refs"])
            for ref in step["artifact_refs"]:
                self.linked.setdefault(ref, []).append(
                    {
                        "attempt_id": sc.attempt_id(attempt),
                        "attempt_kind": attempt,
                        "trace_id": sc.trace_id(attempt),
                        "step": step["step"],
                        "actor": step["actor"],
                        "operation": step["operation"],
                    }
                )
        if g("table_extract_refs"):
            self.extracts.extend_list(step["table_extract_refs"])
        if g("coordination_pattern"):
            self.coordination = step["coordination_pattern"]
        if surface == "device" or step["environment_domain"] in (
            "device",
            "industrial",
            "physical",
        ):
            self.physical = True

"""Where things live in a compiled package (format sections 3 and 5)."""

from __future__ import annotations

__all__ = [
    "EC_DIR",
    "MAP_PATH",
    "FIXED_TYPES",
    "ENV_PAIR_TYPE",
    "SURFACE_TYPES",
    "ROW_FILES",
    "row_file_for",
    "SCHEMA_V02",
    "SCHEMA_V01",
    "COPIES",
    "RUNTIME_PATTERN_FILES",
]

EC_DIR = "experience_compiler"
# The evidence map (format 7): catalog, links and coverage.
MAP_PATH = f"{EC_DIR}/source_evidence_map.json"

SCHEMA_V02 = {
    "compiler": "aa-experience-compiler-v0.2",
    "row": "aa-training-row-v0.2",
    "evidence_map": "aa-source-evidence-map-v0.2",
}
SCHEMA_V01 = {
    "compiler": "aa-experience-compiler-v0.1",
    "row": "aa-training-row-v0.1",
    "evidence_map": "aa-source-evidence-map-v0.1",
}

FIXED_TYPES = (
    "training_example",
    "evaluation_example",
    "verifier_example",
    "reward_model_row",
    "preference_pair",
    "failure_case",
    "task_variant",
)
ENV_PAIR_TYPE = "environment_response_pair"
SURFACE_TYPES = (
    "multi_agent_handoff",
    "multimodal_artifact",
    "ui_interaction_event",
    "physical_environment_event",
    "api_interaction_event",
    "mcp_interaction_event",
    "database_event",
    "structured_table_event",
    "software_execution_event",
    "search_retrieval_event",
    "enterprise_app_event",
    "async_workflow_event",
    "collaboration_event",
    "document_event",
    "cross_system_event",
)


def row_file_for(data_type: str) -> str:
    """Package-relative primary location of a data type's row file (format 5)."""
    folder = "training_time_package" if data_type in FIXED_TYPES else "environment"
    return f"{EC_DIR}/{folder}/{data_type}s.jsonl"


# The 23 row files, in sorted bare-file-name order: the order of row_evidence_links.
ROW_FILES: tuple[tuple[str, str], ...] = tuple(
    sorted(
        ((row_file_for(t), t) for t in (*FIXED_TYPES, ENV_PAIR_TYPE, *SURFACE_TYPES)),
        key=lambda p: p[0].rsplit("/", 1)[1],
    )
)

_TTP = f"{EC_DIR}/training_time_package"
# The eight identical runtime pattern files (format 3.2); the first is the source of the copies.
RUNTIME_PATTERN_FILES = (
    "reusable_steps",
    "reusable_decision_rules",
    "tool_use_patterns",
    "failure_recovery_patterns",
    "mentor_feedback_patterns",
    "verifier_feedback_patterns",
    "artifact_expectations",
    "environment_expectations",
)
# Files the format says are byte-identical copies: (source, copy).
COPIES: tuple[tuple[str, str], ...] = (
    (f"{_TTP}/training_examples.jsonl", f"{_TTP}/sft_examples.jsonl"),
    (f"{_TTP}/evaluation_examples.jsonl", f"{EC_DIR}/evals/evaluation_examples.jsonl"),
    (f"{_TTP}/evaluation_examples.jsonl", f"{EC_DIR}/eval_package/evaluation_examples.jsonl"),
    (f"{_TTP}/verifier_examples.jsonl", f"{EC_DIR}/verifier/verifier_examples.jsonl"),
    (f"{_TTP}/verifier_examples.jsonl", f"{_TTP}/verifier_training_rows.jsonl"),
    (f"{_TTP}/reward_model_rows.jsonl", f"{EC_DIR}/reward/reward_model_rows.jsonl"),
    (f"{_TTP}/preference_pairs.jsonl", f"{EC_DIR}/reward/preference_pairs.jsonl"),
    (
        f"{EC_DIR}/environment/environment_response_pairs.jsonl",
        f"{EC_DIR}/environment/state_transition_rows.jsonl",
    ),
    (
        f"{EC_DIR}/environment/environment_response_pairs.jsonl",
        f"{_TTP}/environment_response_pairs.jsonl",
    ),
    (f"{_TTP}/transfer_eval_tasks.jsonl", f"{EC_DIR}/eval_package/transfer_eval_tasks.jsonl"),
    (f"{_TTP}/agentic_rollouts.jsonl", f"{_TTP}/rl_environment_replay_rows.jsonl"),
    (f"{EC_DIR}/skill_pack/skill.md", f"{EC_DIR}/runtime_learning_package/skill.md"),
    (
        f"{EC_DIR}/skill_pack/retrieval_card.json",
        f"{EC_DIR}/runtime_learning_package/retrieval_card.json",
    ),
    (
        f"{EC_DIR}/skill_pack/verifier_checklist.json",
        f"{EC_DIR}/runtime_learning_package/verifier_spec.json",
    ),
    (
        f"{EC_DIR}/skill_pack/tool_recipe.json",
        f"{EC_DIR}/runtime_learning_package/tool_recipe.json",
    ),
    *tuple(
        (
            f"{EC_DIR}/runtime_learning_package/reusable_steps.jsonl",
            f"{EC_DIR}/runtime_learning_package/{n}.jsonl",
        )
        for n in RUNTIME_PATTERN_FILES[1:]
    ),
)

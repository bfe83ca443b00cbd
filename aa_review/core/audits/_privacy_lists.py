"""The sanitizer's and row validator's lists (format 8.1 and 9), as data."""

from __future__ import annotations

import re

__all__ = [
    "FORBIDDEN_KEYS",
    "PUBLIC_OMIT_KEYS",
    "CONTROLLER_KEYS",
    "VALIDATOR_TOKENS",
    "PAIR_SOURCES",
    "PRIVATE_RE",
    "LOCAL_PATH_RE",
    "SECRET_RE",
    "SECRET_HINTS",
    "SANITIZED_MARKERS",
]

FORBIDDEN_KEYS = frozenset(
    {
        "source_ref",
        "source_basis",
        "source_url_or_ref",
        "source_url",
        "source_kind",
        "source_license",
        "buyer",
        "seller",
        "price",
        "listing",
        "marketplace",
        "agent_self_eval",
        "self_eval",
        "trace_context",
        "worker_agent",
        "worker_attempt",
        "evaluation_mode",
        "data_sharing_level",
        "featured",
        "curated",
        "limitations",
        "known_limitations",
        "limitations_count",
        "when_not_to_use",
        "not_useful_for",
        "non_use_cases",
        "rubric_limitations",
    }
)
PUBLIC_OMIT_KEYS = frozenset(
    {
        "source_url_or_ref",
        "source_kind",
        "source_url",
        "source_ref",
        "source_basis",
        "source_license",
        "expected_pay",
        "expected_apprentice_pay",
        "evaluation_mode",
        "data_sharing_level",
        "sensitive_info_masking",
        "raw_llm_output",
        "raw_model_output",
        "limitations",
        "known_limitations",
        "limitations_count",
        "when_not_to_use",
        "not_useful_for",
        "non_use_cases",
        "rubric_limitations",
    }
)
CONTROLLER_KEYS = (
    "max_iterations",
    "actual_iterations",
    "max_revision_iterations",
    "actual_revision_iterations",
    "stop_on_verifier_pass",
    "stop_on_score_threshold",
    "stop_on_no_improvement",
    "stop_on_provider_limit",
    "stop_on_timeout",
)
# Lower-cased substrings the row validator rejects (format 8.1).
VALIDATOR_TOKENS = ("deepseek", "worker agent", "worker_agent", "marketplace", "buyer", "seller")
# Sanitizer text pairs (source -> replacement), applied as given and again upper-cased.
_PAIRS = (
    ("source_url_or_ref", "reference_or_context"),
    ("public_source_urls", "public_reference_links"),
    ("public_source_url", "public_reference_link"),
    ("source_urls", "reference_links"),
    ("source_url", "reference_link"),
    ("source_ref", "reference_id"),
    ("source_basis", "reference_basis"),
    ("source_kind", "reference_kind"),
    ("source_license", "reference_license"),
    ("expected_apprentice_pay", "expected_economic_value_for_agent_apprentice"),
    ("expected_pay", "expected_economic_value"),
    ("data_sharing_level", "sensitive_info_masking"),
    ("evaluation_mode", "mentor_mode"),
    ("worker_attempt", "apprentice_attempt"),
    ("worker_agent", "apprentice_agent"),
    ("Gatekeeping", "Review Routing"),
    ("gatekeeping", "review routing"),
    ("Worker Agent", "Apprentice Agent"),
    ("worker agent", "Apprentice Agent"),
    ("DeepSeek", "model provider"),
    ("files_created_listing_inconsistency", "files_created_index_inconsistency"),
    ("Curated", "Selected"),
    ("curated", "selected"),
    ("Contribution Bundle", "Experience Compilation"),
    ("contribution bundle", "Experience Compilation"),
    ("Export Full Training Package", "Export Full Experience Compilation"),
    ("Training Data Optimization", "Experience Compiler"),
    ("TDO", "Experience Compiler"),
    ("Honest limitations", "Generation notes"),
    ("honest limitations", "generation notes"),
    ("Limitations", "Generation Notes"),
    ("limitations", "generation notes"),
    ("limitation", "generation note"),
    ("Applicability", "Best Use"),
    ("applicability", "fit"),
    ("Required Conditions", "Required Inputs"),
    ("Evidence Coverage", "Source Evidence"),
    ("Evidence coverage", "Source evidence"),
    ("evidence coverage", "source evidence"),
    ("Coverage Notes", "Generation Notes"),
    ("Data Coverage Notes", "Generation Notes"),
    ("Missing Evidence Notes", "Generation Notes"),
    ("Transfer Boundaries", "Transfer Notes"),
    ("Quality Notes", "Quality Signals"),
    ("quality notes", "quality signals"),
)
PAIR_SOURCES: tuple[str, ...] = tuple(
    dict.fromkeys([s for s, _ in _PAIRS] + [s.upper() for s, _ in _PAIRS])
)
# Replacement texts whose presence means the sanitizer rewrote something (format 12.6).
SANITIZED_MARKERS: tuple[tuple[str, str], ...] = tuple((dst, src) for src, dst in _PAIRS) + tuple(
    (dst.upper(), src.upper()) for src, dst in _PAIRS
)

PRIVATE_RE = re.compile(r"(/Users/|/private/|/var/folders/|/tmp/|\.env(?:\.local)?)")
# Every local path run the sanitizer rewrites (format 9, text rules).
LOCAL_PATH_RE = re.compile(r"(/Users/|/home/|/private/|/tmp/|/var/folders/)[^\s\"']*")
SECRET_RE = re.compile(
    r"(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{22,}"
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r"|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|[Bb]earer\s+[A-Za-z0-9._\-]{20,}"
    r"|(?i:api[_-]?key|secret|token|password|passwd)[\"']?\s*[:=]\s*[\"']?[A-Za-z0-9_\-/+=.]{12,})"
)
# Cheap literal hints, one of which every SECRET_RE match contains (checked lower-cased).
SECRET_HINTS = (
    "sk-",
    "akia",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xox",
    "-----begin",
    "eyj",
    "aiza",
    "bearer",
    "api_key",
    "apikey",
    "api-key",
    "secret",
    "token",
    "passw",
)

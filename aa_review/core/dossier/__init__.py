"""Training Readiness Dossier core: model, gates, lifecycle, journal, projection (no Qt).

The headless service is :class:`Workspace` (spec section 11); :func:`verify_journal`
checks a journal on its own; :func:`evaluate` is the validator the UI, the
workspace and the ``aa-review dossier check`` command share.
"""

from __future__ import annotations

from aa_review.core.dossier._admission import (
    AUTHORIZE,
    Standing,
    Step,
    admission,
    eligible_precondition,
)
from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._canonical import (
    ZERO_DIGEST,
    canonical_json,
    is_digest,
    json_digest,
)
from aa_review.core.dossier._curves import PowerCurve, lower_rung_bounds, power_curve
from aa_review.core.dossier._denial import DEFERRED_OPERATIONS, denial_reason, denial_words
from aa_review.core.dossier._edit import DELETE
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    ArchiveSchemaError,
    DossierError,
    DossierSchemaError,
    JournalConcurrentWriteError,
    JournalWriteError,
    KeyStoreError,
    PrincipalRegistryError,
    ProjectionError,
    RevisionConflictError,
    RevisionNotFoundError,
    WorkspaceError,
    WorkspaceLockedError,
    WorkspaceReadOnlyError,
)
from aa_review.core.dossier._fingerprints import (
    BoundChanges,
    FingerprintHooks,
    bytes_digest,
    changes_since_binding,
    kept_fingerprints,
)
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._gate_g2 import FEASIBILITY_TOPICS, reviewed_digest
from aa_review.core.dossier._gates_common import GATE_IDS, GateContext, GateResult, GateStatus
from aa_review.core.dossier._gates_g5_g8 import LICENSE_POLICY
from aa_review.core.dossier._graph import HIDDEN_SPLITS, TaskGraph
from aa_review.core.dossier._holdings import (
    KeyHolding,
    KeyPlace,
    holdings_line,
    key_holdings,
    one_machine_note,
)
from aa_review.core.dossier._journal import (
    GENESIS_HASH,
    JournalFile,
    JournalFolder,
    entry_hash,
    make_entry,
    open_journal,
)
from aa_review.core.dossier._keys import (
    KeyStore,
    Signer,
    key_fingerprint,
    user_data_dir,
    verify_signature,
)
from aa_review.core.dossier._models_dossier import (
    SECTION_NAMES,
    Dossier,
    Evidence,
    ParsedDossier,
    evidence_digest,
    parse_dossier,
    section_digests,
)
from aa_review.core.dossier._packages import (
    ContaminationHook,
    FactsMemo,
    PackageFacts,
    PackageFactsProvider,
    PackageLocator,
    PackageState,
    PackageStatus,
    inspect_packages,
    recorded_folders,
)
from aa_review.core.dossier._panel import (
    PANEL_STEPS,
    GateRow,
    NotAppliedView,
    PanelState,
    ProjectView,
    Snapshot,
    StepView,
    panel_state,
    take_snapshot,
)
from aa_review.core.dossier._preview import USER_ACTIONS, humanize_code, preview_check, refusal_for
from aa_review.core.dossier._preview_cache import PreviewCache, PreviewKey
from aa_review.core.dossier._principals import REDUCER, Kind, Principal, PrincipalRegistry, Role
from aa_review.core.dossier._projection import PUBLIC_KEYS, build_projection, check_projection
from aa_review.core.dossier._reasons import ReasonText, explain, gate_sentence
from aa_review.core.dossier._results import DossierRef, TransitionResult
from aa_review.core.dossier._states import (
    BOUND_STATES,
    TRANSITIONS,
    Action,
    DossierState,
    Outcome,
    Refusal,
    Transition,
    find_transition,
)
from aa_review.core.dossier._steps import STEPS, StepWords, refusal_text
from aa_review.core.dossier._strict import MalformedLine
from aa_review.core.dossier._summary import GATE_TITLES, gate_rows, metrics_lines
from aa_review.core.dossier._timeline import (
    JournalView,
    TimelineEntry,
    arrived_summary,
    journal_view,
)
from aa_review.core.dossier._timestamps import format_timestamp, parse_timestamp
from aa_review.core.dossier._validator import (
    GATES,
    VALIDATOR_VERSION,
    CheckRecord,
    evaluate,
    expired_check_record,
)
from aa_review.core.dossier._verify import registry_versions, verify_journal
from aa_review.core.dossier._views import WITHHELD, revision_view
from aa_review.core.dossier._witness import WitnessError, WitnessStore
from aa_review.core.dossier._workspace import Workspace, init_workspace_folder
from aa_review.core.dossier._workspace_forks import ForkResolutionError

__all__ = [
    "BoundChanges",
    "FingerprintHooks",
    "bytes_digest",
    "changes_since_binding",
    "kept_fingerprints",
    "AUTHORIZE",
    "PANEL_STEPS",
    "STEPS",
    "FactsMemo",
    "GateRow",
    "JournalView",
    "PackageFacts",
    "PackageFactsProvider",
    "NotAppliedView",
    "PanelState",
    "ProjectView",
    "ReasonText",
    "Snapshot",
    "Standing",
    "Step",
    "StepView",
    "StepWords",
    "TimelineEntry",
    "admission",
    "eligible_precondition",
    "explain",
    "gate_sentence",
    "journal_view",
    "arrived_summary",
    "panel_state",
    "refusal_text",
    "take_snapshot",
    "GATE_TITLES",
    "gate_rows",
    "metrics_lines",
    "PowerCurve",
    "lower_rung_bounds",
    "power_curve",
    "USER_ACTIONS",
    "humanize_code",
    "denial_words",
    "preview_check",
    "PreviewCache",
    "PreviewKey",
    "refusal_for",
    "BOUND_STATES",
    "DEFERRED_OPERATIONS",
    "DELETE",
    "FEASIBILITY_TOPICS",
    "GATES",
    "GATE_IDS",
    "GENESIS_HASH",
    "HIDDEN_SPLITS",
    "LICENSE_POLICY",
    "PUBLIC_KEYS",
    "REDUCER",
    "SECTION_NAMES",
    "TRANSITIONS",
    "VALIDATOR_VERSION",
    "WITHHELD",
    "ZERO_DIGEST",
    "KeyHolding",
    "KeyPlace",
    "key_holdings",
    "holdings_line",
    "one_machine_note",
    "Action",
    "ActorUnavailableError",
    "Archive",
    "ArchiveSchemaError",
    "CheckRecord",
    "ContaminationHook",
    "Dossier",
    "DossierError",
    "DossierRef",
    "DossierSchemaError",
    "DossierState",
    "Evidence",
    "Freshness",
    "GateContext",
    "GateResult",
    "GateStatus",
    "JournalConcurrentWriteError",
    "JournalFile",
    "JournalFolder",
    "JournalWriteError",
    "KeyStore",
    "key_fingerprint",
    "KeyStoreError",
    "Kind",
    "MalformedLine",
    "Outcome",
    "PackageLocator",
    "PackageState",
    "PackageStatus",
    "ParsedDossier",
    "Principal",
    "PrincipalRegistry",
    "PrincipalRegistryError",
    "ProjectionError",
    "Refusal",
    "RevisionConflictError",
    "RevisionNotFoundError",
    "Role",
    "Signer",
    "TaskGraph",
    "Transition",
    "TransitionResult",
    "Workspace",
    "ForkResolutionError",
    "open_journal",
    "WorkspaceError",
    "WorkspaceLockedError",
    "WorkspaceReadOnlyError",
    "WitnessError",
    "WitnessStore",
    "assess_freshness",
    "build_projection",
    "canonical_json",
    "check_projection",
    "denial_reason",
    "entry_hash",
    "evaluate",
    "evidence_digest",
    "expired_check_record",
    "find_transition",
    "format_timestamp",
    "init_workspace_folder",
    "inspect_packages",
    "recorded_folders",
    "is_digest",
    "json_digest",
    "make_entry",
    "parse_archive",
    "parse_dossier",
    "parse_timestamp",
    "registry_versions",
    "reviewed_digest",
    "revision_view",
    "section_digests",
    "user_data_dir",
    "verify_journal",
    "verify_signature",
]

"""Training Readiness Dossier core: model, gates, lifecycle, journal, projection (no Qt).

The headless service is :class:`Workspace` (spec section 11); :func:`verify_journal`
checks a journal on its own; :func:`evaluate` is the validator the UI, the
workspace and the ``aa-review dossier check`` command share.
"""

from __future__ import annotations

from aa_review.core.dossier._admission import (
    AUTHORIZE,
    admission,
    eligible_precondition,
)
from aa_review.core.dossier._archive import (
    parse_archive,
)
from aa_review.core.dossier._canonical import (
    canonical_json,
    is_digest,
    json_digest,
)
from aa_review.core.dossier._curves import (
    PowerCurve,
)
from aa_review.core.dossier._denial import (
    DEFERRED_OPERATIONS,
    denial_words,
)
from aa_review.core.dossier._edit import (
    DELETE,
)
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    ArchiveSchemaError,
    DossierError,
    DossierSchemaError,
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
    bytes_digest,
    changes_since_binding,
    kept_fingerprints,
)
from aa_review.core.dossier._freshness import (
    assess_freshness,
)
from aa_review.core.dossier._gates_common import (
    GATE_IDS,
    GateContext,
    GateResult,
    GateStatus,
)
from aa_review.core.dossier._graph import (
    TaskGraph,
)
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
)
from aa_review.core.dossier._keys import (
    KeyStore,
    key_fingerprint,
    verify_signature,
)
from aa_review.core.dossier._models_dossier import (
    SECTION_NAMES,
    evidence_digest,
    parse_dossier,
    section_digests,
)
from aa_review.core.dossier._packages import (
    PackageFacts,
    PackageState,
    PackageStatus,
    inspect_packages,
    recorded_folders,
)
from aa_review.core.dossier._panel import (
    NotAppliedView,
    PanelState,
    Snapshot,
    panel_state,
    take_snapshot,
)
from aa_review.core.dossier._preview import (
    preview_check,
    refusal_for,
)
from aa_review.core.dossier._preview_cache import (
    PreviewCache,
)
from aa_review.core.dossier._principals import (
    Kind,
    PrincipalRegistry,
    Role,
)
from aa_review.core.dossier._projection import (
    PUBLIC_KEYS,
    build_projection,
    check_projection,
)
from aa_review.core.dossier._reasons import (
    explain,
)
from aa_review.core.dossier._results import (
    TransitionResult,
)
from aa_review.core.dossier._states import (
    Action,
    DossierState,
    Outcome,
    Refusal,
)
from aa_review.core.dossier._steps import (
    STEPS,
    refusal_text,
)
from aa_review.core.dossier._timeline import (
    TimelineEntry,
    arrived_summary,
    journal_view,
)
from aa_review.core.dossier._timestamps import (
    parse_timestamp,
)
from aa_review.core.dossier._validator import (
    GATES,
    CheckRecord,
    evaluate,
)
from aa_review.core.dossier._verify import (
    verify_journal,
)
from aa_review.core.dossier._witness import (
    WitnessStore,
)
from aa_review.core.dossier._workspace import (
    Workspace,
    init_workspace_folder,
)
from aa_review.core.dossier._workspace_forks import (
    ForkResolutionError,
)

__all__ = [
    "AUTHORIZE",
    "Action",
    "ActorUnavailableError",
    "ArchiveSchemaError",
    "BoundChanges",
    "CheckRecord",
    "DEFERRED_OPERATIONS",
    "DELETE",
    "DossierError",
    "DossierSchemaError",
    "DossierState",
    "ForkResolutionError",
    "GATES",
    "GATE_IDS",
    "GENESIS_HASH",
    "GateContext",
    "GateResult",
    "GateStatus",
    "JournalFile",
    "JournalFolder",
    "JournalWriteError",
    "KeyHolding",
    "KeyPlace",
    "KeyStore",
    "KeyStoreError",
    "Kind",
    "NotAppliedView",
    "Outcome",
    "PUBLIC_KEYS",
    "PackageFacts",
    "PackageState",
    "PackageStatus",
    "PanelState",
    "PowerCurve",
    "PreviewCache",
    "PrincipalRegistry",
    "PrincipalRegistryError",
    "ProjectionError",
    "Refusal",
    "RevisionConflictError",
    "RevisionNotFoundError",
    "Role",
    "SECTION_NAMES",
    "STEPS",
    "Snapshot",
    "TaskGraph",
    "TimelineEntry",
    "TransitionResult",
    "WitnessStore",
    "Workspace",
    "WorkspaceError",
    "WorkspaceLockedError",
    "WorkspaceReadOnlyError",
    "admission",
    "arrived_summary",
    "assess_freshness",
    "build_projection",
    "bytes_digest",
    "canonical_json",
    "changes_since_binding",
    "check_projection",
    "denial_words",
    "eligible_precondition",
    "entry_hash",
    "evaluate",
    "evidence_digest",
    "explain",
    "holdings_line",
    "init_workspace_folder",
    "inspect_packages",
    "is_digest",
    "journal_view",
    "json_digest",
    "kept_fingerprints",
    "key_fingerprint",
    "key_holdings",
    "make_entry",
    "one_machine_note",
    "panel_state",
    "parse_archive",
    "parse_dossier",
    "parse_timestamp",
    "preview_check",
    "recorded_folders",
    "refusal_for",
    "refusal_text",
    "section_digests",
    "take_snapshot",
    "verify_journal",
    "verify_signature",
]

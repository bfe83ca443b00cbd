"""Training Readiness Dossier core (provisional exports while it is written)."""

from __future__ import annotations

from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._canonical import ZERO_DIGEST, canonical_json, is_digest, json_digest
from aa_review.core.dossier._models_dossier import parse_dossier, section_digests
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._validator import CheckRecord, evaluate

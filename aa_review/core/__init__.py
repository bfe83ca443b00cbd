"""Qt-free core of aa-review: loading, index, audits, dossier and statistics."""

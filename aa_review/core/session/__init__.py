"""The review session: what is open in the window, and everything derived from it.

Filled in by the next commits; for now the selection hub and saved session files.
"""

from __future__ import annotations

from aa_review.core.session._saved import SESSION_SUFFIX, SessionState, load_session, save_session
from aa_review.core.session._selection import Selection, SelectionHub

__all__ = ["Selection", "SelectionHub", "SessionState", "save_session", "load_session",
           "SESSION_SUFFIX"]

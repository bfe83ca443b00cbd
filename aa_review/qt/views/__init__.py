"""The window's panels, dialogs and the main window (Qt widgets over the review session)."""

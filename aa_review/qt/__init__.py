"""The Qt shell: adapts the core to widgets; all decisions stay in aa_review.core."""

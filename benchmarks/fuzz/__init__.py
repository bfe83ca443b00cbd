"""The hostile-package campaign (``./dev fuzz``): mutation operators, the runner, the race."""

"""Work spread over turns of the event loop: a queue of steps, and the views' gates.

When a package opens, the session tells every view at once; filling them all in that
one call held the GUI thread for tens of milliseconds on a large package, and painting
them all in the next turn as long again. The window instead holds each view's
:class:`Gate` when a package opens, and :class:`Turns` releases one gate per turn:
each view then takes what the session said meanwhile, in the order it was said, and is
painted before the next view fills.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

__all__ = ["Gate", "Turns"]


class Gate:
    """Holds what the session tells one view while the view's fill waits for its turn.

    A view sends each thing it is told through :meth:`call`: run at once, or kept while
    the gate is held. :meth:`release` runs what was kept, in order, then lets calls
    through again; :meth:`hold` starts holding afresh (what was kept is dropped: it was
    about what a newly opened package replaces).
    """

    def __init__(self) -> None:
        self._held = False
        self._kept: deque[tuple[Callable[..., object], tuple[Any, ...]]] = deque()

    @property
    def held(self) -> bool:
        return self._held

    def call(self, slot: Callable[..., object], *args: Any) -> None:
        if self._held:
            self._kept.append((slot, args))
        else:
            slot(*args)

    def hold(self) -> None:
        self._kept.clear()
        self._held = True

    def release(self) -> None:
        # Calls made while catching up (a slot telling the session, which tells this
        # view again) are kept too, and run after those before them.
        while self._kept:
            slot, args = self._kept.popleft()
            slot(*args)
        self._held = False


class Turns(QObject):
    """Steps run one per turn of the event loop, in the order added.

    Each step runs from a zero-timer, so what it changed is painted (and the user's
    input handled) before the next step runs. A step that returns an iterator (a
    generator) goes on in the turns after, one item per turn, before the next step.
    :meth:`cancel` drops the steps not run yet. ``at_once`` (tests,
    ``AA_REVIEW_SYNCHRONOUS=1``): each step runs, to its end, when added. ``ran`` says
    the name of each step once it has run (to its end).
    """

    ran = Signal(str)

    def __init__(self, parent: QObject | None = None, *, at_once: bool = False) -> None:
        super().__init__(parent)
        self.at_once = at_once
        self._steps: deque[tuple[str, Callable[[], object]]] = deque()
        self._cancels = 0  # counts cancel(): a step that cancels is not resumed
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next)

    @property
    def pending(self) -> int:
        """The number of steps not run yet."""
        return len(self._steps)

    def add(self, name: str, step: Callable[[], object]) -> None:
        if self.at_once:
            more = step()
            if isinstance(more, Iterator):
                for _ in more:
                    pass
            self.ran.emit(name)
            return
        self._steps.append((name, step))
        if not self._timer.isActive():
            self._timer.start()

    def cancel(self) -> None:
        self._cancels += 1
        self._steps.clear()
        self._timer.stop()

    def _next(self) -> None:
        if not self._steps:
            return
        name, step = self._steps.popleft()
        if self._steps:  # the next turn's, started first: a step that raises stops nothing
            self._timer.start()
        cancels = self._cancels
        more = step()
        rest = _resume(more) if isinstance(more, Iterator) else None
        if cancels != self._cancels:
            return  # the step cancelled what was queued, itself included
        if rest is not None:
            self._steps.appendleft((name, lambda: rest))
            self._timer.start()
        else:
            self.ran.emit(name)


def _resume(steps: Iterator[object]) -> Iterator[object] | None:
    """One more item of a step that goes on over turns: the rest, or None at its end."""
    for _ in steps:
        return steps
    return None

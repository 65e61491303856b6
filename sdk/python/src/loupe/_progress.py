"""Progress bars for long uploads, drawn on stderr only when it is a terminal.

``uploading samples  12,000/50,000 [=====>     ] 240/s``
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Optional, TextIO

BAR_WIDTH = 24
REDRAW_SECONDS = 0.1


class Progress:
    """A one-line progress bar.

    Args:
        label: what is counted, e.g. ``"uploading samples"``.
        total: how many there will be, when known.
        enabled: True or False to force; None (default) draws only when ``stream`` is a TTY.
        stream: where to draw (stderr by default).
    """

    def __init__(
        self,
        label: str,
        total: Optional[int] = None,
        enabled: Optional[bool] = None,
        stream: Optional[TextIO] = None,
    ) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.done = 0
        self._start = time.monotonic()
        self._drawn_at = 0.0
        self._drawn_at_count: Optional[int] = None
        # Batches in flight finish on their own threads.
        self._lock = threading.Lock()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, count: int) -> None:
        """Adds ``count`` finished items and redraws (at most ten times a second)."""
        with self._lock:
            self.done += count
            now = time.monotonic()
            if self.enabled and (now - self._drawn_at >= REDRAW_SECONDS or self._finished()):
                self._drawn_at = now
                self._draw(now)

    def _finished(self) -> bool:
        return self.total is not None and self.done >= self.total

    def line(self, now: Optional[float] = None) -> str:
        """The text of the bar as it stands."""
        elapsed = max(1e-6, (now if now is not None else time.monotonic()) - self._start)
        rate = self.done / elapsed
        if self.total:
            filled = min(BAR_WIDTH, int(BAR_WIDTH * self.done / self.total))
            arrow = ">" if filled < BAR_WIDTH else ""
            bar = "=" * filled + arrow + " " * (BAR_WIDTH - filled - len(arrow))
            return f"{self.label}  {self.done:,}/{self.total:,} [{bar}] {rate:,.0f}/s"
        return f"{self.label}  {self.done:,} {rate:,.0f}/s"

    def _draw(self, now: float) -> None:
        self.stream.write("\r\x1b[2K" + self.line(now))
        self.stream.flush()
        self._drawn_at_count = self.done

    def close(self) -> None:
        """Draws the final state and ends the line."""
        if self.enabled:
            if self._drawn_at_count != self.done:
                self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False

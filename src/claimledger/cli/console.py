"""The terminal: rich consoles that show a page's control characters rather than obey them."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment

from claimledger.cli.app import visible_controls


class TerminalConsole(Console):
    """A rich Console that prints every piece of text with its control characters made
    visible; rich's own styling is added after, so colours still work."""

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control:
                yield segment
            else:
                yield Segment(visible_controls(segment.text), segment.style)

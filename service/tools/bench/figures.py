"""One benchmark figure beside its baseline, and the table they make.

Every figure is compared with a baseline measured in the same run (absolute rates on these
machines drift by 2x from day to day; the ratio is what carries over).
"""

from __future__ import annotations

import msgspec


class Figure(msgspec.Struct, frozen=True, kw_only=True):
    section: str  # "http", "store", "engine", "growth", "live"
    name: str  # what was measured, in words
    value: float
    unit: str  # "cmd/s", "ms", "KiB", "games/s"...
    baseline: str  # what it is compared with, in words
    baseline_value: float
    higher_is_better: bool = True
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.value / self.baseline_value if self.baseline_value else float("nan")


def number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


HEADER = ("section", "measurement", "value", "baseline", "baseline value", "ratio")


def rows(figures: list[Figure]) -> list[tuple[str, ...]]:
    return [
        (
            figure.section,
            figure.name + (f" ({figure.note})" if figure.note else ""),
            f"{number(figure.value)} {figure.unit}",
            figure.baseline,
            f"{number(figure.baseline_value)} {figure.unit}",
            f"{figure.ratio:.2f}x",
        )
        for figure in figures
    ]


def text_table(figures: list[Figure]) -> str:
    """The table for a terminal: fixed-width columns."""
    lines = [HEADER, *rows(figures)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )


def markdown_table(figures: list[Figure]) -> str:
    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    separator = "|" + "|".join("---" for _ in HEADER) + "|"
    return "\n".join([line(HEADER), separator, *(line(row) for row in rows(figures))])

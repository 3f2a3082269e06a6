"""Statement texts with the tables' names and the driver's placeholder filled in, each text
filled in once.

``str.format`` with a score of names cost ~10k instructions a call (the names' keyword dict
built, the template parsed), and the read models' writes asked for six texts a command in the
writer's thread (callgrind: 1.6% of a command on SQLite). The texts are the modules' own, a few
shaped by a count (rows, ids), so the memo stays small; it stops growing at ``MOST`` anyway.
"""

from __future__ import annotations

from collections.abc import Mapping

MOST = 1024  # texts remembered; one past them is filled in on every call


class Statements:
    def __init__(self, names: Mapping[str, str]) -> None:
        self._names = dict(names)
        self._filled: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        filled = self._filled.get(text)
        if filled is None:
            filled = text.format_map(self._names)
            if len(self._filled) < MOST:
                self._filled[text] = filled
        return filled

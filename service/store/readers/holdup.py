"""What holds the readers of the log back: the oldest writer still in flight."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Holdup:
    """The horizon (every notification id below it is final) and the writer holding it, as
    PostgreSQL reports its session (None where the role may not see another role's)."""

    horizon: int
    pid: int | None
    open_seconds: float | None
    state: str | None
    application: str | None
    query: str | None

    def describe(self) -> str:
        age = "" if self.open_seconds is None else f", open {self.open_seconds:.0f} s"
        return (
            f"the transaction of pid {self.pid} (application {self.application!r},"
            f" {self.state}{age}): {(self.query or '')[:200]!r}"
        )

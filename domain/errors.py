"""Rule violations: a stable machine code, a human message and what kind of failure it is."""

from __future__ import annotations

from enum import Enum


class Failure(Enum):
    """What went wrong, independent of any transport (the service maps it to a status)."""

    INVALID = "invalid"  # the request itself is malformed or out of range
    CONFLICT = "conflict"  # well-formed, but the game's state does not allow it now
    FORBIDDEN = "forbidden"  # the caller may not do this
    NOT_FOUND = "not_found"


class RuleViolation(Exception):
    """A command that the rules reject. Nothing is recorded when one is raised."""

    def __init__(self, code: str, message: str, failure: Failure = Failure.CONFLICT) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.failure = failure


def invalid(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message, Failure.INVALID)


def forbidden(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message, Failure.FORBIDDEN)

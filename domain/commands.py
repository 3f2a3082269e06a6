"""Commands: what a seat asks for, tagged by ``type``. Unknown fields are rejected."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from domain.errors import Failure, invalid

REFUSALS: Mapping[str, Failure] = {
    "invalid_command": Failure.INVALID,
    "unknown_command": Failure.INVALID,
}


class Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of every command; subclasses declare their wire ``tag`` explicitly."""


class VoteCancel(Command, frozen=True, tag="vote_cancel"):
    """Vote to cancel a running game; it is cancelled once every seated player has voted."""


class Leave(Command, frozen=True, tag="leave"):
    """Leave the table for good; the game goes on without this seat."""


class PlayCard(Command, frozen=True, tag="play"):
    """Play one card from the hand."""

    card: str


COMMON_COMMANDS: tuple[type[Command], ...] = (VoteCancel, Leave)


def parse_command(allowed: tuple[type[Command], ...], data: object) -> Command:
    """A command from decoded JSON, if its ``type`` is one of ``allowed``."""
    if not isinstance(data, dict):
        raise invalid("invalid_command", "a command is a JSON object with a 'type'")
    by_tag = {str(kind.__struct_config__.tag): kind for kind in allowed}
    tag = data.get("type")
    kind = by_tag.get(tag) if isinstance(tag, str) else None
    if kind is None:
        known = ", ".join(sorted(by_tag))
        raise invalid(
            "unknown_command", f"unknown command type {data.get('type')!r} (known: {known})"
        )
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise invalid(
            "invalid_command", f"invalid {kind.__struct_config__.tag} command: {error}"
        ) from None

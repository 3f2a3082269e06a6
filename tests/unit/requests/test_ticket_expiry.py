"""Stream tickets open one game's stream for one player, for a minute and not a second more.

`issue` and `redeem` take the time as an argument, so expiry is checked without any clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from service.application.tickets import TICKET_LIFETIME, issue, redeem
from service.errors import ApiError

KEY = bytes(range(32))
GAME = "00000000-0000-4000-8000-0000000000aa"
ISSUED = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def refused(ticket: str, why: str, *, game: str = GAME, at: datetime, key: bytes = KEY) -> ApiError:
    """The error redeeming ``ticket`` raises; a ticket redeemed instead fails the test."""
    try:
        holder = redeem(key, ticket, game, at)
    except ApiError as error:
        return error
    raise AssertionError(f"redeemed for {holder} at {at.isoformat()}, though {why}")


def test_a_fresh_ticket_names_its_holder_until_it_expires() -> None:
    ticket = issue(KEY, "player-1", GAME, ISSUED)
    assert ticket.expires_at == ISSUED + TICKET_LIFETIME == ISSUED + timedelta(seconds=60)
    assert redeem(KEY, ticket.ticket, GAME, ISSUED) == "player-1"
    assert redeem(KEY, ticket.ticket, GAME, ticket.expires_at - timedelta(seconds=1)) == "player-1"


@pytest.mark.parametrize("late", [timedelta(0), timedelta(seconds=1), timedelta(days=365)])
def test_a_ticket_is_refused_from_its_expiry_on(late: timedelta) -> None:
    ticket = issue(KEY, "player-1", GAME, ISSUED)
    error = refused(
        ticket.ticket, f"it expired at {ticket.expires_at}", at=ticket.expires_at + late
    )
    assert (error.status, error.code) == (401, "invalid_ticket")


def test_a_ticket_for_another_game_or_key_is_refused() -> None:
    ticket = issue(KEY, "player-1", GAME, ISSUED)
    other_game = GAME.replace("aa", "bb")
    assert refused(ticket.ticket, "it is for another game", game=other_game, at=ISSUED).code == (
        "invalid_ticket"
    )
    assert refused(ticket.ticket, "another key signed it", key=bytes(32), at=ISSUED).code == (
        "invalid_ticket"
    )


def test_a_ticket_with_a_later_expiry_written_in_is_refused() -> None:
    # The expiry is inside the signed body: pushing it back breaks the signature.
    ticket = issue(KEY, "player-1", GAME, ISSUED)
    later = issue(KEY, "player-1", GAME, ISSUED + timedelta(hours=1))
    forged = later.ticket.split(".")[0] + "." + ticket.ticket.split(".")[1]
    assert refused(forged, "its expiry was rewritten", at=ISSUED).code == "invalid_ticket"

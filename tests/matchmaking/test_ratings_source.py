"""The queue asks its ratings source for each joining player's rating and keeps it in the
entry: with ratings wired in, the closest-rated waiting player is seated first."""

from __future__ import annotations

from uuid import UUID

from service.application import Cardledger
from service.auth import Principal
from tests.support.in_process import players


class Fixed:
    """A ratings source with the ratings given (as the ratings read model will be)."""

    def __init__(self, ratings: dict[str, float]) -> None:
        self.ratings = ratings

    def rating_of(self, player_id: str, variant: str) -> float:
        return self.ratings[player_id]


def test_the_closest_rating_is_seated_first(ledger: Cardledger) -> None:
    anna, far, near = players(ledger, 3)
    ids = [str(player.player_id) for player in (anna, far, near)]
    ledger.matchmaking.ratings = Fixed(dict(zip(ids, (1500.0, 900.0, 1490.0), strict=True)))

    def join(player: Principal, band: float | None = None) -> str:
        return ledger.matchmaking.join(
            player,
            "open-hand",
            min_seats=2,
            max_seats=2,
            options=None,
            rating_band=band,
            bots=None,
            client_seed="",
        ).status

    assert join(far, band=100) == "waiting"
    assert join(anna) == "waiting"  # far's band keeps them apart
    assert join(near) == "matched"
    state = ledger.matchmaking.queues.current("open-hand").state
    assert set(state.waiting) == {ids[1]}
    game = ledger.games.fresh(UUID(state.matched[ids[0]]))
    assert [seat.player_id for _, seat in game.state.taken] == [ids[0], ids[2]]
    assert state.waiting[ids[1]].joined.rating == 900.0

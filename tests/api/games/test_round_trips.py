"""A command costs one store round trip when this process's copy of the game is current, and a
stale copy (another process wrote) costs a retry, never a wrong write."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from domain.errors import RuleViolation
from service.application import Cardledger
from service.settings import Settings
from service.tools.local_games import play_one, seated
from tests.support.client import Api


@contextmanager
def counting(ledger: Cardledger) -> Iterator[dict[str, int]]:
    """Counts the recorder's reads of a game's events and its inserts."""
    recorder: Any = ledger.store.recorder
    counts = {"select_events": 0, "insert_events": 0}
    originals = {name: getattr(recorder, name) for name in counts}

    def counted(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return originals[name](*args, **kwargs)

        return call

    for name in counts:
        setattr(recorder, name, counted(name))
    try:
        yield counts
    finally:
        for name, original in originals.items():
            setattr(recorder, name, original)


def test_a_command_on_a_current_copy_is_one_insert_and_no_read(ledger: Cardledger) -> None:
    game_id, who = seated(ledger, 2)
    with counting(ledger) as counts:
        for _ in range(4):
            play_one(ledger, game_id, who)
    assert counts == {"select_events": 0, "insert_events": 4}


def test_a_refusal_is_confirmed_on_the_stored_game_first(ledger: Cardledger) -> None:
    game_id, who = seated(ledger, 2)
    known = ledger.games.cached(game_id)
    waiting = next(s for s in range(2) if s not in known.state.rules.to_act(known.state.table))
    card = known.state.table.hands[waiting][0]
    with counting(ledger) as counts, pytest.raises(RuleViolation) as refused:
        ledger.commands.send(
            who[waiting], game_id, {"type": "play", "card": card}, idempotency=None, if_match=None
        )
    assert refused.value.code == "not_your_turn"
    assert counts == {"select_events": 1, "insert_events": 0}


def test_a_stale_copy_is_caught_by_the_insert_and_decided_again(settings: Settings) -> None:
    first, second = Cardledger(settings), Cardledger(settings)  # two processes, one store
    try:
        game_id, who = seated(first, 3)
        second.games.cached(game_id)  # second's copy, soon to be behind
        voted = first.commands.send(
            who[1], game_id, {"type": "vote_cancel"}, idempotency=None, if_match=None
        )
        with counting(second) as counts:
            result = second.commands.send(
                who[2], game_id, {"type": "vote_cancel"}, idempotency=None, if_match=None
            )
        # The insert at the stale version failed, the copy caught up, the vote was re-decided.
        assert counts == {"select_events": 1, "insert_events": 2}
        assert result.version == voted.version + 1
        events = second.queries.events_in(
            second.queries.read(None, game_id), after=0, limit=100
        ).events
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        assert sorted(e.payload.seat for e in events if e.type == "CancelVoted") == [1, 2]
    finally:
        first.close()
        second.close()


def test_a_read_asks_the_store_once_for_the_game_and_its_validator(api: Api) -> None:
    """The answer and its ETag come from one read of the game (they cannot disagree), and the
    events a page shows are the only other query."""
    game_id = api.started(2)
    reads = {
        f"/games/{game_id}": 1,
        f"/games/{game_id}/view": 1,
        f"/games/{game_id}/events": 2,
        f"/games/{game_id}/replay": 2,
        f"/games/{game_id}/audit": 2,
    }
    for path, selects in reads.items():
        with counting(api.ledger) as counts:
            answer = api.client.get(path, headers=api.auth(0))
        assert answer.status_code == 200, path
        assert counts == {"select_events": selects, "insert_events": 0}, path
        with counting(api.ledger) as counts:
            again = api.client.get(
                path, headers={**api.auth(0), "If-None-Match": answer.headers["ETag"]}
            )
        assert again.status_code == 304, path
        assert counts == {"select_events": 1, "insert_events": 0}, path

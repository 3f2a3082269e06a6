"""The process's copies of its games, close to the code: the newest copy stays whoever offers an
older one (a thread that loaded the game before another saved it), and receipts are kept per
scope, so one Idempotency-Key may serve a creation and a command on another game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.application import Cardledger
from service.settings import Settings
from service.store.receipts import Idempotency, ReceiptKey
from tests.support.in_process import new_game, players


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Cardledger]:
    """The cache does not depend on the store: SQLite will do."""
    app = Cardledger(Settings(data_dir=tmp_path, projector="external"))
    yield app
    app.close()


def test_an_older_copy_never_replaces_a_newer_one(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    game_id = new_game(ledger, ann)
    older = ledger.games.cached(game_id)
    ledger.commands.join(ben, game_id, client_seed="", idempotency=None)
    newer = ledger.games.cached(game_id)
    assert newer.version > older.version
    ledger.games.remember(older)
    assert ledger.games.cached(game_id) is newer
    ledger.games.remember(newer.fork())  # as new as the copy: either will do
    assert ledger.games.cached(game_id).version == newer.version


def test_a_newer_copy_replaces_an_older_one(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    game_id = new_game(ledger, ann)
    older = ledger.games.cached(game_id).fork()
    ledger.commands.join(ben, game_id, client_seed="", idempotency=None)
    newer = ledger.games.cached(game_id)
    ledger.games.remember(older)
    assert ledger.games.cached(game_id) is newer


def test_a_receipt_belongs_to_its_scope() -> None:
    idempotency = Idempotency(key="k-1", digest="d")
    create = ReceiptKey("player-1", "create", idempotency)
    play = ReceiptKey("player-1", "game:6f1b0000-0000-4000-8000-000000000000", idempotency)
    elsewhere = ReceiptKey("player-1", "game:6f1b0000-0000-4000-8000-000000000001", idempotency)
    someone_else = ReceiptKey("player-2", "create", idempotency)
    ids = {key.receipt_id for key in (create, play, elsewhere, someone_else)}
    assert len(ids) == 4
    assert create.receipt_id == ReceiptKey("player-1", "create", idempotency).receipt_id


def test_one_key_serves_a_creation_and_a_command_on_another_game(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    key = Idempotency(key="same-key", digest="creation")
    created = ledger.commands.create(
        ann, variant="open-hand", seats=2, options={}, client_seed="", idempotency=key
    )
    other = new_game(ledger, ben)
    joined = ledger.commands.join(
        ann, other, client_seed="", idempotency=Idempotency(key="same-key", digest="join")
    )
    assert joined.game_id == str(other) != created.game_id
    assert joined.seat == 1 and joined.events
    assert ledger.games.fresh(other).version == joined.version


def test_the_least_recently_used_copy_is_the_one_forgotten(tmp_path: Path) -> None:
    ledger = Cardledger(Settings(data_dir=tmp_path, projector="external", cached_games=2))
    try:
        (ann,) = players(ledger, 1)
        first, second, third = (new_game(ledger, ann) for _ in range(3))
        assert len(ledger.games) == 2  # the first is forgotten
        held = {game_id: ledger.games.cached(game_id) for game_id in (second, third)}
        assert all(ledger.games.cached(game_id) is copy for game_id, copy in held.items())
        ledger.games.cached(first)  # loaded again: the second is now the least recently used
        assert ledger.games.cached(third) is held[third]
        assert ledger.games.cached(second) is not held[second]
        assert len(ledger.games) == 2
    finally:
        ledger.close()

"""The sequencer on both stores, without HTTP: two sequencers at once make one log (each game's
creation once, indexes without a gap); a new process continues the tree exactly where the last
left it, under the same key, and its checkpoints are consistent with the older ones."""

from __future__ import annotations

import base64
import threading
from uuid import UUID

from projections.transparency.entries import GameCreatedEntry, decode
from projections.transparency.merkle import Tree, verify_consistency
from projections.transparency.notes import Policy, SignedNote
from service.application import Cardledger
from service.application.log.sequencer import TOPICS
from service.settings import Settings
from tests.support.in_process import new_game, players

GAMES = 60


def logged(ledger: Cardledger) -> list[bytes]:
    size = ledger.log.tables.sequenced().size
    return ledger.log.tables.entries(0, size + 10)


def check_log(ledger: Cardledger, games: list[UUID]) -> SignedNote:
    """Every game's creation once, indexes 0.. without a gap, and the latest checkpoint over
    exactly these entries, signed with the log's key."""
    entries = logged(ledger)
    assert len(entries) == ledger.log.tables.sequenced().size
    created = [decode(entry) for entry in entries]
    assert all(isinstance(entry, GameCreatedEntry) for entry in created)
    assert sorted(str(entry.game_id) for entry in created) == sorted(map(str, games))
    tree = Tree()
    for entry in entries:
        tree.append(entry)
    latest = ledger.log.reads.checkpoint()
    note = SignedNote.parse(latest.note)
    Policy(ledger.log.signer.verifier(), (), 0).accept(note)
    assert (note.checkpoint.size, note.checkpoint.root) == (tree.size, tree.root())
    for level, hashes in enumerate(tree.levels):
        assert ledger.log.tables.nodes(level, 0, len(hashes) + 1) == hashes
    return note


def test_two_sequencers_at_once_make_one_log(ledger: Cardledger, settings: Settings) -> None:
    other = Cardledger(settings)
    try:
        creator = players(ledger, 1)[0]
        games: list[UUID] = []
        stop = threading.Event()
        failures: list[BaseException] = []

        def sequence(app: Cardledger) -> None:
            try:
                while not stop.is_set():
                    app.log.sequencer.catch_up()
            except BaseException as error:  # reported below
                failures.append(error)

        threads = [threading.Thread(target=sequence, args=(app,)) for app in (ledger, other)]
        for thread in threads:
            thread.start()
        try:
            for _ in range(GAMES):
                games.append(new_game(ledger, creator))
        finally:
            stop.set()
            for thread in threads:
                thread.join(30)
        assert not failures, failures
        for app in (ledger, other):
            app.log.sequencer._interval = 0.0  # sign what remains now
            app.log.sequencer.catch_up()
        check_log(ledger, games)
    finally:
        other.close()


def test_a_new_process_continues_the_tree_exactly(settings: Settings) -> None:
    first = Cardledger(settings)
    try:
        creator = players(first, 1)[0]
        games = [new_game(first, creator) for _ in range(5)]
        first.log.sequencer.catch_up()
        older = check_log(first, games)
        key = first.log.reads.key()
    finally:
        first.close()
    second = Cardledger(settings)
    try:
        assert second.log.reads.key() == key, "the key file is read again, not remade"
        games += [new_game(second, creator) for _ in range(6)]
        second.log.sequencer.catch_up()
        newer = check_log(second, games)
        assert newer.checkpoint.size == 11
        first_size, second_size = older.checkpoint.size, newer.checkpoint.size
        proof = second.log.reads.consistency(first_size, second_size).proof
        verify_consistency(
            first_size,
            second_size,
            older.checkpoint.root,
            newer.checkpoint.root,
            [base64.b64decode(hashed) for hashed in proof],
        )
        assert second.log.tables.checkpoint(first_size) is not None, "each checkpoint is kept"
    finally:
        second.close()


def test_only_writes_that_create_or_end_a_game_wake_the_sequencer(ledger: Cardledger) -> None:
    """The others give it no entry to append (it polls as well)."""
    woken: list[int] = []
    ledger.store.changes.subscribe(lambda: woken.append(1), topics=TOPICS)
    first, second = players(ledger, 2)
    game_id = new_game(ledger, first)  # its creation: an entry
    assert len(woken) == 1
    ledger.commands.join(second, game_id, client_seed="", idempotency=None)
    assert len(woken) == 1  # a seat taken, the game started and dealt: nothing to append
    ledger.commands.send(first, game_id, {"type": "leave"}, idempotency=None, if_match=None)
    assert len(woken) == 2  # the game ended (a forfeit): an entry

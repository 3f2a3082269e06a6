"""The `decisions` check: every batch of events is produced again by the rules, from the state
before it and the recorded command. A forger who re-hashes the chain is caught there, at the
very event the rules disagree with, however late in the game it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.audit.forgeries.finished_game import cancelled_bundle, finished_bundle, indexes, refused
from tests.audit.test_verify import rehash

GAME = finished_bundle()
PLAYS = indexes(GAME, "CardPlayed")
# A card left in the undealt stock: nobody holds it, so no seat may play it.
UNDEALT = str(GAME["events"][indexes(GAME, "HandDealt")[0]]["payload"]["rest"]["value"][-1])


@pytest.mark.parametrize("index", PLAYS)
def test_every_command_is_re_run(tmp_path: Path, index: int) -> None:
    # The recorded event is left alone: only the sealed command says another card was sent,
    # so the audit can only notice by re-running that very command.
    forged = finished_bundle()
    forged["events"][index]["command"]["value"]["card"] = UNDEALT
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} breaks the rules: {UNDEALT} is not in your hand" in output


@pytest.mark.parametrize("index", PLAYS)
def test_every_recorded_play_must_be_what_its_command_produces(tmp_path: Path, index: int) -> None:
    # The other way round: the command is genuine, the recorded card is not.
    forged = finished_bundle()
    forged["events"][index]["payload"]["card"] = UNDEALT
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} is not what the rules produce: recorded CardPlayed" in (
        output
    )


def test_a_trick_given_to_the_wrong_seat(tmp_path: Path) -> None:
    forged = finished_bundle()
    index = indexes(forged, "TrickWon")[2]
    won = forged["events"][index]["payload"]
    won["seat"] = (won["seat"] + 1) % 3
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert (
        f"decisions: event {index + 1} is not what the rules produce: recorded TrickWon" in output
    )


def test_a_first_leader_chosen_by_hand(tmp_path: Path) -> None:
    forged = finished_bundle()
    index = indexes(forged, "FirstLeaderChosen")[0]
    chosen = forged["events"][index]["payload"]
    chosen["seat"] = (chosen["seat"] + 1) % 3
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} is not what the rules produce" in output


def test_a_move_without_its_command(tmp_path: Path) -> None:
    forged = finished_bundle()
    index = PLAYS[3]
    forged["events"][index]["command"] = None
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} cannot be re-derived" in output


def test_a_move_passed_off_as_a_timeout(tmp_path: Path) -> None:
    # The server only acts on a deadline; Open Hand has none, so the rules produce nothing.
    forged = finished_bundle()
    index = PLAYS[3]
    forged["events"][index]["actor"] = "server"
    forged["events"][index]["command"] = None
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} is not what the rules produce" in output


def test_an_event_dropped_from_a_batch(tmp_path: Path) -> None:
    forged = finished_bundle()
    index = indexes(forged, "TrickWon")[1]
    del forged["events"][index]
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {index + 1} is not what the rules produce" in output


def test_a_game_moved_to_another_id(tmp_path: Path) -> None:
    # Re-hashed under the new id: the creation event still names the old one.
    forged = finished_bundle()
    forged["game_id"] = "00000000-0000-4000-8000-000000000017"
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert "decisions: event 1 is not what the rules produce: recorded GameCreated" in output


def test_a_vote_cancellation_claimed_by_the_operator(tmp_path: Path) -> None:
    forged = cancelled_bundle()
    forged["events"][-1]["payload"]["by"] = "admin"
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert f"decisions: event {len(forged['events'])} is not what the rules produce" in output

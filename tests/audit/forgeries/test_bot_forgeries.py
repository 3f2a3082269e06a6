"""The `bots` check: every bot move is re-run from its seat's view as it was, with its seed.

A forger who swaps one bot move for another legal one, and records the rest of the game as it
would then have gone (sealed, chained, every rule kept), passes every other check: this one
names the event. A bot fed the full state instead of its seat's view is caught the same way,
while the same bot fed its own view passes.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

import msgspec
import pytest

from bots.contract import bot_draw, moves, uniform
from bots.seated import bot_command
from domain.aggregate import GameAggregate, Recorded
from domain.choices import Choice, command_at, weight
from domain.commands import Command
from domain.events import BotSeat
from domain.fairness import Draw, bot_seed
from domain.perspective import Perspective
from projections.audit import AuditReport, audit
from projections.views import View, view
from tests.audit.forgeries.bot_game import bot_game, bundle_of
from tests.audit.test_verify import failing, verify
from tests.support.client import SHORT_GAMES

VARIANTS = list(SHORT_GAMES)
SWAPPED_MOVE = 5  # the bot move a forger changes (the first with another legal move from it)


def failed(report: AuditReport) -> list[str]:
    return [check.name for check in report.checks if check.status == "fail"]


def bots_check(report: AuditReport) -> msgspec.Struct:
    return next(check for check in report.checks if check.name == "bots")


def sealed_at(events: list[Recorded], command_id: str) -> int:
    """The version of the event that carries the sealed command of ``command_id``'s batch."""
    return next(r.originator_version for r in events if r.command_id == command_id and r.command)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_of_bots_audits_valid_with_every_bot_move_re_run(variant: str) -> None:
    game_id, events = bot_game(variant)
    report = audit(game_id, events, bots=bot_command)
    assert report.verdict == "valid", [c for c in report.checks if c.status != "pass"]
    commands = sum(1 for r in events if r.command is not None)
    assert bots_check(report).detail == (
        f"every one of {commands} bot moves re-decided from its seat's view and seed"
    )


def test_without_the_bots_to_re_run_the_verdict_stays_pending() -> None:
    game_id, events = bot_game("open-hand")
    report = audit(game_id, events)
    assert report.verdict == "pending" and bots_check(report).status == "pending"


def another_legal_command(seen: View, decided: Command) -> Command | None:
    """A legal command of the seat's other than ``decided`` (a form's other members count)."""
    for entry in moves(seen):
        members = (
            (command_at(entry, i) for i in range(min(weight(entry), 2)))
            if isinstance(entry, Choice)
            else [entry]
        )
        for command in members:
            if command != decided:
                return command
    return None


def swap_one_move(variant: str) -> tuple[str, list[Recorded], str, int]:
    """The game with one bot move swapped for another legal one: its id, log, the swapped
    batch's command id and seat."""
    swapped: dict[str, object] = {}
    counted = [0]

    def decide(game: GameAggregate, seat: int, now: datetime, command: Command) -> Command:
        counted[0] += 1
        if swapped or counted[0] < SWAPPED_MOVE:
            return command
        seen = view(
            game.state,
            version=game.version,
            chain_head=game.chain_head,
            perspective=Perspective(seat=seat),
            now=now,
        )
        other = another_legal_command(seen, command)
        if other is None:
            return command
        swapped.update(version=game.version, seat=seat)
        return other

    game_id, events = bot_game(variant, decide=decide)
    assert swapped, "no bot move had another legal move to swap it for"
    batch = next(r for r in events if r.originator_version == int(str(swapped["version"])) + 1)
    return game_id, events, batch.command_id, int(str(swapped["seat"]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_different_legal_move_for_one_bot_fails_the_bots_check_alone(variant: str) -> None:
    game_id, events, command_id, seat = swap_one_move(variant)
    report = audit(game_id, events, bots=bot_command)
    assert failed(report) == ["bots"], report.checks
    check = bots_check(report)
    version = sealed_at(events, command_id)
    assert check.version == version  # type: ignore[attr-defined]
    assert check.detail.startswith(  # type: ignore[attr-defined]
        f"event {version}: the level 1 bot at seat {seat} sent "
    )


def test_the_offline_verifier_names_the_swapped_move(tmp_path: Path) -> None:
    game_id, events, command_id, _ = swap_one_move("heartbeat")
    code, output = verify(tmp_path, bundle_of(game_id, "heartbeat", events))
    assert code == 1 and failing(output) == ["bots"], output
    assert f"(event {sealed_at(events, command_id)})" in output


class HandReader:
    """A bot whose choice depends on every card its view shows: uniform over its moves, the
    list turned by the cards it sees. Fed its seat's view, that is its own hand; fed the full
    state, everyone's."""

    def choose(self, seen: View, draw: Draw) -> Command:
        entries = moves(seen)
        shown = sorted(card for hand in seen.hands if hand for card in hand)
        turn = int.from_bytes(hashlib.sha256(" ".join(shown).encode()).digest()[:4], "big")
        turn %= len(entries)
        return uniform(entries[turn:] + entries[:turn], draw)


def reread(seen: View, bot: BotSeat, seed: bytes) -> Command | None:
    """The audit's re-run of HandReader, from the view it is given (the seat's, as it was)."""
    if seen.seat is None or seen.seat not in seen.to_act:
        return None
    return HandReader().choose(seen, bot_draw(seed, seen.game_id, seen.seat, seen.version))


def hand_reader_game(variant: str, *, full: bool) -> tuple[str, list[Recorded]]:
    """Every seat played by HandReader, fed its seat's view, or (``full``) the full state."""

    def decide(game: GameAggregate, seat: int, now: datetime, command: Command) -> Command:
        state = game.state
        seen = view(
            state,
            version=game.version,
            chain_head=game.chain_head,
            perspective=Perspective(seat=seat, full=full),
            now=now,
        )
        assert state.seed is not None
        seed = bot_seed(bytes.fromhex(state.seed), state.game_id, seat)
        return HandReader().choose(seen, bot_draw(seed, state.game_id, seat, game.version))

    return bot_game(variant, decide=decide)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_bot_fed_the_full_state_is_caught(variant: str) -> None:
    game_id, honest = hand_reader_game(variant, full=False)
    assert audit(game_id, honest, bots=reread).verdict == "valid"
    game_id, cheating = hand_reader_game(variant, full=True)
    report = audit(game_id, cheating, bots=reread)
    assert failed(report) == ["bots"], report.checks
    assert "from its own view it decides" in bots_check(report).detail  # type: ignore[attr-defined]

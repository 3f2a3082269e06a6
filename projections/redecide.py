"""Decisions re-run: the log cut into the batches each write recorded, and each batch produced
again by the same rules from the state before it, with the recorded command, time and random
stream (``redecide``), so the audit can compare them event by event (``projections.audit``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from domain import game
from domain.aggregate import Recorded, sealed_command
from domain.commands import COMMON_COMMANDS, parse_command
from domain.deadlines import Expiry
from domain.events import Event, GameCancelled, GameCreated, SeatTaken, Secret, tag_of
from domain.game_state import GameState
from domain.seating import SeatedBot


def batches(events: Sequence[Recorded]) -> list[list[Recorded]]:
    """The log cut into what each write recorded: runs of events with one command id and actor."""
    grouped: list[list[Recorded]] = []
    for recorded in events:
        if (
            grouped
            and grouped[-1][0].command_id == recorded.command_id
            and grouped[-1][0].actor == recorded.actor
        ):
            grouped[-1].append(recorded)
        else:
            grouped.append([recorded])
    return grouped


class Derived(msgspec.Struct, frozen=True, kw_only=True):
    """What the rules give for one event of a batch: the payload and its envelope's marks."""

    payload: Event
    expiry: datetime | None = None
    command: Secret[Any] | None = None


def redecide(game_id: str, state: GameState | None, batch: list[Recorded]) -> list[Derived]:
    """The events the rules produce for this batch's cause, on the state before it."""
    first = batch[0]
    payload = first.payload
    now = first.timestamp
    version = first.originator_version - 1
    # Logs written before expiries were marked: no event of the batch has a mark, and the
    # command rides on the batch's first event (docs/fairness.md §6).
    marked = any(recorded.expiry is not None for recorded in batch)
    if state is None:
        return [Derived(payload=event) for event in _recreated(game_id, batch)]
    if first.actor == "server":
        return _expired(game.expiries(state, now=now, version=version), marked)
    cause = next((r for r in batch if r.expiry is None), first)  # the command's first event
    if cause.command is not None:
        seat_number = int(first.actor.removeprefix("seat:"))
        command = parse_command((*COMMON_COMMANDS, *state.rules.commands), cause.command.unwrap())
        actor_id = state.seat(seat_number).player_id
        expired, events = game.act_late(
            state, player_id=actor_id, command=command, now=now, version=version
        )
        derived = _expired(expired, marked)
        sealed_at = version + len(derived) if marked else version
        sealed = sealed_command(state, seat_number, cause.command.value, sealed_at)
        derived += [Derived(payload=event) for event in events]
        at = len(derived) - len(events) if marked else 0
        derived[at] = msgspec.structs.replace(derived[at], command=sealed)
        return derived
    if isinstance(payload, SeatTaken) and payload.bot is not None:
        creator = state.creator if first.actor == game.creator_actor(state) else None
        added = game.add_bot(
            state, player_id=creator, seat=payload.seat, bot=payload.bot, now=now, version=version
        )
        return [Derived(payload=event) for event in added]
    if isinstance(payload, SeatTaken):
        joined = game.join(
            state,
            player_id=payload.player_id,
            name=payload.name,
            client_seed=payload.client_seed,
            now=now,
            version=version,
        )
        return [Derived(payload=event) for event in joined]
    if isinstance(payload, GameCancelled):
        creator = state.creator if payload.by == "creator" else None
        return [
            Derived(payload=event) for event in game.cancel(state, by=payload.by, player_id=creator)
        ]
    raise ValueError(f"no rule produces a batch starting with {tag_of(payload)} by {first.actor}")


def _recreated(game_id: str, batch: list[Recorded]) -> list[Event]:
    """The creation batch as the rules make it: the game, the seats taken at creation (the
    creator's, unless a bot sits at seat 0, and the bots', each at its recorded seat) and, if
    that fills the table, the start."""
    payload = batch[0].payload
    taken = [r.payload for r in batch[1:] if isinstance(r.payload, SeatTaken)]
    if not isinstance(payload, GameCreated) or not taken:
        raise ValueError("a game must begin with GameCreated and a seat taken")
    creator = next((s for s in taken if s.bot is None and s.player_id == payload.creator), None)
    return game.create(
        game_id=game_id,
        variant_id=payload.variant,
        seat_count=payload.seat_count,
        options=payload.options,
        creator_id=payload.creator,
        creator_name=creator.name if creator else "",
        client_seed=creator.client_seed if creator else "",
        seed=bytes.fromhex(payload.seed.unwrap()),
        bots=[SeatedBot(seat=s.seat, bot=s.bot) for s in taken if s.bot is not None],
        now=batch[0].timestamp,
        matched_by=payload.matched_by,  # where the table came from: the log's word, as options
        rematch_of=payload.rematch_of,
    )


def _expired(expired: list[Expiry], marked: bool) -> list[Derived]:
    return [
        Derived(payload=event, expiry=expiry.deadline if marked else None)
        for expiry in expired
        for event in expiry.events
    ]


def difference(produced: list[Derived], recorded: list[Derived], at: int) -> tuple[str, int]:
    """Where and how a batch differs from what the rules produce."""
    index = next(
        (i for i, (a, b) in enumerate(zip(produced, recorded, strict=False)) if a != b),
        min(len(produced), len(recorded)),
    )
    detail = f"event {at + index} is not what the rules produce"
    if index < len(recorded) and index < len(produced):
        made, kept = produced[index], recorded[index]
        if made.payload != kept.payload:
            detail += (
                f": recorded {tag_of(kept.payload)},"
                f" the rules give {tag_of(made.payload)} with other values"
            )
        elif made.expiry != kept.expiry:
            detail += f": its expiry mark should be {made.expiry}, not {kept.expiry}"
        else:
            detail += ": its sealed command is misplaced or wrongly salted"
    return detail, at + index

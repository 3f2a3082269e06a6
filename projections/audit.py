"""The audit: everything an auditor can prove from a game's event log alone.

One check per line, each "pass", "fail" or "pending" (cannot be decided yet: the seed is still
secret). Decisions are re-run: every batch of events is produced again by the same rules from the
state before it, with the recorded command, time and random stream, and must come out identical.
That re-derives every deal, draw and random pick, re-validates every move and every score.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from domain import game_state
from domain.aggregate import Recorded
from domain.chain import GENESIS, event_hash, hashed_body
from domain.errors import RuleViolation
from domain.events import (
    Event,
    GameCancelled,
    GameCreated,
    GameFinished,
    secrets_in,
    tag_of,
)
from domain.game_state import GameState
from projections.bot_audit import BotMoveDiffers, BotRerun, rerun_bot_moves, seats_bots
from projections.redecide import Derived, batches, difference, redecide

Status = Literal["pass", "fail", "pending"]


class Check(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    status: Status
    detail: str
    version: int | None = None


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    verdict: Literal["valid", "invalid", "pending"]
    head_version: int
    chain_head: str
    checks: list[Check]


def audit(
    game_id: str,
    events: Sequence[Recorded],
    receipts: Sequence[tuple[int, str]] = (),
    bots: BotRerun | None = None,
) -> AuditReport:
    """The report on a game's log; ``bots`` re-runs a bot's decision (``bots.seated``), for
    the ``bots`` check of a game that seats one."""
    checks = [check_chain(game_id, events)]
    checks += [check_receipt(events, version, head) for version, head in receipts]
    complete = bool(events) and not any(
        secret.value is None for recorded in events for secret in _secrets(recorded)
    )
    # Over as soon as any event ends the game: whatever follows the end is for final_head to
    # refuse, never a reason to call a finished game pending.
    end = _ending(events)
    over = end is not None
    if end is None or not complete:
        reason = "the game is not over" if not over else "hidden values are redacted in this log"
        names = ["seed_commitment", "decisions", "deals", "scores", "final_head"]
        for name in names + (["bots"] if seats_bots(events) else []):
            checks.append(Check(name=name, status="pending", detail=f"pending: {reason}"))
    else:
        checks.append(check_seed(events, end))
        decisions, reproduced = check_decisions(game_id, events)
        checks.append(decisions)
        checks.append(check_deals(decisions, reproduced, events))
        checks.append(check_scores(events, end))
        checks.append(check_final_head(events, end))
        if seats_bots(events):
            checks.append(check_bots(game_id, events[: end + 1], bots))
    statuses = {check.status for check in checks}
    verdict: Literal["valid", "invalid", "pending"] = (
        "invalid" if "fail" in statuses else "pending" if "pending" in statuses else "valid"
    )
    return AuditReport(
        game_id=game_id,
        verdict=verdict,
        head_version=events[-1].originator_version if events else 0,
        chain_head=events[-1].hash if events else GENESIS,
        checks=checks,
    )


def _ending(events: Sequence[Recorded]) -> int | None:
    """The index of the first event that ends the game, if any does."""
    return next(
        (i for i, r in enumerate(events) if isinstance(r.payload, GameFinished | GameCancelled)),
        None,
    )


def _secrets(recorded: Recorded) -> list[Any]:
    return [*secrets_in(recorded.payload), *([recorded.command] if recorded.command else [])]


def check_chain(game_id: str, events: Sequence[Recorded]) -> Check:
    previous = GENESIS
    for expected_version, recorded in enumerate(events, start=1):
        version = recorded.originator_version
        if version != expected_version:
            return _fail("chain", f"event {expected_version} is missing or out of order", version)
        if recorded.prev_hash != previous:
            return _fail("chain", f"event {version} does not link to the event before it", version)
        if _secrets(recorded) and any(s.value is None for s in _secrets(recorded)):
            previous = recorded.hash  # redacted: the link is all that can be checked
            continue
        body = hashed_body(
            game_id=game_id,
            version=version,
            timestamp=recorded.timestamp,
            actor=recorded.actor,
            command_id=recorded.command_id,
            command=recorded.command,
            payload=recorded.payload,
            expiry=recorded.expiry,
        )
        if event_hash(recorded.prev_hash, body) != recorded.hash:
            return _fail(
                "chain",
                f"event {version} was altered: its content does not hash to {recorded.hash[:12]}…",
                version,
            )
        previous = recorded.hash
    return Check(
        name="chain", status="pass", detail=f"{len(events)} events linked from genesis to head"
    )


def check_receipt(events: Sequence[Recorded], version: int, head: str) -> Check:
    found = next((r for r in events if r.originator_version == version), None)
    if found is None:
        return _fail("receipt", f"the log has no event {version}", version)
    if found.hash != head:
        return _fail(
            "receipt",
            f"event {version} hashes to {found.hash[:12]}…, the receipt says {head[:12]}…",
            version,
        )
    return Check(
        name="receipt",
        status="pass",
        detail=f"event {version} matches the receipt",
        version=version,
    )


def check_seed(events: Sequence[Recorded], end: int) -> Check:
    """``end``: the index of the event that ends the game (as for the checks below)."""
    created = events[0].payload
    final = events[end].payload
    assert isinstance(created, GameCreated) and isinstance(final, GameFinished | GameCancelled)
    try:
        seed = bytes.fromhex(final.seed)
    except ValueError:
        return _fail(
            "seed_commitment", "the revealed seed is not hex", events[end].originator_version
        )
    if hashlib.sha256(seed).hexdigest() != created.seed_commitment:
        return _fail(
            "seed_commitment",
            "SHA-256 of the revealed seed differs from the commitment",
            events[end].originator_version,
        )
    if created.seed.value != final.seed:
        return _fail("seed_commitment", "the seed used is not the seed revealed", 1)
    return Check(
        name="seed_commitment",
        status="pass",
        detail="SHA-256(seed) equals the published commitment",
    )


def check_decisions(game_id: str, events: Sequence[Recorded]) -> tuple[Check, Counter[str]]:
    state: GameState | None = None
    reproduced: Counter[str] = Counter()
    for batch in batches(events):
        recorded = [Derived(payload=r.payload, expiry=r.expiry, command=r.command) for r in batch]
        at = batch[0].originator_version
        try:
            produced = redecide(game_id, state, batch)
        except RuleViolation as error:
            return _fail(
                "decisions", f"event {at} breaks the rules: {error.message}", at
            ), reproduced
        except Exception as error:  # an untrusted log may not even fold
            return _fail("decisions", f"event {at} cannot be re-derived: {error!r}", at), reproduced
        if produced != recorded:
            return _fail("decisions", *difference(produced, recorded, at)), reproduced
        reproduced.update(tag_of(derived.payload) for derived in produced)
        state = fold(state, [derived.payload for derived in produced])
    return Check(
        name="decisions",
        status="pass",
        detail=f"every one of {len(events)} events re-derived by the rules",
    ), reproduced


def check_bots(game_id: str, events: Sequence[Recorded], rerun: BotRerun | None) -> Check:
    """Every bot move re-run from its seat's view as it was (projections.bot_audit)."""
    if rerun is None:
        return Check(name="bots", status="pending", detail="pending: no bot to re-run them with")
    try:
        moves = rerun_bot_moves(game_id, batches(events), rerun)
    except BotMoveDiffers as differs:
        return _fail("bots", differs.detail, differs.version)
    except Exception as error:  # an untrusted log may not even fold
        return _fail("bots", f"the bots' moves cannot be re-run: {error!r}", None)
    return Check(
        name="bots",
        status="pass",
        detail=f"every one of {moves} bot moves re-decided from its seat's view and seed",
    )


def check_deals(decisions: Check, reproduced: Counter[str], events: Sequence[Recorded]) -> Check:
    """Every deal re-derived from the seed, or the first one that could not be."""
    deals = [r.originator_version for r in events if tag_of(r.payload) == "HandDealt"]
    failed_at = decisions.version if decisions.status == "fail" else None
    unchecked = [version for version in deals if failed_at is not None and version >= failed_at]
    if unchecked:
        return _fail(
            "deals", f"the deal at event {unchecked[0]} could not be re-derived", unchecked[0]
        )
    return Check(
        name="deals",
        status="pass",
        detail=f"{reproduced['HandDealt']} deal(s) re-derived from the seed",
    )


def check_scores(events: Sequence[Recorded], end: int) -> Check:
    final = events[end].payload
    if isinstance(final, GameCancelled):
        return Check(name="scores", status="pass", detail="cancelled: nothing is scored")
    assert isinstance(final, GameFinished)
    try:
        state = fold(None, [r.payload for r in events[:end]])
        outcome = state.rules.outcome(state.table)
    except Exception as error:  # an untrusted log may not even fold
        return _fail("scores", f"the log cannot be replayed: {error!r}", None)
    if outcome is None or (outcome.scores, outcome.winners) != (final.scores, final.winners):
        return _fail(
            "scores",
            "the final scores or winners differ from the rules applied to the log",
            events[end].originator_version,
        )
    return Check(
        name="scores",
        status="pass",
        detail=f"scores {list(final.scores)} and winners {list(final.winners)} re-derived",
    )


def check_final_head(events: Sequence[Recorded], end: int) -> Check:
    ending = events[end].originator_version
    if end != len(events) - 1:
        return _fail("final_head", "events were appended after the game ended", ending)
    return Check(
        name="final_head",
        status="pass",
        detail=f"the game ends at event {ending} with head {events[-1].hash[:12]}…",
    )


def fold(state: GameState | None, events: Sequence[Event]) -> GameState:
    for event in events:
        state = game_state.evolve(state, event)
    assert state is not None
    return state


def _fail(name: str, detail: str, version: int | None) -> Check:
    return Check(name=name, status="fail", detail=detail, version=version)

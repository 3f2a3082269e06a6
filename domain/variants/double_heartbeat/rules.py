"""Double Heartbeat (双倍心跳), RULES.md §2: a two-deck climbing game with bombs and alliances.

Random stream labels: ``first-dealer`` (``choice`` over the seats 0..n-1) and ``deal/<hand>``
(the shuffle of the canonical double deck). Judgement calls (named in
docs/rules/double-heartbeat.md, each cited by a test):

- ``double-heartbeat/deal-cut``: the shuffled deck is cut in seat order 0..n-1, the dealer's
  slice holding the ``k`` surplus cards (3p 36/34, 4p 26, 5p 24/20, 6p 19/17).
- ``double-heartbeat/bury-first``: the dealer buries before leading, by a ``bury`` command of
  0..k cards (``[]`` buries nothing); any held cards may be buried.
- ``double-heartbeat/leaver-skipped``: a seat that leaves is skipped like a player who has gone
  out. It gets no place in the finishing order (no +10/+5, no −5), its unplayed cards are dead
  for the hand and it is dealt dead cards in later hands (the deal sizes stay those of the
  table).
- ``double-heartbeat/leaver-play-stands``: a play on the table still counts after its player
  leaves; if it wins the trick, the lead passes on as from a player who went out.
- ``double-heartbeat/leaver-ends-hand``: the hand ends as soon as at most one seat still at the
  table holds cards; that player is last (−5).
- ``double-heartbeat/dealer-leaves-bury``: a dealer who leaves before burying buries nothing.
- ``double-heartbeat/dealer-skips-leavers``: dealers rotate to the next seat still at the table.
- ``double-heartbeat/betrayal-ends-alliance-first``: a bomb on an ally records the broken
  alliance before the play, so the bomb can never form a new alliance with that lead.
- ``double-heartbeat/full-line-ace-high``: a run of all 13 ranks reads with the ace high.
- ``double-heartbeat/one-representative``: the legal commands list one set of cards per
  distinct combination (type, count, ranks); airplane+pairs come as one choice form per chain
  (listed as the play with the chain's lowest wings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar

import msgspec

from domain.cards import REFUSALS as CARD_REFUSALS
from domain.cards import check_card_code, double_deck, holds
from domain.choices import Choice, choice
from domain.commands import Command
from domain.errors import Failure, RuleViolation, invalid
from domain.events import Event, HandDealt, PlayerLeft, TrickWon
from domain.turns import rotation
from domain.variant import Outcome, ScoreRow, Turn, Variant
from domain.variants.double_heartbeat import table as tables
from domain.variants.double_heartbeat.choices import Candidate, card_order, representatives
from domain.variants.double_heartbeat.combinations import (
    BOMB_KINDS,
    UNBEATABLE,
    Combination,
    beats,
    read,
)
from domain.variants.double_heartbeat.messages import (
    AllianceBroken,
    AllianceFormed,
    BuryCards,
    CardsBuried,
    CombinationPlayed,
    DoubleHeartbeatOptions,
    FirstDealerDrawn,
    HandSettled,
    LeadInherited,
    PassTurn,
    PlayCombination,
    PlayerWentOut,
    TurnPassed,
)
from domain.variants.double_heartbeat.table import DECK_SIZE, DoubleHeartbeatTable, surplus
from domain.variants.double_heartbeat.view import DoubleHeartbeatView, table_view

FIRST_PLACE, SECOND_PLACE, ALLIED_FINISH, LAST_PLACE = 10, 5, 10, -5

Table = DoubleHeartbeatTable


def fold(table: Table, events: Sequence[Event]) -> Table:
    for event in events:
        table = tables.evolve(table, event)
    return table


class DoubleHeartbeat(Variant[DoubleHeartbeatTable, DoubleHeartbeatOptions]):
    id: ClassVar[str] = "double-heartbeat"
    name: ClassVar[str] = "Double Heartbeat"
    native_name: ClassVar[str] = "双倍心跳"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 6
    options_type: ClassVar[type[msgspec.Struct]] = DoubleHeartbeatOptions
    commands: ClassVar[tuple[type[Command], ...]] = (BuryCards, PlayCombination, PassTurn)
    events: ClassVar[tuple[type[Event], ...]] = (
        FirstDealerDrawn,
        HandDealt,
        CardsBuried,
        CombinationPlayed,
        TurnPassed,
        AllianceFormed,
        AllianceBroken,
        PlayerWentOut,
        TrickWon,
        LeadInherited,
        HandSettled,
        PlayerLeft,
    )
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        "not_a_combination": Failure.INVALID,
        "ambiguous_combination": Failure.INVALID,
        "combination_mismatch": Failure.INVALID,
        "not_bury_phase": Failure.CONFLICT,
        "not_dealer": Failure.CONFLICT,
        "too_many_buried": Failure.INVALID,
        "empty_play": Failure.INVALID,
        "bury_first": Failure.CONFLICT,
        "not_your_turn": Failure.CONFLICT,
        "card_not_in_hand": Failure.CONFLICT,
        "leader_cannot_pass": Failure.CONFLICT,
        "ally_cannot_beat_ally": Failure.CONFLICT,
        "betrayal_forbidden": Failure.CONFLICT,
        "no_alliance_on_this_lead": Failure.CONFLICT,
        "already_allied": Failure.CONFLICT,
        "combination_too_low": Failure.CONFLICT,
        "wrong_combination": Failure.CONFLICT,
    }

    # --- lifecycle ----------------------------------------------------------------------------

    def setup(self, options: DoubleHeartbeatOptions, seat_count: int) -> Table:
        return tables.setup(options, seat_count)

    def start(self, table: Table, turn: Turn) -> list[Event]:
        dealer = turn.stream().choice("first-dealer", range(table.seat_count))
        drawn = FirstDealerDrawn(seat=dealer)
        return [drawn, self._deal(tables.evolve(table, drawn), turn, 1, dealer)]

    def _deal(self, table: Table, turn: Turn, hand: int, dealer: int) -> Event:
        deck = turn.stream().shuffle(f"deal/{hand}", double_deck())
        base = DECK_SIZE // table.seat_count
        hands: list[tuple[str, ...]] = []
        position = 0
        for seat in range(table.seat_count):
            size = base + (surplus(table.seat_count) if seat == dealer else 0)
            hands.append(deck[position : position + size])
            position += size
        return HandDealt(
            hand=hand,
            dealer=dealer,
            hands=tuple(turn.seal(seat, cards) for seat, cards in enumerate(hands)),
            rest=turn.seal(None, ()),
        )

    def evolve(self, table: Table, event: Event) -> Table:
        return tables.evolve(table, event)

    # --- commands -----------------------------------------------------------------------------

    def decide(self, table: Table, seat: int, command: Command, turn: Turn) -> list[Event]:
        if isinstance(command, BuryCards):
            return self._bury(table, seat, command, turn)
        if isinstance(command, PlayCombination):
            return self._play(table, seat, command, turn)
        assert isinstance(command, PassTurn)
        return self._pass(table, seat)

    def _bury(self, table: Table, seat: int, command: BuryCards, turn: Turn) -> list[Event]:
        if table.phase != "bury":
            raise RuleViolation("not_bury_phase", "cards are buried only before the first lead")
        if seat != table.dealer:
            raise RuleViolation("not_dealer", "only the dealer may bury cards")
        cards = tuple(check_card_code(card) for card in command.cards)
        limit = surplus(table.seat_count)
        if len(cards) > limit:
            raise invalid("too_many_buried", f"the dealer may bury at most {limit} cards")
        _check_held(table.hands[seat], cards)
        return [CardsBuried(seat=seat, count=len(cards), cards=turn.seal(seat, cards))]

    def _play(self, table: Table, seat: int, command: PlayCombination, turn: Turn) -> list[Event]:
        _check_turn(table, seat)
        cards = tuple(sorted((check_card_code(card) for card in command.cards), key=card_order))
        if not cards:
            raise invalid("empty_play", "a play needs at least one card (or send pass)")
        _check_held(table.hands[seat], cards)
        combination = read(cards, command.combination)
        refusal = refusal_of(table, seat, combination)
        if refusal is not None:
            raise refusal
        events: list[Event] = []
        top = table.top
        if top is not None and table.allies[seat] == top.seat:
            events.append(AllianceBroken(by=seat, ally=top.seat))
        events.append(
            CombinationPlayed(
                seat=seat,
                cards=cards,
                combination=combination.kind,
                top=combination.top,
                rank=combination.rank,
                bonus=combination.bonus,
            )
        )
        if top is not None and combination == top.combination:
            events.append(AllianceFormed(leader=top.seat, copier=seat))
        if len(cards) == len(table.hands[seat]):
            events.append(PlayerWentOut(seat=seat, place=len(table.out) + 1))
        after = fold(table, events)
        if len(after.active_seats()) <= 1:
            events += self._settle(after, turn)
        return events

    def _pass(self, table: Table, seat: int) -> list[Event]:
        _check_turn(table, seat)
        if table.top is None:
            raise RuleViolation("leader_cannot_pass", "the leader must play a combination")
        passed = TurnPassed(seat=seat)
        return [passed, *self._end_trick(tables.evolve(table, passed))]

    def _end_trick(self, table: Table) -> list[Event]:
        """The trick's winner once every other player holding cards has passed."""
        if table.top is None or not table.trick_complete():
            return []
        owner = table.top.seat
        cards = tuple(card for action in table.trick for card in action.cards)
        won = TrickWon(trick=table.tricks + 1, seat=owner, cards=cards, points=0)
        after = tables.evolve(table, won)
        if after.active(owner):
            return [won]
        heir = after.next_active(owner)
        assert heir is not None, "a trick ends only while two players hold cards"
        return [won, LeadInherited(seat=heir, from_seat=owner)]

    def _settle(self, table: Table, turn: Turn) -> list[Event]:
        """Score the hand that just ended, then deal the next one if the match goes on."""
        remaining = table.active_seats()
        last = remaining[0] if len(remaining) == 1 else None
        points = [0] * table.seat_count
        order = table.out
        if order:
            points[order[0]] += FIRST_PLACE
        if len(order) > 1:
            points[order[1]] += SECOND_PLACE
            if table.allies[order[0]] == order[1]:
                points[order[0]] += ALLIED_FINISH
                points[order[1]] += ALLIED_FINISH
        if last is not None:
            points[last] += LAST_PLACE
        settled = HandSettled(
            hand=table.hand_number,
            order=order,
            last=last,
            buried=table.buried,
            points=tuple(points),
        )
        after = tables.evolve(table, settled)
        if after.hand_number >= after.hands_to_play:
            return [settled]
        dealer = next(
            seat
            for seat in rotation((after.dealer + 1) % after.seat_count, after.seat_count)
            if not after.left[seat]
        )
        return [settled, self._deal(after, turn, after.hand_number + 1, dealer)]

    def after_leave(self, table: Table, seat: int, turn: Turn) -> list[Event]:
        if table.phase not in ("bury", "play"):
            return []
        if len(table.active_seats()) <= 1:
            return self._settle(table, turn)
        if table.top is not None:
            return self._end_trick(table)
        if table.turn == seat:
            heir = table.next_active(seat)
            assert heir is not None
            return [LeadInherited(seat=heir, from_seat=seat)]
        return []

    # --- what a seat may do -------------------------------------------------------------------

    def legal_moves(self, table: Table, seat: int) -> list[Command | Choice]:
        hand = table.hands[seat]
        if table.phase == "bury":
            if seat != table.dealer or table.left[seat]:
                return []
            lowest = sorted(hand, key=card_order)
            limit = surplus(table.seat_count)
            return [choice(BuryCards(cards=[]), [(card,) for card in lowest], least=0, most=limit)]
        if table.phase != "play" or table.turn != seat:
            return []
        top = table.top
        if top is None:
            return [_move(c) for c in representatives(hand)]
        old = top.combination
        candidates = representatives(hand, {old.kind, *BOMB_KINDS})
        plays = [
            _move(c)
            for c in candidates
            if (c.combination.is_bomb or c.combination.count == old.count)
            and refusal_of(table, seat, c.combination) is None
        ]
        return [PassTurn(), *plays]

    def to_act(self, table: Table) -> tuple[int, ...]:
        if table.phase in ("bury", "play") and table.turn is not None:
            return (table.turn,)
        return ()

    # --- what everyone sees -------------------------------------------------------------------

    def hand(self, table: Table, seat: int) -> tuple[str, ...]:
        return tuple(sorted(table.hands[seat], key=card_order))

    def hand_sizes(self, table: Table) -> tuple[int, ...]:
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: Table) -> tuple[int, ...]:
        return table.totals

    def score_rows(self, table: Table) -> Sequence[ScoreRow]:
        return table.score_rows()

    def seated(self, table: Table) -> tuple[int, ...]:
        return tuple(table.seated())

    def result(self, table: Table) -> Outcome | None:
        if table.phase != "over" or table.hand_number < table.hands_to_play:
            return None
        seated = table.seated()
        best = max(table.totals[seat] for seat in seated)
        winners = tuple(seat for seat in seated if table.totals[seat] == best)
        return Outcome(scores=table.totals, winners=winners)

    def table_view(self, table: Table) -> DoubleHeartbeatView:
        return table_view(table)


def _move(candidate: Candidate) -> Command | Choice:
    """A candidate as a command, or, for airplane+pairs, as the choice of its wings."""
    command = PlayCombination(cards=list(candidate.cards), combination=candidate.combination.kind)
    if candidate.wings is None:
        return command
    pairs = candidate.combination.count // 5
    return choice(command, candidate.wings, least=pairs, most=pairs)


def _check_turn(table: Table, seat: int) -> None:
    if table.phase == "bury" and seat == table.dealer:
        raise RuleViolation("bury_first", "the dealer buries (0 or more cards) before leading")
    if table.phase != "play" or table.turn != seat:
        raise RuleViolation("not_your_turn", "it is not your turn to play")


def _check_held(hand: tuple[str, ...], cards: tuple[str, ...]) -> None:
    if not holds(hand, cards):
        have = Counter(hand)
        missing = sorted(
            (card for card, count in Counter(cards).items() if have[card] < count), key=card_order
        )
        raise RuleViolation("card_not_in_hand", f"you do not hold enough of: {', '.join(missing)}")


def refusal_of(table: Table, seat: int, combination: Combination) -> RuleViolation | None:
    """Why ``seat`` may not play ``combination`` over the top play now (None: it may)."""
    top = table.top
    if top is None:
        return None
    old = top.combination
    if table.allies[seat] == top.seat:
        if not combination.is_bomb:
            return RuleViolation(
                "ally_cannot_beat_ally", "allies may not beat each other's plays except by a bomb"
            )
        if table.options.betrayal == "forbidden":
            return RuleViolation(
                "betrayal_forbidden", "at this table a player must pass over an ally's play"
            )
    elif combination == old and table.lead_on_top:
        if table.lead_kind != "won":
            return RuleViolation(
                "no_alliance_on_this_lead",
                "copying the opening lead or an inherited lead forms no alliance",
            )
        if table.allies[top.seat] is not None or table.allies[seat] is not None:
            return RuleViolation("already_allied", "a player who has an ally cannot form another")
        return None
    if beats(combination, old):
        return None
    if old.kind == "bomb" and old.count == UNBEATABLE:
        return RuleViolation("combination_too_low", "8 of a kind can never be beaten")
    if not combination.is_bomb and (combination.kind, combination.count) != (old.kind, old.count):
        return RuleViolation(
            "wrong_combination",
            f"play a {old.kind.replace('_', ' ')} of {old.count} cards or a bomb, or pass",
        )
    return RuleViolation(
        "combination_too_low", f"{combination.describe()} does not beat {old.describe()}"
    )

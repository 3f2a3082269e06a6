"""Level 2 of Heartbeat (RULES.md §1): a player that plans its five cards over the three rounds.

Only a card's value counts, and a tie shares the win, so a 10-value card always takes a round
where the highest wins and a joker a Reverse round: the question each round is which card to
spend now and which to keep. For every card it may play the player adds the chance that card
wins this round (times the chips a win is worth under this tempo card) to what the cards it keeps
are worth in the rounds left, over the tempo cards that may still be flipped (the tempo deck's
make-up less the cards already seen), playing each later round's best card once its tempo is
known. A mid card the rest of the table will beat is what it throws away; extremes it keeps.

Chances come from counting: every card the seat has seen (its hand, every card played, every
card shown in a Reveal round that its owner has not played since) is out of the unseen pool,
and an opponent's unseen cards are drawn from that pool. An opponent is half a player who plays
any of its cards and half one who plays its best card (``OPPONENT_PLAYS_ANY``): a guess at a
table of people, not a model of any one bot. In a Reveal round it shows the card whose loss for
this round costs it least. The draw only breaks ties (between equal values, suits never matter).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from math import comb

from bots.contract import moves
from domain.choices import Choice
from domain.commands import Command
from domain.fairness import Draw
from domain.variants.heartbeat.messages import (
    TEMPO_KINDS,
    ChooseCard,
    HeartbeatOptions,
    RevealCard,
    Tempo,
)
from domain.variants.heartbeat.table import FACE_VALUES, card_value, public_rank
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View

OPPONENT_PLAYS_ANY = 0.5
"""The weight of "plays any card" in the opponent model; the rest is "plays its best card"."""

TOP_VALUE = 10
VALUES = range(TOP_VALUE + 1)
SAME = 1e-9  # scores closer than this are a tie for the draw to break


def rank_value(rank: str) -> int:
    """The value of a publicly shown rank ("joker" for either joker)."""
    if rank == "joker":
        return 0
    return FACE_VALUES.get(rank) or int(rank)


def deck_values(options: HeartbeatOptions) -> list[int]:
    """How many cards of each value the deck holds: 16 tens, four of 1-9, two jokers."""
    counts = [4] * (TOP_VALUE + 1)
    counts[0] = 2 if options.jokers == "zero" else 0
    counts[TOP_VALUE] = 16
    return counts


def prize(tempo: Tempo | None, options: HeartbeatOptions) -> int:
    """What winning a round gains over losing it."""
    if tempo != "double":
        return 1
    return 1 if options.double_rule == "others_one" else 2


@dataclass(frozen=True)
class Opponent:
    """What the seat knows of one opponent's hand as the round began."""

    held: tuple[int, ...]
    """Values of cards it is known to hold (shown and not played since)."""
    unseen: int
    """How many of its cards nobody has seen."""
    shown_now: int | None
    """The value it showed this round, which it may not play this round."""

    def fits(self, high_wins: bool, fitting: Sequence[int], total: int, ahead: int) -> list[float]:
        """For each value ``mine``, the chance its card ``ahead`` rounds from now does not beat
        a card of that value (no higher where the highest wins, no lower in a Reverse round),
        ``fitting[mine]`` of the ``total`` unseen cards being such."""
        held = list(self.held)
        if ahead == 0 and self.shown_now is not None and self.shown_now in held:
            held.remove(self.shown_now)
        unseen = self.unseen - ahead
        if unseen < 0:  # it has played known cards by then: which ones is anyone's guess
            held, unseen = held[: len(held) + unseen], 0
        size = len(held) + unseen
        if size == 0:
            return [1.0] * len(fitting)
        if not held:  # the common case, below with nothing held (the same floats, faster)
            whole = comb(total, unseen) if total >= unseen else 0
            return [
                OPPONENT_PLAYS_ANY * (unseen * (fits / total if total else 0.0) / size)
                + (1 - OPPONENT_PLAYS_ANY) * (comb(fits, unseen) / whole if whole else 0.0)
                for fits in fitting
            ]
        found = []
        for mine, fits in enumerate(fitting):
            share = fits / total if total else 0.0
            held_fitting = sum(1 for v in held if (v <= mine if high_wins else v >= mine))
            plays_any = (held_fitting + unseen * share) / size
            plays_best = float(held_fitting == len(held))
            if unseen:
                plays_best *= comb(fits, unseen) / comb(total, unseen) if total >= unseen else 0.0
            found.append(OPPONENT_PLAYS_ANY * plays_any + (1 - OPPONENT_PLAYS_ANY) * plays_best)
        return found


@dataclass(frozen=True)
class Knowledge:
    """Everything the seat counts: the unseen pool by value and each opponent still seated."""

    pool: tuple[int, ...]
    opponents: tuple[Opponent, ...]

    def win_chances(self, high_wins: bool, ahead: int) -> list[float]:
        """The chance a card of each value wins (or ties) a round ``ahead`` rounds from now."""
        alike = Counter(self.opponents)  # most opponents are nothing but a count of unseen cards
        total = sum(self.pool)
        below = list(accumulate(self.pool))  # unseen cards of each value or lower
        fitting = below if high_wins else [total - (below[v - 1] if v else 0) for v in VALUES]
        each = [(opp.fits(high_wins, fitting, total, ahead), n) for opp, n in alike.items()]
        chances = []
        for mine in VALUES:
            chance = 1.0
            for fits, count in each:
                chance *= fits[mine] ** count
            chances.append(chance)
        return chances


def knowledge(view: View, table: HeartbeatView) -> Knowledge:
    me = view.seat
    pool = deck_values(table.options)
    seen = [*(view.hand or ()), *(card for card in table.choices if card is not None)]
    seen += [play.card for record in table.rounds for play in record.plays]
    for card in seen:
        pool[card_value(card)] -= 1
    opponents = []
    for seat, seated in enumerate(view.seats):
        if seat == me or seated.left:
            continue
        held = held_cards(table, seat)
        for value in held:
            pool[value] -= 1
        size = view.hand_sizes[seat] + (1 if table.chosen[seat] else 0)
        shown_now = next(
            (rank_value(s.rank) for s in table.shown if s.seat == seat and s.round == table.round),
            None,
        )
        opponents.append(Opponent(held=held, unseen=size - len(held), shown_now=shown_now))
    return Knowledge(pool=tuple(max(0, count) for count in pool), opponents=tuple(opponents))


def held_cards(table: HeartbeatView, seat: int) -> tuple[int, ...]:
    """Values of the cards ``seat`` showed and has not played since. Where only ranks are shown,
    two shows of one rank may be one card: they count once."""
    held: dict[str, int] = {}
    for shown in table.shown:
        if shown.seat != seat:
            continue
        played_since = any(
            play.seat == seat
            and (play.card == shown.card if shown.card else public_rank(play.card) == shown.rank)
            for record in table.rounds
            if record.round > shown.round
            for play in record.plays
        )
        if not played_since:
            held[shown.card or shown.rank] = rank_value(shown.rank)
    return tuple(held.values())


class Planner:
    """What the cards kept are worth over the rounds after this one, given what the seat knows
    now (counted once: later rounds only thin the opponents' hands)."""

    def __init__(self, info: Knowledge, options: HeartbeatOptions, rounds_left: int) -> None:
        self.options = options
        self.rounds_left = rounds_left
        self.chances = {
            (ahead, high): info.win_chances(high, ahead)
            for ahead in range(1, rounds_left + 1)
            for high in (True, False)
        }
        self.memo: dict[tuple[tuple[int, ...], int, tuple[int, ...] | None], float] = {}

    def worth(self, hand: tuple[int, ...], left: int, deck: tuple[int, ...] | None) -> float:
        """Expected chips from ``hand`` over the last ``left`` rounds, each round's tempo drawn
        from ``deck`` (face-down cards per kind; None: no tempo cards), each round played with
        the card best for its tempo and the rounds after it."""
        if left == 0 or not hand:
            return 0.0
        key = (hand, left, deck)
        if key not in self.memo:
            if deck is None:
                self.memo[key] = self._best(hand, left, None, None)
            elif left == 1:  # as below, the best card for each tempo found once (same floats)
                total = sum(deck)
                held = set(hand)
                best = {
                    high: max(self.chances[(self.rounds_left, high)][value] for value in held)
                    for high in (True, False)
                }
                self.memo[key] = sum(
                    count / total * (best[kind != "reverse"] * prize(kind, self.options))
                    for kind, count in zip(TEMPO_KINDS, deck, strict=True)
                    if count
                )
            else:
                total = sum(deck)
                self.memo[key] = sum(
                    count / total * self._best(hand, left, kind, _without(deck, index))
                    for index, (kind, count) in enumerate(zip(TEMPO_KINDS, deck, strict=True))
                    if count
                )
        return self.memo[key]

    def _best(
        self, hand: tuple[int, ...], left: int, tempo: Tempo | None, rest: tuple[int, ...] | None
    ) -> float:
        chances = self.chances[(self.rounds_left - left + 1, tempo != "reverse")]
        gain = prize(tempo, self.options)
        if left == 1:  # the same as below, nothing being worth anything after the last round
            return max(chances[value] for value in set(hand)) * gain
        return max(
            chances[value] * gain + self.worth(_drop(hand, value), left - 1, rest)
            for value in set(hand)
        )


def _drop(hand: tuple[int, ...], value: int) -> tuple[int, ...]:
    index = hand.index(value)
    return hand[:index] + hand[index + 1 :]


def _without(deck: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return tuple(count - (index == kind) for index, count in enumerate(deck))


def tempo_deck_left(table: HeartbeatView) -> tuple[int, ...] | None:
    """The face-down tempo cards by kind (None: the game has no tempo deck)."""
    if table.options.tempo_deck == 0:
        return None
    flipped = [record.tempo for record in table.rounds] + [table.tempo]
    each = table.options.tempo_deck // len(TEMPO_KINDS)
    return tuple(max(0, each - flipped.count(kind)) for kind in TEMPO_KINDS)


def value_worths(
    hand: tuple[int, ...],
    info: Knowledge,
    options: HeartbeatOptions,
    tempo: Tempo | None,
    deck: tuple[int, ...] | None,
    *,
    rounds_left: int,
    revealing: bool,
) -> dict[int, float]:
    """What choosing (``revealing``: showing) a card of each value in ``hand`` is worth: this
    round's chance times its prize plus what the cards kept are worth in the rounds left. A shown
    card stays in hand but sits this round out. Shared with the fast simulator's rule."""
    planner = Planner(info, options, rounds_left)
    gain = prize(tempo, options)
    now = [chance * gain for chance in info.win_chances(tempo != "reverse", 0)]

    def spend(value: int) -> float:
        return now[value] + planner.worth(_drop(hand, value), rounds_left, deck)

    if revealing:
        return {shown: max(spend(v) for v in set(_drop(hand, shown))) for shown in set(hand)}
    return {value: spend(value) for value in set(hand)}


def view_worths(view: View, table: HeartbeatView) -> dict[int, float]:
    """``value_worths`` of the seat's hand, from what its view shows."""
    return value_worths(
        tuple(sorted(card_value(card) for card in view.hand or ())),
        knowledge(view, table),
        table.options,
        table.tempo,
        tempo_deck_left(table),
        rounds_left=table.rounds_total - table.round,
        revealing=table.phase == "reveal",
    )


class HeartbeatRuleBased:
    """Level 2: spends each card where it is worth most (see the module docstring)."""

    def choose(self, view: View, draw: Draw) -> Command:
        table = view.table
        assert isinstance(table, HeartbeatView), "a Heartbeat seat sees a Heartbeat table"
        offered = [move for move in moves(view) if not isinstance(move, Choice)]
        worth = view_worths(view, table)

        def score(move: Command) -> float:
            assert isinstance(move, RevealCard | ChooseCard)
            return worth[card_value(move.card)]

        scored = [(score(move), move) for move in offered]
        best = max(points for points, _ in scored)
        return draw.choice([move for points, move in scored if points > best - SAME])

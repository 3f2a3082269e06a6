"""Heartbeat on ints (RULES.md §1): a card is its index in ``CODES`` (ordered by value), a round's
secret choices are made one seat after another, each seat deciding only from what it has seen.

A seat's choice stays hidden from the others until the round is revealed: the level-2 rule of a
seat reads its own hand and choice and the public record (cards played, cards shown, tempo cards
flipped, how many cards each seat holds), never another seat's choice of this round. Each round
starts with the searching seat (``first``), so its moves come before the others' in the tree.
What a move shows the table (``seen``) keys the search's tree: a card shown in a Reveal round, a
choice nothing (``HIDDEN``), the choice that completes a round every card of it and the tempo card
flipped next.
"""

from __future__ import annotations

from bots.contract import shares_above
from bots.ismcts import Dice
from bots.rule_based.heartbeat import (
    SAME,
    Knowledge,
    Opponent,
    deck_values,
    rank_value,
    value_worths,
)
from domain.cards import JOKERS, standard_deck
from domain.commands import Command
from domain.variants.heartbeat.messages import (
    TEMPO_KINDS,
    ChooseCard,
    HeartbeatOptions,
    RevealCard,
    Tempo,
)
from domain.variants.heartbeat.table import ROUNDS, by_value, card_value, public_rank
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View

CODES: tuple[str, ...] = tuple(sorted(standard_deck(jokers=True), key=by_value))
INDEX: dict[str, int] = {card: index for index, card in enumerate(CODES)}
VALUE: tuple[int, ...] = tuple(card_value(card) for card in CODES)
RANK: tuple[str, ...] = tuple(public_rank(card) for card in CODES)
HIDDEN = -1
"""What the others see of a secret choice that does not complete the round."""

Reveal = tuple[int, int, int, str]
"""A card shown: its round, its seat, the card (-1 where the viewer saw only its rank), the rank."""

RuleKey = tuple[tuple[int, ...], Knowledge, Tempo | None, tuple[int, ...] | None, int, bool]

RULE_MEMO: dict[RuleKey, dict[int, float]] = {}
"""The level-2 rule's worths in the first round by everything they depend on, kept across
decisions: a pure function's values, so keeping them changes no decision. They recur in every
game (a seat knows little more than its hand) and cost most (two rounds to plan); later rounds'
rarely recur. About 1.2 kB an entry."""
RULE_MEMO_SIZE = 20_000


def deck_cards(options: HeartbeatOptions) -> list[int]:
    jokers = options.jokers == "zero"
    return [card for card in range(len(CODES)) if jokers or CODES[card] not in JOKERS]


class HeartbeatPosition:
    """A whole Heartbeat table: every hand (sorted), chips, the round, this round's tempo card and
    the face-down rest, the cards shown and played so far, this round's shows and choices."""

    __slots__ = (
        "chips",
        "chosen",
        "deck",
        "dice",
        "flipped",
        "hands",
        "observed",
        "options",
        "order",
        "played",
        "present",
        "reveals",
        "scored",
        "shown",
        "tempo",
    )

    def __init__(
        self,
        options: HeartbeatOptions,
        hands: list[list[int]],
        present: list[int],
        chips: list[int],
        flipped: list[Tempo | None],
        deck: list[Tempo],
        *,
        scored: int,
        first: int,
        dice: Dice,
        played: list[tuple[int, int, int]] | None = None,
        reveals: list[Reveal] | None = None,
        shown: list[int | None] | None = None,
    ) -> None:
        count = len(hands)
        self.options = options
        self.hands = hands
        self.present = present
        self.chips = chips
        self.flipped = flipped  # every tempo card flipped so far, this round's last
        self.tempo = flipped[-1] if flipped else None
        self.deck = deck
        self.scored = scored
        self.order = sorted(present, key=lambda seat: (seat - first) % count)
        self.dice = dice
        self.played = played or []  # (round, seat, card) of every scored round
        self.reveals = reveals or []
        self.shown = shown or [None] * count
        self.chosen: list[int | None] = [None] * count
        self.observed = HIDDEN

    def revealing(self) -> bool:
        return self.tempo == "reveal" and any(self.shown[s] is None for s in self.present)

    def to_move(self) -> int:
        if self.scored == ROUNDS:
            return -1
        waiting = self.shown if self.revealing() else self.chosen
        for seat in self.order:
            if waiting[seat] is None:
                return seat
        return -1

    def moves(self) -> list[int]:
        """One card of each value the seat may play or show (suits never matter)."""
        seat = self.to_move()
        barred = None if self.revealing() else self.shown[seat]
        found: list[int] = []
        for card in self.hands[seat]:
            if card != barred and (not found or VALUE[found[-1]] != VALUE[card]):
                found.append(card)
        return found

    def play(self, move: int) -> None:
        seat = self.to_move()
        if self.revealing():
            self.shown[seat] = move
            self.reveals.append((self.scored + 1, seat, move, RANK[move]))
            self.observed = VALUE[move]
            return
        self.hands[seat].remove(move)
        self.chosen[seat] = move
        self.observed = HIDDEN
        if self.to_move() < 0:
            self._score()

    def _score(self) -> None:
        plays = [(seat, card) for seat in self.present if (card := self.chosen[seat]) is not None]
        values = [VALUE[card] for _, card in plays]
        best = min(values) if self.tempo == "reverse" else max(values)
        double = self.tempo == "double"
        consolation = 1 if double and self.options.double_rule == "others_one" else 0
        seen = 0
        for (seat, card), value in zip(plays, values, strict=True):
            self.chips[seat] += (2 if double else 1) if value == best else consolation
            self.played.append((self.scored + 1, seat, card))
            seen = seen * 11 + value
        self.scored += 1
        count = len(self.chosen)
        self.chosen = [None] * count
        self.shown = [None] * count
        self.tempo = None
        if self.scored < ROUNDS and self.deck:
            self.tempo = self.deck.pop(0)
            self.flipped.append(self.tempo)
            seen = seen * 5 + 1 + TEMPO_KINDS.index(self.tempo)
        self.observed = len(CODES) + seen  # never a card

    def seen(self) -> int:
        return self.observed

    def knowledge(self, me: int) -> Knowledge:
        """What ``me`` counts (``bots.rule_based.heartbeat.knowledge``), from what it has seen."""
        pool = deck_values(self.options)
        mine = self.chosen[me]
        for card in (*self.hands[me], *(() if mine is None else (mine,))):
            pool[VALUE[card]] -= 1
        for _, _, card in self.played:
            pool[VALUE[card]] -= 1
        opponents = []
        for seat in self.present:
            if seat == me:
                continue
            held = self.held(seat)
            for value in held:
                pool[value] -= 1
            size = len(self.hands[seat]) + (self.chosen[seat] is not None)
            now = self.shown[seat]
            opponents.append(
                Opponent(
                    held=held,
                    unseen=size - len(held),
                    shown_now=None if now is None else VALUE[now],
                )
            )
        return Knowledge(pool=tuple(max(0, count) for count in pool), opponents=tuple(opponents))

    def held(self, seat: int) -> tuple[int, ...]:
        """Values of the cards ``seat`` showed and has not played since, as another seat sees
        them (``bots.rule_based.heartbeat.held_cards``): by card, or by rank where only ranks
        are shown."""
        by_card = self.options.reveal_shows == "card"
        held: dict[int | str, int] = {}
        for shown_round, shower, card, rank in self.reveals:
            if shower != seat:
                continue
            if any(
                player == seat
                and played_round > shown_round
                and (played == card if by_card else RANK[played] == rank)
                for played_round, player, played in self.played
            ):
                continue
            held[card if by_card else rank] = rank_value(rank)
        return tuple(held.values())

    def ruled(self) -> list[int]:
        """The moves the level-2 rule rates best (within ``SAME``) for the seat to move."""
        seat = self.to_move()
        hand = tuple(VALUE[card] for card in self.hands[seat])
        revealing = self.revealing()
        deck = self._deck_left()
        info, left = self.knowledge(seat), ROUNDS - self.scored - 1
        key = (hand, info, self.tempo, deck, left, revealing)
        worth = RULE_MEMO.get(key) if left == ROUNDS - 1 else None
        if worth is None:
            worth = value_worths(
                hand, info, self.options, self.tempo, deck, rounds_left=left, revealing=revealing
            )
            if left == ROUNDS - 1:
                if len(RULE_MEMO) >= RULE_MEMO_SIZE:
                    RULE_MEMO.clear()
                RULE_MEMO[key] = worth
        offered = self.moves()
        best = max(worth[VALUE[card]] for card in offered)
        return [card for card in offered if worth[VALUE[card]] > best - SAME]

    def rule(self) -> int:
        """The rule's move; ties broken by the search's dice. Choosing in the last round, the
        rule rates a card by its chance to win alone, which grows with its value (falls, in a
        Reverse round): the extreme card is always among its best, and costs no counting."""
        if self.scored == ROUNDS - 1 and not self.revealing():
            offered = self.moves()
            return offered[0] if self.tempo == "reverse" else offered[-1]
        tied = self.ruled()
        return tied[0] if len(tied) == 1 else tied[self.dice.below(len(tied))]

    def _deck_left(self) -> tuple[int, ...] | None:
        if self.options.tempo_deck == 0:
            return None
        each = self.options.tempo_deck // len(TEMPO_KINDS)
        return tuple(max(0, each - self.flipped.count(kind)) for kind in TEMPO_KINDS)

    def values(self) -> list[float]:
        return shares_above(self.chips, self.present)


class HeartbeatWorlds:
    """The worlds of one view, as ``bots.worlds.heartbeat`` samples them: the cards the seat has
    not seen dealt at random to the other hands (a card shown by rank alone this round is some
    card of that rank), the face-down tempo cards shuffled. A seat that has chosen this round
    holds its choice again and makes it by the rule after the searching seat: its choice is
    secret, and nothing the seat sees depends on it."""

    def __init__(self, view: View) -> None:
        table = view.table
        me = view.seat
        assert isinstance(table, HeartbeatView) and me is not None and view.hand is not None
        self.view, self.table, self.me = view, table, me
        self.options = table.options
        count = view.seat_count
        self.played = [
            (record.round, play.seat, INDEX[play.card])
            for record in table.rounds
            for play in record.plays
        ]
        played = {card for _, _, card in self.played}
        self.held: list[list[int]] = [[] for _ in range(count)]
        for shown in table.shown:
            known = INDEX[shown.card] if shown.card else -1
            mine_or_unknown = shown.seat == me or known < 0
            if not mine_or_unknown and known not in played and known not in self.held[shown.seat]:
                self.held[shown.seat].append(known)
        seen = {INDEX[card] for card in view.hand}
        seen.update(played, (card for cards in self.held for card in cards))
        mine = table.choices[me]
        if mine is not None:
            seen.add(INDEX[mine])
        self.pool = [card for card in deck_cards(self.options) if card not in seen]
        self.reveals: list[Reveal] = [
            (s.round, s.seat, INDEX[s.card] if s.card else -1, s.rank) for s in table.shown
        ]
        self.shown_now = {s.seat: s for s in table.shown if s.round == table.round}
        self.present = [seat.seat for seat in view.seats if not seat.left]
        flipped: list[Tempo | None] = [record.tempo for record in table.rounds]
        self.flipped = [*flipped, table.tempo] if table.tempo is not None else flipped
        each = self.options.tempo_deck // len(TEMPO_KINDS)
        self.tempo_left = [kind for kind in TEMPO_KINDS for _ in range(each)]
        for tempo in self.flipped:
            if tempo in self.tempo_left:
                self.tempo_left.remove(tempo)

    def sample(self, dice: Dice) -> HeartbeatPosition:
        view, table, me = self.view, self.table, self.me
        pool = self.pool[:]
        held = [cards[:] for cards in self.held]
        shown: list[int | None] = [None] * view.seat_count
        for seat, seen in self.shown_now.items():
            if seen.card:
                shown[seat] = INDEX[seen.card]
                continue
            fitting = [card for card in pool if RANK[card] == seen.rank] or pool
            card = fitting[dice.below(len(fitting))]
            pool.remove(card)
            held[seat].append(card)
            shown[seat] = card
        dice.shuffle(pool)
        hands: list[list[int]] = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == me:
                hands.append(sorted(INDEX[card] for card in view.hand or ()))
                continue
            if table.chosen[seat]:
                size += 1  # its choice is made again
            dealt = size - len(held[seat])
            hands.append(sorted(held[seat] + pool[:dealt]))
            del pool[:dealt]
        deck = self.tempo_left[:]
        dice.shuffle(deck)
        position = HeartbeatPosition(
            self.options,
            hands,
            self.present,
            list(table.chips),
            self.flipped[:],
            deck[: table.tempo_cards_left],
            scored=len(table.rounds),
            first=me,
            dice=dice,
            played=self.played[:],
            reveals=self.reveals[:],
            shown=shown,
        )
        mine = table.choices[me]
        if mine is not None:
            position.chosen[me] = INDEX[mine]
        return position


class HeartbeatSimulator:
    """Heartbeat for ``bots.ismcts``."""

    def worlds(self, view: View) -> HeartbeatWorlds:
        return HeartbeatWorlds(view)

    def budget(self, view: View, iterations: int) -> int:
        """Four times the iterations each round after the first: a later round leaves fewer
        rounds for the rule to plan (the first round's planning costs most), so its iterations
        are cheaper. None for the last round's choice: there the extreme card (the rule's) is
        never worse than another, whatever the others hold, as it wins wherever another would
        and leaves the others fewer wins."""
        table = view.table
        assert isinstance(table, HeartbeatView)
        if table.round == table.rounds_total and table.phase == "choose":
            return 0
        return iterations << (2 * (table.round - 1))

    def command(self, view: View, move: int) -> Command:
        assert isinstance(view.table, HeartbeatView)
        if view.table.phase == "reveal":
            return RevealCard(card=CODES[move])
        return ChooseCard(card=CODES[move])

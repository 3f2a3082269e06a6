"""One Up One Down: the table state and how each event changes it."""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.cards import CLIMBING_INDEX, rank, standard_deck, without
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft
from domain.turns import first_eligible, left_of, rotation
from domain.variants.one_up_one_down.messages import (
    RANKS,
    CardDrawn,
    CardPlayedFaceDown,
    Challenged,
    ChallengeDeclined,
    ChallengeResolved,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
    EndedBy,
    EndVoted,
    FirstPlayerDrawn,
    HighCardDraw,
    LastCardStood,
    OneUpOneDownOptions,
    PileCollected,
    Rank,
    StalemateEnded,
)

LOWEST = RANKS[0]


def order(card_rank: str) -> int:
    """3 lowest, 2 highest; suits never matter."""
    return CLIMBING_INDEX[card_rank]


_SORT_KEY = {card: (order(rank(card)), card) for card in standard_deck()}


def sort_hand(cards: tuple[str, ...]) -> tuple[str, ...]:
    """Low to high; suits never matter, their codes just keep the order stable."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


class PileCard(msgspec.Struct, frozen=True, kw_only=True):
    """A card on the pile. ``card`` is the true card, shown only as the rules allow."""

    seat: int
    card: str
    face_down: bool
    declared: Rank | None = None
    revealed: bool = False


class Answer(msgspec.Struct, frozen=True):
    seat: int
    challenged: bool


class Window(msgspec.Struct, frozen=True, kw_only=True):
    """The challenge window after a face-down play by ``seat``."""

    seat: int
    declared: Rank
    target: Rank  # the target before the play
    deadline: datetime | None
    answers: tuple[Answer, ...] = ()


class Verdict(msgspec.Struct, frozen=True):
    """What a window's answers decide: still open, the card stands, or who challenges it."""

    open: bool
    challenger: int | None = None


OPEN = Verdict(open=True)
STANDS = Verdict(open=False)


class OneUpOneDownTable(msgspec.Struct, frozen=True, kw_only=True):
    options: OneUpOneDownOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    votes: tuple[bool, ...]
    stock: tuple[str, ...] = ()
    dealt: bool = False
    turn: int = 0  # the seat to play, or the first seat after it that can
    face_down_next: bool = False
    target: Rank = LOWEST
    round: int = 1
    pile: tuple[PileCard, ...] = ()
    window: Window | None = None
    plays: int = 0
    draws: tuple[tuple[HighCardDraw, ...], ...] = ()
    winners: tuple[int, ...] | None = None
    ended_by: EndedBy | None = None
    # What the seats have seen go into the others' hands and not seen leave since (a played
    # card is seen to leave; one played face down and never turned up is not): ``taken`` per
    # seat, the face-up and turned-up cards of the piles it collected (seen by all);
    # ``slipped`` per seat, per holder, the seat's own face-down cards that holder collected
    # unturned (seen by that seat alone).
    taken: tuple[tuple[str, ...], ...] = ()
    slipped: tuple[tuple[tuple[str, ...], ...], ...] = ()

    @property
    def over(self) -> bool:
        return self.winners is not None

    def still_in(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seat_count) if not self.left[seat])

    def can_play(self, seat: int) -> bool:
        return not self.left[seat] and bool(self.hands[seat])

    def to_play(self) -> int | None:
        """The seat whose card is awaited (None while a window is open or before the deal)."""
        if not self.dealt or self.over or self.window is not None:
            return None
        return first_eligible(self.turn, self.seat_count, self.can_play)

    def responders(self) -> tuple[int, ...]:
        """Seats that may answer the open window, in turn order after its player."""
        if self.window is None:
            return ()
        start = left_of(self.window.seat, self.seat_count)
        return tuple(
            seat
            for seat in rotation(start, self.seat_count)
            if seat != self.window.seat and not self.left[seat]
        )

    def answer_of(self, seat: int) -> bool | None:
        """True: challenged, False: declined, None: not answered (or no window)."""
        if self.window is None:
            return None
        return next((a.challenged for a in self.window.answers if a.seat == seat), None)

    def awaiting(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.responders() if self.answer_of(seat) is None)

    def verdict(self) -> Verdict:
        """The window's outcome once it is certain.

        Walking the responders in turn order: the first challenge decides (everybody before has
        declined); a seat that has not answered yet keeps the window open.
        """
        for seat in self.responders():
            answer = self.answer_of(seat)
            if answer is None:
                return OPEN
            if answer:
                return Verdict(open=False, challenger=seat)
        return STANDS

    def all_voted(self) -> bool:
        return all(self.votes[seat] for seat in self.still_in())

    def fewest_cards(self) -> tuple[int, ...]:
        seats = self.still_in()
        if not seats:
            return ()
        fewest = min(len(self.hands[seat]) for seat in seats)
        return tuple(seat for seat in seats if len(self.hands[seat]) == fewest)


def setup(options: OneUpOneDownOptions, seat_count: int) -> OneUpOneDownTable:
    return OneUpOneDownTable(
        options=options,
        seat_count=seat_count,
        hands=((),) * seat_count,
        left=(False,) * seat_count,
        votes=(False,) * seat_count,
        taken=((),) * seat_count,
        slipped=(((),) * seat_count,) * seat_count,
    )


def _set(items: tuple[bool, ...], index: int, value: bool) -> tuple[bool, ...]:
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _with_hand(
    table: OneUpOneDownTable, seat: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    hands = list(table.hands)
    hands[seat] = sort_hand(hand)
    return tuple(hands)


def _played(table: OneUpOneDownTable, seat: int, pile_card: PileCard) -> OneUpOneDownTable:
    return msgspec.structs.replace(
        table,
        hands=_with_hand(table, seat, without(table.hands[seat], [pile_card.card])),
        pile=(*table.pile, pile_card),
        plays=table.plays + 1,
        votes=(False,) * table.seat_count,
    )


def _answered(table: OneUpOneDownTable, answers: tuple[Answer, ...]) -> OneUpOneDownTable:
    assert table.window is not None
    window = msgspec.structs.replace(table.window, answers=(*table.window.answers, *answers))
    return msgspec.structs.replace(table, window=window)


def _seen_played(table: OneUpOneDownTable, card: str) -> OneUpOneDownTable:
    """``card`` is in sight on the pile: no longer known to be in anybody's hand."""
    taken = _dropped(table.taken, card)
    slipped = table.slipped
    for seat, row in enumerate(table.slipped):
        dropped = _dropped(row, card)
        if dropped is not row:
            slipped = (*slipped[:seat], dropped, *slipped[seat + 1 :])
    if taken is table.taken and slipped is table.slipped:
        return table
    return msgspec.structs.replace(table, taken=taken, slipped=slipped)


def _dropped(lists: tuple[tuple[str, ...], ...], card: str) -> tuple[tuple[str, ...], ...]:
    """``lists`` without ``card``, the same tuple if it holds none (a seat lists a card under one
    holder at most: it is listed going out of sight, and struck when seen)."""
    for index, cards in enumerate(lists):
        if card in cards:
            kept = tuple(held for held in cards if held != card)
            return (*lists[:index], kept, *lists[index + 1 :])
    return lists


def _collected(table: OneUpOneDownTable, taker: int) -> OneUpOneDownTable:
    """What the seats see of ``taker`` collecting the pile: everybody its shown cards, each seat
    its own unturned cards going to the taker, and the taker every card (its own lists of its
    cards held elsewhere drop those it now holds)."""
    shown = [c.card for c in table.pile if not c.face_down or c.revealed]
    taken = list(table.taken)
    taken[taker] = (*taken[taker], *shown)
    slipped = [list(row) for row in table.slipped]
    for card in table.pile:
        if card.face_down and not card.revealed and card.seat != taker:
            slipped[card.seat][taker] = (*slipped[card.seat][taker], card.card)
    pile_cards = {c.card for c in table.pile}
    slipped[taker] = [tuple(c for c in cards if c not in pile_cards) for cards in slipped[taker]]
    return msgspec.structs.replace(
        table, taken=tuple(taken), slipped=tuple(tuple(row) for row in slipped)
    )


def evolve(table: OneUpOneDownTable, event: Event) -> OneUpOneDownTable:
    replace = msgspec.structs.replace
    match event:
        case HandDealt():
            hands = tuple(sort_hand(secret.unwrap()) for secret in event.hands)
            return replace(table, hands=hands, stock=event.rest.unwrap(), dealt=True)
        case FirstPlayerDrawn():
            return replace(table, turn=event.seat, draws=event.rounds)
        case CardPlayed():
            face_up = PileCard(seat=event.seat, card=event.card, face_down=False)
            table = _played(_seen_played(table, event.card), event.seat, face_up)
            return replace(
                table,
                target=rank(event.card),
                face_down_next=True,
                turn=left_of(event.seat, table.seat_count),
            )
        case CardPlayedFaceDown():
            card = PileCard(
                seat=event.seat, card=event.card.unwrap(), face_down=True, declared=event.declared
            )
            window = Window(
                seat=event.seat,
                declared=event.declared,
                target=event.target,
                deadline=event.deadline,
            )
            return replace(_played(table, event.seat, card), window=window)
        case CardDrawn():
            hand = (*table.hands[event.seat], table.stock[0])
            return replace(table, hands=_with_hand(table, event.seat, hand), stock=table.stock[1:])
        case Challenged():
            return _answered(table, (Answer(event.seat, True),))
        case ChallengeDeclined():
            return _answered(table, (Answer(event.seat, False),))
        case ChallengeWindowExpired():
            return _answered(table, tuple(Answer(seat, False) for seat in event.unanswered))
        case ChallengeWindowClosed():
            assert table.window is not None
            return replace(
                table,
                window=None,
                target=event.declared,
                face_down_next=False,
                turn=left_of(table.window.seat, table.seat_count),
            )
        case ChallengeResolved():
            last = replace(table.pile[-1], revealed=True)
            table = _seen_played(table, event.card)
            return replace(table, window=None, pile=(*table.pile[:-1], last))
        case PileCollected():
            hand = (*table.hands[event.seat], *(card.card for card in table.pile))
            return replace(
                _collected(table, event.seat),
                hands=_with_hand(table, event.seat, hand),
                pile=(),
                target=LOWEST,
                face_down_next=False,
                turn=event.seat,
                round=table.round + 1,
            )
        case EndVoted():
            return replace(table, votes=_set(table.votes, event.seat, True))
        case LastCardStood():
            return replace(table, winners=(event.seat,), ended_by="last_card")
        case StalemateEnded():
            return replace(table, winners=event.winners, ended_by=event.reason)
        case PlayerLeft():
            return replace(table, left=_set(table.left, event.seat, True))
    return table

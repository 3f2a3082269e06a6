"""Level 2 of One Up One Down: shed cards honestly when it can, bluff plausibly when it must,
and challenge what the cards it can count make unlikely.

Everything comes from the seat's view of the moment: its hand, the pile as it sees it (face-up and
turned-up cards, and its own face-down ones), the hand sizes and the stock size. It keeps no
memory between decisions, so cards seen in earlier rounds count as unknown.

- Face up: the lowest card that meets the target (no draw); with none, the lowest card (the draw
  replaces it, so the worst card goes). In a long game it sometimes plays another card that
  meets the target, so that bots do not go round the same circle until the cap.
- Face down: the lowest card that meets the target, declared as it is. Now and then, with a small
  pile, it bluffs instead: a card below the target passes as that honest rank, keeping the good
  card. With no card that meets the target it must bluff: its lowest card, declared as the rank at
  or above the target that the table has seen the fewest of.
- Challenge: always when the declaration is below the target, when every copy of the declared
  rank is in sight, or when it was the player's last card; otherwise when the chance that the
  player held the declared rank (and no lower card that would also do) is small enough, which
  needs more doubt with more seats unless the player is the one closest to winning.
- Vote to end (stock empty): only when ending now makes this seat a winner. A vote counts only
  until the next card is played and a bot is asked only when it is awaited (it votes before its
  own play), so bots alone never end a game by vote: that needs people who vote between plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bots.contract import moves
from domain.cards import rank
from domain.choices import Choice
from domain.commands import Command
from domain.fairness import Draw
from domain.variants.one_up_one_down.messages import (
    RANKS,
    Challenge,
    Decline,
    PlayDown,
    PlayUp,
    Rank,
    VoteEnd,
)
from domain.variants.one_up_one_down.table import order
from domain.variants.one_up_one_down.view import ChallengeView, OneUpOneDownView
from projections.views import View

DECK_SIZE = 52
COPIES = 4  # of each rank in the deck

BLUFF_ONE_IN = 8
"""When an honest face-down play exists, bluff instead about once in this many turns..."""
BLUFF_PILE_AT_MOST = 2
"""...and only while the pile holds at most this many cards (a caught bluff takes the pile)."""

LONG_GAME = 60
"""Plays after which a game is long (most end within 40): face up it then varies its card..."""
VARY_ONE_IN = 4
"""...about once in this many turns, picking any card that meets the target."""

FIRST_CHOICE = 0.5
"""How much of the time a player is taken to declare the rank it chose freely rather than its
lowest card that meets the target (an honest declaration well above the target is rarer)."""

DOUBT_TWO_SIDED = 0.6
"""Challenge when the chance of a bluff is above this: two seats, or against the seat closest to
winning (its taking the pile is worth about as much as this seat's taking it costs). A little
above even, as the estimate runs high: bluffs it put near 0.7 were about 0.55 in its own games."""
DOUBT_SHARED = 0.7
"""With more seats a caught bluffer's gain is shared with the other opponents: more doubt."""
DOUBT_LAST_CARDS = 0.15
"""Less doubt is needed against a player left with one card (it wins with the next that stands)."""


class OneUpOneDownRuleBased:
    """Level 2: honest when it can, plausible bluffs when it must, challenges by counting."""

    def choose(self, view: View, draw: Draw) -> Command:
        table: OneUpOneDownView = view.table
        entries = moves(view)
        listed = [entry for entry in entries if not isinstance(entry, Choice)]
        if table.challenge is not None and Challenge() in listed:
            return Challenge() if _doubts(view, table, table.challenge) else Decline()
        if VoteEnd() in listed and _ending_now_wins(view):
            return VoteEnd()
        ups = [entry for entry in listed if isinstance(entry, PlayUp)]
        if ups:
            return _play_up(table, ups, draw)
        downs = [entry for entry in listed if isinstance(entry, PlayDown)]
        if downs:
            return _play_down(view, table, downs, draw)
        # Asked off its turn with only the vote listed: the vote is its one legal move.
        return listed[0]


# --- plays ------------------------------------------------------------------------------------


def _lowest(cards: Sequence[str]) -> str:
    return min(cards, key=lambda card: order(rank(card)))


def _meeting(cards: Sequence[str], target: Rank) -> list[str]:
    return [card for card in cards if order(rank(card)) >= order(target)]


def _play_up(table: OneUpOneDownView, ups: Sequence[PlayUp], draw: Draw) -> Command:
    cards = [up.card for up in ups]  # one listed card per rank held
    meeting = _meeting(cards, table.target)
    if len(meeting) > 1 and table.plays >= LONG_GAME and draw.below(VARY_ONE_IN) == 0:
        # Bots that always answer alike can go round in circles: step out of the rut.
        return PlayUp(card=draw.choice(meeting))
    return PlayUp(card=_lowest(meeting or cards))


def _play_down(
    view: View, table: OneUpOneDownView, downs: Sequence[PlayDown], draw: Draw
) -> Command:
    cards = list(dict.fromkeys(down.card for down in downs))
    honest = _meeting(cards, table.target)
    junk = [card for card in cards if card not in honest]
    if honest:
        card = _lowest(honest)
        declared = _as_rank(rank(card))
        if junk and _bluffs_now(view, table, draw):
            return PlayDown(card=_lowest(junk), declared=declared)
        return PlayDown(card=card, declared=declared)
    return PlayDown(card=_lowest(cards), declared=_plausible_rank(table))


def _bluffs_now(view: View, table: OneUpOneDownView, draw: Draw) -> bool:
    """Mix in a bluff while it is cheap: a small pile and cards to spare."""
    seat = view.seat if view.seat is not None else 0
    spare = view.hand_sizes[seat] > 2
    return spare and len(table.pile) <= BLUFF_PILE_AT_MOST and draw.below(BLUFF_ONE_IN) == 0


def _plausible_rank(table: OneUpOneDownView) -> Rank:
    """The rank at or above the target the table has seen the fewest of (the lowest on a tie):
    a declaration nobody can disprove by counting the cards in sight."""
    public = Counter(
        rank(card.card)
        for card in table.pile
        if card.card is not None and (not card.face_down or card.revealed)
    )
    meeting = [r for r in RANKS if order(r) >= order(table.target)]
    return min(meeting, key=lambda r: (public[r], order(r)))


def _as_rank(card_rank: str) -> Rank:
    return next(r for r in RANKS if r == card_rank)


# --- challenges -------------------------------------------------------------------------------


def _doubts(view: View, table: OneUpOneDownView, window: ChallengeView) -> bool:
    """Challenge the face-down card just played?"""
    declared, target = window.declared, window.target
    if order(declared) < order(target):
        return True  # below the target it fails whatever the card is
    left = view.hand_sizes[window.seat]
    if left == 0:
        return True  # standing, it wins; turned up, it can only be stopped
    seen = _seen_ranks(view, table)
    unseen = COPIES - seen[declared]
    if unseen <= 0:
        return True
    unknown = DECK_SIZE - sum(seen.values())  # the card just played is among them
    held = left + 1
    # The player as this bot plays: honest with its lowest card that meets the target (or, some
    # of the time, another it holds), bluffing when it has none and now and then when it has.
    holds = 1.0 - _none_drawn(unknown, unseen, held)
    lower = sum(COPIES - seen[r] for r in RANKS if order(target) <= order(r) < order(declared))
    lowest = _none_drawn(unknown - unseen, lower, held - 1)
    would_declare = holds * (FIRST_CHOICE + (1.0 - FIRST_CHOICE) * lowest)
    meeting = [r for r in RANKS if order(r) >= order(target)]
    can_meet = 1.0 - _none_drawn(unknown, sum(COPIES - seen[r] for r in meeting), held)
    forced = (1.0 - can_meet) / len(meeting)  # no card to meet it: any rank that does
    # A bluff passing as the honest declaration, as this bot mixes them in: small piles only.
    cheap = len(table.pile) - 1 <= BLUFF_PILE_AT_MOST and held > 2
    mixed = would_declare / BLUFF_ONE_IN if cheap else 0.0
    bluff = (forced + mixed) / (forced + would_declare)
    return bluff > _doubt_needed(view, window.seat)


def _doubt_needed(view: View, player: int) -> float:
    me = view.seat
    opponents = [
        seat for seat in range(view.seat_count) if seat != me and not view.seats[seat].left
    ]
    closest = min(view.hand_sizes[seat] for seat in opponents)
    needed = (
        DOUBT_TWO_SIDED
        if len(opponents) == 1 or view.hand_sizes[player] == closest
        else DOUBT_SHARED
    )
    return needed - DOUBT_LAST_CARDS if view.hand_sizes[player] == 1 else needed


def _seen_ranks(view: View, table: OneUpOneDownView) -> Counter[str]:
    """The ranks of every card this seat can see: its hand and the pile's open cards."""
    seen = Counter(rank(card) for card in view.hand or ())
    seen.update(rank(card.card) for card in table.pile if card.card is not None)
    return seen


def _none_drawn(pool: int, marked: int, drawn: int) -> float:
    """The chance that ``drawn`` cards taken at random from ``pool`` include none of the
    ``marked`` ones."""
    chance = 1.0
    for index in range(max(0, drawn)):
        if pool - index <= 0:
            break
        chance *= max(0, pool - marked - index) / (pool - index)
    return chance


# --- ending -----------------------------------------------------------------------------------


def _ending_now_wins(view: View) -> bool:
    """Ending now gives the win to the fewest cards among seats still in: is this seat one?"""
    still_in = [seat for seat in range(view.seat_count) if not view.seats[seat].left]
    fewest = min(view.hand_sizes[seat] for seat in still_in)
    return view.seat is not None and view.hand_sizes[view.seat] == fewest

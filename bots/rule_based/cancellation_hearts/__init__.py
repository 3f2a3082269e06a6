"""Level 2 of Cancellation Hearts: a rule-based player.

It passes its three most dangerous cards (queens of spades, their ace and king guards, high
hearts, high cards of short suits). In play it weighs each legal card by the points it expects
to take with it (the chance the card wins the trick, twins cancelling, times the points the
winner gets: the trick, the carry pile, an untaken kitty, what later seats may throw on) against
how much the card is worth getting rid of, which mostly breaks ties between cards about as safe:
so it ducks under the winning card with its highest card that stays under, throws the queen of
spades or its worst card when out of a suit, takes a trick it cannot avoid with its highest card,
and leads the highest card unlikely to win. A moon is scored to end the match when that makes it
the winner, else subtracted.
"""

from __future__ import annotations

from bots.contract import moves, uniform
from bots.rule_based.cancellation_hearts.judging import dangers, pass_choice
from bots.rule_based.cancellation_hearts.reading import Reading, read
from domain.cards import holds
from domain.choices import Choice
from domain.commands import Command, PlayCard
from domain.fairness import Draw
from domain.variants.cancellation_hearts.messages import ChooseMoon, PassCards
from domain.variants.cancellation_hearts.view import CancellationHeartsView
from projections.views import View

# A point of danger shed now against a point taken now: little (on duplicate deals at 6 seats,
# 0.05 took 0.76 of the pairs against 0.5), so a card's danger mostly breaks ties.
DANGER_WEIGHT = 0.05
NEAR = 1e-9


class CancellationHeartsRuleBased:
    """Level 2: passes its worst cards, ducks, sheds dangerous cards, leads safe cards."""

    def choose(self, view: View, draw: Draw) -> Command:
        offered = moves(view)
        passes = [
            entry
            for entry in offered
            if isinstance(entry, Choice) and isinstance(entry.command, PassCards)
        ]
        if passes:
            return self._pass(view, passes[0])
        plays = [entry.card for entry in offered if isinstance(entry, PlayCard)]
        if plays:
            return PlayCard(card=self._play(read(view), plays, draw))
        moons = [entry for entry in offered if isinstance(entry, ChooseMoon)]
        if moons:
            return self._moon(view, moons)
        return uniform(offered, draw)  # nothing this player knows better than chance

    def _pass(self, view: View, form: Choice) -> Command:
        hand = tuple(view.hand or ())
        cards = pass_choice(hand, form.min)
        assert holds(hand, cards) and len(cards) == form.min, "a pass of held cards"
        return PassCards(cards=cards)

    def _play(self, reading: Reading, cards: list[str], draw: Draw) -> str:
        danger = dangers(reading.hand, reading.queens_out())
        costs = {
            card: reading.win_chance(card) * reading.stake(card) - DANGER_WEIGHT * danger[card]
            for card in cards
        }
        least = min(costs.values())
        return draw.choice([card for card in cards if costs[card] <= least + NEAR])

    def _moon(self, view: View, choices: list[ChooseMoon]) -> Command:
        """``add`` while this seat is first after it (ending the match as its winner, or bringing
        the end nearer while ahead); else ``subtract``, which ends nothing: both move this seat
        the same against everyone else."""
        seat = view.seat
        assert seat is not None, "a bot sits at a seat"
        table = view.table
        assert isinstance(table, CancellationHeartsView), "a Cancellation Hearts view"
        moon_points = table.options.moon_points
        added = [
            total + (0 if other == seat else moon_points) for other, total in enumerate(view.scores)
        ]
        seated = [other for other in range(view.seat_count) if not view.seats[other].left]
        wanted = "add" if added[seat] == min(added[other] for other in seated) else "subtract"
        return next((entry for entry in choices if entry.choice == wanted), choices[0])

"""Section "ratings": how well the ratings predict finishing order, beside plain win rates.

A seeded population of players with known skills plays games of four seats, each seat drawn
at random; a game's finishing order is drawn from a Plackett-Luce model of the true skills
(the first place by strength among all four, the next among the rest, ...). The first games
are rated in order exactly as the service rates them (``projections.ratings``); the win-rate
table counts first places over the same games. On held-out games played afterwards, each
predicts every game's order: Spearman's rank correlation between the predicted and the actual
order (mean over games; 1 is perfect, 0 is chance) and the log-loss of the actual winner
(lower is better; ln 4 ≈ 1.39 is chance). The true skills' own predictions give the ceiling,
in the note. docs/ratings.md keeps a full run's figures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from projections.ratings import BETA, NEW, Participant, Rating, rate_game, ratings_after
from service.tools.bench.figures import Figure

SEATS = 4
SEED = 24
SPREAD = 1.0  # true skills ~ N(0, SPREAD); a seat's strength is exp(skill)

Game = tuple[list[int], list[int]]  # the players at the table, and each one's place (1 first)


class Population:
    def __init__(self, players: int, seed: int = SEED) -> None:
        self.rng = random.Random(seed)
        self.skills = [self.rng.gauss(0.0, SPREAD) for _ in range(players)]

    def game(self) -> Game:
        table = self.rng.sample(range(len(self.skills)), SEATS)
        left = list(table)
        order: list[int] = []
        while left:  # Plackett-Luce: each place drawn by strength among those left
            weights = [math.exp(self.skills[player]) for player in left]
            chosen = self.rng.choices(left, weights=weights)[0]
            order.append(chosen)
            left.remove(chosen)
        return table, [order.index(player) + 1 for player in table]


def rated(games: Sequence[Game]) -> dict[int, Rating]:
    """The players' ratings after ``games``, rated in order as the service rates them."""
    current: dict[str, Rating] = {}
    for table, places in games:
        seats = [
            Participant(rated_id=str(player), name="", seat=seat, rank=place, bot=False)
            for seat, (player, place) in enumerate(zip(table, places, strict=True))
        ]
        current.update(ratings_after(rate_game(seats, current)))
    return {int(player): rating for player, rating in current.items()}


def win_rates(games: Sequence[Game]) -> dict[int, float]:
    """First places over games, smoothed toward one in four (a player with no games: 1/4)."""
    wins: dict[int, int] = {}
    played: dict[int, int] = {}
    for table, places in games:
        for player, place in zip(table, places, strict=True):
            played[player] = played.get(player, 0) + 1
            wins[player] = wins.get(player, 0) + (place == 1)
    return {player: (wins.get(player, 0) + 1) / (count + SEATS) for player, count in played.items()}


def ranked(values: Sequence[float]) -> list[float]:
    """Each value's rank, 1 the smallest, equal values sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda index: values[index])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            ranks[index] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(predicted: Sequence[float], actual: Sequence[float]) -> float:
    """Spearman's rank correlation; 0 where a side has no spread (nothing predicted)."""
    try:
        return statistics.correlation(ranked(predicted), ranked(actual))
    except statistics.StatisticsError:
        return 0.0


Predict = Callable[[list[int]], tuple[list[float], list[float]]]  # strengths, win chances


def scores(games: Sequence[Game], predict: Predict) -> tuple[float, float]:
    """Mean Spearman of predicted strength against finishing order, and mean winner log-loss."""
    rho, loss = [], []
    for table, places in games:
        strengths, chances = predict(table)
        rho.append(spearman(strengths, [-place for place in places]))
        loss.append(-math.log(max(chances[places.index(1)], 1e-12)))
    return statistics.fmean(rho), statistics.fmean(loss)


def by_rating(ratings: dict[int, Rating]) -> Predict:
    def predict(table: list[int]) -> tuple[list[float], list[float]]:
        found = [ratings.get(player, NEW) for player in table]
        # The model's own chance of coming first: exp(μ/c) over the table's, where
        # c² = Σ(σ² + β²) (Weng and Lin's Plackett-Luce, as openskill rates with it).
        c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in found))
        strengths = [math.exp(r.mu / c) for r in found]
        return [r.mu for r in found], [s / sum(strengths) for s in strengths]

    return predict


def proportional(strength: Callable[[int], float]) -> Predict:
    """Each player's chance of coming first in proportion to their strength."""

    def predict(table: list[int]) -> tuple[list[float], list[float]]:
        found = [strength(player) for player in table]
        return found, [value / sum(found) for value in found]

    return predict


def figures(quick: bool) -> list[Figure]:
    """Few games a player (where a rating's use of every place tells most), then many."""
    settings = [(100, 500, 300)] if quick else [(400, 2_000, 2_000), (400, 16_000, 2_000)]
    return [figure for setting in settings for figure in measured(*setting)]


def measured(players: int, train: int, held_out: int) -> list[Figure]:
    population = Population(players)
    history = [population.game() for _ in range(train)]
    future = [population.game() for _ in range(held_out)]
    ratings, rates = rated(history), win_rates(history)
    rating_rho, rating_loss = scores(future, by_rating(ratings))
    rate_rho, rate_loss = scores(future, proportional(lambda p: rates.get(p, 1 / SEATS)))
    true_rho, true_loss = scores(future, proportional(lambda p: math.exp(population.skills[p])))
    everyone = sorted(ratings)
    skills = [population.skills[player] for player in everyone]
    setting = f"{players} players, {train:,} rated games, {held_out:,} held out"
    return [
        Figure(
            section="ratings",
            name=f"finishing order predicted by rating, Spearman ρ ({setting})",
            value=rating_rho,
            unit="ρ",
            baseline="predicted by win rate",
            baseline_value=rate_rho,
            note=f"true skills: {true_rho:.3f}",
        ),
        Figure(
            section="ratings",
            name=f"the winner's log-loss by rating ({setting})",
            value=rating_loss,
            unit="nats",
            baseline="by win rate",
            baseline_value=rate_loss,
            higher_is_better=False,
            note=f"true skills: {true_loss:.3f}; chance: {math.log(SEATS):.3f}",
        ),
        Figure(
            section="ratings",
            name=f"players' true skills against their ratings, Spearman ρ ({setting})",
            value=spearman([ratings[p].mu for p in everyone], skills),
            unit="ρ",
            baseline="against their win rates",
            baseline_value=spearman([rates[p] for p in everyone], skills),
        ),
    ]

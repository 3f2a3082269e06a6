"""Double Heartbeat's combinations (RULES.md §2) stated again by the tests: the two orders, a
shorthand for card sets and a brute-force classifier, independent of the module's constants."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

# The test's own statement of the two orders (independent of the module's constants).
SINGLES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
LINE = [
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
]  # position p+1 holds LINE[p]
OF_A_KIND = {1: "single", 2: "pair", 3: "triple", 4: "bomb", 5: "bomb", 6: "bomb"}
OF_A_KIND |= {7: "bomb", 8: "bomb"}


def cards(text: str) -> list[str]:
    """Space-separated cards; ``5x3S`` stands for five 3S-like cards of rank 3 over the suits."""
    out: list[str] = []
    for token in text.split():
        if "x" in token:
            count, rank = token.split("x")
            out += [rank + "SHDC"[i % 4] for i in range(int(count))]
        else:
            out.append(token)
    return out


def run(ranks: str, suits: str = "SHDC", per: int = 1) -> str:
    """``per`` cards of each rank of a space-separated rank list, suits cycling."""
    names = ranks.split()
    return " ".join(
        name + suits[(i * per + j) % len(suits)] for i, name in enumerate(names) for j in range(per)
    )


ALL13 = "A 2 3 4 5 6 7 8 9 10 J Q K"


def brute_readings(hand: list[str]) -> set[tuple[str, int, str]]:
    """Every (type, count, rank) the definitions allow, by trying each candidate shape."""
    counts = Counter(card[:-1] for card in hand)
    suits = {card[-1] for card in hand}
    size = len(hand)
    found: dict[str, tuple[int, str]] = {}  # kind -> (strength, rank label); strongest kept

    def keep(kind: str, strength: int, label: str) -> None:
        if kind not in found or strength > found[kind][0]:
            found[kind] = (strength, label)

    for name in SINGLES:
        if counts == Counter({name: size}) and size in OF_A_KIND:
            keep(OF_A_KIND[size], SINGLES.index(name), name)
        for other in SINGLES if len(counts) == 2 else ():
            if other != name and counts == Counter({name: 3, other: 2}):
                keep("triple_pair", SINGLES.index(name), name)
    for low in range(len(LINE)):
        for high in range(low + 1, len(LINE)):
            window = LINE[low : high + 1]
            if len(set(window)) < len(window):
                continue  # the ace twice: a wrap
            if not set(window) <= set(counts):
                continue  # every shape below uses each rank of the window
            for per, kind, minimum in ((1, "straight", 5), (2, "consecutive_pairs", 3)):
                if len(window) >= minimum and counts == Counter(dict.fromkeys(window, per)):
                    if kind == "straight" and len(suits) == 1:
                        kind = "straight_flush"
                    keep(kind, high, LINE[high])
            if counts == Counter(dict.fromkeys(window, 3)):
                keep("airplane", high, LINE[high])
            if size == 5 * len(window) and all(counts[r] >= 3 for r in window):
                outside = [r for r in SINGLES if r not in window]
                for wings in combinations_with_replacement(outside, len(window)):
                    shape = Counter(dict.fromkeys(window, 3))
                    for wing in wings:
                        shape[wing] += 2
                    if shape == counts:
                        keep("airplane_pairs", high, LINE[high])
    return {(kind, size, label) for kind, (_, label) in found.items()}

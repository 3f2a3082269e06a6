"""Heartbeat (心跳), RULES.md §1."""

from domain.variants.heartbeat.messages import (
    CardChosen,
    CardShown,
    ChoicesRevealed,
    ChoiceTimedOut,
    ChooseCard,
    HeartbeatOptions,
    RevealCard,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from domain.variants.heartbeat.rules import Heartbeat, HeartbeatView, ShownCardView
from domain.variants.heartbeat.table import HeartbeatTable, card_value, round_result

__all__ = [
    "CardChosen",
    "CardShown",
    "ChoiceTimedOut",
    "ChoicesRevealed",
    "ChooseCard",
    "Heartbeat",
    "HeartbeatOptions",
    "HeartbeatTable",
    "HeartbeatView",
    "RevealCard",
    "RoundScored",
    "ShownCardView",
    "TempoCardFlipped",
    "TempoDeckShuffled",
    "card_value",
    "round_result",
]

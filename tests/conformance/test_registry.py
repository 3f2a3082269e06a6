"""The registry is the one list of variants: what is derived from it keeps its stored names,
a test's own variant comes and goes cleanly, and every table kept per variant covers it."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from domain import aggregate
from domain.aggregate import game_class
from domain.errors import RuleViolation
from domain.variant import Variant
from domain.variants import DEADLINE_EVENTS, HOSTED, VARIANTS, registered, variant_by_id
from service.tools.bench import engine, growth
from tests.conformance.tiny_variant import HighCard
from tests.golden import SCRIPTS
from tests.support.client import SHORT_GAMES
from tests.support.threads import at_once

VIEWER_TABLES = Path(__file__).parents[2] / "service" / "http" / "static" / "table" / "variants"

# The aggregate topics games have been stored under: they may never change.
STORED_TOPICS = {
    "open-hand": "cardledger:open-hand:game",
    "heartbeat": "cardledger:heartbeat:game",
    "cancellation-hearts": "cardledger:cancellation-hearts:game",
    "one-up-one-down": "cardledger:one-up-one-down:game",
    "double-heartbeat": "cardledger:double-heartbeat:game",
}


def test_the_hosted_variants_are_the_registry_in_order() -> None:
    assert list(VARIANTS.values()) == list(HOSTED)


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_variant_aggregate_keeps_its_stored_topic(variant_id: str) -> None:
    aggregate = game_class(variant_id)
    stored = STORED_TOPICS.get(variant_id, f"cardledger:{variant_id}:game")
    assert stored == aggregate.TOPIC
    assert aggregate.variant_id == variant_id
    assert game_class(variant_id) is aggregate  # one class per variant and process


def test_every_stored_topic_belongs_to_a_hosted_variant() -> None:
    assert set(STORED_TOPICS) <= set(VARIANTS)


def test_a_variant_is_registered_for_the_block_only() -> None:
    before = dict(VARIANTS), set(DEADLINE_EVENTS)
    with registered(HighCard()) as tiny:
        assert variant_by_id(tiny.id) is tiny
        assert list(VARIANTS)[-1] == tiny.id
        with pytest.raises(ValueError, match="hosted already"), registered(HighCard()):
            pass
        assert variant_by_id(tiny.id) is tiny  # the refused second one took nothing away
    with pytest.raises(RuntimeError), registered(HighCard()):
        raise RuntimeError("a test that fails inside the block")
    assert (dict(VARIANTS), set(DEADLINE_EVENTS)) == before
    with pytest.raises(RuleViolation):
        variant_by_id(HighCard.id)


def per_variant_tables() -> dict[str, Collection[str]]:
    """Everything kept per variant by hand, by where it is kept."""
    return {
        "tests/client.py SHORT_GAMES": SHORT_GAMES,
        "tests/golden.py SCRIPTS": SCRIPTS,
        "service/tools/bench/engine.py PAIRINGS": [p.variant for p in engine.PAIRINGS],
        "service/tools/bench/growth.py LIVE_TABLES": [t.variant for t in growth.LIVE_TABLES],
        "service/http/static/table/variants/<id>.js": [
            variant for variant in VARIANTS if (VIEWER_TABLES / f"{variant}.js").is_file()
        ],
    }


@pytest.mark.parametrize("where", sorted(per_variant_tables()))
def test_a_table_kept_per_variant_covers_the_registry(where: str) -> None:
    covered = set(per_variant_tables()[where])
    missing, unknown = sorted(set(VARIANTS) - covered), sorted(covered - set(VARIANTS))
    assert not missing, f"{where} has nothing for {', '.join(missing)}"
    assert not unknown, f"{where} has entries for no variant: {', '.join(unknown)}"


def test_first_games_of_a_variant_loaded_at_once_share_one_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Requests loading the first games of a variant together, each on its thread, all get its
    one class (two made at once raised "topic already registered": a 500 on a join). Making
    the class waits a moment for a second maker: one gets there only if nothing stops it."""

    class RaceCard(HighCard):
        id = "race-card"

    makers = threading.Barrier(2, timeout=1.0)
    make = aggregate._new_class

    def slow_to_make(variant: Variant[Any, Any]) -> type[aggregate.GameAggregate]:
        with contextlib.suppress(threading.BrokenBarrierError):
            makers.wait()
        return make(variant)

    monkeypatch.setattr(aggregate, "_new_class", slow_to_make)
    with registered(RaceCard()):
        made = at_once([functools.partial(game_class, RaceCard.id)] * 2)
    assert made[0] is made[1]

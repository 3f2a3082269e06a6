"""Reads routed to a standby: served there when it has what the client holds, else after a
bounded wait (counted in polls of a fake clock, never in wall-clock time) by the primary."""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import OperationalError
from prometheus_client import CollectorRegistry

from service.application.standby import POLL_SECONDS, Side, StandbyReads
from service.errors import GAME_NOT_FOUND
from service.http.caching import Validator, newest_version
from service.settings import Settings
from service.store.event_store import Store

GAME = uuid4()


class Copy:
    def __init__(self, version: int, where: str) -> None:
        self.version = version
        self.where = where


class LaggingGames:
    """A standby's copies: each look finds the next version of ``versions`` (the last repeats),
    or raises ``error``."""

    def __init__(self, where: str, *versions: int, error: Exception | None = None) -> None:
        self.where = where
        self.versions = list(versions)
        self.error = error
        self.looks = 0

    def fresh(self, game_id: UUID) -> Any:
        assert game_id == GAME
        self.looks += 1
        if self.error is not None:
            raise self.error
        version = self.versions.pop(0) if len(self.versions) > 1 else self.versions[0]
        return Copy(version, self.where)


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class Rows:
    def __init__(self, *positions: int) -> None:
        self.positions = list(positions)

    def position(self) -> int:
        return self.positions.pop(0) if len(self.positions) > 1 else self.positions[0]


def routed(standby: LaggingGames) -> tuple[StandbyReads, CollectorRegistry, FakeTime]:
    registry, time = CollectorRegistry(), FakeTime()
    store = cast(Store, None)  # the router hands stores back; it never calls them
    reads = StandbyReads(
        Side(LaggingGames("primary", 9), store),
        Side(standby, store),
        registry,
        wait=0.2,
        clock=time.clock,
        sleep=time.sleep,
    )
    return reads, registry, time


def counted(registry: CollectorRegistry, read: str, by: str) -> float:
    value = registry.get_sample_value("cardledger_standby_reads_total", {"read": read, "by": by})
    return value or 0.0


def test_a_standby_that_has_the_version_held_answers() -> None:
    reads, registry, time = routed(LaggingGames("standby", 7))
    aggregate, side = reads.game(GAME, holds=7)
    assert (aggregate.version, cast(Any, aggregate).where) == (7, "standby")
    assert side is reads.standby and time.now == 0.0
    assert counted(registry, "game", "standby") == 1


def test_a_standby_catching_up_within_the_wait_answers() -> None:
    standby = LaggingGames("standby", 5, 6, 8)
    reads, registry, time = routed(standby)
    aggregate, side = reads.game(GAME, holds=8)
    assert (aggregate.version, side) == (8, reads.standby)
    assert standby.looks == 3 and time.now == pytest.approx(2 * POLL_SECONDS)
    assert counted(registry, "game", "primary_behind") == 0


def test_a_standby_still_behind_after_the_wait_leaves_the_read_to_the_primary() -> None:
    standby = LaggingGames("standby", 5)
    reads, registry, time = routed(standby)
    aggregate, side = reads.game(GAME, holds=8)
    assert (cast(Any, aggregate).where, side) == ("primary", reads.primary)
    assert time.now == pytest.approx(0.2) and standby.looks == round(0.2 / POLL_SECONDS) + 1
    assert counted(registry, "game", "primary_behind") == 1
    assert counted(registry, "game", "standby") == 0


def test_a_failing_standby_or_one_without_the_game_leaves_it_to_the_primary() -> None:
    for error, by in (
        (OperationalError("standby down"), "primary_unavailable"),
        (GAME_NOT_FOUND("no such game"), "primary_behind"),
    ):
        standby = LaggingGames("standby", 0, error=error)
        reads, registry, _ = routed(standby)
        aggregate, side = reads.game(GAME, holds=1)
        assert (cast(Any, aggregate).where, side, standby.looks) == ("primary", reads.primary, 1)
        assert counted(registry, "game", by) == 1


def test_read_models_answer_from_the_standby_once_they_reach_the_primarys_position() -> None:
    reads, registry, _ = routed(LaggingGames("standby", 0))
    assert reads.read_model(Rows(40, 41, 42), 42, lambda: "standby page") == "standby page"
    assert reads.read_model(Rows(41), 42, lambda: "standby page") is None
    assert counted(registry, "read_models", "standby") == 1
    assert counted(registry, "read_models", "primary_behind") == 1

    def failing() -> str:
        raise OperationalError("standby lost mid-read")

    assert reads.read_model(Rows(42), 42, failing) is None
    assert counted(registry, "read_models", "primary_unavailable") == 1
    assert counted(registry, "read_models", "standby") == 1


def test_etags_of_a_game_name_its_version_and_the_newest_sent_back_counts() -> None:
    tag = Validator("head", over=False, version=12).etag
    assert tag.startswith('"12.')
    assert newest_version(f'{tag}, W/"3.abc", "xyz", "99999999999.x"') == 12
    assert newest_version(None) == newest_version("*") == 0
    assert Validator("head", over=False).etag.count(".") == 0


def test_a_read_url_asks_for_a_standby_and_never_makes_tables() -> None:
    url = "postgresql://app@10.0.0.2:5432,10.0.0.3:5433/ledger"
    settings = Settings(database_url=url, read_url=url)
    env = settings.read_env()
    assert env is not None
    assert env["POSTGRES_TARGET_SESSION_ATTRS"] == "prefer-standby"
    assert env["CREATE_TABLE"] == "n"
    assert settings.store_env()["POSTGRES_TARGET_SESSION_ATTRS"] == "read-write"
    assert Settings(database_url=url).read_env() is None
    with pytest.raises(ValueError, match="set both"):
        Settings(read_url=url).read_env()

"""The load generator behind `cardledger simulate` and the HTTP benchmark.

Bots play whole games over the REST API as any client would: a seat the game waits for reads its
view and sends one of its ``legal_commands`` exactly as listed (never ``leave`` or
``vote_cancel``), so a finished run also shows that a generic client can finish every variant.
``concurrency`` games run at once, each on one keep-alive connection of its own; one game's
failure abandons that game only.
"""

from __future__ import annotations

import asyncio
import random
from time import perf_counter
from typing import Any, TypeVar

import msgspec

from service.tools.http1 import Http1Connection, HttpError, Response
from service.tools.simulate import GameResult, LoadReport, progress_bar

REQUEST_TIMEOUT = 30.0
DEADLINE_POLL = 0.1  # seconds between looks while only the server can move (a deadline)
MAX_MOVES = 20_000  # a game still active after this many of our moves is stuck: abandon it
NOT_FOR_BOTS = frozenset({"leave", "vote_cancel"})

T = TypeVar("T")


class Public(msgspec.Struct):
    """The fields of a view or summary that every seat sees alike."""

    status: str
    to_act: list[int]
    scores: Any = None
    winners: Any = None


class SeatView(Public):
    legal_commands: list[dict[str, Any]] = msgspec.field(default_factory=list)


class CommandAnswer(msgspec.Struct):
    view: Public


class Registered(msgspec.Struct):
    token: str


class Created(msgspec.Struct):
    game_id: str


class Audit(msgspec.Struct):
    verdict: str


class Joined(msgspec.Struct):
    game_id: str


class Abandoned(Exception):
    """A game the bots cannot go on with: the server said no, or it never ends."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Problem(msgspec.Struct):
    code: str = "unknown"
    detail: str = ""


class BotTable:
    """One game played by bots on one connection, every request timed into the report."""

    def __init__(self, http: Http1Connection, report: LoadReport, rng: random.Random) -> None:
        self.http = http
        self.report = report
        self.rng = rng
        self.auth: list[dict[str, str]] = []
        self.game_id = ""
        self.commands = 0

    async def call(
        self, kind: str, method: str, path: str, body: Any = None, seat: int | None = None
    ) -> Response:
        payload = None if body is None else msgspec.json.encode(body)
        headers = None if seat is None else self.auth[seat]
        self.report.counts[kind] += 1
        started = perf_counter()
        answer = await self.http.request(method, path, payload, headers)
        self.report.latencies[kind].append(perf_counter() - started)
        return answer

    async def fetch(
        self,
        kind: str,
        method: str,
        path: str,
        shape: type[T],
        body: Any = None,
        seat: int | None = None,
    ) -> T:
        """A request that must succeed; anything but a 2xx abandons the game."""
        answer = await self.call(kind, method, path, body, seat)
        if answer.status >= 300:
            raise refused(method, path, answer)
        return msgspec.json.decode(answer.body, type=shape)

    async def open(self, variant: str, seats: int, options: dict[str, Any]) -> None:
        for seat in range(seats):
            player = await self.fetch(
                "other", "POST", "/players", Registered, {"name": f"bot {seat}"}
            )
            self.auth.append({"Authorization": f"Bearer {player.token}"})
        body = {"variant": variant, "seats": seats, "options": options}
        self.game_id = (await self.fetch("other", "POST", "/games", Created, body, seat=0)).game_id
        for seat in range(1, seats):
            await self.fetch("other", "POST", f"/games/{self.game_id}/join", Joined, seat=seat)

    async def summary(self) -> Public:
        return await self.fetch("other", "GET", f"/games/{self.game_id}", Public)

    async def play(self) -> Public:
        """Move until the game is over; the last public state seen."""
        public = await self.summary()
        for _ in range(MAX_MOVES):
            if public.status != "active":
                return public
            if not public.to_act:
                await asyncio.sleep(DEADLINE_POLL)
                public = await self.summary()
                continue
            public = await self.move(self.rng.choice(public.to_act))
        raise Abandoned("stuck", f"game {self.game_id} still active after {MAX_MOVES} moves")

    async def move(self, seat: int) -> Public:
        """One legal command from ``seat``; the public state after it."""
        path = f"/games/{self.game_id}"
        mine = await self.fetch("view", "GET", f"{path}/view", SeatView, seat=seat)
        choices = [c for c in mine.legal_commands if c["type"] not in NOT_FOR_BOTS]
        if mine.status != "active" or seat not in mine.to_act:
            return mine  # the game moved on meanwhile
        if not choices:
            await asyncio.sleep(DEADLINE_POLL)  # nothing for a bot to do yet: look again later
            return await self.summary()
        answer = await self.call(
            "command", "POST", f"{path}/commands", self.rng.choice(choices), seat
        )
        self.commands += 1
        if answer.status == 409:  # someone (a deadline) moved first: a normal outcome
            self.report.count_refusal(decode_problem(answer.body).code)
            return await self.summary()
        if answer.status >= 300:
            raise refused("POST", f"{path}/commands", answer)
        return msgspec.json.decode(answer.body, type=CommandAnswer).view

    async def verdict(self) -> str:
        return (await self.fetch("other", "GET", f"/games/{self.game_id}/audit", Audit)).verdict


def decode_problem(body: bytes) -> Problem:
    try:
        return msgspec.json.decode(body, type=Problem)
    except msgspec.DecodeError:
        return Problem(detail=body[:200].decode("utf-8", "replace"))


def refused(method: str, path: str, answer: Response) -> Abandoned:
    problem = decode_problem(answer.body)
    message = f"{method} {path} answered {answer.status} {problem.code}: {problem.detail}"
    return Abandoned(f"http_{answer.status}", message)


async def play_one_game(
    table: BotTable, index: int, variant: str, seats: int, options: dict[str, Any], audit: bool
) -> GameResult:
    result = GameResult(index=index, game_id=None, status="abandoned")
    try:
        await table.open(variant, seats, options)
        result.game_id = table.game_id
        final = await table.play()
        result.status, result.scores, result.winners = final.status, final.scores, final.winners
        if final.status == "finished" and audit:
            result.audit = await table.verdict()
    except (HttpError, Abandoned) as error:
        table.report.count_error(error.kind, str(error))
        result.error = str(error)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        table.report.count_error("bad_response", f"unexpected answer: {error}")
        result.error = f"unexpected answer: {error}"
    except Exception as error:  # a bug of ours must not cost the other games their results
        table.report.count_error(type(error).__name__, repr(error))
        result.error = repr(error)
    result.commands = table.commands
    return result


async def play_games(
    url: str,
    *,
    variant: str,
    seats: int,
    games: int,
    concurrency: int,
    options: dict[str, Any],
    seed: int,
    audit: bool,
    progress: bool,
    report: LoadReport | None = None,
) -> LoadReport:
    """Play ``games`` games, ``concurrency`` at a time; every request timed, every game reported.

    Game ``i``'s bots draw from ``Random(f"{seed}:{i}")``, whichever worker plays it. If the run
    is interrupted, ``report`` (when given) still holds every game finished until then.
    """
    report = report if report is not None else LoadReport()
    pending = iter(range(games))  # shared: each worker takes the next game when it is free

    async def worker() -> None:
        http = Http1Connection(url, timeout=REQUEST_TIMEOUT)
        try:
            for index in pending:
                table = BotTable(http, report, random.Random(f"{seed}:{index}"))
                report.games.append(
                    await play_one_game(table, index, variant, seats, options, audit)
                )
        finally:
            await http.aclose()

    started = perf_counter()
    try:
        async with progress_bar(report, games, enabled=progress):
            await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, games)))))
    finally:
        report.wall_seconds = perf_counter() - started
        report.games.sort(key=lambda game: game.index)
    return report


async def check_reachable(url: str) -> None:
    """Raise an ``HttpError`` naming ``url`` unless its ``GET /health`` answers 200."""
    http = Http1Connection(url, timeout=REQUEST_TIMEOUT)
    try:
        answer = await http.request("GET", "/health")
    finally:
        await http.aclose()
    if answer.status != 200:
        raise HttpError(f"http_{answer.status}", f"{url}/health answered {answer.status}")


async def hammer(
    url: str, *, method: str, path: str, body: bytes | None, connections: int, requests: int
) -> LoadReport:
    """The same request ``requests`` times over ``connections`` keep-alive connections.

    Timed as kind "other"; a non-2xx answer counts as an error ``http_<status>``.
    """
    report = LoadReport()
    remaining = requests

    async def worker() -> None:
        nonlocal remaining
        http = Http1Connection(url, timeout=REQUEST_TIMEOUT)
        try:
            while remaining > 0:
                remaining -= 1
                report.counts["other"] += 1
                started = perf_counter()
                try:
                    answer = await http.request(method, path, body)
                except HttpError as error:
                    report.count_error(error.kind, str(error))
                    continue
                report.latencies["other"].append(perf_counter() - started)
                if answer.status >= 300:
                    report.count_error(f"http_{answer.status}", str(refused(method, path, answer)))
        finally:
            await http.aclose()

    started = perf_counter()
    await asyncio.gather(*(worker() for _ in range(max(1, connections))))
    report.wall_seconds = perf_counter() - started
    return report


__all__ = ["GameResult", "LoadReport", "hammer", "play_games"]

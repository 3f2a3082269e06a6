"""`cardledger simulate` against a real server, and the HTTP/1.1 client against tiny fake ones."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from service.settings import Settings
from service.tools.cli import main
from service.tools.http1 import Http1Connection, HttpError
from service.tools.load import hammer, play_games
from tests.support.servers import free_port, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("simulate")
    with running_server(Settings(data_dir=data_dir), data_dir) as base:
        yield base


def simulate(url: str, *extra: str) -> list[str]:
    return ["simulate", "--url", url, "--variant", "open-hand", "--seats", "2", *extra]


def test_games_played_concurrently_are_summed_up_and_written_as_json_lines(
    server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "games.jsonl"
    arguments = simulate(server, "--games", "6", "--concurrency", "3", "--output", str(results))
    assert main(arguments) == 0
    out, err = capsys.readouterr()
    assert re.search(r"^games\s+6 finished, 0 abandoned \(of 6\)$", out, re.MULTILINE), out
    commands = re.search(r"^commands\s+(\d+) sent", out, re.MULTILINE)
    assert commands and int(commands.group(1)) > 0, out
    assert re.search(r"^audits\s+6 valid, 0 invalid$", out, re.MULTILINE), out
    assert re.search(r"^errors\s+none$", out, re.MULTILINE), out
    assert "games 6/6" in err  # the progress, as plain lines: stderr is no terminal here
    games = [json.loads(line) for line in results.read_text().splitlines()]
    assert len({game["game_id"] for game in games}) == 6
    for game in games:
        assert game["status"] == "finished" and game["audit"] == "valid" and game["error"] is None
        assert sum(game["scores"]) == 5 and game["winners"]  # five tricks won in all
    assert sum(game["commands"] for game in games) == int(commands.group(1))


def test_a_game_the_server_refuses_is_abandoned_with_its_error_and_the_run_goes_on(
    server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "games.jsonl"
    arguments = [*simulate(server, "--games", "2", "--output", str(results)), "--seats", "99"]
    assert main(arguments) == 1
    out = capsys.readouterr().out
    assert re.search(r"^games\s+0 finished, 2 abandoned \(of 2\)$", out, re.MULTILINE), out
    games = [json.loads(line) for line in results.read_text().splitlines()]
    assert [game["status"] for game in games] == ["abandoned", "abandoned"]
    assert all("POST /games answered 4" in game["error"] for game in games)


def test_a_dead_url_is_named_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    assert main(simulate(dead, "--games", "2")) != 0
    out, err = capsys.readouterr()
    assert dead in err and "connection refused" in err
    assert "Traceback" not in out + err


def test_hammer_sends_the_same_request_over_keep_alive_connections(server: str) -> None:
    report = asyncio.run(
        hammer(server, method="GET", path="/health", body=None, connections=4, requests=40)
    )
    assert report.counts["other"] == 40 and len(report.latencies["other"]) == 40
    assert report.errors == {} and report.requests_per_second() > 0


# The HTTP/1.1 client against fake servers: each handler gets one connection's streams.
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> tuple[str, bytes]:
    """The request line and body of the next request on a connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    found = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
    body = await reader.readexactly(int(found.group(1))) if found else b""
    return head.split(b"\r\n", 1)[0].decode(), body


def answer(body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


async def with_fake_server(handler: Handler, client: Callable[[str], Awaitable[None]]) -> int:
    """Run ``client`` against a server calling ``handler`` per connection; connections opened."""
    connections = 0

    async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            await handler(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    fake = await asyncio.start_server(on_connection, "127.0.0.1", 0)
    port = fake.sockets[0].getsockname()[1]
    async with fake:
        await client(f"http://127.0.0.1:{port}")
    return connections


def json_answer(status: int, value: object) -> bytes:
    body = json.dumps(value).encode()
    return b"HTTP/1.1 %d X\r\nContent-Length: %d\r\n\r\n%s" % (status, len(body), body)


def test_a_refusal_is_counted_and_a_server_error_abandons_only_its_own_game() -> None:
    """A fake service of two one-move games: game 0's first command comes too late (409),
    game 1's command meets a bug (500)."""
    created: list[str] = []
    finished: set[str] = set()
    refused: set[str] = set()
    sent: list[dict[str, object]] = []

    async def fake_service(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            line, body = await read_request(reader)
            path = line.split(" ")[1]
            game = path.split("/")[2] if path.count("/") >= 2 else ""
            public = {"status": "finished" if game in finished else "active", "to_act": [0]}
            if path == "/players":
                reply = json_answer(201, {"token": "t"})
            elif path == "/games":
                created.append(f"g{len(created)}")
                reply = json_answer(201, {"game_id": created[-1]})
            elif path.endswith("/join"):
                reply = json_answer(200, {"game_id": game})
            elif path.endswith("/view"):
                legal = [{"type": "play", "card": "QS"}, {"type": "leave"}]
                reply = json_answer(200, {**public, "legal_commands": legal})
            elif path.endswith("/commands"):
                sent.append(json.loads(body))
                if game == "g1":
                    reply = json_answer(500, {"code": "internal_error", "detail": "a bug"})
                elif game not in refused:
                    refused.add(game)
                    reply = json_answer(409, {"code": "deadline_passed", "detail": "too late"})
                else:
                    finished.add(game)
                    view = {"status": "finished", "to_act": [], "scores": [1, 0], "winners": [0]}
                    reply = json_answer(200, {"view": view})
            elif path.endswith("/audit"):
                reply = json_answer(200, {"verdict": "valid"})
            else:
                reply = json_answer(200, public)
            writer.write(reply)
            await writer.drain()

    async def client(url: str) -> None:
        report = await play_games(
            url,
            variant="open-hand",
            seats=1,
            games=2,
            concurrency=2,
            options={},
            seed=1,
            audit=True,
            progress=False,
        )
        first, second = report.games
        assert first.status == "finished" and first.scores == [1, 0] and first.audit == "valid"
        assert first.commands == 2  # refused, then played again after a fresh look
        assert second.status == "abandoned" and "500 internal_error" in (second.error or "")
        assert report.refusals == {"deadline_passed": 1} and report.errors == {"http_500": 1}
        assert report.counts["command"] == 3 and report.commands_per_second() > 0

    asyncio.run(with_fake_server(fake_service, client))
    assert sent == [{"type": "play", "card": "QS"}] * 3  # never "leave"


def test_chunked_answers_are_joined_and_the_connection_kept() -> None:
    async def chunked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            line, body = await read_request(reader)
            writer.write(
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"3;note=first\r\nyou\r\n" + b"%x\r\n%s\r\n" % (len(line) + 1, b" " + line.encode())
            )
            writer.write(
                b"%x\r\n%s\r\n0\r\nX-Trailer: ignored\r\n\r\n" % (len(body) + 1, b"+" + body)
            )
            await writer.drain()

    async def client(url: str) -> None:
        http = Http1Connection(url, timeout=5)
        first = await http.request("POST", "/games", b'{"seats":2}', {"Authorization": "Bearer t"})
        second = await http.request("GET", "/health")
        await http.aclose()
        assert first.status == 200
        assert first.body == b'you POST /games HTTP/1.1+{"seats":2}'
        assert second.body == b"you GET /health HTTP/1.1+"

    assert asyncio.run(with_fake_server(chunked, client)) == 1


def test_a_keep_alive_connection_the_server_closed_is_reopened_once() -> None:
    opened = 0

    async def one_answer_per_connection(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        nonlocal opened
        opened += 1
        await read_request(reader)
        writer.write(answer(b"answer %d" % opened))
        await writer.drain()
        if opened == 1:
            await read_request(reader)  # the next request on it is dropped unanswered

    async def client(url: str) -> None:
        http = Http1Connection(url, timeout=5)
        assert (await http.request("GET", "/a")).body == b"answer 1"
        # closed with this request unread: sent once more on a new connection
        assert (await http.request("POST", "/b", b"{}")).body == b"answer 2"
        await asyncio.sleep(0.05)  # connection 2 closed while idle, as a keep-alive timeout
        assert (await http.request("GET", "/c")).body == b"answer 3"
        await http.aclose()

    assert asyncio.run(with_fake_server(one_answer_per_connection, client)) == 3


def test_a_fresh_connection_closed_without_an_answer_is_an_error_not_a_retry_loop() -> None:
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)

    async def client(url: str) -> None:
        with pytest.raises(HttpError) as raised:
            await Http1Connection(url, timeout=5).request("GET", "/health")
        assert raised.value.kind == "connection_lost"

    assert asyncio.run(with_fake_server(hang_up, client)) == 1


def test_a_server_that_never_answers_times_out() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await reader.read()  # until the client gives up

    async def client(url: str) -> None:
        with pytest.raises(HttpError) as raised:
            await Http1Connection(url, timeout=0.2).request("GET", "/health")
        assert raised.value.kind == "timeout" and url in str(raised.value)

    asyncio.run(with_fake_server(silent, client))

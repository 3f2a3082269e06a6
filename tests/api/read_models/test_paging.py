"""Paging where lists grow: the lobby, a player's games and the leaderboard by opaque cursor,
events and replay by version. Every paged answer names its next page in a Link header, and the
last page names none; rows added between pages never shift the pages that follow."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from domain.variants import VARIANTS
from projections.lobby import Result
from tests.support.client import Api, next_page

# (wins, points) per player: ties of three and of two, each across a boundary of 2-row pages.
TIED = {"a": (3, 40), "b": (2, 30), "c": (2, 30), "d": (2, 30), "e": (1, 10), "f": (0, 0)}
TIED |= {"g": (0, 0)}


def ids(pages: list[Any]) -> list[list[str]]:
    return [[entry["game_id"] for entry in page.json()] for page in pages]


def ranks(pages: list[Any], variant: str = "open-hand") -> list[list[tuple[str, int]]]:
    """Each page's (player, rank) rows of the variant's board."""
    boards = [next(b for b in page.json() if b["variant"] == variant) for page in pages]
    return [[(row["player_id"], row["rank"]) for row in board["rows"]] for board in boards]


def counted(api: Api, rows: dict[str, tuple[int, int]], variant: str = "open-hand") -> None:
    """Finished games counted into the leaderboard as the read models count them: per player,
    ``wins`` won games and one lost game with all its points (so equal rows have equal games)."""
    results = [
        Result(variant=variant, player_id=player, name=player, won=won, points=0 if won else points)
        for player, (wins, points) in rows.items()
        for won in [True] * wins + [False]
    ]
    tables = api.ledger.read_models.tables
    api.ledger.store.transact(lambda cursor: tables.count(cursor, results))


def cursor_of(page: Any) -> str:
    """The cursor in a page's next link (a test looks inside; a client never needs to)."""
    url = next_page(page)
    assert url is not None, page.text
    return parse_qs(urlsplit(url).query)["cursor"][0]


# --- the lists paged by cursor -----------------------------------------------------------------


def test_the_lobby_pages_without_repeats_or_gaps_while_games_are_created(api: Api) -> None:
    api.register(2)
    created = [api.create(2) for _ in range(7)]
    newer: list[str] = []
    pages = api.pages("/games?limit=3", between=lambda: newer.append(api.create(2)))
    # By offset, each new game would have pushed the last game of a page onto the next one.
    assert ids(pages) == [created[6:3:-1], created[3:0:-1], created[:1]]
    assert ids(api.pages("/games")) == [[*reversed(newer), *reversed(created)]]


def test_a_players_games_page_without_repeats_or_gaps_while_they_sit_at_more(api: Api) -> None:
    api.register(2)
    late = api.create(2)  # the oldest game: player 1 sits down at it during the walk
    mine = [api.started(2) for _ in range(4)]
    newer: list[str] = []

    def sit_at_more() -> None:
        newer.append(api.started(2))  # newer than every page so far: on none of the next ones
        if api.view(late)["status"] == "waiting":  # older than every page so far: on the last
            assert api.client.post(f"/games/{late}/join", headers=api.auth(1)).status_code == 200

    pages = api.pages("/players/me/games?limit=2", api.auth(1), between=sit_at_more)
    assert ids(pages) == [mine[:1:-1], mine[1::-1], [late]]
    everything = api.pages("/players/me/games", api.auth(1))
    assert ids(everything) == [[*reversed(newer), *reversed(mine), late]]


def test_a_player_lists_the_games_they_sit_at(api: Api) -> None:
    mine = [api.started(2) for _ in range(3)]
    api.register(1)
    other = api.client.post(
        "/games", json={"variant": "open-hand", "seats": 2}, headers=api.auth(2)
    ).json()["game_id"]
    listed = api.client.get("/players/me/games", headers=api.auth(1))
    assert [entry["game_id"] for entry in listed.json()] == list(reversed(mine))
    assert next_page(listed) is None
    pages = api.pages("/players/me/games?limit=2", api.auth(1))
    assert ids(pages) == [[mine[2], mine[1]], [mine[0]]]
    assert other not in {e["game_id"] for e in listed.json()}
    waiting = api.client.get("/players/me/games", params={"status": "waiting"}, headers=api.auth(2))
    assert [e["game_id"] for e in waiting.json()] == [other]
    assert api.client.get("/players/me/games").status_code == 401


def test_leaderboard_ranks_on_every_page_are_the_whole_boards_ties_included(api: Api) -> None:
    counted(api, TIED)
    pages = api.pages("/leaderboard?variant=open-hand&limit=2")
    expected = [[("a", 1), ("b", 2)], [("c", 2), ("d", 2)], [("e", 5), ("f", 6)], [("g", 6)]]
    assert ranks(pages) == expected
    whole = api.client.get("/leaderboard", params={"variant": "open-hand"}).json()[0]["rows"]
    assert [row for page in pages for row in page.json()[0]["rows"]] == whole


def test_the_leaderboard_pages_without_repeats_or_gaps_while_players_are_counted_in(
    api: Api,
) -> None:
    counted(api, TIED)
    # The best of all (ahead of every later page: on none, but each rank after it moves down
    # one), one more tied at (2, 30) sorting after "d", and a new last one.
    newcomers = iter([{"best": (9, 90)}, {"tied": (2, 30)}, {"last": (0, -5)}])
    pages = api.pages(
        "/leaderboard?variant=open-hand&limit=2",
        between=lambda: counted(api, next(newcomers, {})),
    )
    assert ranks(pages) == [
        [("a", 1), ("b", 2)],
        [("c", 3), ("d", 3)],
        [("tied", 3), ("e", 7)],
        [("f", 8), ("g", 8)],
        [("last", 10)],
    ]
    walked = [player for page in ranks(pages) for player, _ in page]
    assert [player for player in walked if player in TIED] == list(TIED)  # each once, in order
    whole = api.client.get("/leaderboard", params={"variant": "open-hand"}).json()[0]["rows"]
    now = {row["player_id"]: row["rank"] for row in whole}
    # From the third page on, every newcomer ahead of the page was in: the ranks are today's.
    assert all(now[player] == rank for page in ranks(pages)[2:] for player, rank in page)


def test_every_variants_board_pages_at_once_until_each_is_listed_to_its_end(api: Api) -> None:
    counted(api, {"a": (2, 0), "b": (1, 0), "c": (0, 0)})
    counted(api, {"z": (1, 0)}, variant="heartbeat")
    pages = api.pages("/leaderboard?limit=1")
    boards = [{b["variant"]: [r["player_id"] for r in b["rows"]] for b in p.json()} for p in pages]
    assert [board["open-hand"] for board in boards] == [["a"], ["b"], ["c"]]
    assert [board["heartbeat"] for board in boards] == [["z"], [], []]  # listed to its end
    assert all(list(board) == list(VARIANTS) for board in boards)  # every page: every board


def test_the_leaderboard_pages_with_ranks_counted_from_the_top(api: Api) -> None:
    for _ in range(3):
        game_id = api.started(3)
        api.play_to_end(game_id)
    whole = api.client.get("/leaderboard", params={"variant": "open-hand"}).json()[0]["rows"]
    assert len(whole) == 3
    pages = api.pages("/leaderboard?variant=open-hand&limit=1")
    assert [page.json()[0]["rows"] for page in pages] == [[row] for row in whole]


# --- events and replay, paged by version --------------------------------------------------------


def test_events_and_replay_page_by_version_while_the_game_goes_on(api: Api) -> None:
    game_id = api.started(4)

    def plays(count: int) -> Callable[[], None]:
        """Between pages the game goes on, the first ``count`` times."""
        left = iter(range(count))

        def play() -> None:
            if next(left, None) is not None:
                api.play_once(game_id)

        return play

    events = api.pages(f"/games/{game_id}/events?limit=3", api.auth(0), between=plays(3))
    head = api.view(game_id)["version"]
    versions = [event["version"] for page in events for event in page.json()["events"]]
    assert versions == list(range(1, head + 1))
    assert [page.json()["next_after"] < page.json()["head_version"] for page in events] == [
        *[True] * (len(events) - 1),
        False,
    ]
    replay = f"/games/{game_id}/replay?perspective=seat:0&limit=2"
    frames = api.pages(replay, api.auth(0), between=plays(3))
    head = api.view(game_id)["version"]
    assert [f["version"] for page in frames for f in page.json()["frames"]] == [*range(1, head + 1)]
    ranged = api.pages(f"/games/{game_id}/replay?from=2&to=6&limit=2")  # the game goes on past 6
    assert [[f["version"] for f in page.json()["frames"]] for page in ranged] == [
        [2, 3],
        [4, 5],
        [6],
    ]
    assert next_page(ranged[0]) == f"/games/{game_id}/replay?from=4&to=6&limit=2"
    beyond = api.client.get(f"/games/{game_id}/events", params={"after": head + 5})
    assert beyond.status_code == 200 and next_page(beyond) is None


def test_a_page_revalidates_and_its_link_comes_with_the_200(api: Api) -> None:
    game_id = api.started(2)
    path = f"/games/{game_id}/events?limit=1"
    first = api.client.get(path, headers=api.auth(0))
    assert next_page(first) == f"/games/{game_id}/events?limit=1&after=1"
    again = api.client.get(path, headers={**api.auth(0), "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.content == b""  # the client keeps the 200's Link
    moved = api.client.get(next_page(first) or "", headers=api.auth(0))
    assert moved.status_code == 200 and moved.json()["events"][0]["version"] == 2


# --- cursors are the service's own ----------------------------------------------------------------


def flip(text: str) -> str:
    """The text with its third character changed."""
    return text[:2] + ("B" if text[2] == "A" else "A") + text[3:]


def test_bad_cursors_are_refused_and_change_nothing(api: Api) -> None:
    for _ in range(2):
        api.started(2)
        api.create(2)
    counted(api, {"a": (1, 0), "b": (0, 0)})
    lobby = cursor_of(api.client.get("/games?limit=1"))
    waiting = cursor_of(api.client.get("/games?status=waiting&limit=1&variant=open-hand"))
    board = cursor_of(api.client.get("/leaderboard?variant=open-hand&limit=1"))
    theirs = cursor_of(api.client.get("/players/me/games?limit=1", headers=api.auth(1)))
    place, mac = lobby.split(".")
    forged = base64.urlsafe_b64encode(b'["2999-01-01T00:00:00+00:00","z"]').decode().rstrip("=")
    before = [api.client.get(path).json() for path in ("/games", "/leaderboard")]
    refusals: list[tuple[str, str, int | None]] = [  # path, cursor, whose token
        *[("/games", bad, None) for bad in ("nope", "", ".", "é", lobby[:-1], lobby + "=")],
        *[("/games", bad, None) for bad in (f"{flip(place)}.{mac}", f"{place}.{flip(mac)}")],
        ("/games", f"{forged}.{mac}", None),
        ("/games?status=waiting", lobby, None),  # made for other filters
        ("/games?status=waiting", waiting, None),  # ... the variant's missing now
        ("/games?status=active&variant=open-hand", waiting, None),
        ("/games", board, None),  # made for another list
        ("/leaderboard?variant=open-hand", lobby, None),
        ("/leaderboard", board, None),  # made for one variant's board, not every one
        ("/leaderboard?variant=heartbeat", board, None),
        ("/players/me/games", lobby, 1),
        ("/players/me/games", theirs, 0),  # made for another player
    ]
    for path, cursor, seat in refusals:
        headers = api.auth(seat) if seat is not None else {}
        query = urlencode({"cursor": cursor})
        answer = api.client.get(f"{path}{'&' if '?' in path else '?'}{query}", headers=headers)
        assert answer.status_code == 422, (path, cursor, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["code"] == "invalid_cursor", (path, cursor)
        assert "Link" not in answer.headers
    assert [api.client.get(path).json() for path in ("/games", "/leaderboard")] == before
    following = api.client.get("/games", params={"cursor": lobby, "limit": 1})
    assert following.status_code == 200 and len(following.json()) == 1  # a good one still reads


def test_replay_frames_up_to_a_version_and_the_join_says_its_seat(api: Api) -> None:
    api.register(3)
    game_id = api.create(3)
    joined = api.client.post(f"/games/{game_id}/join", headers=api.auth(1))
    assert joined.json()["seat"] == 1
    frames = api.client.get(
        f"/games/{game_id}/replay", params={"from": 1, "to": 2}, headers=api.auth(0)
    )
    assert [frame["version"] for frame in frames.json()["frames"]] == [1, 2]
    assert next_page(frames) is None  # the range asked for is done, though the game goes on
    wrong = api.client.get(f"/games/{game_id}/replay", params={"from": 3, "to": 2})
    assert (wrong.status_code, wrong.json()["code"]) == (422, "invalid_range")

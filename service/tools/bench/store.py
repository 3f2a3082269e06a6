"""Section "store": the write path without HTTP, beside the library's own loop and raw inserts.

Our path is the application's: each command decided on the process's copy of its game and
saved in one insert (2-seat Open Hand games played to the end by threads of their own, every
create, join and play counted). The library's loop gets (folds) and saves one aggregate per
command with its stock recorder; raw inserts are what the database does with no application.
"""

from __future__ import annotations

import threading
import uuid

from service.application import Cardledger
from service.auth import Principal
from service.settings import Settings
from service.tools.bench.figures import Figure
from service.tools.bench.stores import (
    STORES,
    describe,
    fresh_store,
    in_threads,
    library_loop,
    postgres_available,
    raw_inserts,
)

WRITERS = (1, 8)


def our_commands(settings: Settings, threads: int, seconds: float) -> float:
    """Commands per second through the application, no HTTP and no background work."""
    ledger = Cardledger(settings)
    try:
        seats = [
            [
                Principal(player_id=p.player_id, name=p.name)
                for p in (ledger.register_player(f"A{i}"), ledger.register_player(f"B{i}"))
            ]
            for i in range(threads)
        ]

        def work(index: int, stop: threading.Event) -> int:
            who, done = seats[index], 0
            while not stop.is_set():
                created = ledger.create_game(
                    who[0],
                    variant="open-hand",
                    seats=2,
                    options=None,
                    client_seed="",
                    idempotency=None,
                )
                game_id = uuid.UUID(created.game_id)
                ledger.join_game(who[1], game_id, client_seed="", idempotency=None)
                done += 2
                while (known := ledger.games.cached(game_id)).state.status == "active":
                    rules, table = known.state.rules, known.state.table
                    seat = rules.to_act(table)[0]
                    play = rules.legal_commands(table, seat)[0]
                    body = {"type": "play", "card": play.card}  # type: ignore[attr-defined]
                    ledger.send_command(who[seat], game_id, body, idempotency=None, if_match=None)
                    done += 1
            return done

        return in_threads(threads, seconds, work)
    finally:
        ledger.close()


def figures(quick: bool) -> list[Figure]:
    seconds = 1.0 if quick else 6.0
    found: list[Figure] = []
    for kind in STORES:
        if kind == "postgres" and not postgres_available():
            continue
        for writers in WRITERS:
            with fresh_store(kind) as settings:
                ours = our_commands(settings, writers, seconds)
            with fresh_store(kind) as settings:
                library = library_loop(settings, writers, seconds)
            with fresh_store(kind) as settings:
                raw, how = raw_inserts(settings, writers, seconds)
            store = describe(settings)
            found.append(
                Figure(
                    section="store",
                    name=f"{store}: our write path, {writers} writer(s), no HTTP",
                    value=ours,
                    unit="cmd/s",
                    baseline=f"the library's plain get+save loop, {writers} thread(s)",
                    baseline_value=library,
                )
            )
            found.append(
                Figure(
                    section="store",
                    name=f"{store}: our write path, {writers} writer(s), no HTTP",
                    value=ours,
                    unit="cmd/s",
                    baseline=f"raw single-row insert transactions ({how}), {writers} client(s)",
                    baseline_value=raw,
                )
            )
    return found

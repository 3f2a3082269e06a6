"""Section "store": the write path without HTTP, beside the library's own loop and raw inserts.

Our path is the application's: each command decided on the process's copy of its game and
saved in one insert (2-seat Open Hand games played to the end by threads of their own, every
create, join and play counted). The library's loop gets (folds) and saves one aggregate per
command with its stock recorder; raw inserts are what the database does with no application.
"""

from __future__ import annotations

import threading

from service.application import Cardledger
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
from service.tools.local_games import keep_playing, register

WRITERS = (1, 8)
SEQUENCER_GAP = 0.02  # seconds: the sequencer's pause between runs in the API process


def our_commands(
    settings: Settings, threads: int, seconds: float, *, sequencing: bool = False
) -> float:
    """Commands per second through the application, no HTTP and no background work (but the
    witnessed log's sequencer if ``sequencing``: a thread beside the writers, as it runs in the
    API process)."""
    ledger = Cardledger(settings)
    stop = threading.Event()

    def sequence() -> None:
        while not stop.wait(SEQUENCER_GAP):
            ledger.log.sequencer.catch_up()

    sequencer = threading.Thread(target=sequence, name="bench-sequencer")
    if sequencing:
        sequencer.start()
    try:
        players = [register(ledger, 2) for _ in range(threads)]
        return in_threads(
            threads, seconds, lambda index, stop: keep_playing(ledger, players[index], stop)
        )
    finally:
        stop.set()
        if sequencing:
            sequencer.join()
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

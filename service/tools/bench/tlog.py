"""Section "tlog": what the witnessed log costs and takes (issue 25's bounds: the command path
keeps at least 90% of its throughput with the sequencer running, and the sequencer takes at
least 1,000 entries/s).

Commands are the store section's (2-seat Open Hand games played to the end by threads of their
own, no HTTP), measured in the same run on fresh stores without and with a sequencer following
the log in a thread beside them, as it does in the API process. The two alternate over several
rounds and each figure is the median of its rounds: on a machine whose other load comes and goes,
one run of each gave ratios from 0.68 to 1.15. Entries/s: games created first,
then one sequencer appends every creation from an empty log and signs its checkpoints.
"""

from __future__ import annotations

import statistics
import threading
import time

from service.application import Cardledger
from service.settings import Settings
from service.tools.bench.figures import Figure
from service.tools.bench.store import our_commands
from service.tools.bench.stores import STORES, describe, fresh_store, postgres_available
from service.tools.local_games import register

WRITERS = 8
BOUND = 1000.0  # entries/s the issue asks the log to take


def entries_per_second(settings: Settings, games: int) -> float:
    """Games created (one entry each) by 8 threads, then the time one sequencer takes to
    append them all from an empty log."""
    ledger = Cardledger(settings)
    try:
        creators = [register(ledger, 1)[0] for _ in range(WRITERS)]

        def create(index: int) -> None:
            for _ in range(games // WRITERS):
                ledger.commands.create(
                    creators[index],
                    variant="open-hand",
                    seats=2,
                    options=None,
                    client_seed="",
                    idempotency=None,
                )

        threads = [threading.Thread(target=create, args=(n,)) for n in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        started = time.perf_counter()
        ledger.log.sequencer.catch_up()
        elapsed = time.perf_counter() - started
        return ledger.log.tables.sequenced().size / elapsed
    finally:
        ledger.close()


def figures(quick: bool) -> list[Figure]:
    seconds = 1.0 if quick else 4.0
    rounds = 1 if quick else 5
    games = 800 if quick else 8000
    found: list[Figure] = []
    for kind in STORES:
        if kind == "postgres" and not postgres_available():
            continue
        runs: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(rounds):
            for sequencing in (False, True):
                with fresh_store(kind) as settings:
                    commands = our_commands(settings, WRITERS, seconds, sequencing=sequencing)
                runs[sequencing].append(commands)
        without, with_log = statistics.median(runs[False]), statistics.median(runs[True])
        with fresh_store(kind) as settings:
            entries = entries_per_second(settings, games)
        store = describe(settings)
        found.append(
            Figure(
                section="tlog",
                name=f"{store}: commands with the log's sequencer running, {WRITERS} writers"
                f" (median of {rounds} alternating rounds)",
                value=with_log,
                unit="cmd/s",
                baseline="the same without the sequencer (bound: ratio ≥ 0.90)",
                baseline_value=without,
            )
        )
        found.append(
            Figure(
                section="tlog",
                name=f"{store}: entries the sequencer appends and signs, {games} games waiting",
                value=entries,
                unit="entries/s",
                baseline="the issue's bound",
                baseline_value=BOUND,
            )
        )
    return found

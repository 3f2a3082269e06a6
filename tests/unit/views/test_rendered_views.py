"""Views rendered once per game, version and perspective: a kept view is the one a fresh
render gives, until its deadline passes; a view with an expiry pending is never kept."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from uuid import UUID

from domain.perspective import Perspective
from service.application import Cardledger
from service.application.queries import view_of
from service.settings import NO_LIMITS, Settings

ATTEMPTS = 40  # each new game opens on Pressure with probability 1/4


def test_a_view_is_reused_until_its_deadline_and_never_kept_with_an_expiry_pending(
    tmp_path: Path,
) -> None:
    ledger = Cardledger(Settings(data_dir=tmp_path, limits=NO_LIMITS))
    try:
        ann, ben = (ledger.players.authenticate(ledger.players.register(n).token) for n in "AB")
        options = {"tempo_deck": 12, "pressure_seconds": 5}
        for _ in range(ATTEMPTS):
            made = ledger.commands.create(
                ann,
                variant="heartbeat",
                seats=2,
                options=options,
                client_seed="a",
                idempotency=None,
            )
            joined = ledger.commands.join(
                ben, UUID(made.game_id), client_seed="b", idempotency=None
            )
            if joined.view.deadline is not None:
                break
        deadline = joined.view.deadline
        assert deadline is not None, "no game opened on a Pressure round"
        game = ledger.queries.load(UUID(made.game_id))
        seat = Perspective(seat=0)
        views = ledger.queries.views
        before = deadline - timedelta(seconds=1)

        kept = views.view(game, seat, before)
        assert views.view(game, seat, before - timedelta(seconds=2)) is kept
        assert kept == view_of(game, seat, before) and not kept.expiry_pending

        pending = views.view(game, seat, deadline)
        assert pending == view_of(game, seat, deadline) and pending.expiry_pending
        assert views.view(game, seat, deadline) is not pending  # not kept
        assert views.view(game, seat, before) is kept  # still right before the deadline
        assert views.view(game, Perspective(seat=1), before).seat == 1  # per perspective
    finally:
        ledger.close()

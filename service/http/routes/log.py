"""The witnessed log (docs/transparency.md): its latest signed checkpoint, C2SP tiles and entry
bundles, its key, a game's receipt from it, and consistency proofs between two sizes."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from projections.transparency.tiles import WIDTH
from service.application import Cardledger
from service.application.log.reads import ConsistencyProof, GameLog
from service.errors import (
    GAME_NOT_FOUND,
    INVALID_TILE_PATH,
    INVALID_TREE_SIZE,
    NO_CHECKPOINT_YET,
    TILE_NOT_FOUND,
)
from service.http.caching import IMMUTABLE
from service.http.contract import Token, declare
from service.http.routes.off_loop import off_loop

TEXT = "text/plain; charset=utf-8"
TILES = "application/octet-stream"
FRESH = "no-cache"  # the latest checkpoint and partial tiles change as the log grows
MAX_LEVEL = 63 // 8  # tile levels a tree of 2^63 entries can have
MAX_INDEX = 1 << 55


def tile_address(path: str) -> tuple[int | None, int, int]:
    """(level or None for entries, index, width) of a C2SP tile path after ``tile/``:
    ``<L>/<N>`` or ``entries/<N>``, ``N`` in groups of three digits all but the last prefixed
    by ``x``, ``.p/<W>`` for a partial tile."""
    parts = path.strip("/").split("/")
    width = WIDTH
    if len(parts) >= 3 and parts[-2].endswith(".p"):
        width = _number(parts[-1], 1, WIDTH - 1)
        parts = [*parts[:-2], parts[-2].removesuffix(".p")]
    if len(parts) < 2:
        raise INVALID_TILE_PATH(f"not a tile path: {path!r}")
    level = None if parts[0] == "entries" else _number(parts[0], 0, MAX_LEVEL)
    groups = parts[1:]
    last, prefixed = groups[-1], groups[:-1]
    if not all(group.startswith("x") for group in prefixed):
        raise INVALID_TILE_PATH(f"not a tile index: {'/'.join(groups)!r}")
    digits = [group.removeprefix("x") for group in prefixed] + [last]
    if any(len(group) != 3 or not group.isascii() or not group.isdigit() for group in digits):
        raise INVALID_TILE_PATH(f"not a tile index: {'/'.join(groups)!r}")
    if len(digits) > 1 and digits[0] == "000":
        raise INVALID_TILE_PATH(f"a tile index has no leading zero groups: {'/'.join(groups)!r}")
    return level, _number("".join(digits), 0, MAX_INDEX), width


def _number(text: str, least: int, most: int) -> int:
    if not (text.isascii() and text.isdigit()) or not least <= int(text) <= most:
        raise INVALID_TILE_PATH(f"{text!r} is not a number from {least} to {most}")
    return int(text)


class LogController(Controller):
    tags = ["log"]

    @get(
        "/log/checkpoint",
        operation_id="getLogCheckpoint",
        summary="The witnessed log's latest signed checkpoint (a C2SP signed note), with the"
        " witnesses' cosignatures it has",
        media_type=TEXT,
        **declare(Token.NONE, NO_CHECKPOINT_YET),
    )
    @off_loop
    def checkpoint(self, ledger: NamedDependency[Cardledger]) -> Response[str]:
        note = ledger.log.reads.checkpoint().note
        return Response(note, media_type=TEXT, headers={"Cache-Control": FRESH})

    @get(
        "/log/key",
        operation_id="getLogKey",
        summary="The witnessed log's verifier key: <origin>+<key id>+<base64 key>",
        media_type=TEXT,
        **declare(Token.NONE, store=False),
    )
    async def key(self, ledger: NamedDependency[Cardledger]) -> Response[str]:
        return Response(ledger.log.reads.key() + "\n", media_type=TEXT)

    @get(
        "/log/tile/{path:path}",
        operation_id="getLogTile",
        summary="A C2SP tile of hashes (<L>/<N>[.p/<W>]) or entry bundle (entries/<N>[.p/<W>])",
        media_type=TILES,
        **declare(Token.NONE, TILE_NOT_FOUND, INVALID_TILE_PATH),
    )
    @off_loop
    def tile(self, ledger: NamedDependency[Cardledger], path: FromPath[str]) -> Response[bytes]:
        level, index, width = tile_address(path)
        reads = ledger.log.reads
        data = reads.entries(index, width) if level is None else reads.tile(level, index, width)
        cache = IMMUTABLE if width == WIDTH else FRESH
        return Response(data, media_type=TILES, headers={"Cache-Control": cache})

    @get(
        "/games/{game_id:uuid}/log",
        operation_id="getGameLog",
        summary="A game's entries in the witnessed log, each with an inclusion proof against"
        " the latest checkpoint: the player's receipt from the log",
        **declare(Token.NONE, GAME_NOT_FOUND, NO_CHECKPOINT_YET),
    )
    @off_loop
    def game_log(self, ledger: NamedDependency[Cardledger], game_id: FromPath[UUID]) -> GameLog:
        return ledger.log.reads.game(game_id)

    @get(
        "/log/consistency",
        operation_id="getLogConsistency",
        summary="A consistency proof from the tree of one size to a larger one",
        **declare(Token.NONE, INVALID_TREE_SIZE),
    )
    @off_loop
    def consistency(
        self,
        ledger: NamedDependency[Cardledger],
        first: Annotated[int, QueryParameter(name="from", ge=0)],
        second: Annotated[int, QueryParameter(name="to", ge=0)],
    ) -> ConsistencyProof:
        return ledger.log.reads.consistency(first, second)

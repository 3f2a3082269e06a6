"""The replay viewer: plain HTML, CSS and JavaScript modules served by the app (no build step,
nothing from a CDN)."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from litestar import Controller, MediaType, Response, get
from litestar.params import FromPath
from litestar.static_files import create_static_files_router

STATIC = Path(__file__).parents[1] / "static"
static_files = create_static_files_router(
    path="/static", directories=[STATIC], include_in_schema=False
)


def page(name: str) -> Response[bytes]:
    return Response(
        (STATIC / name).read_bytes(),
        media_type=MediaType.HTML,
        headers={"Cache-Control": "no-cache"},
    )


class PageController(Controller):
    include_in_schema = False

    @get("/", sync_to_thread=False)
    def lobby(self) -> Response[bytes]:
        return page("index.html")

    @get("/games/{game_id:uuid}/watch", sync_to_thread=False)
    def watch(self, game_id: FromPath[UUID]) -> Response[bytes]:
        return page("watch.html")

    @get("/players/{player_id:str}/page", sync_to_thread=False)
    def player(self, player_id: FromPath[str]) -> Response[bytes]:
        """A player's ratings and history (bot levels too: ``bot:level-L:vA``)."""
        return page("player.html")

    @get("/favicon.ico", sync_to_thread=False)
    def favicon(self) -> Response[bytes]:
        """For browsers that ask before reading the page's icon link."""
        return Response((STATIC / "favicon.svg").read_bytes(), media_type="image/svg+xml")

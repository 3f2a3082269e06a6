"""Paging over HTTP: opaque cursors for the lists that page by place in their order (the lobby,
the leaderboard, a player's games), and the ``Link: <…>; rel="next"`` header that every paged
answer carries while a next page exists (events and replay name theirs by version instead).

A cursor is ``base64url(JSON of the place its page ended at) "." base64url(MAC)``. The MAC
covers the place, the list and the filters the cursor was made for, so a cursor that was
edited, cut short, or made for another list, filter or player is refused (422
``invalid_cursor``) rather than read as some other place. Its key is derived from the one every
process shares through the store (the stream tickets'), so any process reads any one's cursors.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from functools import cached_property
from typing import Annotated, Any
from urllib.parse import parse_qsl, urlencode

import msgspec
from litestar import Request, Response
from litestar.params import QueryParameter

from service.application.tickets import TicketBook
from service.errors import INVALID_CURSOR
from service.read_models.pages import Item, Page, Place

Cursor = Annotated[
    str | None,
    QueryParameter(
        required=False,
        description="Where the page starts: the `cursor` of the previous page's"
        ' `Link: <…>; rel="next"` (opaque); none for the first page.',
    ),
]
PURPOSE = b"cardledger paging cursors"  # sets the cursors' key apart from the tickets' own
MAC_BYTES = 16


class Cursors:
    """The cursors of one list with its filters: the place one names, and a page's answer with
    the Link to the next page."""

    def __init__(self, tickets: TicketBook, listing: str, **filters: object) -> None:
        self._tickets = tickets
        self._subject = msgspec.json.encode([listing, filters], order="sorted")

    @cached_property
    def _key(self) -> bytes:
        """Derived from the key the processes share (made by the first that needs one)."""
        return hmac.new(self._tickets.key(), PURPOSE, hashlib.sha256).digest()

    def place(self, cursor: str | None, kind: type[Place]) -> Place | None:
        """Where the page after ``cursor`` starts (None: the first page); a cursor this list
        did not make with these filters is refused."""
        if cursor is None:
            return None
        body, _, mac = cursor.partition(".")
        try:
            data = _unb64(body)
            if not hmac.compare_digest(_unb64(mac), self._mac(data)):
                raise ValueError("made for another list or filters, or edited")
            return msgspec.json.decode(data, type=kind)
        except (ValueError, msgspec.DecodeError):  # not base64url, another MAC, another shape
            raise INVALID_CURSOR(
                "cursor is not one this list gave for these filters: pass the one in the"
                ' previous page\'s Link rel="next" unchanged, or none for the first page',
            ) from None

    def answer(
        self, request: Request[Any, Any, Any], page: Page[Item, Place]
    ) -> Response[list[Item]]:
        """The page's items, with a Link to the next page when there is one."""
        if page.next is None:
            return Response(page.items)
        return Response(page.items, headers=next_link(request, "cursor", self._seal(page.next)))

    def _seal(self, place: object) -> str:
        data = msgspec.json.encode(place)
        return f"{_b64(data)}.{_b64(self._mac(data))}"

    def _mac(self, data: bytes) -> bytes:
        # The subject is JSON, which holds no raw newline: the two parts cannot run together.
        message = self._subject + b"\n" + data
        return hmac.new(self._key, message, hashlib.sha256).digest()[:MAC_BYTES]


def next_link(request: Request[Any, Any, Any], name: str, value: object) -> dict[str, str]:
    """The Link header to the next page: this request's URL, relative to this server, with the
    query parameter ``name`` set to ``value`` (where it was, or last)."""
    query = parse_qsl(request.url.query, keep_blank_values=True)
    at = next((index for index, (key, _) in enumerate(query) if key == name), len(query))
    kept = [(key, text) for key, text in query if key != name]
    kept.insert(at, (name, str(value)))
    return {"Link": f'<{request.url.path}?{urlencode(kept)}>; rel="next"'}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    """Base64url without padding, in its one canonical spelling (no stray characters)."""
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise ValueError("not canonical base64url")
    return data

"""The benchmark's baseline server: litestar with one POST endpoint and nothing behind it.

It parses a small JSON body into a msgspec struct, hops to a worker thread as our handlers do
(`sync_to_thread`), and answers a body about the size of a command's answer, served by the
same uvicorn settings as `cardledger serve`: the floor under any handler of ours.
"""

from __future__ import annotations

import msgspec
from litestar import Litestar, post


class Move(msgspec.Struct, frozen=True):
    type: str
    card: str = ""


class Answer(msgspec.Struct, frozen=True):
    version: int
    cards: list[str]
    moves: list[Move]


HAND = [f"{rank}{suit}" for rank in "23456789JQKA" for suit in "SHDC"]
ANSWER = Answer(version=12, cards=HAND, moves=[Move(type="play", card=card) for card in HAND])


@post("/move", status_code=200, sync_to_thread=True)
def move(data: Move) -> Answer:
    return ANSWER


app = Litestar(route_handlers=[move])

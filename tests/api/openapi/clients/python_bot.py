"""A random client of cardledger built only from openapi/openapi.json with openapi-python-client.

``cardledger_client`` is the generated package; this module uses it as a third party would, and
``mypy --strict`` checks the two together with no casts
(tests/api/openapi/test_generated_client.py). A bot sends only entries of ``legal_commands``
exactly as listed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from uuid import UUID

from cardledger_client import AuthenticatedClient, Client
from cardledger_client.api.games import (
    create_game,
    get_scoreboard,
    get_view,
    join_game,
    list_events,
    send_command,
)
from cardledger_client.api.players import register_player
from cardledger_client.models import (
    BuryCards,
    CancellationHeartsOptions,
    CancellationHeartsView,
    Challenge,
    Choice,
    ChooseCard,
    ChooseMoon,
    CommandResult,
    CreateCancellationHeartsGame,
    CreateDoubleHeartbeatGame,
    CreateHeartbeatGame,
    CreateOneUpOneDownGame,
    CreateOpenHandGame,
    CreatePlayer,
    Decline,
    DoubleHeartbeatOptions,
    DoubleHeartbeatView,
    EventOut,
    EventPage,
    GameFinished,
    GameStatus,
    HeartbeatOptions,
    HeartbeatOptionsPressureSeconds,
    HeartbeatView,
    JoinGame,
    Leave,
    OneUpOneDownOptions,
    OneUpOneDownView,
    OpenHandView,
    PassCards,
    PassTurn,
    PlayCard,
    PlayCombination,
    PlayDown,
    PlayUp,
    Problem,
    ProblemCode,
    RegisteredPlayer,
    RevealCard,
    Scoreboard,
    VoteCancel,
    VoteEnd,
)

View = (
    CancellationHeartsView | DoubleHeartbeatView | HeartbeatView | OneUpOneDownView | OpenHandView
)
VIEWS = (CancellationHeartsView, DoubleHeartbeatView, HeartbeatView, OneUpOneDownView, OpenHandView)
Command = (
    BuryCards | Challenge | ChooseCard | ChooseMoon | Decline | Leave | PassCards | PassTurn
    | PlayCard | PlayCombination | PlayDown | PlayUp | RevealCard | VoteCancel | VoteEnd
)  # fmt: skip
Creation = (
    CreateCancellationHeartsGame | CreateDoubleHeartbeatGame | CreateHeartbeatGame
    | CreateOneUpOneDownGame | CreateOpenHandGame
)  # fmt: skip
SKIPPED = ("leave", "vote_cancel")  # a bot that leaves or votes to cancel never finishes
WAIT_SECONDS = 120  # for a deadline only the server can act on (generous: a busy host)


class Refused(AssertionError):
    """The server answered with something other than what the bot asked for."""


def creation(variant: str) -> Creation:
    """A short game of the variant (tests/client.py's SHORT_GAMES, as typed models)."""
    if variant == "open-hand":
        return CreateOpenHandGame(variant="open-hand", seats=4)
    if variant == "heartbeat":
        short = HeartbeatOptions(pressure_seconds=HeartbeatOptionsPressureSeconds.VALUE_10)
        return CreateHeartbeatGame(variant="heartbeat", seats=3, options=short)
    if variant == "one-up-one-down":
        capped = OneUpOneDownOptions(max_plays=60, challenge_seconds=0)
        return CreateOneUpOneDownGame(variant="one-up-one-down", seats=3, options=capped)
    if variant == "cancellation-hearts":
        low = CancellationHeartsOptions(target=50)
        return CreateCancellationHeartsGame(variant="cancellation-hearts", seats=6, options=low)
    if variant == "double-heartbeat":
        one = DoubleHeartbeatOptions(hands=1)
        return CreateDoubleHeartbeatGame(variant="double-heartbeat", seats=3, options=one)
    raise ValueError(f"no short game of {variant}")


def register(base: str, count: int) -> list[AuthenticatedClient]:
    anonymous = Client(base_url=base)
    players = []
    for index in range(count):
        answer = register_player.sync(client=anonymous, body=CreatePlayer(name=f"PY{index}"))
        if not isinstance(answer, RegisteredPlayer):
            raise Refused(answer)
        players.append(AuthenticatedClient(base_url=base, token=answer.token))
    return players


def start(players: list[AuthenticatedClient], game: Creation) -> CommandResult:
    created = create_game.sync(client=players[0], body=game)
    if not isinstance(created, CommandResult):
        raise Refused(created)
    joined = created
    for seat, player in enumerate(players[1:], start=1):
        body = JoinGame(client_seed=f"s{seat}")
        answer = join_game.sync(created.game_id, client=player, body=body)
        if not isinstance(answer, CommandResult) or answer.seat != seat:
            raise Refused(answer)
        joined = answer
    return joined


def view_of(game_id: UUID, player: AuthenticatedClient) -> View:
    answer = get_view.sync(game_id, client=player)
    if not isinstance(answer, VIEWS):
        raise Refused(answer)
    return answer


def sendable(view: View) -> list[Command]:
    """The entries of ``legal_commands`` that can be sent as they are (not a choice form, not
    leaving or cancelling)."""
    return [
        entry
        for entry in view.legal_commands
        if not isinstance(entry, Choice) and entry.type_ not in SKIPPED
    ]


def play(players: list[AuthenticatedClient], start: CommandResult) -> tuple[View, int]:
    """Seats the game waits for send random legal commands until it is over (seat 0 watches
    while only the server can move: the generated client asks for a token wherever one is
    optional)."""
    rng = random.Random(str(start.game_id))
    game_id, view, sent = start.game_id, start.view, 0
    waited_since: float | None = None
    while view.status == GameStatus.ACTIVE:
        seat = rng.choice(view.to_act) if view.to_act else None
        mine = view_of(game_id, players[seat]) if seat is not None else None
        entries = sendable(mine) if mine is not None else []
        if seat is None or not entries:  # only the server can move (a deadline): wait for it
            waited_since = waited_since or time.monotonic()
            if time.monotonic() - waited_since > WAIT_SECONDS:
                stuck = mine.legal_commands if mine is not None else []
                raise AssertionError(f"the game is stuck: {[e.to_dict() for e in stuck]}")
            time.sleep(0.05)
            view = view_of(game_id, players[0])
            continue
        waited_since = None
        answer = send_command.sync(game_id, client=players[seat], body=rng.choice(entries))
        if isinstance(answer, CommandResult):
            view, sent = answer.view, sent + 1
        elif isinstance(answer, Problem) and answer.status == 409:
            view = view_of(game_id, players[0])  # a deadline passed as we chose
        else:
            raise Refused(answer)
    return view, sent


def every_event(game_id: UUID, client: AuthenticatedClient) -> list[EventOut]:
    events: list[EventOut] = []
    while True:
        page = list_events.sync(game_id, client=client, after=len(events), limit=500)
        if not isinstance(page, EventPage):
            raise Refused(page)
        events += page.events
        if page.next_after >= page.head_version:
            return events


@dataclass(frozen=True)
class Played:
    """What a bot saw of one game, typed all the way."""

    game: Creation
    final: View
    sent: int
    board: Scoreboard
    events: list[EventOut]
    finished: GameFinished
    own_commands: list[Command]  # the sealed commands seat 0 may see in its log


def play_to_the_end(base: str, variant: str) -> Played:
    game = creation(variant)
    players = register(base, game.seats)
    final, sent = play(players, start(players, game))
    board = get_scoreboard.sync(final.game_id, client=Client(base_url=base))
    if not isinstance(board, Scoreboard):
        raise Refused(board)
    events = every_event(final.game_id, players[0])
    finished = events[-1].payload
    if not isinstance(finished, GameFinished):
        raise Refused(finished)
    own = [
        event.command.value
        for event in events
        if event.command is not None and event.command.value is not None
    ]
    return Played(game, final, sent, board, events, finished, own)


@dataclass(frozen=True)
class Refusals:
    vote_accepted: bool
    refused: Problem
    not_your_turn: bool
    revalidated_status: int
    revalidated_body: object


def refusals_and_revalidation(base: str) -> Refusals:
    """A waiting seat's vote is taken and its play refused, as typed answers; a view's ETag
    brings a bodiless 304."""
    players = register(base, 4)
    started = start(players, CreateOpenHandGame(variant="open-hand", seats=4))
    game_id = started.game_id
    waiting = next(seat for seat in range(4) if seat not in started.view.to_act)
    voted = send_command.sync(game_id, client=players[waiting], body=VoteCancel())
    mine = view_of(game_id, players[waiting])
    if not mine.hand:
        raise AssertionError("a seated player holds cards")
    refused = send_command.sync(game_id, client=players[waiting], body=PlayCard(card=mine.hand[0]))
    if not isinstance(refused, Problem):
        raise Refused(refused)
    first = get_view.sync_detailed(game_id, client=players[0])
    again = get_view.sync_detailed(game_id, client=players[0], if_none_match=first.headers["ETag"])
    return Refusals(
        vote_accepted=isinstance(voted, CommandResult),
        refused=refused,
        not_your_turn=refused.code == ProblemCode.NOT_YOUR_TURN,
        revalidated_status=int(again.status_code),
        revalidated_body=again.parsed,
    )

"""The committed OpenAPI document is the app's, and says what clients need to know."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.events import tag_of_type
from domain.variants import VARIANTS, event_types
from service import errors
from service.application import Cardledger
from service.http.app import create_app
from service.http.contract import HTTP_CODES
from service.http.openapi.document import openapi_json
from service.settings import NO_LIMITS, Settings
from tests.contract.call_graph import code_index
from tests.support.client import Api

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "openapi" / "openapi.json"


def generated() -> bytes:
    return openapi_json(create_app(Settings(in_memory=True)))


def test_committed_document_matches_the_app() -> None:
    assert COMMITTED.read_bytes() == generated(), (
        "run `make openapi` and commit openapi/openapi.json"
    )


def test_commands_are_a_discriminated_union_of_closed_objects() -> None:
    schemas = document()["components"]["schemas"]
    union = schemas["OpenHandCommand"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {"play", "vote_cancel", "leave"}
    for ref in union["oneOf"]:
        target = schemas[name_of(ref)]
        assert target["additionalProperties"] is False
        assert target["properties"]["type"]["const"] in union["discriminator"]["mapping"]
    body = operation("sendCommand")["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": REF + "Command"}
    every = [schemas[name_of(ref)] for ref in schemas["Command"]["oneOf"]]
    tags = {tag_of_type(kind) for v in VARIANTS.values() for kind in v.commands}
    assert {member["properties"]["type"]["const"] for member in every} == tags | {
        "vote_cancel",
        "leave",
    }
    plays = [member for member in every if member["properties"]["type"]["const"] == "play"]
    assert [member["title"] for member in plays] == ["PlayCard", "PlayCombination"]
    # No discriminator can name one schema for `play`: closed objects with different required
    # fields tell the two apart.
    assert "discriminator" not in schemas["Command"]
    assert all(member["additionalProperties"] is False for member in every)
    assert set(plays[0]["required"]) ^ set(plays[1]["required"]) == {"card", "cards"}
    for name in ("CreatePlayer", "JoinGame", *members(schemas, "CreateGame").values()):
        assert schemas[name]["additionalProperties"] is False


def test_choice_forms_and_sealed_commands_are_typed_with_commands() -> None:
    schemas = document()["components"]["schemas"]
    choice = schemas["Choice"]["properties"]
    assert choice["command"] == {"$ref": REF + "ChoiceCommand"}
    forms = members(schemas, "ChoiceCommand")
    assert forms == {
        "bury": "BuryCards",
        "pass_cards": "PartialPassCards",
        "play": "PlayCombination",
    }
    partial, whole = schemas["PartialPassCards"], schemas["PassCards"]
    assert whole["properties"]["cards"]["minItems"] == 3  # a form holds none of them yet
    assert "minItems" not in partial["properties"]["cards"]
    assert partial["properties"]["type"] == whole["properties"]["type"]
    sealed = schemas["EventOut"]["properties"]["command"]["oneOf"]
    assert sealed == [{"$ref": REF + "SealedCommand"}, {"type": "null"}]
    value = schemas["SealedCommand"]["properties"]["value"]["oneOf"]
    assert value == [{"$ref": REF + "Command"}, {"type": "null"}]
    views = {
        variant: schemas[name]["properties"] for variant, name in members(schemas, "View").items()
    }
    for variant in ("cancellation-hearts", "double-heartbeat"):
        assert views[variant]["choice_forms"]["items"] == {"$ref": REF + "Choice"}
        assert "maxItems" not in views[variant]["choice_forms"]
        assert views[variant]["legal_commands"]["items"]["$ref"].endswith("Command")
    assert views["open-hand"]["choice_forms"]["maxItems"] == 0
    assert schemas["Bundle"]["properties"]["format"] == {
        "type": "string",
        "const": "cardledger-bundle/v1",
    }


def test_answers_require_every_field_they_always_carry() -> None:
    schemas = document()["components"]["schemas"]
    assert schemas["SealedCommand"]["required"] == ["owner", "salt", "value"]
    assert "kitty" in schemas["TrickResolved"]["required"]  # a default, but always encoded
    finished = schemas["GameFinished"]  # omits `reason` when it holds its default
    assert (
        "reason" not in finished["required"] and "default" not in finished["properties"]["reason"]
    )
    assert "Absent" in finished["properties"]["reason"]["description"]
    # What a request may leave out stays optional, though answers carry it too.
    assert "client_seed" not in schemas["JoinGame"].get("required", [])
    assert "declared" not in schemas["PlayDown"]["required"]
    assert not schemas["HeartbeatOptions"].get("required")


def test_every_operation_is_named_and_documents_its_problems() -> None:
    operations = list(every_operation())
    assert len({op["operationId"] for op in operations}) == len(operations) >= 12
    for operation_ in operations:
        assert operation_["summary"]
        assert "4XX" not in operation_["responses"]
        for status, response in operation_["responses"].items():
            if status.startswith(("4", "5")):
                schema = response["content"]["application/problem+json"]["schema"]
                assert schema["allOf"] == [{"$ref": REF + "Problem"}]
                assert set(schema["properties"]["code"]["enum"]) <= set(problem_codes())
    assert set(operation("sendCommand")["responses"]) >= {
        "200", "400", "401", "403", "404", "409", "412", "413", "422", "429", "503",
    }  # fmt: skip
    assert "not_your_turn" in codes("sendCommand", 409)
    assert "card_not_in_hand" in codes("sendCommand", 409)
    assert codes("getRules", 404) == {"variant_not_found"}
    assert set(operation("health")["responses"]) == {"200"}  # no store, no limit, no refusal
    assert set(operation("ready")["responses"]) == {"200", "503"}  # a probe: never limited
    for read in ("getGame", "getView", "listEvents", "replayGame", "auditGame", "exportGame"):
        assert "304" in operation(read)["responses"]
        assert "If-None-Match" in {p["name"] for p in operation(read)["parameters"]}


def test_paged_operations_document_their_next_link() -> None:
    for paged in ("listGames", "listMyGames", "getLeaderboard", "listEvents", "replayGame"):
        assert "Link" in operation(paged)["responses"]["200"]["headers"], paged
    for by_cursor in ("listGames", "listMyGames", "getLeaderboard"):
        assert "cursor" in {p["name"] for p in operation(by_cursor)["parameters"]}
        assert "offset" not in {p["name"] for p in operation(by_cursor)["parameters"]}
        assert "invalid_cursor" in codes(by_cursor, 422)
    assert "Link" not in operation("getView")["responses"]["200"]["headers"]


# --- the codes: every one the source can raise is listed ---------------------------------------


def test_every_code_the_source_raises_is_a_problem_code() -> None:
    listed = set(problem_codes())
    raised = {refusal.code for refusal in code_index().refusals()}
    assert len(raised) > 80
    assert raised <= listed, f"raised, not in ProblemCode: {sorted(raised - listed)}"
    assert {"unauthorized", "store_unavailable", "invalid_parameter"} <= listed
    assert set(HTTP_CODES.values()) <= listed  # the framework's own refusals
    every_service_refusal = {
        value.code for value in vars(errors).values() if isinstance(value, errors.Refusal)
    }
    assert every_service_refusal <= listed


# --- what a real server answers is what the document says ------------------------------------


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("openapi"), limits=NO_LIMITS)
    ledger = Cardledger(settings)
    with TestClient(create_app(settings, ledger)) as client:
        yield Api(client, ledger)


def documented(operation_id: str, response: Any) -> None:
    status = response.status_code
    assert str(status) in operation(operation_id)["responses"], (operation_id, response.text)
    if status >= 400:
        assert response.json()["code"] in codes(operation_id, status), (operation_id, response.text)


def test_refusals_are_documented_for_their_operation(api: Api) -> None:
    client = api.client
    game = api.started(4)
    waiting = next(seat for seat in range(4) if seat not in api.view(game)["to_act"])
    card = api.view(game, waiting)["hand"][0]
    unknown = "00000000-0000-4000-8000-000000000000"
    answers = {
        "sendCommand": [
            api.command(game, waiting, {"type": "play", "card": card}),
            api.command(game, waiting, {"type": "play", "card": "XX"}),
            api.command(game, waiting, {"type": "vote_cancel"}, **{"If-Match": "1"}),
            client.post(f"/games/{game}/commands", content=b"{", headers=api.auth(0)),
            client.post(f"/games/{unknown}/commands", json={"type": "leave"}, headers=api.auth(0)),
            client.post(f"/games/{game}/commands", json={"type": "leave"}),
        ],
        "joinGame": [client.post(f"/games/{game}/join", headers=api.auth(1))],
        "createGame": [
            client.post("/games", json={"variant": "open-hand", "seats": 1}, headers=api.auth(0))
        ],
        "registerPlayer": [client.post("/players", content=b'{"name":"' + b"x" * 20000 + b'"}')],
        "getGame": [client.get(f"/games/{unknown}"), client.get("/games/not-a-game")],
        "replayGame": [
            client.get(f"/games/{game}/replay?perspective=full"),
            client.get(f"/games/{game}/replay?perspective=seat:9"),
        ],
        "listGames": [
            client.get("/games?limit=0"),
            client.get("/games?status=over"),
            client.get("/games?cursor=nope"),
        ],
        "exportGame": [client.get(f"/games/{game}/export")],
        "getView": [client.get(f"/games/{game}/view", headers={"Authorization": "Bearer nope"})],
    }
    for operation_id, responses in answers.items():
        for response in responses:
            assert response.status_code >= 400, (operation_id, response.text)
            documented(operation_id, response)


def test_a_token_is_required_exactly_where_the_document_says(api: Api) -> None:
    game = api.started(4)
    for path, item in document()["paths"].items():
        for method, operation_ in item.items():
            if operation_["operationId"] in ("streamGame", "ready"):
                continue  # a live stream never ends; readiness is its own test
            url = path.replace("{game_id}", game).replace("{variant}", "open-hand")
            answer = api.client.request(method.upper(), url, json={})
            security = operation_.get("security")
            required = bool(security) and {} not in security  # a token, or a ticket for it
            assert (answer.status_code == 401) == required, (method, path, answer.text)
            if not required:
                documented(operation_["operationId"], answer)


def test_statuses_perspectives_options_tables_and_game_ids_are_typed() -> None:
    schemas = document()["components"]["schemas"]
    assert schemas["GameStatus"]["enum"] == ["waiting", "active", "finished", "cancelled"]
    perspective = [
        option.get("enum") or option.get("pattern") for option in schemas["Perspective"]["anyOf"]
    ]
    assert perspective == [["public", "full"], "^seat:[0-9]+$"]
    assert schemas["Problem"]["properties"]["code"] == {"$ref": REF + "ProblemCode"}
    assert set(document()["components"]["securitySchemes"]) == {
        "bearer",
        "streamTicket",
        "metricsToken",
    }
    views = members(schemas, "View")
    assert len(views) == len(VARIANTS)
    for variant, name in views.items():
        view = schemas[name]["properties"]
        assert view["variant"]["const"] == variant
        assert view["status"] == {"$ref": REF + "GameStatus"}
        table = name_of(view["table"]["oneOf"][0])
        assert table.endswith("Table") and schemas[table]["properties"]
        assert name_of(view["options"]) == VARIANTS[variant].options_type.__name__
        assert view["game_id"] == {"type": "string", "format": "uuid"}
    payload = schemas["EventOut"]["properties"]["payload"]
    events = schemas[name_of(payload)]["discriminator"]["mapping"]
    assert set(events) == {tag_of_type(kind) for kind in event_types().values()}
    for name in ("CommandResult", "OpenHandLobbyEntry", "EventPage", "ReplayPage", "Bundle"):
        assert schemas[name]["properties"]["game_id"]["format"] == "uuid"
    creations = members(schemas, "CreateGame")
    for variant, name in creations.items():
        seats = schemas[name]["properties"]["seats"]
        assert (seats["minimum"], seats["maximum"]) == (
            VARIANTS[variant].min_seats,
            VARIANTS[variant].max_seats,
        )


# --- helpers ------------------------------------------------------------------------------------

REF = "#/components/schemas/"


def document() -> dict[str, Any]:
    return dict(json.loads(COMMITTED.read_text()))


def every_operation() -> Iterator[dict[str, Any]]:
    for item in document()["paths"].values():
        yield from (op for op in item.values() if isinstance(op, dict))


def operation(operation_id: str) -> dict[str, Any]:
    return next(op for op in every_operation() if op["operationId"] == operation_id)


def codes(operation_id: str, status: int) -> set[str]:
    response = operation(operation_id)["responses"][str(status)]
    schema = response["content"]["application/problem+json"]["schema"]
    return set(schema["properties"]["code"]["enum"])


def problem_codes() -> list[str]:
    return list(document()["components"]["schemas"]["ProblemCode"]["enum"])


def name_of(ref: dict[str, str]) -> str:
    return ref["$ref"].rsplit("/", 1)[1]


def members(schemas: dict[str, Any], union: str) -> dict[str, str]:
    mapping = schemas[union]["discriminator"]["mapping"]
    return {tag: target.rsplit("/", 1)[1] for tag, target in mapping.items()}

"""Each route's declared contract holds: its security is what its handler reads and the sign-in
enforces, every refusal the code lets it reach is declared, and nothing is declared that nothing
raises."""

from __future__ import annotations

from functools import cache
from typing import Any, get_args

import pytest
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler

from service.auth import Principal
from service.http.app import create_app
from service.http.authentication import SIGNED_IN, SKIP, TokenAuthentication
from service.http.contract import HTTP_CODES, Token
from service.http.openapi.document import openapi_document
from service.http.openapi.responses import contract_of, problems_of, route_handlers
from service.settings import Settings
from tests.contract.call_graph import CodeIndex, code_index


@cache
def app() -> Litestar:
    return create_app(Settings(in_memory=True))


def handlers() -> list[tuple[str, HTTPRouteHandler]]:
    # Sorted: the app's own order varies between processes, and parallel workers
    # (pytest-xdist) must each collect the same tests in the same order.
    return sorted(route_handlers(app()), key=lambda pair: pair[0])


def key(function: object) -> str:
    function = getattr(function, "func", function)  # sync handlers come wrapped
    return f"{function.__module__}:{function.__qualname__}"  # type: ignore[attr-defined]


def user_type(handler: HTTPRouteHandler) -> object:
    """What the handler's ``request.user`` is declared to be (Any: it never reads it)."""
    request = handler.parsed_fn_signature.parameters.get("request")
    return get_args(request.annotation)[0] if request is not None else Any


@pytest.mark.parametrize(("operation_id", "handler"), handlers(), ids=lambda v: str(v)[:40])
def test_security_is_what_the_handler_reads_and_the_middleware_enforces(
    operation_id: str, handler: HTTPRouteHandler
) -> None:
    contract = contract_of(handler)
    guarded = bool(handler.opt.get(SIGNED_IN))
    skipped = bool(handler.opt.get(SKIP))
    reads = user_type(handler)
    if contract.token is Token.REQUIRED and contract.ticket:  # the handler checks: token or ticket
        assert not guarded and not skipped and reads == Principal | None, operation_id
    elif contract.token is Token.REQUIRED:
        assert guarded and not skipped and reads is Principal, operation_id
    elif contract.token is Token.OPTIONAL:
        assert not guarded and not skipped and reads == Principal | None, operation_id
    else:
        assert not guarded and skipped and reads is Any, operation_id


def reachable(index: CodeIndex, handler: HTTPRouteHandler) -> set[tuple[int, str]]:
    roots = [key(handler.fn)]
    if contract_of(handler).token is not Token.NONE:
        roots.append(key(TokenAuthentication.sign_in))
    return {(refusal.status, refusal.code) for refusal in index.refusals(roots)}


@pytest.mark.parametrize(("operation_id", "handler"), handlers(), ids=lambda v: str(v)[:40])
def test_every_refusal_a_route_can_reach_is_declared(
    operation_id: str, handler: HTTPRouteHandler
) -> None:
    operation = next(
        op
        for item in openapi_document(app())["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get("operationId") == operation_id
    )
    declared = {
        (status, code)
        for status, codes in problems_of(contract_of(handler), handler, operation).items()
        for code in codes
    }
    missing = reachable(code_index(), handler) - declared
    assert not missing, f"{operation_id} can answer {sorted(missing)}: declare them"


def test_every_declared_refusal_is_raised_somewhere() -> None:
    raised = {(refusal.status, refusal.code) for refusal in code_index().refusals()}
    framework = set(HTTP_CODES.items())
    for operation_id, handler in handlers():
        for refusal in contract_of(handler).refusals:
            assert refusal in raised | framework, f"{operation_id}: nothing raises {refusal}"


def test_the_scan_sees_the_refusals_of_commands() -> None:
    """The scan must bite: a command reaches the rules of every variant."""
    command = next(h for op, h in handlers() if op == "sendCommand")
    found = reachable(code_index(), command)
    assert {(409, "not_your_turn"), (409, "must_follow_suit"), (401, "unauthorized")} <= found
    assert (412, "version_mismatch") in found


@pytest.mark.parametrize(("operation_id", "handler"), handlers(), ids=lambda v: str(v)[:40])
def test_a_handler_takes_one_dependency(operation_id: str, handler: HTTPRouteHandler) -> None:
    """Dependencies of one level are resolved together in a task group, which cost a command a
    quarter of its time: the application comes as one (the stream, rare and long-lived, takes
    its feeds and its slots, and so does a player's stream of messages)."""
    taken = set(handler.parsed_fn_signature.parameters) & set(app().dependencies)
    streams = ("streamGame", "streamMyMessages")
    assert len(taken) <= (2 if operation_id in streams else 1), (operation_id, taken)

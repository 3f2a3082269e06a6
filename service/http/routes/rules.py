"""The rules pages: ``docs/rules/<variant>.md``, served as Markdown at ``/rules/{variant}``.

The pages ship with the package (``service/http/rulebook`` links to ``docs/rules``; the
package data copies them into the wheel), so an installed service serves the same text the
repository holds.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Controller, Response, get
from litestar.params import FromPath

from domain.variants import VARIANTS
from service.errors import VARIANT_NOT_FOUND
from service.http.contract import Token, declare

RULEBOOK = Path(__file__).parents[1] / "rulebook"
MARKDOWN = "text/markdown"  # litestar adds "; charset=utf-8" to text/*


def rules_page(variant: str) -> bytes:
    """The variant's rules page, or a 404 problem for a variant the service does not host."""
    if variant not in VARIANTS:
        raise VARIANT_NOT_FOUND("no such variant")
    return (RULEBOOK / f"{variant}.md").read_bytes()


class RulesController(Controller):
    path = "/rules"
    tags = ["meta"]

    @get(
        "/{variant:str}",
        operation_id="getRules",
        summary="A variant's rules, options and judgement calls, as Markdown",
        media_type=MARKDOWN,
        sync_to_thread=False,
        **declare(Token.NONE, VARIANT_NOT_FOUND, store=False),
    )
    def rules(self, variant: FromPath[str]) -> Response[bytes]:
        return Response(rules_page(variant), media_type=MARKDOWN)

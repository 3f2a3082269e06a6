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
from service.errors import not_found

RULEBOOK = Path(__file__).parent / "rulebook"
MARKDOWN = "text/markdown; charset=utf-8"


def rules_page(variant: str) -> bytes:
    """The variant's rules page, or a 404 problem for a variant the service does not host."""
    if variant not in VARIANTS:
        raise not_found("variant")
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
    )
    def rules(self, variant: FromPath[str]) -> Response[bytes]:
        return Response(rules_page(variant), media_type=MARKDOWN)

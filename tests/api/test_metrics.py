"""Metrics an operator can scrape at /metrics."""

from __future__ import annotations

from tests.client import Api


def test_metrics_count_requests_and_problems(api: Api) -> None:
    game_id = api.started(2)
    waiting = next(s for s in (0, 1) if s not in api.view(game_id)["to_act"])
    card = api.view(game_id, waiting)["hand"][0]
    api.command(game_id, waiting, {"type": "play", "card": card})  # not_your_turn
    scraped = api.client.get("/metrics")
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    text = scraped.text
    assert 'cardledger_problems_total{code="not_your_turn",status="409"} 1.0' in text
    assert 'route="/games/{game_id}/commands",status="409"' in text
    assert "cardledger_http_request_seconds_bucket" in text
    assert 'cardledger_held{what="games"}' in text

"""The container files: they cannot be built here (no Docker engine), so check what they promise."""

from __future__ import annotations

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[1] / "docker"


def test_compose_runs_two_api_replicas_on_one_postgres_behind_a_proxy() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "migrate", "api", "projector", "proxy"} <= set(services)
    url = services["api"]["environment"]["CARDLEDGER_DATABASE_URL"]
    assert url.startswith("postgresql://") and "@postgres:5432/" in url
    for name in ("migrate", "api", "projector"):
        assert services[name]["environment"]["CARDLEDGER_DATABASE_URL"] == url
        assert services[name]["build"]["dockerfile"] == "docker/Dockerfile"
    api = services["api"]
    assert api["deploy"]["replicas"] == 2
    assert "ports" not in api  # reached through the proxy only
    assert "CARDLEDGER_ADMIN_TOKEN" in api["environment"]
    # The projector keeps the read models; the replicas leave them to it.
    assert api["environment"]["CARDLEDGER_PROJECTOR"] == "external"
    assert services["projector"]["command"] == ["cardledger", "project"]
    # Tables are made once, before the replicas and the projector start.
    assert services["migrate"]["command"] == ["cardledger", "migrate"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("api", "projector"):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully"
    proxy = services["proxy"]
    assert proxy["ports"] == ["127.0.0.1:8000:8000"]
    assert proxy["depends_on"]["api"]["condition"] == "service_healthy"
    assert services["postgres"]["healthcheck"]["test"]


def test_the_proxy_balances_over_the_replicas_and_leaves_streams_unbuffered() -> None:
    config = (DOCKER / "nginx.conf").read_text()
    assert "server api:8000;" in config and "proxy_pass http://cardledger;" in config
    stream = config[config.index("/stream") :]
    assert "proxy_buffering off;" in stream


def test_dockerfile_runs_as_non_root_with_a_healthcheck() -> None:
    lines = [line.strip() for line in (DOCKER / "Dockerfile").read_text().splitlines()]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any(line.startswith("HEALTHCHECK") for line in lines)
    assert any("/ready" in line for line in lines)
    assert any(line.startswith("EXPOSE 8000") for line in lines)
    cmd = [line for line in lines if line.startswith("CMD [")][-1]
    assert '"cardledger", "serve"' in cmd

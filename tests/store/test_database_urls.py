"""A failover cluster's multi-host URL reaches every connection the service makes: the pool's
(through the library's settings) and the direct ones (listener, leader locks), each asking for
the server that takes writes, and each dropping a server that stops answering within seconds;
a one-host URL means what it always did."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

from service.settings import Settings
from service.store.postgres.listener import NETWORK_BOUNDS, conninfo

BOUNDS = urlencode(NETWORK_BOUNDS)

CLUSTER = "postgresql://app:s%40cret@10.0.0.2:5432,10.0.0.3:5433/ledger?schema=s1"


def test_a_cluster_url_names_every_host_and_asks_for_the_primary() -> None:
    env = Settings(database_url=CLUSTER).store_env()
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"]) == ("10.0.0.2,10.0.0.3", "5432,5433")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("app", "s@cret")
    assert (env["POSTGRES_DBNAME"], env["POSTGRES_SCHEMA"]) == ("ledger", "s1")
    assert env["POSTGRES_TARGET_SESSION_ATTRS"] == "read-write"
    assert conninfo(CLUSTER) == (
        "postgresql://app:s%40cret@10.0.0.2:5432,10.0.0.3:5433/ledger"
        f"?target_session_attrs=read-write&{BOUNDS}"
    )


def test_the_url_may_say_otherwise() -> None:
    url = "postgresql://h1,h2/db?target_session_attrs=primary&tcp_user_timeout=20000"
    env = Settings(database_url=url).store_env()
    assert env["POSTGRES_TARGET_SESSION_ATTRS"] == "primary"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"]) == ("h1,h2", "5432,5432")
    asked = dict(parse_qsl(urlsplit(conninfo(url)).query))
    assert asked["target_session_attrs"] == "primary"
    assert asked["tcp_user_timeout"] == "20000"  # not the default's 5000
    assert asked["keepalives_idle"] == NETWORK_BOUNDS["keepalives_idle"]


def test_one_host_is_as_before() -> None:
    env = Settings(database_url="postgresql://postgres@127.0.0.1/db?schema=x").store_env()
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"]) == ("127.0.0.1", "5432")
    assert env["POSTGRES_TARGET_SESSION_ATTRS"] == "any"
    assert conninfo("postgresql://postgres@127.0.0.1/db?schema=x&sslmode=disable") == (
        f"postgresql://postgres@127.0.0.1/db?sslmode=disable&{BOUNDS}"
    )
    ipv6 = Settings(database_url="postgresql://[::1]:6000/db").store_env()
    assert (ipv6["POSTGRES_HOST"], ipv6["POSTGRES_PORT"]) == ("::1", "6000")

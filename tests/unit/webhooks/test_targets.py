"""Where a webhook may point (the URL's form and the operator's allow-list) and how deliveries
are signed and verified."""

from __future__ import annotations

import pytest

from service.application.messaging.webhook_targets import (
    allowed_origins,
    check_target,
    checked_url,
    new_key,
    permitted,
    signature,
    verify,
)
from service.errors import ApiError

KEY = "whsec_00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
BODY = b'{"id":"42-your_turn"}'
# Computed apart from this code: printf '%s' '1767225600.{"id":"42-your_turn"}' |
# openssl dgst -sha256 -hmac "$KEY" (the example of docs/notifications.md).
EXPECTED = "v1=4a833e26dd374db675a13208cfb2aad9a1f49411985e1fa47de19462238414ed"


def test_the_signature_is_hmac_sha256_of_timestamp_dot_body_under_the_key() -> None:
    assert signature(KEY, 1767225600, BODY) == EXPECTED


def test_a_receiver_accepts_only_the_right_key_body_and_a_recent_timestamp() -> None:
    ok = {"now": 1767225600 + 10, "tolerance": 300}
    assert verify(KEY, "1767225600", BODY, EXPECTED, **ok)
    assert verify(KEY, "1767225600", BODY, f"v0=bad {EXPECTED}", **ok)  # any one of several
    assert not verify(KEY, "1767225600", BODY + b" ", EXPECTED, **ok)
    assert not verify(KEY, "1767225601", BODY, EXPECTED, **ok)
    assert not verify(new_key(), "1767225600", BODY, EXPECTED, **ok)
    assert not verify(KEY, "1767225600", BODY, EXPECTED, now=1767225600 + 301, tolerance=300)
    assert not verify(KEY, "-1767225600", BODY, EXPECTED, **ok)


def test_keys_are_new_each_time_and_long() -> None:
    keys = {new_key() for _ in range(100)}
    assert len(keys) == 100 and all(k.startswith("whsec_") and len(k) == 70 for k in keys)


@pytest.mark.parametrize(
    ("setting", "origins"),
    [
        ("", set()),
        (" , ", set()),
        ("https://Hooks.Example.com", {"https://hooks.example.com"}),
        ("https://a.example:443/, http://b.example:80", {"https://a.example", "http://b.example"}),
        (
            "http://127.0.0.1:8080,https://[::1]:8443",
            {"http://127.0.0.1:8080", "https://[::1]:8443"},
        ),
        # Not origins: allow nothing rather than more than meant.
        ("hooks.example.com, ftp://x.example, https://x.example/path, https://u@y.example", set()),
    ],
)
def test_the_allow_list_names_origins_normalised(setting: str, origins: set[str]) -> None:
    assert allowed_origins(setting) == origins


@pytest.mark.parametrize(
    "url",
    [
        "ftp://hooks.example.com/x",
        "hooks.example.com/x",
        "https://user:pw@hooks.example.com/x",
        "https://user@hooks.example.com/x",
        "https://hooks.example.com/x#part",
        "https://hooks.example.com/x#",
        "https:///x",
        "https://hooks.example.com:99999/x",
        "https://hooks.example.com/a b",
        "https://hooks.example.com/é",
        "https://hooks.example.com/" + "a" * 2048,
    ],
)
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(ApiError) as refused:
        checked_url(url)
    assert refused.value.code == "invalid_webhook_url"


def test_a_target_is_allowed_only_if_its_origin_is_listed_exactly() -> None:
    allow = allowed_origins("https://hooks.example.com,http://127.0.0.1:8080")
    assert check_target("https://HOOKS.example.com:443/in?x=1", allow)
    assert permitted("http://127.0.0.1:8080/hook", allow)
    for url in (
        "http://hooks.example.com/in",  # another scheme
        "https://hooks.example.com:8443/in",  # another port
        "https://evil.hooks.example.com/in",  # a subdomain
        "https://hooks.example.com.evil.net/in",
        "http://127.0.0.1:8081/hook",
        "http://localhost:8080/hook",  # the same machine by another name: not listed
        "http://[::1]:8080/hook",
    ):
        assert not permitted(url, allow), url
        with pytest.raises(ApiError) as refused:
            check_target(url, allow)
        assert refused.value.code == "webhook_not_allowed"
    assert not permitted("https://hooks.example.com/in", allowed_origins(""))

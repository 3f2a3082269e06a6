"""Where a webhook may point, and how its deliveries are signed: pure functions, no I/O.

A target is refused unless the operator's allow-list (CARDLEDGER_WEBHOOK_ALLOW) names its
origin exactly, after both are normalised the same way (scheme and host lower-cased, a
default port dropped). Nothing is resolved: the list names what the service may call, so a
player cannot make it call into its own network, whatever the name would resolve to.

A delivery is signed with HMAC-SHA256 under the webhook's key over ``<timestamp>.<body>``
(the unix seconds sent in ``Webhook-Timestamp``, a dot, the exact bytes of the body), so a
receiver can tell the body came from us, unchanged, and recently (docs/notifications.md).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import SplitResult, urlsplit

from service.errors import INVALID_WEBHOOK_URL, WEBHOOK_NOT_ALLOWED, ApiError

MAX_URL_LENGTH = 2048
DEFAULT_PORTS = {"http": 80, "https": 443}
KEY_PREFIX = "whsec_"  # tells a key apart from a bearer token in a client's configuration
SIGNATURE_VERSION = "v1"


def origin_of(parts: SplitResult) -> str | None:
    """``scheme://host[:port]`` with the scheme and host lower-cased and a default port
    dropped, or None if the URL has no host or an invalid port."""
    try:
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host:
        return None
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal
    scheme = parts.scheme.lower()
    shown = "" if port is None or port == DEFAULT_PORTS.get(scheme) else f":{port}"
    return f"{scheme}://{host}{shown}"


def checked_url(url: str) -> tuple[str, str]:
    """The URL as given and its origin, or ``invalid_webhook_url``: http or https only, a
    host, no user or password, no fragment, at most MAX_URL_LENGTH characters."""
    if len(url) > MAX_URL_LENGTH:
        raise INVALID_WEBHOOK_URL(f"a webhook URL has at most {MAX_URL_LENGTH} characters")
    if not url.isascii() or any(c.isspace() or ord(c) < 32 for c in url):
        raise INVALID_WEBHOOK_URL("a webhook URL is plain ASCII with no spaces (percent-encode)")
    parts = urlsplit(url)
    if parts.scheme.lower() not in DEFAULT_PORTS:
        raise INVALID_WEBHOOK_URL("a webhook URL starts with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise INVALID_WEBHOOK_URL("a webhook URL carries no user or password")
    if parts.fragment or url.endswith("#"):
        raise INVALID_WEBHOOK_URL("a webhook URL has no #fragment")
    origin = origin_of(parts)
    if origin is None:
        raise INVALID_WEBHOOK_URL("a webhook URL names a host (and a valid port, if any)")
    return url, origin


def allowed_origins(setting: str) -> frozenset[str]:
    """The origins CARDLEDGER_WEBHOOK_ALLOW names (comma-separated), normalised; entries that
    are not an origin are ignored (and so allow nothing)."""
    found = set()
    for entry in setting.split(","):
        entry = entry.strip().rstrip("/")
        if not entry:
            continue
        parts = urlsplit(entry)
        if parts.scheme.lower() in DEFAULT_PORTS and not (parts.path or parts.query):
            origin = origin_of(parts)
            if origin is not None and parts.username is None:
                found.add(origin)
    return frozenset(found)


def permitted(url: str, allow: frozenset[str]) -> bool:
    """Whether the operator's allow-list lets the service call this URL now."""
    try:
        _, origin = checked_url(url)
    except ApiError:
        return False
    return origin in allow


def check_target(url: str, allow: frozenset[str]) -> str:
    """The URL, if it is well formed and its origin is allowed; else the coded refusal."""
    url, origin = checked_url(url)
    if origin not in allow:
        raise WEBHOOK_NOT_ALLOWED(
            f"the operator does not allow webhooks to {origin} (CARDLEDGER_WEBHOOK_ALLOW)",
            origin=origin,
        )
    return url


def new_key() -> str:
    """A signing key: 256 random bits, as text; its ASCII bytes are the HMAC key."""
    return KEY_PREFIX + secrets.token_hex(32)


def signature(key: str, timestamp: int, body: bytes) -> str:
    """The ``Webhook-Signature`` header: ``v1=`` and the hex HMAC-SHA256 of
    ``<timestamp>.<body>`` under the key's ASCII bytes."""
    signed = str(timestamp).encode() + b"." + body
    digest = hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"


def verify(key: str, timestamp: str, body: bytes, header: str, *, now: int, tolerance: int) -> bool:
    """What a receiver does (and our tests do): the timestamp is recent, and one of the
    header's space-separated signatures matches, compared in constant time."""
    if not (timestamp.isascii() and timestamp.isdigit()):
        return False
    if abs(now - int(timestamp)) > tolerance:
        return False
    expected = signature(key, int(timestamp), body)
    return any(hmac.compare_digest(expected, given) for given in header.split())

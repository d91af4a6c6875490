"""Rate limits key on the client's address; forwarded headers count only from trusted
proxies (ARBITER_TRUSTED_PROXIES). A state database that does not answer is a 503."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from ingest.settings import Settings
from web import LocalServices, create_app


def _client(default_settings: Settings, web_services: LocalServices, tmp_path: Path,
            peer: str, **overrides: object) -> TestClient:
    settings = default_settings.model_copy(
        update={"rate_limit_per_minute": 1, "db_path": tmp_path / "limits.sqlite3", **overrides}
    )
    return TestClient(create_app(settings, services=web_services), client=(peer, 40000))


def test_forwarded_for_from_an_untrusted_peer_is_ignored(
    default_settings: Settings, web_services: LocalServices, tmp_path: Path
) -> None:
    c = _client(default_settings, web_services, tmp_path, "198.51.100.9")
    assert c.get("/v1/games", headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 200
    # A new forwarded address does not buy a new bucket: the peer is the client.
    assert c.get("/v1/games", headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 429


def test_clients_behind_a_trusted_proxy_get_their_own_buckets(
    default_settings: Settings, web_services: LocalServices, tmp_path: Path
) -> None:
    c = _client(default_settings, web_services, tmp_path, "10.1.2.3",
                trusted_proxies=["10.0.0.0/8"])
    assert c.get("/v1/games", headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 200
    assert c.get("/v1/games", headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 429
    assert c.get("/v1/games", headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 200
    # The client is the rightmost untrusted hop: an address the client itself put in front
    # (spoofed) changes nothing, and a second trusted proxy hop is skipped.
    spoofed = {"X-Forwarded-For": "192.0.2.77, 203.0.113.1, 10.9.9.9"}
    assert c.get("/v1/games", headers=spoofed).status_code == 429
    # Without a forwarded header the proxy itself is the client.
    assert c.get("/v1/games").status_code == 200


def test_trusted_proxies_must_be_addresses_or_networks() -> None:
    with pytest.raises(ValidationError, match="proxy.example"):
        Settings(trusted_proxies="10.0.0.1,proxy.example")  # type: ignore[arg-type]
    assert Settings(trusted_proxies="10.0.0.1, fd00::/8").trusted_proxies == [  # type: ignore[arg-type]
        "10.0.0.1", "fd00::/8"
    ]


def test_unreachable_state_database_answers_503_with_retry_after(
    default_settings: Settings, web_services: LocalServices, tmp_path: Path
) -> None:
    # Nothing listens on port 9: the rate limiter cannot reach its table.
    c = _client(default_settings, web_services, tmp_path, "198.51.100.9",
                database_url="postgresql://arbiter@127.0.0.1:9/arbiter")
    reply = c.get("/v1/games")
    assert reply.status_code == 503
    assert reply.headers["Retry-After"] == "5" and "database" in reply.json()["detail"]["message"]

"""Signature checks on POST /discord/interactions: Ed25519 over timestamp + raw body."""

from __future__ import annotations

import json
import time

import pytest
from discord_fakes import FakeServices, make_app, make_settings, signed_headers
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from web.discord.validate import response_problems

PING = json.dumps({"id": "1", "application_id": "123456", "type": 1, "token": "t", "version": 1}).encode()
URL = "/discord/interactions"


def test_signed_ping_gets_pong(client: TestClient, signing_key: SigningKey) -> None:
    reply = client.post(URL, content=PING, headers=signed_headers(signing_key, PING))
    assert reply.status_code == 200
    assert reply.json() == {"type": 1}
    assert response_problems(reply.json()) == []


def test_tampered_body_rejected(client: TestClient, signing_key: SigningKey) -> None:
    headers = signed_headers(signing_key, PING)
    tampered = PING.replace(b'"type": 1', b'"type": 2')
    assert tampered != PING
    assert client.post(URL, content=tampered, headers=headers).status_code == 401


def test_wrong_key_rejected(client: TestClient) -> None:
    other = SigningKey.generate()
    assert client.post(URL, content=PING, headers=signed_headers(other, PING)).status_code == 401


def test_signature_over_other_timestamp_rejected(client: TestClient, signing_key: SigningKey) -> None:
    headers = signed_headers(signing_key, PING)
    headers["X-Signature-Timestamp"] = str(int(headers["X-Signature-Timestamp"]) + 1)
    assert client.post(URL, content=PING, headers=headers).status_code == 401


@pytest.mark.parametrize("missing", ["X-Signature-Ed25519", "X-Signature-Timestamp", "both"])
def test_missing_headers_rejected(client: TestClient, signing_key: SigningKey, missing: str) -> None:
    headers = signed_headers(signing_key, PING)
    for name in ("X-Signature-Ed25519", "X-Signature-Timestamp"):
        if missing in (name, "both"):
            del headers[name]
    reply = client.post(URL, content=PING, headers=headers)
    assert reply.status_code == 401
    assert "signature" in reply.json()["error"]


@pytest.mark.parametrize("bad", ["zz" * 64, "abc", "", "00" * 63, "00" * 65, "ñ" * 10])
def test_malformed_signature_rejected(client: TestClient, signing_key: SigningKey, bad: str) -> None:
    headers = signed_headers(signing_key, PING)
    headers["X-Signature-Ed25519"] = bad
    assert client.post(URL, content=PING, headers={k.encode(): v.encode("utf-8")
                                                      for k, v in headers.items()}).status_code == 401


@pytest.mark.parametrize("offset", [-301, 301, -86_400, 86_400])
def test_stale_and_future_timestamps_rejected(client: TestClient, signing_key: SigningKey,
                                              offset: int) -> None:
    headers = signed_headers(signing_key, PING, int(time.time()) + offset)
    assert client.post(URL, content=PING, headers=headers).status_code == 401


def test_timestamp_inside_window_accepted(client: TestClient, signing_key: SigningKey) -> None:
    headers = signed_headers(signing_key, PING, int(time.time()) - 200)
    assert client.post(URL, content=PING, headers=headers).status_code == 200


def test_non_numeric_timestamp_rejected(client: TestClient, signing_key: SigningKey) -> None:
    headers = signed_headers(signing_key, PING, "yesterday")
    assert client.post(URL, content=PING, headers=headers).status_code == 401


def test_window_is_configurable(signing_key: SigningKey, fake: FakeServices) -> None:
    tight = TestClient(make_app(make_settings(signing_key, discord_timestamp_window=5), fake))
    headers = signed_headers(signing_key, PING, int(time.time()) - 60)
    assert tight.post(URL, content=PING, headers=headers).status_code == 401


def test_unsigned_garbage_is_401_not_400(client: TestClient) -> None:
    # Nothing is parsed before the signature is checked.
    assert client.post(URL, content=b"{not json").status_code == 401


def test_unconfigured_key_answers_503(signing_key: SigningKey, fake: FakeServices) -> None:
    app = make_app(make_settings(signing_key, discord_public_key=None), fake)
    reply = TestClient(app).post(URL, content=PING, headers=signed_headers(signing_key, PING))
    assert reply.status_code == 503
    assert "ARBITER_DISCORD_PUBLIC_KEY" in reply.json()["error"]


def test_malformed_configured_key_answers_503(signing_key: SigningKey, fake: FakeServices) -> None:
    app = make_app(make_settings(signing_key, discord_public_key="not-hex"), fake)
    reply = TestClient(app).post(URL, content=PING, headers=signed_headers(signing_key, PING))
    assert reply.status_code == 503
    assert "hex" in reply.json()["error"]


def test_oversized_body_refused(client: TestClient, signing_key: SigningKey) -> None:
    body = b'{"type": 1, "pad": "' + b"x" * 70_000 + b'"}'
    assert client.post(URL, content=body, headers=signed_headers(signing_key, body)).status_code == 413

"""The deferred /rules path end to end: type 5 first, then a PATCH to a local fake Discord."""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

import httpx
import pytest
from discord_fakes import (
    FakeDiscord,
    FakeServices,
    LiveServer,
    command,
    make_app,
    make_settings,
    signed_headers,
)
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from assistant.answer import Answer, Citation
from web.discord.validate import message_problems, response_problems

URL = "/discord/interactions"


def send(client: TestClient, key: SigningKey, payload: dict[str, Any]) -> Any:
    body = json.dumps(payload).encode()
    return client.post(URL, content=body, headers=signed_headers(key, body))


def test_deferred_answer_arrives_as_valid_patch(signing_key: SigningKey, fake: FakeServices,
                                               fake_discord: FakeDiscord) -> None:
    settings = make_settings(signing_key, discord_api_base=fake_discord.url)
    client = TestClient(make_app(settings, fake))
    reply = send(client, signing_key, command("rules", {"question": "Does it target?", "game": "alpha"},
                                              token="tok-xyz"))
    assert reply.json() == {"type": 5}
    [request] = fake_discord.wait(1)
    assert request["method"] == "PATCH"
    assert request["path"] == "/webhooks/123456/tok-xyz/messages/@original"
    body = request["json"]
    assert message_problems(body, edit=True) == []
    assert body["content"] == "**Ruling: No**"
    embed = body["embeds"][0]
    assert embed["title"] == "Does it target?"
    assert embed["url"] == "https://arbiter.example/?a=ans-1"
    assert embed["fields"][0]["name"].startswith("100.1")
    assert fake.asked == [("Does it target?", "alpha")]


def test_deferred_uses_guild_default_game(signing_key: SigningKey, fake: FakeServices,
                                          fake_discord: FakeDiscord) -> None:
    fake.set_guild_game("g7", "beta")
    client = TestClient(make_app(make_settings(signing_key, discord_api_base=fake_discord.url), fake))
    send(client, signing_key, command("rules", {"question": "Which?"}, guild="g7"))
    fake_discord.wait(1)
    assert fake.asked == [("Which?", "beta")]


def test_unknown_game_follow_up_is_polite(signing_key: SigningKey, fake: FakeServices,
                                          fake_discord: FakeDiscord) -> None:
    client = TestClient(make_app(make_settings(signing_key, discord_api_base=fake_discord.url), fake))
    send(client, signing_key, command("rules", {"question": "Q?", "game": "zeta", "private": True}))
    [request] = fake_discord.wait(1)
    assert message_problems(request["json"], edit=True) == []
    assert "zeta" in request["json"]["content"] and "`alpha`" in request["json"]["content"]
    assert "flags" not in request["json"]  # ephemerality was set by the deferred response


def test_huge_answer_patch_stays_within_limits(signing_key: SigningKey, fake_discord: FakeDiscord) -> None:
    def huge(question: str, game: str | None) -> Answer:
        return Answer(question=question * 50, verdict="yes", answer="Yes. " + "ü😀 word " * 3000,
                      citations=[Citation(doc="d" * 300, rule="1." * 200, quote="q " * 2000)] * 40,
                      answer_id="big")
    client = TestClient(make_app(make_settings(signing_key, discord_api_base=fake_discord.url),
                                 FakeServices(huge)))
    send(client, signing_key, command("rules", {"question": "long question " * 30}))
    [request] = fake_discord.wait(1)
    assert message_problems(request["json"], edit=True) == []
    assert "https://arbiter.example/?a=big" in request["json"]["embeds"][0]["description"]


def test_endpoint_answers_before_the_slow_answer_is_ready(signing_key: SigningKey, fake: FakeServices,
                                                          fake_discord: FakeDiscord) -> None:
    """Served by uvicorn for real: the type 5 reply comes back while ``ask`` is still blocked,
    so the answer never holds up the endpoint (nor the event loop: a PING also gets through)."""
    fake.ask_gate = threading.Event()
    app = make_app(make_settings(signing_key, discord_api_base=fake_discord.url), fake)
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=20) as http:
        body = json.dumps(command("rules", {"question": "Slow?"})).encode()
        first = http.post(URL, content=body, headers=signed_headers(signing_key, body))
        assert first.json() == {"type": 5}
        assert fake_discord.requests == []  # the answer is still being worked out
        ping = json.dumps({"type": 1, "id": "2", "application_id": "1", "token": "t"}).encode()
        assert http.post(URL, content=ping, headers=signed_headers(signing_key, ping)).json() == {"type": 1}
        fake.ask_gate.set()
        [request] = fake_discord.wait(1)
    assert response_problems(first.json()) == []
    assert message_problems(request["json"], edit=True) == []


def test_failed_patch_is_logged_not_raised(signing_key: SigningKey, fake: FakeServices,
                                           caplog: pytest.LogCaptureFixture) -> None:
    rejecting = FakeDiscord(patch_status=404)
    with LiveServer(rejecting.app) as server:
        client = TestClient(make_app(make_settings(signing_key, discord_api_base=server.url), fake))
        with caplog.at_level(logging.WARNING, logger="arbiter.discord"):
            reply = send(client, signing_key, command("rules", {"question": "Q?"}))
            rejecting.wait(1)
    assert reply.json() == {"type": 5}
    assert len(rejecting.requests) == 1
    assert any("404" in r.getMessage() for r in caplog.records)


def test_unreachable_discord_is_logged_not_raised(signing_key: SigningKey, fake: FakeServices,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    client = TestClient(make_app(make_settings(signing_key), fake))  # api base: nothing listens
    with caplog.at_level(logging.WARNING, logger="arbiter.discord"):
        reply = send(client, signing_key, command("rules", {"question": "Q?"}))
    assert reply.status_code == 200
    assert any("follow-up failed" in r.getMessage() for r in caplog.records)


def test_ask_crash_still_patches_an_apology(signing_key: SigningKey, fake_discord: FakeDiscord) -> None:
    def boom(question: str, game: str | None) -> Answer:
        raise RuntimeError("engine exploded")
    client = TestClient(make_app(make_settings(signing_key, discord_api_base=fake_discord.url),
                                 FakeServices(boom)))
    send(client, signing_key, command("rules", {"question": "Q?"}))
    [request] = fake_discord.wait(1)
    assert "Sorry" in request["json"]["content"]
    assert message_problems(request["json"], edit=True) == []

"""Slash commands through the endpoint, with a fake ArbiterServices behind the seam."""

from __future__ import annotations

import json
from typing import Any

import pytest
from discord_fakes import FakeServices, command, make_app, make_settings, signed_headers
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from web.discord import command_definitions, command_problems
from web.discord.validate import response_problems

URL = "/discord/interactions"
MANAGE_GUILD = 1 << 5


def post(client: TestClient, key: SigningKey, payload: Any) -> Any:
    body = json.dumps(payload).encode()
    reply = client.post(URL, content=body, headers=signed_headers(key, body))
    if reply.status_code == 200:
        assert response_problems(reply.json()) == [], reply.json()
    return reply


def test_command_definitions_follow_discord_rules() -> None:
    defs = command_definitions()
    assert [c["name"] for c in defs] == ["rules", "rule", "card", "games", "rules-setup"]
    for c in defs:
        assert command_problems(c) == []
    setup = next(c for c in defs if c["name"] == "rules-setup")
    assert setup["default_member_permissions"] == str(MANAGE_GUILD)
    rules = next(c for c in defs if c["name"] == "rules")
    assert [(o["name"], o["type"]) for o in rules["options"]] == [("question", 3), ("game", 3), ("private", 5)]
    # Rule numbers and card names are offered as they are typed (autocomplete interactions).
    for name, option in (("rule", "number"), ("card", "name")):
        cmd = next(c for c in defs if c["name"] == name)
        assert next(o for o in cmd["options"] if o["name"] == option)["autocomplete"] is True


def test_rules_is_deferred(client: TestClient, signing_key: SigningKey) -> None:
    reply = post(client, signing_key, command("rules", {"question": "Can I do it?"}))
    assert reply.json() == {"type": 5}


def test_private_rules_is_deferred_ephemeral(client: TestClient, signing_key: SigningKey) -> None:
    reply = post(client, signing_key, command("rules", {"question": "Can I?", "private": True}))
    assert reply.json() == {"type": 5, "data": {"flags": 64}}


def test_rule_shows_rule_and_subrules(client: TestClient, signing_key: SigningKey) -> None:
    reply = post(client, signing_key, command("rule", {"number": "100.1", "game": "alpha"}))
    embed = reply.json()["data"]["embeds"][0]
    assert embed["title"].startswith("100.1")
    assert embed["description"] == "Synthetic rule text one."
    assert [f["name"] for f in embed["fields"]] == ["100.1.a"]
    assert "flags" not in reply.json()["data"]


def test_rule_private_is_ephemeral(client: TestClient, signing_key: SigningKey) -> None:
    reply = post(client, signing_key, command("rule", {"number": "100.1", "game": "alpha", "private": True}))
    assert reply.json()["data"]["flags"] == 64


def test_unknown_rule_suggests_nearest(client: TestClient, signing_key: SigningKey) -> None:
    reply = post(client, signing_key, command("rule", {"number": "100.9", "game": "alpha"}))
    data = reply.json()["data"]
    assert data["flags"] == 64
    assert "100.9" in data["content"] and "`100.1`" in data["content"]


def test_rule_unknown_game_lists_loaded(client: TestClient, signing_key: SigningKey) -> None:
    data = post(client, signing_key, command("rule", {"number": "1", "game": "zeta"})).json()["data"]
    assert "zeta" in data["content"] and "`alpha`" in data["content"] and data["flags"] == 64


def test_rule_without_game_uses_guild_default(client: TestClient, signing_key: SigningKey,
                                              fake: FakeServices) -> None:
    no_default = post(client, signing_key, command("rule", {"number": "100.1"})).json()["data"]
    assert "Which game" in no_default["content"]
    fake.set_guild_game("g1", "alpha")
    found = post(client, signing_key, command("rule", {"number": "100.1"})).json()["data"]
    assert found["embeds"][0]["title"].startswith("100.1")


def test_games_lists_loaded(client: TestClient, signing_key: SigningKey) -> None:
    data = post(client, signing_key, command("games")).json()["data"]
    names = [f["name"] for f in data["embeds"][0]["fields"]]
    assert any("alpha" in n for n in names) and any("beta" in n for n in names)
    assert data["flags"] == 64


@pytest.mark.parametrize("permissions", [0, 1 << 4, (1 << 6) | (1 << 10)])
def test_setup_refused_without_manage_guild(client: TestClient, signing_key: SigningKey,
                                            fake: FakeServices, permissions: int) -> None:
    reply = post(client, signing_key, command("rules-setup", {"game": "alpha"}, permissions=permissions))
    data = reply.json()["data"]
    assert data["flags"] == 64 and "Manage Server" in data["content"]
    assert fake.guild_games == {}


@pytest.mark.parametrize("permissions", [MANAGE_GUILD, MANAGE_GUILD | 1, 1 << 3])
def test_setup_allowed_for_managers(client: TestClient, signing_key: SigningKey,
                                    fake: FakeServices, permissions: int) -> None:
    reply = post(client, signing_key, command("rules-setup", {"game": "beta"}, permissions=permissions))
    assert reply.json()["data"]["flags"] == 64
    assert fake.guild_games == {"g1": "beta"}


def test_setup_refused_in_dms(client: TestClient, signing_key: SigningKey, fake: FakeServices) -> None:
    data = post(client, signing_key, command("rules-setup", {"game": "alpha"}, guild=None)).json()["data"]
    assert "server" in data["content"] and fake.guild_games == {}


def test_setup_unknown_game(client: TestClient, signing_key: SigningKey, fake: FakeServices) -> None:
    payload = command("rules-setup", {"game": "zeta"}, permissions=MANAGE_GUILD)
    data = post(client, signing_key, payload).json()["data"]
    assert "zeta" in data["content"] and fake.guild_games == {}


def test_rate_limit_is_per_user_and_polite(signing_key: SigningKey, fake: FakeServices) -> None:
    client = TestClient(make_app(make_settings(signing_key, discord_rate_limit_per_minute=2), fake))
    first = [post(client, signing_key, command("rules", {"question": f"q{i}?"}, user="u1")).json()
             for i in range(3)]
    assert [r["type"] for r in first] == [5, 5, 4]
    assert first[2]["data"]["flags"] == 64
    assert "try again" in first[2]["data"]["content"]
    other = post(client, signing_key, command("rules", {"question": "q?"}, user="u2")).json()
    assert other["type"] == 5


@pytest.mark.parametrize("payload", [
    command("frobnicate"),
    {"type": 3, "id": "1", "application_id": "1", "token": "t", "data": {"name": "x"}},
    {"type": 2, "id": "1"},
    [1, 2, 3],
    {"type": "ping"},
    command("rules", {}),
])
def test_unhandled_payloads_get_400_json(client: TestClient, signing_key: SigningKey, payload: Any) -> None:
    reply = post(client, signing_key, payload)
    assert reply.status_code == 400
    assert reply.json()["error"]


def test_malformed_json_after_valid_signature_is_400(client: TestClient, signing_key: SigningKey) -> None:
    body = b'{"type": 1,'
    reply = client.post(URL, content=body, headers=signed_headers(signing_key, body))
    assert reply.status_code == 400 and "JSON" in reply.json()["error"]


def test_failing_services_answer_politely(signing_key: SigningKey) -> None:
    def broken() -> FakeServices:
        raise RuntimeError("index not built")

    from fastapi import FastAPI

    from web.discord import build_router

    app = FastAPI()
    app.include_router(build_router(make_settings(signing_key), broken))
    reply = post(TestClient(app), signing_key, command("games"))
    assert reply.status_code == 200
    assert reply.json()["data"]["flags"] == 64


def test_overlong_question_refused_politely(signing_key: SigningKey, fake: FakeServices) -> None:
    client = TestClient(make_app(make_settings(signing_key, max_question_chars=20), fake))
    data = post(client, signing_key, command("rules", {"question": "word " * 10})).json()["data"]
    assert data["flags"] == 64 and "too long" in data["content"]
    assert fake.asked == []

"""Discord through the real app: create_app, the real services, index and
assistant, a real SQLite store, and a local fake Discord HTTP server."""

from __future__ import annotations

import json

from discord_fakes import FakeDiscord, command, signed_headers
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from ingest.settings import Settings
from web import LocalServices, create_app
from web.discord import response_problems


def _post(client: TestClient, key: SigningKey, payload: dict) -> dict:  # type: ignore[type-arg]
    body = json.dumps(payload).encode()
    response = client.post("/discord/interactions", content=body, headers=signed_headers(key, body))
    assert response.status_code == 200, response.text
    data: dict = response.json()  # type: ignore[type-arg]
    assert response_problems(data) == []
    return data


def test_rules_rule_and_setup_through_the_real_app(
    default_settings: Settings, web_services: LocalServices, fake_discord: FakeDiscord
) -> None:
    key = SigningKey.generate()
    settings = default_settings.model_copy(
        update={
            "discord_public_key": key.verify_key.encode().hex(),
            "discord_api_base": fake_discord.url,
            "public_base_url": "https://arbiter.example",
        }
    )
    with TestClient(create_app(settings, services=web_services)) as client:
        assert _post(client, key, {"type": 1})["type"] == 1  # PING -> PONG

        rule = _post(client, key, command("rule", {"number": "11.4", "game": "momon-wonder"}))
        assert rule["type"] == 4
        assert "11.4.1" in json.dumps(rule)

        # Only managers may set the server's default game (MANAGE_GUILD = 1 << 5).
        refused = _post(client, key, command("rules-setup", {"game": "riftbound"}, permissions=0))
        assert refused["data"]["flags"] & 64
        assert web_services.guild_game("g1") is None
        _post(client, key, command("rules-setup", {"game": "riftbound"}, permissions=1 << 5))
        assert web_services.guild_game("g1") == "riftbound"

        deferred = _post(
            client, key, command("rules", {"question": 'Does "Kill a unit" target the unit?'})
        )
        assert deferred["type"] == 5
        patch = fake_discord.wait(1)[-1]
        assert patch["method"] == "PATCH"
        message = patch["json"]
        text = json.dumps(message)
        assert message["content"] == "**Ruling: Yes**"
        assert "riftbound-targets-guide" in text  # the citation, from the real assistant
        assert "https://arbiter.example/?a=" in text
        answer_id = text.split("https://arbiter.example/?a=")[1][:32]
        stored = web_services.get_answer(answer_id)
        assert stored is not None and stored.game == "riftbound"

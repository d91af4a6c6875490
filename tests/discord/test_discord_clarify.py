"""Clarifications on Discord through the real app (real services, index and assistant; real
Ed25519 signatures): the options are buttons, a click asks the option and the ruling
follows, private when the question was; /card and autocomplete for /rule and /card."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from discord_fakes import FakeDiscord, command, signed_headers
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

from assistant.answer import Answer, AskBody, Clarify, ClarifyOption
from ingest.settings import Settings
from web import LocalServices, create_app
from web.discord import response_problems
from web.discord.components import choice_components, component_problems, parse_choice
from web.discord.validate import message_problems

UNDETECTED = "modal ability - can I wait until resolution to pick the mode?"


def _post(client: TestClient, key: SigningKey, payload: dict, status: int = 200) -> dict:  # type: ignore[type-arg]
    body = json.dumps(payload).encode()
    response = client.post("/discord/interactions", content=body, headers=signed_headers(key, body))
    assert response.status_code == status, response.text
    data: dict = response.json()  # type: ignore[type-arg]
    if status == 200:
        assert response_problems(data) == []
    return data


def _click(custom_id: str, flags: int, token: str) -> dict:  # type: ignore[type-arg]
    payload = command("unused", token=token)
    payload["type"] = 3
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    payload["message"] = {"id": "55", "flags": flags}
    return payload


def _autocomplete(name: str, options: dict[str, object], focused: str) -> dict:  # type: ignore[type-arg]
    payload = command(name, options)
    payload["type"] = 4
    for o in payload["data"]["options"]:
        o["focused"] = o["name"] == focused
    return payload


def _settings(base: Settings, key: SigningKey, discord_url: str) -> Settings:
    return base.model_copy(update={"discord_public_key": key.verify_key.encode().hex(),
                                   "discord_api_base": discord_url, "public_base_url": "https://arbiter.example"})


def test_a_private_question_offers_buttons_and_a_click_rules_privately(
    default_settings: Settings, web_services: LocalServices, fake_discord: FakeDiscord
) -> None:
    key = SigningKey.generate()
    with TestClient(create_app(_settings(default_settings, key, fake_discord.url), services=web_services)) as client:
        deferred = _post(client, key, command("rules", {"question": UNDETECTED, "private": True}, token="t-ask"))
        assert deferred == {"type": 5, "data": {"flags": 64}}
        message = fake_discord.wait(1)[-1]["json"]
        assert message_problems(message, edit=True) == []
        assert "I can't tell which game this is about. Which one is it?" in message["content"]
        buttons = message["components"][0]["components"]
        assert 1 <= len(buttons) <= 5 and all(b["type"] == 2 for b in buttons)
        riftbound = next(b for b in buttons if b["label"] == "Riftbound")

        # The click: signed like every interaction; ephemeral because its message was.
        reply = _post(client, key, _click(riftbound["custom_id"], 64, "t-click"))
        assert reply == {"type": 5, "data": {"flags": 64}}
        patch = fake_discord.wait(2)[-1]
        assert "t-click" in patch["path"]
        ruled = patch["json"]
        assert ruled["content"] == "**Ruling: No**" and "components" not in ruled
        assert ruled["embeds"][0]["footer"]["text"] == "Arbiter · riftbound"

        # A public message's click answers publicly.
        assert _post(client, key, _click(riftbound["custom_id"], 0, "t-public")) == {"type": 5}
        fake_discord.wait(3)

        # A stale choice is a polite private notice; a foreign custom_id is refused.
        stale = _post(client, key, _click("clarify:nosuchanswer:0", 0, "t-stale"))
        assert stale["type"] == 4 and stale["data"]["flags"] & 64 and "no longer available" in stale["data"]["content"]
        assert "error" in _post(client, key, _click("other:thing", 0, "t-bad"), status=400)


def test_rule_numbers_autocomplete(default_settings: Settings, web_services: LocalServices) -> None:
    key = SigningKey.generate()
    with TestClient(create_app(_settings(default_settings, key, "http://127.0.0.1:9"), services=web_services)) as client:
        got = _post(client, key, _autocomplete("rule", {"number": "355.1", "game": "riftbound"}, "number"))
        names = [c["name"] for c in got["data"]["choices"]]
        assert got["type"] == 8 and "355.1" in names and "355.14" in names
        assert all(n.startswith("355.1") for n in names) and len(names) <= 25
        none = _post(client, key, _autocomplete("rule", {"number": "zzz", "game": "riftbound"}, "number"))
        assert none["data"]["choices"] == []
        chess = _post(client, key, _autocomplete("rule", {"number": "1", "game": "chess"}, "number"))
        assert chess["data"]["choices"] == []
        # No game given (and no server default): the numbers of every loaded game.
        anywhere = _post(client, key, _autocomplete("rule", {"number": "11.4."}, "number"))
        assert [c["name"] for c in anywhere["data"]["choices"]][:1] == ["11.4.1"]


@pytest.fixture(scope="module")
def card_services(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> LocalServices:
    """The default corpus plus Riftbound's card data (copied to a tmp folder), ingested."""
    from ingest import ingest, open_index

    base = tmp_path_factory.mktemp("cards")
    corpus = base / "corpus"
    shutil.copytree(shared_dir / "corpus", corpus)
    cards = "riftbound-cards-riftboundoc-2026-03-28.json"
    shutil.copy(shared_dir / "corpus-extra" / cards, corpus / cards)
    with (corpus / "corpus.toml").open("a", encoding="utf-8") as f:
        f.write(f'\n[[cards]]\npath = "{cards}"\ngame = "riftbound"\n')
    settings = Settings(corpus=[corpus], index_dir=base / "index", db_path=base / "a.sqlite3",
                        rate_limit_per_minute=0, chroma_url=None)
    assert not ingest(settings).errors
    return LocalServices(settings, index=open_index(settings))


def test_card_shows_its_text_and_rules_and_names_autocomplete(card_services: LocalServices) -> None:
    key = SigningKey.generate()
    settings = _settings(card_services.settings, key, "http://127.0.0.1:9")
    with TestClient(create_app(settings, services=card_services)) as client:
        got = _post(client, key, _autocomplete("card", {"name": "thermo", "game": "riftbound"}, "name"))
        assert [c["name"] for c in got["data"]["choices"]] == ["Thermo Beam"]
        card = _post(client, key, command("card", {"name": "thermo beam", "game": "riftbound"}))
        embed = card["data"]["embeds"][0]
        found = card_services.index.card("Thermo Beam", "riftbound")
        assert embed["title"] == "Thermo Beam" and found is not None and found.text[:40] in embed["description"]
        assert embed.get("fields"), "the rules on its choices"
        missing = _post(client, key, command("card", {"name": "No Such Card", "game": "riftbound"}))
        assert missing["data"]["flags"] & 64 and "don't know a card" in missing["data"]["content"]


def test_more_than_five_choices_become_one_select_menu() -> None:
    options = [ClarifyOption(label=f"Option {n}", ask=AskBody(question=f"q{n}")) for n in range(5)]
    answer = Answer(question="q", answer_id="abc123", clarify=Clarify(prompt="Which?", options=options))
    rows = choice_components(answer)
    assert [c["type"] for c in rows[0]["components"]] == [2] * 5 and component_problems(rows) == []
    assert parse_choice(rows[0]["components"][3]["custom_id"], []) == ("abc123", 3)
    many = answer.model_copy(update={"clarify": Clarify.model_construct(prompt="Which?", options=options * 2)})
    rows = choice_components(many)
    select = rows[0]["components"][0]
    assert select["type"] == 3 and len(select["options"]) == 10 and component_problems(rows) == []
    assert parse_choice(select["custom_id"], ["7"]) == ("abc123", 7)
    assert parse_choice("clarify:abc123", []) is None

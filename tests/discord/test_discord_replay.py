"""An exact replay of a signed interaction inside the signature window is refused: each
interaction id is accepted once, by every app sharing the state database. Real Ed25519
signatures throughout."""

from __future__ import annotations

import json

from discord_fakes import FakeServices, command, make_app, make_settings, signed_headers
from fastapi.testclient import TestClient
from nacl.signing import SigningKey

URL = "/discord/interactions"


def test_exact_replay_inside_the_window_is_refused(signing_key: SigningKey, fake: FakeServices) -> None:
    client = TestClient(make_app(make_settings(signing_key), fake))
    body = json.dumps(command("rules-setup", {"game": "beta"}, permissions=1 << 5)).encode()
    headers = signed_headers(signing_key, body)
    assert client.post(URL, content=body, headers=headers).status_code == 200
    assert fake.guild_games == {"g1": "beta"}
    fake.guild_games.clear()
    replay = client.post(URL, content=body, headers=headers)
    assert replay.status_code == 409 and "already received" in replay.json()["error"]
    assert fake.guild_games == {}  # the replay did nothing


def test_replay_sent_to_another_app_on_the_same_database_is_refused(
    signing_key: SigningKey, fake: FakeServices
) -> None:
    settings = make_settings(signing_key)
    first, second = (TestClient(make_app(settings, fake)) for _ in range(2))
    body = json.dumps(command("games")).encode()
    headers = signed_headers(signing_key, body)
    assert first.post(URL, content=body, headers=headers).status_code == 200
    assert second.post(URL, content=body, headers=headers).status_code == 409


def test_a_new_interaction_with_the_same_content_is_accepted(
    signing_key: SigningKey, fake: FakeServices
) -> None:
    client = TestClient(make_app(make_settings(signing_key), fake))
    for _ in range(2):  # each command() carries a fresh interaction id, as Discord's do
        body = json.dumps(command("games")).encode()
        assert client.post(URL, content=body, headers=signed_headers(signing_key, body)).status_code == 200


def test_replay_with_a_forged_signature_is_still_401(signing_key: SigningKey, fake: FakeServices) -> None:
    client = TestClient(make_app(make_settings(signing_key), fake))
    body = json.dumps(command("games")).encode()
    assert client.post(URL, content=body, headers=signed_headers(SigningKey.generate(), body)).status_code == 401
    # The forged copy claimed nothing: Discord's genuine request still goes through.
    assert client.post(URL, content=body, headers=signed_headers(signing_key, body)).status_code == 200


def test_discord_limit_is_per_user_and_shared_by_apps_on_one_database(
    signing_key: SigningKey, fake: FakeServices
) -> None:
    settings = make_settings(signing_key, discord_rate_limit_per_minute=1)
    first, second = (TestClient(make_app(settings, fake)) for _ in range(2))

    def ask(client: TestClient, user: str) -> int:
        body = json.dumps(command("rules", {"question": "q?"}, user=user)).encode()
        reply: int = client.post(URL, content=body, headers=signed_headers(signing_key, body)).json()["type"]
        return reply

    assert ask(first, "u1") == 5  # deferred: answered
    assert ask(second, "u1") == 4  # the polite "try again" notice, from the other app
    assert ask(second, "u2") == 5  # another user has their own bucket

from __future__ import annotations

from collections.abc import Iterator

import pytest
from discord_fakes import FakeDiscord, FakeServices, LiveServer, make_app, make_settings
from fastapi.testclient import TestClient
from nacl.signing import SigningKey


@pytest.fixture
def signing_key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
def fake() -> FakeServices:
    return FakeServices()


@pytest.fixture
def fake_discord() -> Iterator[FakeDiscord]:
    discord = FakeDiscord()
    with LiveServer(discord.app) as server:
        discord.url = server.url  # type: ignore[attr-defined]
        yield discord


@pytest.fixture
def client(signing_key: SigningKey, fake: FakeServices) -> TestClient:
    return TestClient(make_app(make_settings(signing_key), fake))

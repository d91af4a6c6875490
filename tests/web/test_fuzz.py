"""No request may produce a 500: schemathesis drives every operation of the
OpenAPI schema (valid and invalid inputs) against the real app, index and
assistant."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from nacl.signing import SigningKey

from ingest.settings import Settings
from web import LocalServices, create_app

# The schema is read from the app itself; the services behind it are swapped in
# by the fixture below once the session index exists.
# A real (test-generated) Discord key, so the interactions endpoint is live and
# must reject every unsigned fuzz request with 401.
DISCORD_KEY = SigningKey.generate().verify_key.encode().hex()
APP = create_app(Settings(rate_limit_per_minute=0, discord_public_key=DISCORD_KEY))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(autouse=True)
def real_services(default_settings: Settings, web_services: LocalServices) -> Iterator[None]:
    APP.state.settings = default_settings.model_copy(update={"discord_public_key": DISCORD_KEY})
    APP.state.services = web_services
    yield


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case) -> None:  # type: ignore[no-untyped-def]
    response = case.call()
    assert response.status_code < 500, (
        case.method,
        case.path,
        case.body,
        response.status_code,
        response.text[:500],
    )

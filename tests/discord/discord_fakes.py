"""Test seams for the Discord tests.

``FakeServices`` stands in for the real ``ArbiterServices`` (web/services.py) so these tests
need no index; it returns ``Answer`` objects from the real model. ``FakeDiscord`` is a real
HTTP server on 127.0.0.1 that records what Arbiter sends to Discord's API.
"""

from __future__ import annotations

import itertools
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from nacl.signing import SigningKey

from assistant.answer import Answer, Citation
from ingest.models import DocumentInfo, GameInfo, Rule
from ingest.settings import Settings
from web.discord import build_router
from web.services import RuleNotFound, UnknownGame

_interaction_ids = itertools.count(900)  # Discord gives every interaction its own id


def signed_headers(key: SigningKey, body: bytes, timestamp: int | str | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    sig = key.sign(ts.encode() + body).signature.hex()
    return {"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts, "Content-Type": "application/json"}


def command(name: str, options: dict[str, Any] | None = None, *, guild: str | None = "g1",
            user: str = "u1", permissions: int = 0, token: str = "tok-1") -> dict[str, Any]:
    """A CHAT_INPUT interaction payload as Discord sends it (type 2)."""
    option_types = {bool: 5, str: 3, int: 4}
    payload: dict[str, Any] = {
        "id": str(next(_interaction_ids)), "application_id": "123456", "type": 2, "token": token, "version": 1,
        "data": {
            "id": "1", "name": name, "type": 1,
            "options": [
                {"name": k, "type": option_types[type(v)], "value": v}
                for k, v in (options or {}).items()
            ],
        },
    }
    if guild:
        payload["guild_id"] = guild
        payload["member"] = {"user": {"id": user, "username": "judge"},
                             "permissions": str(permissions)}
    else:
        payload["user"] = {"id": user, "username": "judge"}
    return payload


class FakeServices:
    """Seam: an in-memory ArbiterServices. The real one is built by the lead's create_app."""

    def __init__(self, answer_factory: Callable[[str, str | None], Answer] | None = None) -> None:
        self.games_loaded = [
            GameInfo(id="alpha", name="Alpha Game",
                     documents=[DocumentInfo(id="alpha-core", game="alpha", title="Alpha Core",
                                             version="1.0", rules=3)]),
            GameInfo(id="beta", name="Beta Game", cards=12),
        ]
        self.rules = {
            ("alpha", "100.1"): Rule(doc="alpha-core", game="alpha", number="100.1",
                                     heading="Synthetic heading", text="Synthetic rule text one."),
            ("alpha", "100.1.a"): Rule(doc="alpha-core", game="alpha", number="100.1.a",
                                       text="Synthetic child text.", parents=["100.1"]),
        }
        self.guild_games: dict[str, str] = {}
        self.asked: list[tuple[str, str | None]] = []
        self.answer_factory = answer_factory or self._default_answer
        self.ask_gate: threading.Event | None = None  # when set, ask waits for it

    def _default_answer(self, question: str, game: str | None) -> Answer:
        return Answer(
            id=None, question=question, game=game, verdict="no",
            answer="No. Synthetic explanation for the test.",
            citations=[Citation(doc="alpha-core", rule="100.1", quote="Synthetic rule text one.")],
            answer_id="ans-1", conversation_id="conv-1",
        )

    def ask(self, question: str, game: str | None = None, conversation_id: str | None = None) -> Answer:
        if self.ask_gate is not None and not self.ask_gate.wait(30):
            raise RuntimeError("test gate never opened")
        if game is not None and game not in {g.id for g in self.games_loaded}:
            raise UnknownGame(game, [g.id for g in self.games_loaded])
        self.asked.append((question, game))
        return self.answer_factory(question, game)

    def rule(self, game: str, number: str, children: bool = True) -> dict[str, Any]:
        if game not in {g.id for g in self.games_loaded}:
            raise UnknownGame(game, [g.id for g in self.games_loaded])
        rule = self.rules.get((game, number))
        if rule is None:
            near = sorted(n for g, n in self.rules if g == game and n.startswith(number.split(".")[0]))
            raise RuleNotFound(game, number, near)
        kids = [r for (g, n), r in self.rules.items() if g == game and number in r.parents]
        return {"game": game, "rule": rule, "children": kids if children else [], "editions": []}

    def games(self) -> list[GameInfo]:
        return list(self.games_loaded)

    def get_answer(self, answer_id: str) -> Answer | None:
        return None

    def guild_game(self, guild_id: str) -> str | None:
        return self.guild_games.get(guild_id)

    def set_guild_game(self, guild_id: str, game: str) -> None:
        self.guild_games[guild_id] = game


class LiveServer:
    """Serve an ASGI app with uvicorn on 127.0.0.1 (a free port) in a thread."""

    def __init__(self, app: Any) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)
        self._sock.close()


class FakeDiscord:
    """A tiny Discord API: records requests; checks the bot token on command registration."""

    def __init__(self, token: str = "good-token", patch_status: int = 200) -> None:
        self.token = token
        self.patch_status = patch_status
        self.requests: list[dict[str, Any]] = []
        self.arrived = threading.Event()
        self.url = ""  # set once served
        self.app = FastAPI()

        @self.app.patch("/webhooks/{app_id}/{token}/messages/@original")
        async def edit_original(app_id: str, token: str, request: Request) -> JSONResponse:
            self._record(request, await request.json())
            return JSONResponse({"id": "m1"}, status_code=self.patch_status)

        async def overwrite(request: Request) -> JSONResponse:
            body = await request.json()
            self._record(request, body)
            if request.headers.get("authorization") != f"Bot {self.token}":
                return JSONResponse({"message": "401: Unauthorized", "code": 0}, status_code=401)
            return JSONResponse([{**c, "id": str(i + 1)} for i, c in enumerate(body)])

        self.app.put("/applications/{app_id}/commands")(overwrite)
        self.app.put("/applications/{app_id}/guilds/{guild_id}/commands")(overwrite)

    def _record(self, request: Request, body: Any) -> None:
        self.requests.append({"method": request.method, "path": request.url.path,
                              "headers": dict(request.headers), "json": body})
        self.arrived.set()

    def wait(self, count: int = 1, timeout: float = 20.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.requests


def make_settings(key: SigningKey, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "discord_public_key": key.verify_key.encode().hex(),
        "public_base_url": "https://arbiter.example",
        "discord_api_base": "http://127.0.0.1:9",  # nothing listens: tests that PATCH override it
        "discord_rate_limit_per_minute": 100,
        # Interaction ids and rate limits live in the state database: a fresh one per app.
        "db_path": Path(tempfile.mkdtemp(prefix="arbiter-discord-")) / "state.sqlite3",
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def make_app(settings: Settings, fake: FakeServices) -> FastAPI:
    app = FastAPI()
    app.include_router(build_router(settings, lambda: fake))
    return app

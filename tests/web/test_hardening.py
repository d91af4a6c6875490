"""Hardening of the HTTP service (issue 11): start-up warm-up, security headers, no server
paths, OpenAPI completeness, HEAD, any rule string, document editions, the public base URL."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ingest.settings import Settings
from ingest.version import package_version
from web import LocalServices, create_app

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


# ---------------------------------------------------------------- item 5: warm-up
class GatedIndex:
    """An index whose model "loads" only when the test opens the gate."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate
        self.searched: list[str | None] = []

    def embed_query(self, text: str) -> list[float]:
        if not self.gate.wait(timeout=120):
            raise TimeoutError("gate never opened")
        return [1.0]

    def games(self) -> list[Any]:
        from ingest.models import GameInfo

        return [GameInfo(id="riftbound")]

    def search(self, query: str, game: str | None = None, k: int = 5) -> list[Any]:
        self.searched.append(game)
        return []


class RecordingAssistant:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def ask(self, question: str, **_: Any) -> Any:
        self.asked.append(question)
        return None

    def prepare(self) -> None:
        self.asked.append("(prepared)")


def test_readyz_turns_ready_only_after_the_start_up_warm_up(default_settings: Settings) -> None:
    gate = threading.Event()
    index, assistant = GatedIndex(gate), RecordingAssistant()
    svc = LocalServices(default_settings, index=index, assistant=assistant)
    with TestClient(create_app(default_settings, services=svc)) as c:
        assert c.get("/healthz").status_code == 200  # alive while warming
        waiting = c.get("/readyz")
        assert waiting.status_code == 503
        assert "warming up" in waiting.json()["detail"]["reason"]
        assert waiting.headers["retry-after"]
        gate.set()
        assert svc.wait_warm(timeout=120)
        # Everything the first answer needs ran at start-up, before any question.
        assert assistant.asked and index.searched == [None, "riftbound"]
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"


# ---------------------------------------------------------------- item 6: headers
def test_page_sends_security_headers_and_has_no_inline_script(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    h = page.headers
    csp = {d.split()[0]: d.split()[1:] for d in h["content-security-policy"].split("; ")}
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline': the page has no inline script
    assert csp["frame-ancestors"] == ["'none'"]
    assert h["x-frame-options"] == "DENY"
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"
    assert not re.search(r"<script(?![^>]*\bsrc=)", page.text)  # every script is a file
    for path in ("/static/app.js", "/v1/games", "/docs"):
        assert client.get(path).headers["x-content-type-options"] == "nosniff", path


# ---------------------------------------------------------------- item 9: no paths
def test_games_show_document_ids_titles_versions_never_server_paths(
    client: TestClient, default_settings: Settings
) -> None:
    body = client.get("/v1/games")
    assert body.status_code == 200
    text = body.text
    corpus = str(default_settings.corpus[0])
    assert corpus not in text and str(Path(corpus).parent) not in text
    assert not re.search(r'"(/|[A-Za-z]:\\\\)[^"]*\.(txt|md|pdf|html|json)"', text)
    for game in body.json()["games"]:
        for doc in game["documents"]:
            assert "path" not in doc
            assert doc["id"] and doc["title"] and "rules" in doc and "version" in doc


# ---------------------------------------------------------------- item 11: OpenAPI
def test_openapi_documents_examples_errors_answer_fields_and_check_body(
    client: TestClient,
) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["info"]["version"] == package_version()
    schemas = spec["components"]["schemas"]
    answer_ref = spec["paths"]["/v1/ask"]["post"]["responses"]["200"]["content"][
        "application/json"]["schema"]["$ref"]
    for prop, value in schemas[answer_ref.rsplit("/", 1)[-1]]["properties"].items():
        assert value.get("description"), f"Answer.{prop} has no description"
    check = spec["paths"]["/v1/check"]["post"]
    body = check["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/Scenario")
    assert body["examples"]
    codes: set[str] = set()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            codes |= set(op["responses"])
            params = [
                p for p in op.get("parameters", [])
                if p.get("example") or p.get("examples") or p["schema"].get("examples")
            ]
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            ok = op["responses"].get("200", {}).get("content", {}).get("application/json", {})
            ref = (content.get("schema") or ok.get("schema") or {}).get("$ref", "")
            model = schemas.get(ref.rsplit("/", 1)[-1], {})
            has_example = bool(
                params or content.get("examples") or ok.get("example") or model.get("examples")
            )
            assert has_example, f"{method.upper()} {path} has no example"
    assert {"404", "413", "422", "429", "503"} <= codes
    ask = spec["paths"]["/v1/ask"]["post"]["responses"]
    assert {"404", "413", "422", "429", "503"} <= set(ask)


# ---------------------------------------------------------------- item 13: HEAD
def test_head_on_the_page_is_allowed(client: TestClient) -> None:
    head = client.head("/")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/html")
    assert head.content == b""


# ---------------------------------------------------------------- item 3: any rule string
@pytest.mark.parametrize(
    "rule",
    ["9" * 4301, "1." + "9" * 5000, "x" * 5000, "%00", "355.14%20OR%201=1", "\u00e9" * 3000],
)
def test_any_rule_string_is_not_found_with_suggestions(client: TestClient, rule: str) -> None:
    response = client.get(f"/v1/rules/riftbound/{rule}")
    assert response.status_code in (404, 422), response.text[:300]
    if response.status_code == 404:
        assert response.json()["detail"]["suggestions"]


# ---------------------------------------------------------------- item 15: ?doc=
def _editions_index(tmp_path: Path) -> tuple[Settings, Any]:
    from ingest import ingest, open_index

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "old.txt").write_text(
        "Demo Rules\n\n101. Old rule.\n101.1. Old detail about zebras.\n102. Old other.\n"
    )
    (corpus / "new.txt").write_text(
        "Demo Rules\n\n101. New rule.\n101.1. New detail about okapis.\n102. New other.\n"
    )
    (corpus / "corpus.toml").write_text(
        '[games.demo]\nname = "Demo"\n\n'
        '[[documents]]\npath = "old.txt"\nid = "demo-old"\ngame = "demo"\ntitle = "Old"\n'
        'numbered = true\nupdated = "2020-01-01"\n\n'
        '[[documents]]\npath = "new.txt"\nid = "demo-new"\ngame = "demo"\ntitle = "New"\n'
        'numbered = true\nupdated = "2026-01-01"\n'
    )
    settings = Settings(
        corpus=[corpus], index_dir=tmp_path / "idx", db_path=tmp_path / "db.sqlite3",
        rate_limit_per_minute=0, warm_on_start=False,
    )
    summary = ingest(settings, embed=lambda texts: [[1.0] + [0.0] * 383 for _ in texts])
    assert not summary.errors, summary.errors
    return settings, open_index(settings)


def test_rule_lookup_honours_the_requested_document(tmp_path: Path) -> None:
    settings, index = _editions_index(tmp_path)
    svc = LocalServices(settings, index=index)
    with TestClient(create_app(settings, services=svc)) as c:
        got = c.get("/v1/rules/demo/101.1")
        assert got.status_code == 200, got.text
        newest = got.json()
        assert newest["rule"]["doc"] == "demo-new" and "okapis" in newest["rule"]["text"]
        old = c.get("/v1/rules/demo/101", params={"doc": "demo-old"}).json()
        assert old["rule"]["doc"] == "demo-old" and old["rule"]["text"] == "Old rule."
        assert [r["doc"] for r in old["editions"]] == ["demo-new"]
        assert [r["text"] for r in old["children"]] == ["Old detail about zebras."]
        missing = c.get("/v1/rules/demo/101", params={"doc": "no-such-doc"})
        assert missing.status_code == 404 and missing.json()["detail"]["suggestions"]


# ---------------------------------------------------------------- item 14: base URL
def test_serve_derives_the_public_base_url_from_the_bound_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import uvicorn

    from arbiter_cli.main import app

    seen: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: seen.append(Settings().public_base_url))
    monkeypatch.delenv("ARBITER_PUBLIC_BASE_URL", raising=False)
    res = CliRunner().invoke(app, ["serve", "--host", "127.0.0.1", "--port", "8765"])
    assert res.exit_code == 0, res.output
    assert seen == ["http://127.0.0.1:8765"]
    assert "http://127.0.0.1:8765/" in res.stderr  # where to open the page

    monkeypatch.setenv("ARBITER_PUBLIC_BASE_URL", "https://rules.example")
    res = CliRunner().invoke(app, ["serve", "--port", "8766"])
    assert res.exit_code == 0 and seen[-1] == "https://rules.example"


# ---------------------------------------------------------------- item 13: 413 both ways
def test_oversized_body_is_413_whether_sized_or_chunked(live_server: str) -> None:
    import httpx

    size = 100_000

    def chunks() -> Any:
        for _ in range(size // 1000):
            yield b"x" * 1000

    headers = {"content-type": "application/json"}
    with httpx.Client(base_url=live_server, timeout=60) as c:
        sized = c.post("/v1/ask", content=b"x" * size, headers=headers)
        chunked = c.post("/v1/ask", content=chunks(), headers=headers)
        head = c.head("/")
    assert sized.status_code == 413
    assert chunked.status_code == 413, chunked.text
    assert chunked.json()["detail"] == sized.json()["detail"]
    assert head.status_code == 200

"""The JSON API over the real index, model and assistant."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ingest.settings import Settings
from web import LocalServices, create_app

GOLDEN = Path(__file__).resolve().parents[2] / "engine" / "golden"
KILL_A_UNIT = 'Does "Kill a unit" target the unit even though the card never says choose?'


def test_healthz_and_readyz(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert set(ready.json()["detail"]["games"]) >= {"riftbound", "marvel-champions", "momon-wonder"}


def test_games_lists_documents_with_versions(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/v1/games").json()["games"]}
    assert set(games) == {"riftbound", "marvel-champions", "momon-wonder"}
    riftbound_docs = {d["id"]: d for d in games["riftbound"]["documents"]}
    assert set(riftbound_docs) == {"riftbound-core-rules", "riftbound-targets-guide"}
    assert riftbound_docs["riftbound-core-rules"]["version"]  # "Last Updated" / manifest date
    assert all(d["rules"] > 0 for g in games.values() for d in g["documents"])


def test_rule_with_children(client: TestClient) -> None:
    body = client.get("/v1/rules/momon-wonder/11.4").json()
    assert body["rule"]["number"] == "11.4"
    numbers = [c["number"] for c in body["children"]]
    assert numbers[:3] == ["11.4.1", "11.4.2", "11.4.3"]
    bare = client.get("/v1/rules/momon-wonder/11.4", params={"children": False}).json()
    assert bare["children"] == []


def test_unknown_rule_suggests_nearest(client: TestClient) -> None:
    response = client.get("/v1/rules/riftbound/355.99")
    assert response.status_code == 404
    assert response.json()["detail"]["suggestions"]


def test_unknown_game_is_404_listing_games(client: TestClient) -> None:
    for response in (
        client.get("/v1/rules/chess/1.1"),
        client.post("/v1/ask", json={"question": "Can I castle?", "game": "chess"}),
        client.get("/v1/search", params={"q": "target", "game": "chess"}),
    ):
        assert response.status_code == 404
        assert "riftbound" in response.json()["detail"]["games"]


def test_search_finds_rule(client: TestClient) -> None:
    body = client.get(
        "/v1/search", params={"q": "choose any number of targets including zero", "game": "riftbound"}
    ).json()
    assert body["hits"]
    assert all(h["rule"]["game"] == "riftbound" for h in body["hits"])
    assert "355.13" in [h["rule"]["number"] for h in body["hits"]]


def test_ask_answer_permalink_feedback_and_follow_up(client: TestClient) -> None:
    answer = client.post("/v1/ask", json={"question": KILL_A_UNIT}).json()
    assert answer["verdict"] == "yes"
    assert answer["game"] == "riftbound"
    assert answer["answer"].startswith("Yes")
    assert answer["citations"] and answer["answer_id"] and answer["conversation_id"]
    stored = client.get(f"/v1/answers/{answer['answer_id']}").json()
    assert stored["verdict"] == "yes" and stored["question"] == KILL_A_UNIT
    ok = client.post("/v1/feedback", json={"answer_id": answer["answer_id"], "helpful": True})
    assert ok.json() == {"ok": True}
    missing = client.post("/v1/feedback", json={"answer_id": "nope", "helpful": False})
    assert missing.status_code == 404
    follow = client.post(
        "/v1/ask",
        json={
            "question": 'Does "Kill a unit at a battlefield" target the battlefield?',
            "conversation_id": answer["conversation_id"],
        },
    ).json()
    assert follow["conversation_id"] == answer["conversation_id"]
    assert follow["verdict"] == "no"


def test_bad_input_gets_clear_4xx(client: TestClient, default_settings: Settings) -> None:
    too_long = "x" * (default_settings.max_question_chars + 1)
    assert client.post("/v1/ask", json={"question": too_long}).status_code == 422
    malformed = client.post(
        "/v1/ask", content=b'{"question": ', headers={"content-type": "application/json"}
    )
    assert malformed.status_code == 422
    assert client.post("/v1/ask", json={"question": "x", "extra": 1}).status_code == 422
    assert client.post("/v1/ask", json={"question": "   "}).status_code == 422
    huge = b'{"question": "' + b"a" * (default_settings.max_body_bytes + 10) + b'"}'
    response = client.post("/v1/ask", content=huge, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert client.get("/v1/answers/does-not-exist").status_code == 404


def test_rate_limit_answers_429_with_retry_after(
    default_settings: Settings, web_services: LocalServices
) -> None:
    settings = default_settings.model_copy(update={"rate_limit_per_minute": 2})
    with TestClient(create_app(settings, services=web_services)) as c:
        codes = [c.get("/v1/games").status_code for _ in range(3)]
        assert codes[:2] == [200, 200]
        limited = c.get("/v1/games")
        assert limited.status_code == 429
        assert int(limited.headers["Retry-After"]) >= 1
        assert c.get("/healthz").status_code == 200  # health is never limited


def test_check_decides_scenario_and_rejects_malformed(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/v1/check" in schema["paths"]
    bad = client.post("/v1/check", json={"game": "riftbound", "nonsense": True})
    assert bad.status_code == 422
    assert bad.json()["detail"]
    golden = json.loads((GOLDEN / "mc_atk0_basic_attack.json").read_text())
    decided = client.post("/v1/check", json=golden["scenario"])
    assert decided.status_code == 200
    assert decided.json()["verdict"] == golden["expect"]["verdict"]
    assert decided.json()["rules"][0] == golden["expect"]["rule"]


def test_feedback_export_cli(
    client: TestClient, default_settings: Settings, tmp_path, monkeypatch
) -> None:
    from arbiter_cli.main import app

    answer = client.post("/v1/ask", json={"question": KILL_A_UNIT}).json()
    client.post(
        "/v1/feedback",
        json={"answer_id": answer["answer_id"], "helpful": False, "comment": "cite 355.7 too"},
    )
    monkeypatch.setenv("ARBITER_DB_PATH", str(default_settings.db_path))
    out = tmp_path / "feedback.jsonl"
    result = CliRunner().invoke(app, ["feedback", "export", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    row = next(r for r in rows if r["answer_id"] == answer["answer_id"])
    assert row["feedback"][0]["comment"] == "cite 355.7 too"
    assert row["answer"]["verdict"] == "yes"


def test_follow_up_survives_another_worker(default_settings: Settings, default_index) -> None:  # type: ignore[no-untyped-def]
    """Two service instances over one database stand for two uvicorn workers."""
    first = LocalServices(default_settings, index=default_index)
    second = LocalServices(default_settings, index=default_index)
    opening = first.ask(
        "Alpha Strike with my unit at 4 Might, four enemy targets chosen; my unit drops to "
        "2 Might. How many targets must I drop?"
    )
    assert opening.value == 2
    follow = second.ask("What if it dropped to 1 Might instead?", conversation_id=opening.conversation_id)
    assert follow.conversation_id == opening.conversation_id
    assert follow.value == 3

"""A stand-in for the Arbiter API, for developing the chat page only.

It serves web/static and answers the page's calls in the shapes of
../shared/CONTRACT.md, built at run time from the corpus files (no rules text is
kept here). It decides nothing: every answer is a canned "yes" citing the
paragraph that shares most words with the question. The real browser test
(test_browser.py) runs against the `live_server` fixture, never against this.

Run by hand:  .venv/bin/python tests/web/_standin_app.py --port 8766
"""

from __future__ import annotations

import argparse
import re
import threading
import tomllib
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

REPO_ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = REPO_ROOT / "web" / "static"
CORPUS_DIR = REPO_ROOT / ".." / "shared" / "corpus"
WORD = re.compile(r"[a-z0-9]+")


class AskBody(BaseModel):
    question: str
    game: str | None = None
    conversation_id: str | None = None


class FeedbackBody(BaseModel):
    answer_id: str
    helpful: bool
    comment: str | None = None


def _load_corpus(corpus: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Games from the manifest and every document split into paragraphs (anchors p1, p2, ...)."""
    manifest = tomllib.loads((corpus / "corpus.toml").read_text(encoding="utf-8"))
    rules: list[dict[str, Any]] = []
    for doc in manifest.get("documents", []):
        text = (corpus / doc["path"]).read_text(encoding="utf-8")
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
        for i, para in enumerate(paragraphs, start=1):
            rules.append(
                {
                    "doc": doc["id"],
                    "game": doc["game"],
                    "number": f"p{i}",
                    "heading": para.split("\n", 1)[0][:60],
                    "text": para,
                    "parents": [],
                    "title": doc.get("title", ""),
                    "version": str(doc.get("updated", "")),
                }
            )
    return manifest, rules


def create_standin_app(corpus: Path = CORPUS_DIR) -> FastAPI:
    manifest, rules = _load_corpus(corpus)
    answers: dict[str, dict[str, Any]] = {}
    feedback: list[dict[str, Any]] = []
    app = FastAPI(title="Arbiter stand-in")
    app.state.feedback = feedback

    def games() -> list[dict[str, Any]]:
        out = []
        for gid, info in manifest.get("games", {}).items():
            docs = [d for d in manifest.get("documents", []) if d["game"] == gid]
            out.append(
                {
                    "id": gid,
                    "name": info.get("name", gid),
                    "documents": [
                        {
                            "id": d["id"],
                            "title": d.get("title", ""),
                            "version": str(d.get("updated", "")),
                            "rules": sum(1 for r in rules if r["doc"] == d["id"]),
                        }
                        for d in docs
                    ],
                }
            )
        return out

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    @app.get("/v1/games")
    def list_games() -> dict[str, Any]:
        return {"games": games()}

    @app.post("/v1/ask")
    def ask(body: AskBody) -> dict[str, Any]:
        if len(body.question) > 2000:
            raise HTTPException(422, detail="question is longer than 2000 characters")
        ids = [g["id"] for g in games()]
        if body.game and body.game not in ids:
            raise HTTPException(
                404, detail={"message": f"unknown game {body.game!r}", "games": ids}
            )
        words = set(WORD.findall(body.question.lower()))
        pool = [r for r in rules if not body.game or r["game"] == body.game]
        best = max(pool, key=lambda r: len(words & set(WORD.findall(r["text"].lower()))))
        sentence = re.split(r"(?<=[.!?])\s+", best["text"])[0]
        answer_id = uuid.uuid4().hex[:12]
        answer = {
            "id": None,
            "question": body.question,
            "game": best["game"],
            "verdict": "yes",
            "value": None,
            "answer": f"Yes (stand-in). See {best['doc']} {best['number']}.",
            "citations": [{"doc": best["doc"], "rule": best["number"], "quote": sentence}],
            "scenario": {"standin": True},
            "trace": [
                {
                    "rule": best["number"],
                    "doc": best["doc"],
                    "step": "stand-in step",
                    "result": "yes",
                }
            ],
            "error": None,
            "passages": [
                {"doc": best["doc"], "rule": best["number"], "text": best["text"], "score": 1.0}
            ],
            "answer_id": answer_id,
            "conversation_id": body.conversation_id or uuid.uuid4().hex[:12],
        }
        answers[answer_id] = answer
        return answer

    @app.get("/v1/answers/{answer_id}")
    def get_answer(answer_id: str) -> dict[str, Any]:
        if answer_id not in answers:
            raise HTTPException(404, detail="no such answer")
        return answers[answer_id]

    @app.get("/v1/rules/{game}/{rule}")
    def rule(game: str, rule: str, doc: str | None = None) -> dict[str, Any]:
        for r in rules:
            if r["game"] == game and r["number"] == rule and (doc is None or r["doc"] == doc):
                return {"game": game, "rule": r, "children": [], "editions": []}
        raise HTTPException(
            404, detail={"message": f"no rule {rule!r} in {game}", "suggestions": []}
        )

    @app.post("/v1/feedback")
    def post_feedback(body: FeedbackBody) -> dict[str, Any]:
        if body.answer_id not in answers:
            raise HTTPException(404, detail="no such answer")
        feedback.append(body.model_dump())
        return {"ok": True}

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


@contextmanager
def run_standin(port: int = 0) -> Iterator[str]:
    """Serve the stand-in with uvicorn in a thread; yields its base URL."""
    import socket

    import uvicorn

    if port == 0:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(create_standin_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    import uvicorn

    uvicorn.run(create_standin_app(), host="127.0.0.1", port=args.port)

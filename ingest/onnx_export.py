"""Export a sentence-transformers model (BERT-like, mean pooling) to one ONNX file.

The exported graph takes ``input_ids``, ``attention_mask``, ``token_type_ids`` and returns the
mean-pooled, L2-normalised sentence vector, so the query path needs only onnxruntime and the
model's ``tokenizer.json``. :func:`export` runs once per model and cache folder (at ingest,
or on the first question when the cache is empty): it imports torch and transformers,
exports to a temporary folder, checks the ONNX vectors against sentence-transformers' own
on :data:`PROBES` (cosine >= :data:`MIN_COSINE`, else :class:`EmbeddingError` and nothing
is kept) and renames the folder into place (atomic: concurrent exporters agree).

The folder name carries a fingerprint of the model files, so a different model or a
reinstalled one with other weights gets its own export.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["EXPORT_VERSION", "MIN_COSINE", "PROBES", "export", "exported_folder", "supported"]

#: Bumped when the exported graph changes (the folder name changes with it).
EXPORT_VERSION = 1
#: The least cosine between an ONNX vector and the torch model's for the export to be kept.
MIN_COSINE = 0.999
#: Sentences the export is checked on (short, long, punctuation, numbers, quotes).
PROBES = (
    "target",
    'Does "Kill a unit at a battlefield" target the battlefield?',
    "If my legend readies during the Beginning Phase, can I exhaust it again to pay a cost?",
    "How many targets must be dropped when Fox-Fire's 3 targets include an illegal one?",
    "word " * 300,
)


def supported(path: str) -> bool:
    """True when ``path`` is a local sentence-transformers folder that ONNX can serve: a
    ``tokenizer.json`` and mean-token pooling."""
    folder = Path(path)
    pooling = folder / "1_Pooling" / "config.json"
    if not (folder / "tokenizer.json").is_file() or not pooling.is_file():
        return False
    try:
        cfg = json.loads(pooling.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    others = [k for k, v in cfg.items() if k.startswith("pooling_mode_") and v and k != "pooling_mode_mean_tokens"]
    return bool(cfg.get("pooling_mode_mean_tokens")) and not others


def _fingerprint(folder: Path) -> str:
    """Model files by name and size, configs by content: cheap (no weight hashing) and
    different for a different model."""
    h = hashlib.sha256(f"v{EXPORT_VERSION}".encode())
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode())
            h.update(str(p.stat().st_size).encode())
            if p.suffix == ".json" and p.stat().st_size < 1_000_000:
                h.update(p.read_bytes())
    return h.hexdigest()[:16]


def exported_folder(name: str, path: str, cache_dir: Path) -> Path:
    """Where the export of the model ``name`` (at ``path``) lives, whether or not it exists."""
    slug = re.sub(r"[^\w.-]+", "-", name).strip("-.")[-60:] or "model"
    return cache_dir / f"{slug}-{_fingerprint(Path(path))}"


def _max_length(folder: Path) -> int:
    try:
        cfg = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        return int(cfg.get("max_seq_length") or 256)
    except (OSError, ValueError):
        return 256


def export(name: str, cache_dir: Path) -> Path:
    """Export the model ``name`` (a setting's ``embedding_model``) into ``cache_dir`` (see the
    module docstring); returns its folder. A no-op when the export exists."""
    from ingest.embedding import EmbeddingError, model_path

    path = model_path(name)
    src = Path(path)
    target = exported_folder(name, path, cache_dir)
    if (target / "meta.json").exists():
        return target
    if not supported(path):
        raise EmbeddingError(f"{path} cannot be exported for the ONNX query path "
                             "(needs tokenizer.json and mean-token pooling)")
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".export-", dir=cache_dir))
    try:
        dimension = _export_graph(src, work / "model.onnx")
        shutil.copyfile(src / "tokenizer.json", work / "tokenizer.json")
        meta = {"model": str(src), "max_length": _max_length(src), "dimension": dimension,
                "export_version": EXPORT_VERSION}
        (work / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        worst = _check(name, work)
        if worst < MIN_COSINE:
            raise EmbeddingError(f"the ONNX export of {path} does not match the torch model "
                                 f"(cosine {worst:.5f} < {MIN_COSINE})")
        os.chmod(work, 0o755)  # mkdtemp made it private
        try:
            os.replace(work, target)
        except OSError:
            if not (target / "meta.json").exists():  # another process won the race: fine
                raise
        return target
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _export_graph(src: Path, out: Path) -> int:
    """Trace BERT + mean pooling + normalisation into ``out``; returns the vector size."""
    import torch
    from transformers import AutoModel

    from ingest.embedding import _quiet_hf

    _quiet_hf()
    model: Any = AutoModel.from_pretrained(str(src), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    ids = torch.ones(1, 8, dtype=torch.long)
    axes = {"batch": 0, "tokens": 1}
    dyn = {n: {axes["batch"]: "batch", axes["tokens"]: "tokens"}
           for n in ("input_ids", "attention_mask", "token_type_ids")}
    import warnings

    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer warnings about the (unused) padding branch
        torch.onnx.export(
            Pooled(), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(out),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["embedding"], dynamic_axes={**dyn, "embedding": {0: "batch"}},
            opset_version=17, dynamo=False,
        )
    return int(model.config.hidden_size)


def _check(name: str, work: Path) -> float:
    """The least cosine between the ONNX vectors and sentence-transformers' on PROBES."""
    import numpy as np

    from ingest.embedding import QueryEncoder, embeddings

    onnx = QueryEncoder(work).encode_array(list(PROBES))
    ref = np.asarray(embeddings(name)._client.encode(list(PROBES), normalize_embeddings=True))
    return float(min(np.dot(a, b) for a, b in zip(onnx, ref)))

"""The ONNX query path: same vectors as the torch model, same retrieval, no torch import,
a clear error for a broken export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ingest import embedding, onnx_export
from ingest.settings import REPO_ROOT, Settings


def test_onnx_question_vectors_match_the_torch_model(default_settings: Settings, default_index: object,
                                                     dev_items: list[dict[str, object]]) -> None:
    questions = [str(i["question"]) for i in dev_items]
    encoder = embedding.query_encoder(default_settings.embedding_model, default_settings.model_cache_dir)
    assert encoder is not None
    fast = encoder.encode_array(questions)
    torch = np.asarray(embedding.embed_documents(questions, default_settings.embedding_model))
    cosines = np.sum(fast * torch, axis=1)
    assert fast.shape == torch.shape == (len(questions), 384)
    assert float(cosines.min()) >= onnx_export.MIN_COSINE


def _hits(index: object, items: list[dict[str, object]]) -> tuple[float, float]:
    gold = [i for i in items if i.get("cite_any") or i.get("cite_doc")]
    h1 = h5 = 0
    for q in gold:
        hits = index.search(str(q["question"]), game=q.get("game"), k=5)  # type: ignore[attr-defined]
        ok = [(h.rule.number in q["cite_any"] and h.rule.game == q.get("game", h.rule.game))  # type: ignore[operator]
              if q.get("cite_any") else h.rule.doc == q["cite_doc"] for h in hits]
        h1 += bool(ok[:1] and ok[0])
        h5 += any(ok)
    return h1 / len(gold), h5 / len(gold)


def test_retrieval_with_onnx_questions_matches_torch_questions(
        default_settings: Settings, default_index: object, dev_items: list[dict[str, object]],
        heldout_items: list[dict[str, object]], monkeypatch: pytest.MonkeyPatch) -> None:
    items = dev_items + heldout_items
    fast = _hits(default_index, items)
    monkeypatch.setattr(default_index, "embed_query",
                        lambda text: embedding.embed_documents([text], default_settings.embedding_model)[0])
    torch = _hits(default_index, items)
    assert fast[0] == pytest.approx(torch[0], abs=0.01)
    assert fast[1] == pytest.approx(torch[1], abs=0.01)
    assert fast[1] >= 0.9  # the sets are answerable at all: the comparison means something


def test_question_path_imports_neither_torch_nor_transformers(default_settings: Settings,
                                                             default_index: object) -> None:
    embedding.prepare_query_model(default_settings.embedding_model, default_settings.model_cache_dir)
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from ingest.embedding import embed_query\n"
        f"v = embed_query('Does Kill a unit target the unit?', cache_dir=Path({str(default_settings.model_cache_dir)!r}))\n"
        "print(len(v), sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                         check=True, env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert out.stdout.split("\n")[0] == "384 []"
    assert "Exporting" not in out.stderr  # the export was reused, not made again


def test_a_broken_export_is_a_clear_error_naming_the_folder(tmp_path: Path, default_settings: Settings) -> None:
    name = default_settings.embedding_model
    folder = onnx_export.exported_folder(name, embedding.model_path(name), tmp_path)
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"max_length": 256, "dimension": 384}))
    (folder / "tokenizer.json").write_text("{}")
    (folder / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(embedding.EmbeddingError, match="delete that folder"):
        embedding.query_encoder(name, tmp_path)


def test_a_model_without_mean_pooling_is_not_exported(tmp_path: Path) -> None:
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "tokenizer.json").write_text("{}")
    (tmp_path / "1_Pooling" / "config.json").write_text(
        json.dumps({"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}))
    assert not onnx_export.supported(str(tmp_path))
    assert onnx_export.supported(embedding.model_path(Settings().embedding_model))
    with pytest.raises(embedding.EmbeddingError, match="mean-token pooling"):
        onnx_export.export(str(tmp_path), tmp_path / "cache")
    assert not (tmp_path / "cache").exists()

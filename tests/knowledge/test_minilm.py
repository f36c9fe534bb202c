"""The numpy MiniLM against vectors sentence-transformers computed once (scripts/minilm_reference.py)."""

import json
import shutil
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from groundgate.errors import ConfigError
from groundgate.knowledge.embed import MiniLMEmbedder, make_embedder
from groundgate.knowledge.minilm import bundled_model_dir

REFERENCE = json.loads((Path(__file__).parent / "data" / "minilm_reference.json").read_text("utf-8"))
ITEMS = REFERENCE["items"]


def _cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_every_reference_vector_is_matched(minilm):
    vectors = minilm.encode([item["text"] for item in ITEMS])  # one padded batch, mixed lengths
    cosines = {item["text"][:40]: _cosine(v, item["vector"]) for item, v in zip(ITEMS, vectors, strict=True)}
    assert min(cosines.values()) >= 0.999, {k: c for k, c in cosines.items() if c < 0.999}
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_texts_are_cut_where_sentence_transformers_cuts_them(minilm):
    assert minilm.max_seq_length == REFERENCE["max_seq_length"] == 256
    assert [minilm.count_tokens(item["text"]) for item in ITEMS] == [item["tokens"] for item in ITEMS]
    long_text = next(item["text"] for item in ITEMS if item["tokens"] == 256)
    longer = minilm.encode([long_text, long_text + " Nothing past the cut changes the vector."])
    assert _cosine(longer[0], longer[1]) > 0.99999


def test_a_text_has_one_vector_whatever_it_is_batched_with(minilm):
    texts = [item["text"] for item in ITEMS[:6]] + [ITEMS[-1]["text"]]
    together = minilm.encode(texts)
    alone = np.stack([minilm.encode([t])[0] for t in texts])
    assert np.abs(together - alone).max() < 1e-5
    assert minilm.encode([]).shape == (0, 384)


def test_blas_runs_one_thread_while_encoding_and_its_own_count_after(minilm, monkeypatch):
    from threadpoolctl import threadpool_info

    def blas_threads():
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    before, during = blas_threads(), []
    pooled = minilm._pooled
    monkeypatch.setattr(minilm, "_pooled", lambda *a: during.extend(blas_threads()) or pooled(*a))
    one_thread = minilm.encode(["roof inspection threshold"])
    assert during and set(during) == {1}
    assert blas_threads() == before
    own_count = MiniLMEmbedder(threads=None).encode(["roof inspection threshold"])
    assert np.abs(one_thread - own_count).max() < 1e-5


def test_a_paraphrase_is_nearer_than_a_different_subject(minilm):
    loan, paraphrase, roof = minilm.embed_documents([
        "A loan may be renewed twice.", "You can extend what you borrowed two times.",
        "The roof must be inspected after a storm.",
    ])
    assert _cosine(loan, paraphrase) > _cosine(loan, roof) + 0.3
    assert minilm.embed_query("A loan may be renewed twice.") == pytest.approx(loan, abs=1e-6)


def test_local_names_the_numpy_encoder_of_the_bundled_model(minilm):
    local = make_embedder("local")
    assert isinstance(local, MiniLMEmbedder) and local.dimension == 384
    from_folder = make_embedder(f"local:{bundled_model_dir()}")
    assert from_folder.embed_query("roof") == pytest.approx(local.embed_query("roof"), abs=1e-6)


def _model_folder(tmp_path: Path, pooling: dict) -> Path:
    """Configs only, and an empty weights file: the configs are checked before weights load."""
    folder = tmp_path / "model"
    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "model.safetensors").write_bytes(b"")
    (folder / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_act": "gelu"}))
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    return folder


def test_a_model_this_encoder_does_not_compute_is_refused(tmp_path):
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    cls_pooled = _model_folder(tmp_path, {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False})
    with pytest.raises(ConfigError, match="mean pooling"):
        MiniLMEmbedder(cls_pooled)
    (cls_pooled / "config.json").write_text(json.dumps({"model_type": "roberta", "hidden_act": "gelu"}))
    with pytest.raises(ConfigError, match="only BERT"):
        MiniLMEmbedder(cls_pooled)
    shutil.rmtree(cls_pooled)
    with pytest.raises(ConfigError, match="no model.safetensors"):
        MiniLMEmbedder(cls_pooled)


def test_unknown_specs_are_refused():
    for spec in ("bogus", "openai:", "locals"):
        with pytest.raises(ConfigError, match="unknown embedder"):
            make_embedder(spec)


def test_sentence_transformers_stays_available_by_name(monkeypatch):
    made = {}

    class FakeSentenceTransformer:
        def __init__(self, path, device):
            made.update(path=path, device=device)

        def get_sentence_embedding_dimension(self):
            return 2

        def encode(self, texts, batch_size):
            return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)

    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = FakeSentenceTransformer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    embedder = make_embedder("sentence-transformers:/models/mpnet")
    assert made == {"path": "/models/mpnet", "device": "cpu"}
    assert embedder.dimension == 2 and embedder.embed_query("x") == [1.0, 0.0]
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ConfigError, match="torch"):
        make_embedder("sentence-transformers")

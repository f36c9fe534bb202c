"""The embedder port and its implementations.

- ``None`` (no embedder): keyword search only, the default.
- ``HashingEmbedder``: deterministic feature hashing, no model; for tests of the fusion.
- ``MiniLMEmbedder`` (``local``): the bundled all-MiniLM-L6-v2 computed with numpy, offline,
  no torch (extra ``embeddings``; see ``groundgate.knowledge.minilm``).
- ``SentenceTransformerEmbedder`` (``sentence-transformers``): the same folder, or any
  sentence-transformers model, through sentence-transformers and torch (installed by hand).
- ``OpenAIEmbedder``: any OpenAI-compatible embeddings endpoint.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from groundgate.errors import ConfigError
from groundgate.knowledge.minilm import MiniLMEmbedder, bundled_model_dir
from groundgate.knowledge.text import stems

__all__ = [
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "SentenceTransformerEmbedder",
    "make_embedder",
]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of a fixed dimension."""

    dimension: int

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        ...


class HashingEmbedder:
    """Bag of stemmed words hashed into ``dimension`` buckets; deterministic, offline."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension

    def _vector(self, text: str) -> list[float]:
        vec = [0.0] * self.dimension
        for word in stems(text):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dimension
            vec[bucket] += 1.0 if digest[4] % 2 else -1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        return self._vector(text)


class SentenceTransformerEmbedder:
    """A sentence-transformers model (default: the bundled all-MiniLM-L6-v2) through torch."""

    def __init__(self, model: str | None = None) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigError(
                "the sentence-transformers embedder needs torch: pip install sentence-transformers "
                "(the `local` embedder runs the bundled model without it)"
            ) from exc
        path = model or str(bundled_model_dir())
        self.name = path  # tells cached stores of two models apart (knowledge.default)
        self._model: Any = SentenceTransformer(path, device="cpu")
        self.dimension = int(self._model.get_sentence_embedding_dimension())

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""
        return [list(map(float, v)) for v in self._model.encode(list(texts), batch_size=64)]

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        return self.embed_documents([text])[0]


class OpenAIEmbedder:
    """An OpenAI-compatible embeddings endpoint through langchain-openai."""

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 dimension: int = 1536) -> None:
        from langchain_openai import OpenAIEmbeddings

        kwargs: dict[str, Any] = {"model": model}
        if base_url:
            kwargs["base_url"] = base_url
        if api_key:
            kwargs["api_key"] = api_key
        self._client = OpenAIEmbeddings(**kwargs)
        self.name = f"{base_url or ''}#{model}"  # tells cached stores of two models apart
        self.dimension = dimension

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""
        return self._client.embed_documents(list(texts))

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        return self._client.embed_query(text)


def make_embedder(spec: str | None) -> Embedder | None:
    """Build the embedder a spec names.

    Args:
        spec: ``None``/``"none"`` (keyword search only), ``"hashing"``, ``"local[:folder]"``
            (numpy MiniLM, default the bundled model), ``"sentence-transformers[:model]"``
            (needs torch) or ``"openai:<model>"``.

    Raises:
        ConfigError: an unknown spec, or the extra the spec needs is not installed.
    """
    if spec in (None, "", "none"):
        return None
    if spec == "hashing":
        return HashingEmbedder()
    kind, _, arg = spec.partition(":")
    if kind == "local":
        return MiniLMEmbedder(arg or None)
    if kind == "sentence-transformers":
        return SentenceTransformerEmbedder(arg or None)
    if kind == "openai" and arg:
        return OpenAIEmbedder(arg)
    raise ConfigError(
        f"unknown embedder {spec!r}; use none, hashing, local[:folder], "
        "sentence-transformers[:model] or openai:<model>"
    )

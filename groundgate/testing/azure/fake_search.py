"""A FAKE of Azure AI Search: an in-memory stand-in for the REST subset groundgate uses.

This is not Azure AI Search and does not pretend to rank like it. No emulator of the service
exists, so this fake lets the composite Azure backend run end to end on one machine (the
conformance suite in CI, the local walkthrough in the README) behind the real SDK: requests
are the SDK's own, sent through an ``azure.core`` transport (``FakeSearchTransport``) or over
HTTP on localhost (``serve``). What it implements, from the documented REST API:

- ``PUT/GET/DELETE /indexes('<name>')``: index definitions (kept as sent).
- ``POST /indexes('<name>')/docs/search.index``: ``upload``, ``merge``, ``mergeOrUpload``,
  ``delete`` actions.
- ``POST /indexes('<name>')/docs/search.post.search``: ``search`` (simple syntax: words and
  quoted phrases), ``searchMode``, ``filter`` (OData comparisons, ``and``/``or``/``not``,
  ``null``, parentheses), ``top``, ``select``, ``scoringProfile`` text weights, and
  ``vectorQueries`` (exact cosine kNN; hybrid fused by reciprocal rank as the service does).

Text is scored with BM25 over lightly stemmed, stopword-free tokens, a rough stand-in for the
``en.lucene`` analyzer. Semantic reranking is not imitated: a ``queryType: semantic`` query
is answered in keyword order without ``@search.rerankerScore``.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from groundgate.knowledge.fusion import rrf_scores
from groundgate.knowledge.text import STOPWORDS, stem
from groundgate.knowledge.weights import K1, B
from groundgate.testing.azure.odata import InvalidFilter, parse_filter

__all__ = ["FakeSearchService", "FakeSearchTransport", "serve"]

_INDEX = re.compile(r"^/indexes(?:\('(?P<a>[^']+)'\)|/(?P<b>[^/]+))(?P<rest>/docs/[^/]+)?$")
_TOKEN = re.compile(r"[a-z0-9]+")


def analyse(text: str) -> list[str]:
    """Lowercase alphanumeric tokens, English stopwords dropped, lightly stemmed."""
    return [stem(t) for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


class _Error(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class FakeSearchService:
    """The in-memory service: indexes and their records."""

    def __init__(self) -> None:
        self.indexes: dict[str, dict[str, Any]] = {}
        self.records: dict[str, dict[str, dict[str, Any]]] = {}
        self._lock = threading.RLock()

    # ---- dispatch --------------------------------------------------------------------

    def handle(self, method: str, url: str, headers: dict[str, str], body: Any) -> tuple[int, Any]:
        """Answer one REST request: ``(status, JSON body)``."""
        parts = urlsplit(url)
        params = dict(parse_qsl(parts.query))
        lowered = {k.lower(): v for k, v in headers.items()}
        try:
            if "api-key" not in lowered and "authorization" not in lowered:
                raise _Error(401, "Authentication failed: no api-key header.")
            if not params.get("api-version"):
                raise _Error(400, "The api-version query parameter is required.")
            match = _INDEX.match(unquote(parts.path))
            if not match:
                raise _Error(404, f"No route for {method} {parts.path}")
            name = match.group("a") or match.group("b")
            rest = match.group("rest")
            with self._lock:
                if rest is None:
                    return self._index_op(method, name, body)
                if name not in self.indexes:
                    raise _Error(404, f"The index '{name}' was not found.")
                if method == "POST" and rest == "/docs/search.index":
                    return 200, {"value": self._index_actions(name, body or {})}
                if method == "POST" and rest == "/docs/search.post.search":
                    return 200, {"value": self._search(name, body or {})}
            raise _Error(404, f"No route for {method} {parts.path}")
        except _Error as exc:
            return exc.status, {"error": {"code": "", "message": exc.message}}

    def _index_op(self, method: str, name: str, body: Any) -> tuple[int, Any]:
        if method == "PUT":
            created = name not in self.indexes
            self.indexes[name] = dict(body or {}, name=name)
            self.records.setdefault(name, {})
            return (201 if created else 200), self.indexes[name]
        if method == "GET":
            if name not in self.indexes:
                raise _Error(404, f"The index '{name}' was not found.")
            return 200, self.indexes[name]
        if method == "DELETE":
            self.indexes.pop(name, None)
            self.records.pop(name, None)
            return 204, None
        raise _Error(405, f"{method} is not supported on an index")

    # ---- writing ---------------------------------------------------------------------

    def _key_field(self, name: str) -> str:
        for field in self.indexes[name].get("fields", []):
            if field.get("key"):
                return str(field["name"])
        raise _Error(400, f"The index '{name}' has no key field.")

    def _index_actions(self, name: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        key_field = self._key_field(name)
        known = {f["name"] for f in self.indexes[name].get("fields", [])}
        store = self.records[name]
        results = []
        for action in body.get("value", []):
            kind = action.get("@search.action", "upload")
            record = {k: v for k, v in action.items() if k != "@search.action"}
            key = record.get(key_field)
            unknown = set(record) - known
            if key is None or unknown:
                problem = f"unknown fields {sorted(unknown)}" if unknown else "the key is missing"
                results.append({"key": key, "status": False, "errorMessage": problem, "statusCode": 400})
                continue
            if kind == "delete":
                store.pop(key, None)
            elif kind == "merge" and key not in store:
                results.append(
                    {"key": key, "status": False, "errorMessage": "Document not found.", "statusCode": 404}
                )
                continue
            elif kind in ("merge", "mergeOrUpload") and key in store:
                store[key] = {**store[key], **record}
            elif kind in ("upload", "mergeOrUpload"):
                store[key] = record
            else:
                results.append(
                    {"key": key, "status": False, "errorMessage": f"bad action {kind!r}", "statusCode": 400}
                )
                continue
            results.append({"key": key, "status": True, "errorMessage": None, "statusCode": 200})
        return results

    # ---- searching -------------------------------------------------------------------

    def _search(self, name: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        definition = self.indexes[name]
        fields = {f["name"]: f for f in definition.get("fields", [])}
        candidates = list(self.records[name].values())
        if body.get("filter"):
            try:
                predicate = parse_filter(body["filter"], fields)
            except InvalidFilter as exc:
                raise _Error(400, str(exc)) from None
            candidates = [r for r in candidates if predicate(r)]
        top = int(body.get("top") or 50)
        text = body.get("search")
        weights = self._weights(definition, body.get("scoringProfile"))
        searchable = [
            n for n, f in fields.items() if f.get("searchable") and f.get("type") != "Collection(Edm.Single)"
        ]
        if body.get("searchFields"):
            searchable = [s.strip() for s in str(body["searchFields"]).split(",")]
        keyword: list[tuple[dict[str, Any], float]] = []
        if text and text.strip() != "*":
            keyword = _bm25(candidates, _phrases(text), searchable, weights, body.get("searchMode", "any"))
        vector: list[tuple[dict[str, Any], float]] = []
        for query in body.get("vectorQueries") or []:
            vector = _knn(candidates, query)
        if text and text.strip() != "*" and vector:
            by_key = {id(record): record for ranks in (keyword, vector) for record, _ in ranks}
            fused = rrf_scores([[id(record) for record, _ in ranks] for ranks in (keyword, vector)])
            ranked = sorted(((by_key[key], score) for key, score in fused.items()), key=lambda pair: -pair[1])
        elif vector:
            ranked = vector
        elif text and text.strip() != "*":
            ranked = keyword
        else:
            ranked = [(r, 1.0) for r in candidates]
        select = [s.strip() for s in str(body.get("select") or "").split(",") if s.strip()]
        out = []
        for record, score in ranked[:top]:
            shown = {k: v for k, v in record.items() if not select or k in select}
            shown = {k: v for k, v in shown.items() if fields.get(k, {}).get("retrievable", True)}
            out.append({"@search.score": score, **shown})
        return out

    @staticmethod
    def _weights(definition: dict[str, Any], profile: str | None) -> dict[str, float]:
        if not profile:
            return {}
        for candidate in definition.get("scoringProfiles") or []:
            if candidate.get("name") == profile:
                return {k: float(v) for k, v in ((candidate.get("text") or {}).get("weights") or {}).items()}
        raise _Error(400, f"The scoring profile '{profile}' does not exist in the index.")


def _phrases(text: str) -> list[list[str]]:
    found = []
    for quoted, bare in re.findall(r'"([^"]*)"|(\S+)', text):
        tokens = analyse(quoted or bare.lstrip("+-|"))
        if tokens:
            found.append(tokens)
    return found


def _field_tokens(record: dict[str, Any], field: str) -> list[str]:
    value = record.get(field)
    if value is None:
        return []
    if isinstance(value, list):
        return [t for item in value for t in analyse(str(item))]
    return analyse(str(value))


def _count(tokens: list[str], phrase: list[str]) -> int:
    n = len(phrase)
    return sum(1 for i in range(len(tokens) - n + 1) if tokens[i : i + n] == phrase)


def _bm25(
    records: list[dict[str, Any]],
    phrases: list[list[str]],
    fields: list[str],
    weights: dict[str, float],
    mode: str,
) -> list[tuple[dict[str, Any], float]]:
    if not phrases or not records:
        return []
    tokens = [{f: _field_tokens(r, f) for f in fields} for r in records]
    n = len(records)
    average = {f: (sum(len(t[f]) for t in tokens) / n) or 1.0 for f in fields}
    frequency = {
        i: sum(1 for t in tokens if any(_count(t[f], p) for f in fields)) for i, p in enumerate(phrases)
    }
    scored = []
    for record, fields_tokens in zip(records, tokens, strict=True):
        total = 0.0
        matched = 0
        for i, phrase in enumerate(phrases):
            idf = math.log(1 + (n - frequency[i] + 0.5) / (frequency[i] + 0.5))
            hit = False
            for f in fields:
                tf = _count(fields_tokens[f], phrase)
                if not tf:
                    continue
                hit = True
                norm = K1 * (1 - B + B * len(fields_tokens[f]) / average[f])
                total += weights.get(f, 1.0) * idf * tf * (K1 + 1) / (tf + norm)
            matched += hit
        if matched and (mode != "all" or matched == len(phrases)):
            scored.append((record, total))
    scored.sort(key=lambda pair: -pair[1])
    return scored


def _knn(records: list[dict[str, Any]], query: dict[str, Any]) -> list[tuple[dict[str, Any], float]]:
    if query.get("kind", "vector") != "vector":
        raise _Error(400, f"vector query kind {query.get('kind')!r} is not supported by the fake")
    field = str(query.get("fields") or "vector").split(",")[0]
    q = [float(x) for x in query.get("vector") or []]
    qn = math.sqrt(sum(x * x for x in q)) or 1.0
    scored = []
    for record in records:
        v = record.get(field)
        if not v or len(v) != len(q):
            continue
        vn = math.sqrt(sum(x * x for x in v)) or 1.0
        cosine = sum(a * b for a, b in zip(q, v, strict=True)) / (qn * vn)
        scored.append((record, (1.0 + cosine) / 2.0))
    scored.sort(key=lambda pair: -pair[1])
    return scored[: int(query.get("k") or 50)]


# ---- transports ------------------------------------------------------------------------


def FakeSearchTransport(service: FakeSearchService | None = None) -> Any:  # noqa: N802
    """An ``azure.core`` transport answering from ``service`` (a new one if not given).

    The transport keeps every request in ``.requests`` and the service in ``.service``.
    """
    from groundgate.testing.azure.transports import HandlerTransport

    backing = service or FakeSearchService()

    def answer(seen: Any, request: Any) -> tuple[int, Any, dict[str, str]]:
        status, body = backing.handle(seen.method, seen.url, seen.headers, seen.body)
        return status, body, {}

    transport = HandlerTransport(answer)
    transport.service = backing  # type: ignore[attr-defined]
    return transport


class _HTTPHandler(BaseHTTPRequestHandler):
    service: FakeSearchService
    quiet = True

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        status, payload = self.service.handle(self.command, self.path, dict(self.headers.items()), body)
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json; charset=utf-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_PUT = do_POST = do_DELETE = _answer  # noqa: N815

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


def serve(
    host: str = "127.0.0.1", port: int = 0, service: FakeSearchService | None = None
) -> ThreadingHTTPServer:
    """An HTTP server for the fake on ``host:port`` (not started: call ``serve_forever``)."""
    handler = type("Handler", (_HTTPHandler,), {"service": service or FakeSearchService()})
    return ThreadingHTTPServer((host, port), handler)


def main(argv: Iterable[str] | None = None) -> None:
    """``python -m groundgate.testing.azure.fake_search --port N``: serve the fake on localhost."""
    import argparse

    parser = argparse.ArgumentParser(
        description="A local FAKE of the Azure AI Search REST subset groundgate uses."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18083)
    args = parser.parse_args(list(argv) if argv is not None else None)
    server = serve(args.host, args.port)
    print(
        f"FAKE Azure AI Search (groundgate test stand-in) on http://{args.host}:{server.server_address[1]}",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":  # pragma: no cover
    main()

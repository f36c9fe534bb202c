"""Stable content hashes, so re-ingesting unchanged files changes nothing."""

from __future__ import annotations

import hashlib
import json

from pydantic import BaseModel

__all__ = ["content_hash"]


def content_hash(record: BaseModel, *, exclude: frozenset[str] = frozenset({"recorded_at"})) -> str:
    """SHA-256 of a record's JSON form, ignoring transaction-time fields."""
    data = record.model_dump(mode="json", exclude=set(exclude))
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

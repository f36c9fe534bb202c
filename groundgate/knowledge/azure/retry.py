"""Backoff on throttling (429) and unavailability (503), honouring the service's retry-after.

Each adapter classifies its SDK's exceptions into a ``Retryable`` (or not); ``Retrier`` waits
what the service asked (capped), or an exponential backoff when it did not say, and turns the
last failure into a ``StoreError`` so the tool layer returns an error envelope.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from groundgate.errors import StoreError
from groundgate.knowledge.azure.settings import RetrySettings

__all__ = ["RETRY_STATUSES", "Retrier", "Retryable", "parse_retry_after"]

T = TypeVar("T")

RETRY_STATUSES = frozenset({408, 429, 449, 503})
"""Statuses after which the request was not applied and may be sent again."""


@dataclass(frozen=True)
class Retryable:
    """A failure worth retrying: its status and what the service asked us to wait."""

    status: int
    retry_after_s: float | None = None


_TIMESPAN = re.compile(r"^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$")


def parse_retry_after(ms: str | None = None, seconds: str | None = None) -> float | None:
    """Seconds to wait, as the service asked; ``None`` when it did not say.

    From ``x-ms-retry-after-ms`` (milliseconds, or a .NET TimeSpan as Cosmos Gremlin sends it)
    or ``Retry-After`` (seconds).
    """
    if ms:
        text = str(ms).strip()
        span = _TIMESPAN.match(text)
        if span:
            hours, minutes, secs = span.groups()
            return int(hours) * 3600 + int(minutes) * 60 + float(secs)
        try:
            return float(text) / 1000.0
        except ValueError:
            pass
    if seconds:
        try:
            return float(str(seconds).strip())
        except ValueError:
            return None
    return None


class Retrier:
    """Runs an operation, retrying what ``classify`` calls retryable."""

    def __init__(
        self,
        settings: RetrySettings,
        classify: Callable[[BaseException], Retryable | None],
        *,
        service: str,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.classify = classify
        self.service = service
        self.sleep = sleep
        self.waits: list[float] = []
        """Every wait so far, in seconds (what tests and diagnostics look at)."""

    def delay(self, attempt: int, failure: Retryable) -> float:
        """How long to wait before try ``attempt + 1``."""
        if failure.retry_after_s is not None:
            wanted = failure.retry_after_s
        else:
            wanted = self.settings.base_delay_s * (2 ** (attempt - 1))
        return max(0.0, min(wanted, self.settings.max_delay_s))

    def run(self, operation: Callable[[], T], what: str) -> T:
        """``operation()``, retried on retryable failures.

        Raises:
            StoreError: The operation failed for good (not retryable, or out of attempts).
        """
        attempts = max(1, self.settings.attempts)
        for attempt in range(1, attempts + 1):
            try:
                return operation()
            except StoreError:
                raise
            except Exception as exc:  # classified below; anything else is a store failure
                failure = self.classify(exc)
                if failure is None:
                    raise StoreError(f"{self.service}: {what} failed: {_brief(exc)}") from exc
                if attempt == attempts:
                    raise StoreError(
                        f"{self.service}: {what} still failing with status {failure.status} "
                        f"after {attempts} attempts"
                    ) from exc
                wait = self.delay(attempt, failure)
                self.waits.append(wait)
                self.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover


def _brief(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first[:300]}" if first else type(exc).__name__

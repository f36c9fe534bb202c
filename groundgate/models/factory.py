"""``make_chat_model(spec)``: the model is a dial; nothing else changes with it.

Specs: ``offline`` (default), ``openai:<model>``, ``azure:<deployment>``,
``compatible:<base_url>#<model>``. Keys and endpoints come from the arguments or, when
the caller passes ``env``, from the usual environment variables; nothing is read at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from groundgate.errors import ConfigError
from groundgate.graph.bounds import Bounds

__all__ = ["make_chat_model"]


def make_chat_model(
    spec: str = "offline",
    *,
    env: Mapping[str, str] | None = None,
    timeout_s: float = Bounds().wall_clock_s,
    max_retries: int = 1,
    **kwargs: Any,
) -> BaseChatModel:
    """Build a chat model from a spec string.

    ``timeout_s`` is the HTTP client's timeout for one request (by default the run's wall
    clock, ``Bounds().wall_clock_s``); ``max_retries`` its retries.

    Raises:
        ConfigError: The spec is malformed or a needed setting is missing.
    """
    env = env or {}
    kind, _, rest = spec.partition(":")
    if spec == "offline":
        from groundgate.models.offline import OfflinePlanner

        return OfflinePlanner()
    if kind == "openai" and rest:
        from langchain_openai import ChatOpenAI

        key = kwargs.pop("api_key", None) or env.get("OPENAI_API_KEY")
        if not key:
            raise ConfigError("openai:<model> needs OPENAI_API_KEY (or api_key=...)")
        return ChatOpenAI(
            model=rest, api_key=SecretStr(key), timeout=timeout_s, max_retries=max_retries, **kwargs
        )
    if kind == "azure" and rest:
        from langchain_openai import AzureChatOpenAI

        endpoint = kwargs.pop("azure_endpoint", None) or env.get("AZURE_OPENAI_ENDPOINT")
        if not endpoint:
            raise ConfigError("azure:<deployment> needs AZURE_OPENAI_ENDPOINT")
        version = kwargs.pop("api_version", None) or env.get("OPENAI_API_VERSION", "2024-10-21")
        key = kwargs.pop("api_key", None) or env.get("AZURE_OPENAI_API_KEY")
        auth: dict[str, Any] = (
            {"api_key": SecretStr(key)} if key else {"azure_ad_token_provider": _entra_token_provider()}
        )
        return AzureChatOpenAI(
            azure_deployment=rest, azure_endpoint=endpoint, api_version=version,
            timeout=timeout_s, max_retries=max_retries, **auth, **kwargs,
        )
    if kind == "compatible" and "#" in rest:
        from langchain_openai import ChatOpenAI

        base_url, _, model = rest.rpartition("#")
        if not base_url.startswith(("http://", "https://")) or not model:
            raise ConfigError("compatible spec is compatible:<http(s)://base_url>#<model>")
        key = kwargs.pop("api_key", None) or env.get("OPENAI_API_KEY") or "not-needed"
        return ChatOpenAI(
            model=model, base_url=base_url, api_key=SecretStr(key), timeout=timeout_s,
            max_retries=max_retries, **kwargs,
        )
    raise ConfigError(
        f"unknown model spec {spec!r}; use offline, openai:<model>, azure:<deployment> "
        "or compatible:<base_url>#<model>"
    )


def _entra_token_provider() -> Any:
    try:
        from azure.identity import DefaultAzureCredential, get_bearer_token_provider
    except ImportError as exc:
        raise ConfigError(
            "azure without AZURE_OPENAI_API_KEY uses Entra ID: pip install 'groundgate[azure]'"
        ) from exc
    return get_bearer_token_provider(
        DefaultAzureCredential(), "https://cognitiveservices.azure.com/.default"
    )

"""Test helpers that ship with groundgate.

- ``fake``: ``ScriptedChatModel``, a chat model that plays a script.
- ``slow``: ``SlowStore``, a real store whose evidence search is slow (to trip time bounds).
- ``agent``: ``agent_over_corpus`` / ``memory_store``, an agent over an in-memory store.
- ``fixtures``: pytest fixtures (``pytest_plugins = ["groundgate.testing.fixtures"]``).
- ``cassettes``: strict, scrubbed VCR cassettes around any graph run, and a secret scanner.
- ``conformance``: the suite every ``KnowledgeStore`` backend must pass.
- ``azure``: a fake Azure AI Search and ``azure.core`` fault transports, for the Azure backend's tests.
"""

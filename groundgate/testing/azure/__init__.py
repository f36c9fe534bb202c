"""Test doubles for the Azure backend; none of this is used in production.

- ``fake_search``: a FAKE of the Azure AI Search REST subset groundgate uses, in process
  (``FakeSearchTransport``) or on localhost (``python -m groundgate.testing.azure.fake_search``).
- ``transports``: ``azure.core`` transports that record requests, answer them from a handler,
  or inject faults (429, 503, timeouts) in front of a real transport. They build responses
  with private ``azure.core`` classes, which is why they live here and not in the adapters.

Importing this package imports no Azure SDK; ``transports`` does.
"""

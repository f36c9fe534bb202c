"""Test helpers that ship with groundgate: fakes, fixtures and the conformance suite."""

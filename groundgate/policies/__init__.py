"""The policy layer: pure functions over (draft, trace, store) that return verdicts."""

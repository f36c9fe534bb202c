"""CLI commands that live in their own modules; each registers itself on ``groundgate.cli.app``."""

"""The agent graph: state, context, wiring and drawing."""

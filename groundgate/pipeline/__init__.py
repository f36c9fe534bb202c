"""Lane A, the fixed fused pipeline, and the router that escalates to the agent."""

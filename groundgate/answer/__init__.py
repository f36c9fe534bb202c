"""The structured answer the agent and the pipeline return."""

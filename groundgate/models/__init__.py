"""Chat models: the offline planner and the factory for real ones."""

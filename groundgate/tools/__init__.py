"""The eight read-only tools and the envelope they share."""

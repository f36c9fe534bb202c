// groundgate: bind "g" to the in-memory TinkerGraph. No TinkerGraph property indexes: they are
// not safe under the concurrent writes an ingest sends (a stale entry can outlive a drop).
def globals = [:]
globals << [g : traversal().withEmbedded(graph)]

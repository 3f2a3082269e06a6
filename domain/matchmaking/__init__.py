"""Quick match: the waiting queue of each variant, as events, and the pure choice of tables."""

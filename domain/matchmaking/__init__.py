"""Finding a game: the quick-match queue of each variant and the rematch of an ended game, each
as events, and the pure choice of tables."""

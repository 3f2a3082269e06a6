"""The routes, by what they are about: games and the writes to them, reads of one game,
players, the service itself, the rules pages and the viewer's pages."""

"""A game over the API: its commands, their races and retries, replays and deadlines."""

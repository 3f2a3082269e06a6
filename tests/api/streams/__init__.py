"""Hearing about games: live streams of a game or of a player's messages, and webhooks."""

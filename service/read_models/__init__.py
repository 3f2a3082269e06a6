"""The materialized read models: the lobby, scoreboards, the leaderboard, who sits where."""

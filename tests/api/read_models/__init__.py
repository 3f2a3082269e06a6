"""What the read models serve (lobby, scoreboards, leaderboard, ratings, players' messages)
and its pages."""

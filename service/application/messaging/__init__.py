"""What each player hears about their games: their messages (pages and the stream read them)
and their webhooks (the same messages POSTed, signed, to where they ask)."""

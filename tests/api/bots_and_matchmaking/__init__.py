"""Who sits at a table: bots at seats, quick match and rematch, through one process or two."""

"""The store: the event log and its recorders, this process's games, the command path's unit
of work, receipts, wake-ups and locks."""

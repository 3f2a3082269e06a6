"""Live streams: one feed per followed game, shared by its Server-Sent Event streams."""

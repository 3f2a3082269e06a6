"""Command-line tools: serve, migrate, project, verify, simulate, bench, openapi."""

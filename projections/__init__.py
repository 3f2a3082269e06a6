"""Read side: views per perspective, scoreboards, the lobby. Pure functions; no web imports."""

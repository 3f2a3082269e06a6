"""The HTTP service: settings, storage, auth, the application's use cases and the litestar app."""

"""The HTTP service: the litestar app, its routes and their declared contract, the viewer."""

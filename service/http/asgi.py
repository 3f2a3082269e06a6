"""ASGI entry point for uvicorn workers: the app configured from the environment."""

from service.http.app import create_app

app = create_app()

"""ASGI entry point for uvicorn workers: the app configured from the environment."""

from concurrent.futures import ThreadPoolExecutor

from litestar.concurrency import set_asyncio_executor

from service.http.app import create_app
from service.settings import Settings

settings = Settings.from_env()
# Blocking store calls run in these threads; the PostgreSQL pool is sized to match.
set_asyncio_executor(ThreadPoolExecutor(max_workers=settings.threads, thread_name_prefix="store"))
app = create_app(settings)

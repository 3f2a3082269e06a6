"""Fixtures for the viewer's browser tests: one real server, Debian's chromium, and pages that
fail their test on any console error."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from service.settings import Settings
from tests.support.servers import running_server

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"  # `make test CHROMIUM=…` sets it
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ADMIN = "viewer-admin"
WAIT_MS = 10_000  # for an action and for an assertion to come true: a busy machine is slow
# Assertions waited 5 s by default: a One Up One Down page that followed the game live missed it
# once in a full run on a loaded machine (its stream's update came later), where actions waited 10.
expect.set_options(timeout=WAIT_MS)
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="package")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for every browser test; each test makes its own games."""
    directory = tmp_path_factory.mktemp("viewer")
    with running_server(Settings(data_dir=directory, admin_token=ADMIN), directory) as url:
        yield url


@pytest.fixture(scope="package")
def http(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=20) as client:
        yield client


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One chromium for the browser tests, gone when they are: Playwright's sync API keeps an
    event loop running in the main thread, which would break later tests' asyncio.run()."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium (as root)")
    fonts = shutil.which("fc-list")
    if fonts and not subprocess.run([fonts, ":lang=zh"], capture_output=True, text=True).stdout:
        pytest.fail("no CJK font: `make browser` installs fonts-noto-cjk")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Console:
    """Console errors and uncaught exceptions of a page; some may be expected by a test."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[re.Pattern[str]] = []

    def on_message(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} ({message.location.get('url', '')})")

    def on_error(self, error: Exception) -> None:
        self.errors.append(f"uncaught: {error}")

    def expect(self, pattern: str) -> None:
        self.expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.expected)]


@pytest.fixture
def console() -> Console:
    return Console()


def new_page(browser: Browser, console: Console, width: int, height: int) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    yield page
    context.close()
    assert not console.unexpected(), f"console errors: {console.unexpected()}"


@pytest.fixture
def page(browser: Browser, console: Console) -> Iterator[Page]:
    yield from new_page(browser, console, 1280, 900)


@pytest.fixture
def phone(browser: Browser, console: Console) -> Iterator[Page]:
    yield from new_page(browser, console, 390, 844)


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=30_000)


def select(page: Page, cards: list[str]) -> None:
    """Clicks the hand's cards one by one (a double deck may hold a card twice)."""
    taken: dict[str, int] = {}
    for card in cards:
        page.locator(f"#hand .card[data-card='{card}']").nth(taken.get(card, 0)).click()
        taken[card] = taken.get(card, 0) + 1

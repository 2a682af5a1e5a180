"""Browser fixtures: Debian's Chromium driven by Playwright (no browser is ever downloaded)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATIC = Path(__file__).resolve().parents[2] / "obelisk" / "server" / "static"

_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole session; each test opens its own contexts (profiles)."""
    if not CHROMIUM.exists():
        pytest.skip(f"the browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Tab:
    """A page in its own profile (own localStorage), recording CSP violations and uncaught script errors."""

    def __init__(self, browser: Browser) -> None:
        self.context: BrowserContext = browser.new_context()
        self.context.add_init_script(_WATCH)
        self.context.set_default_timeout(10_000)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def assert_clean(self) -> None:
        assert self.page.evaluate("window.__cspViolations") == []
        assert self.errors == []

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_tab(browser: Browser) -> Iterator[Callable[[], Tab]]:
    """Opens tabs in fresh profiles; all are closed after the test."""
    opened: list[Tab] = []

    def make() -> Tab:
        opened.append(Tab(browser))
        return opened[-1]

    yield make
    for tab in opened:
        tab.close()

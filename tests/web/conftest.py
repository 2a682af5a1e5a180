"""Browser fixtures: Debian's Chromium driven by Playwright (no browser is ever downloaded)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

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
ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "obelisk" / "server" / "static"

expect.set_options(timeout=15_000)

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
    """A page in its own profile (own localStorage, the browser's language ``locale``; ``touch``: a phone's
    screen that is tapped, with no hover), recording CSP violations and uncaught script errors.

    The profile asks for reduced motion (``motion="reduce"``, the system setting many people choose) unless a
    test looks at the animations themselves (``motion="no-preference"``): the pages then mark changes still, and a
    browser without a graphics card spends half as much time drawing."""

    def __init__(self, browser: Browser, locale: str = "en-US", touch: bool = False, motion: str = "reduce") -> None:
        phone: dict[str, Any] = {"has_touch": True, "viewport": {"width": 390, "height": 844}} if touch else {}
        self.context: BrowserContext = browser.new_context(locale=locale, reduced_motion=motion, **phone)
        self.context.add_init_script(_WATCH)
        self.context.set_default_timeout(15_000)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def assert_clean(self) -> None:
        assert self.page.evaluate("window.__cspViolations") == []
        assert self.errors == []

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_tab(browser: Browser) -> Iterator[Callable[..., Tab]]:
    """Opens tabs in fresh profiles (``open_tab(locale="cs-CZ")``, ``open_tab(touch=True)``: a phone,
    ``open_tab(motion="no-preference")``: animations on); all are closed after the test."""
    opened: list[Tab] = []

    def make(locale: str = "en-US", touch: bool = False, motion: str = "reduce") -> Tab:
        opened.append(Tab(browser, locale, touch, motion))
        return opened[-1]

    yield make
    for tab in opened:
        tab.close()


_SERVE = """
import sys
import uvicorn
from obelisk.server.app import ServerConfig, create_app

# 5 chat lines per seat, then one every 2 minutes: a test's sixth line is refused however slow the machine is
config = ServerConfig(db_url=sys.argv[2], bot_workers=0, bot_delay=0.0, rate=1000.0, burst=1000.0,
                      chat_lines=5, chat_seconds=600.0)
uvicorn.run(create_app(config), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


BOX = """(css) => {
  const node = document.querySelector(css);
  if (!node) return null;
  const r = node.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
}"""


def box_of(page: Page, css: str) -> dict[str, float]:
    """Where the first element matching ``css`` is drawn, measured in one step in the page once it is shown
    (a board drawn again for a bot's move between finding and measuring it cannot lose the element)."""
    return page.wait_for_function(BOX, arg=css).json_value()


def tab_until(page: Page, reached: str, what: str, presses: int = 200) -> None:
    """Press Tab until the page expression ``reached`` (about ``document.activeElement``) is true; fail
    naming ``what`` if it never is."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(reached):
            return
    raise AssertionError(f"Tab never reached {what}")


class LiveServer:
    """The real server in a subprocess on a free loopback port with its own SQLite file; restartable."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_url = f"sqlite:///{folder / 'tables.db'}"
        self.log = folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-c", _SERVE, str(self.port), self.db_url],
                                            cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                self.get("/api/games")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 30 s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def get(self, path: str, token: str | None = None) -> Any:
        """A JSON GET straight to the API (not through a page)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with urllib.request.urlopen(urllib.request.Request(self.url + path, headers=headers), timeout=10) as answer:
            return json.loads(answer.read())

    def claimed(self, created: dict[str, Any]) -> dict[str, Any]:
        """The answer ``created`` of a table's creation as it is once every person's seat is claimed through the
        API: ``tokens`` and ``invite_urls`` then hold each seat's own token and a link that opens the seat (the
        invites open nothing any more). A page opened at such a link claims its seat again and keeps the token."""
        table = created["table"]["id"]
        tokens = {seat: self.post(f"/api/tables/{table}/claim", {"token": invite})["token"]
                  for seat, invite in created["tokens"].items()}
        return {**created, "tokens": tokens,
                "invite_urls": {seat: f"/table/{table}#token={token}" for seat, token in tokens.items()}}

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        """A JSON POST straight to the API (not through a page)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())


@pytest.fixture
def live_server(browser: Browser, tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh server and database for one test (after the browser, so a missing Chromium skips first)."""
    server = LiveServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()

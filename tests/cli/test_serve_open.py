"""``obelisk serve --open``: a graphical browser is opened where there is one, else the line says where to go."""

from __future__ import annotations

import threading
import webbrowser

import pytest

from obelisk.cli import serve
from obelisk.core import i18n

URL = "http://localhost:8123/"


class Recorder(webbrowser.BaseBrowser):
    """A browser that only notes what it was asked to open."""

    def __init__(self) -> None:
        super().__init__("recorder")
        self.opened: list[str] = []
        self.done = threading.Event()

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.opened.append(url)
        self.done.set()
        return True


def _no_browser_wanted() -> webbrowser.BaseBrowser:
    raise AssertionError("no browser may be looked for without a display")


def test_without_a_display_no_browser_is_started_and_the_line_says_where_to_point_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(serve.webbrowser, "get", _no_browser_wanted)
    line = serve._open_browser(URL, 8123)
    assert line is not None and "\n" not in line
    assert URL in line and "ssh -L 8123:localhost:8123" in line
    with i18n.language("cs"):
        czech = serve._open_browser(URL, 8123)
    assert czech is not None and czech != line and URL in czech and "otevřete" in czech


def test_a_display_without_any_browser_gets_the_same_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve.sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")

    def nothing() -> webbrowser.BaseBrowser:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(serve.webbrowser, "get", nothing)
    line = serve._open_browser(URL, 8123)
    assert line is not None and URL in line


def test_a_graphical_browser_is_opened_on_the_lobby(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve.sys, "platform", "linux")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    browser = Recorder()
    monkeypatch.setattr(serve.webbrowser, "get", lambda: browser)
    assert serve._open_browser(URL, 8123) is None
    assert browser.done.wait(10)
    assert browser.opened == [URL]

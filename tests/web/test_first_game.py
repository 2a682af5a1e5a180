"""A first-time player's whole game of Valley of the Kings against a bot, through what the page shows only.

The player reads the first-game guide to its end, opens the Rules panel and finds a card in it, taps a card of
the pyramid to read its text, then plays every decision by tapping pieces, menu entries and the bar's buttons,
confirming the moves that cannot be taken back when the page asks, until the headline names the winner the
server's result names. Once at desktop width, once at a phone's (where no text is smaller than 11 px) and once
in Czech.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.test_play import kept_token
from tests.web.person import (
    WORDS, Clicks, board, choose, overflowing, result_named, smallest_text, status_line, wait_answered, wait_turn,
)

HEADLINES = {
    "en": {"me": "You win!", "other": "{player} wins", "shared": "You share the win with {player}"},
    "cs": {"me": "Vyhráli jste!", "other": "Vyhrál(a): {player}", "shared": "O vítězství se dělíte s: {player}"},
}
GUIDE = {"en": ("First game: step {n} of {count}", "Next", "Got it, hide the guide"),
         "cs": ("První hra: krok {n} z {count}", "Dál", "Rozumím, skrýt průvodce")}
FIND = {"en": "Find a component", "cs": "Najít herní prvek"}
BOT_NAME = {"en": "Player 2", "cs": "Hráč 2"}


def read_the_guide(page: Page, lang: str, steps: list[str]) -> None:
    """Steps through the first-game guide the help gives and hides it."""
    step, following, done = GUIDE[lang]
    for n, text in enumerate(steps, start=1):
        box = page.get_by_role("region", name=step.format(n=n, count=len(steps)))
        expect(box).to_contain_text(text)
        if n < len(steps):
            box.get_by_role("button", name=following).click()
        else:
            box.get_by_role("button", name=done).click()
            expect(box).to_be_hidden()


def read_the_rules(page: Page, lang: str, help_: dict[str, Any]) -> None:
    """Opens the Rules panel, reads the rules in short and finds one card's text in it."""
    words = WORDS[lang]
    page.get_by_role("button", name=words["rules"]).click()
    rules = page.get_by_role("dialog", name=words["rules"])
    expect(rules).to_contain_text(help_["summary"].split("\n")[0])
    boat = next(entry for entry in help_["entries"] if entry["key"] == "card:boat")
    rules.get_by_label(FIND[lang]).fill(boat["name"])
    expect(rules.get_by_text(boat["text"])).to_be_visible()
    rules.get_by_role("button", name=words["close"]).click()
    expect(rules).to_be_hidden()


def read_a_card(page: Page, lang: str, view: dict[str, Any], help_: dict[str, Any]) -> None:
    """Taps the card at the top of the pyramid (no move now) and reads its text next to it."""
    top = next(cell["card"] for cell in view["pyramid"] if cell["slot"] == "T")
    entry = next(e for e in help_["entries"] if e["key"] == "card:" + re.sub(r"[^a-z0-9]+", "_", top.lower()).strip("_"))
    plan = board(page, lang)
    plan.get_by_text("T", exact=True).click()
    expect(plan.get_by_role("status")).to_contain_text(entry["text"])
    page.keyboard.press("Escape")
    expect(plan.get_by_role("status")).to_be_hidden()


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("en", 390), ("cs", 390)])
def test_a_first_time_player_plays_valley_to_the_winners_headline(
        live_server: LiveServer, open_tab: Callable[..., Tab], lang: str, width: int) -> None:
    created = live_server.post("/api/tables", {"game": "valley", "seats": [{"kind": "human", "name": "Ann"},
                                                                          {"kind": "bot", "bot": "greedy"}]})
    table = created["table"]["id"]
    help_ = live_server.get("/api/games/valley/help" + ("" if lang == "en" else f"?lang={lang}"))
    tab = open_tab(locale={"en": "en-US", "cs": "cs-CZ"}[lang])
    page = tab.page
    page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
    page.goto(live_server.url + created["invite_urls"]["0"])

    assert wait_turn(page, lang) == "play"
    token = kept_token(tab, table)  # the claim's token: the invite opens nothing once claimed
    expect(status_line(page, lang)).to_have_text(f"{WORDS[lang]['turn']} — "
                                                 + live_server.get(f"/api/tables/{table}/frame?lang={lang}", token)["decision"]["text"])
    read_the_guide(page, lang, help_["guide"])
    read_the_rules(page, lang, help_)
    read_a_card(page, lang, live_server.get(f"/api/tables/{table}/frame", token)["view"], help_)

    rng = random.Random(7)
    clicks = Clicks()
    smallest = 99.0
    while wait_turn(page, lang, timeout=120) == "play":
        if width < 600 and len(clicks.per_decision) % 25 == 0:
            smallest = min(smallest, smallest_text(page))
            assert overflowing(page) == []
        choose(page, rng, prefer=("end turn", "ukončit tah") if rng.random() < 0.4 else (), lang=lang, clicks=clicks)
        wait_answered(page)
        assert len(clicks.per_decision) < 600

    final = live_server.get(f"/api/tables/{table}/frame", token)
    assert final["status"] == "finished"
    winners = final["result"]["outcome"]["winners"]
    said = HEADLINES[lang]
    headline = {(0,): said["me"], (1,): said["other"], (0, 1): said["shared"]}[tuple(winners)]
    expect(result_named(page, headline.format(player=BOT_NAME[lang]))).to_be_visible()
    assert clicks.confirmed >= 1, "a move that cannot be taken back was asked for and confirmed"
    if width < 600:
        assert smallest >= 11
    tab.assert_clean()

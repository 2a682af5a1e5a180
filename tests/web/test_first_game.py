"""A first-time player's whole game of every title against a bot, through what the page shows only.

The player reads the first-game guide to its end, opens the Rules panel and finds a component in it, taps a
component of the board to read its text, then plays every decision by tapping pieces, menu entries and the bar's
buttons, confirming the moves that cannot be taken back when the page asks, until the headline names the winner
the server's result names. Every title is played; three of them in Czech and three at a phone's width (where no
text is smaller than 11 px), with table options that keep the game short. After every decision the page is read as a
person reads it (visible text and accessible names): no programme's id (``first_aid_kit``, ``colour_2``), no
``label``, ``True``, ``False`` or ``None`` may show.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.wording import shown_text
from tests.web.test_play import kept_token
from tests.web.person import (
    WORDS, Clicks, board, choose, overflowing, result_named, smallest_text, status_line, wait_answered, wait_turn,
)

HEADLINES = {
    "en": {"me": "You win!", "other": "{player} wins", "shared": "You share the win with {player}",
           "none": "Nobody wins", "others": "{player} share the win"},
    "cs": {"me": "Vyhráli jste!", "other": "Vyhrál(a): {player}", "shared": "O vítězství se dělíte s: {player}",
           "none": "Nikdo nevyhrává", "others": "{player} sdílejí vítězství"},
}
GUIDE = {"en": ("First game: step {n} of {count}", "Next", "Got it, hide the guide"),
         "cs": ("První hra: krok {n} z {count}", "Dál", "Rozumím, skrýt průvodce")}
FIND = {"en": "Find a component", "cs": "Najít herní prvek"}
BOT_NAME = {"en": "Player {n}", "cs": "Hráč {n}"}


def headline(lang: str, winners: list[int]) -> str:
    """The headline the person at seat 0 reads for these winners (the bots are named by their seats)."""
    said = HEADLINES[lang]
    others = ", ".join(BOT_NAME[lang].format(n=seat + 1) for seat in winners if seat != 0)
    if not winners:
        return said["none"]
    if winners == [0]:
        return said["me"]
    if len(winners) == 1:
        return said["other"].format(player=others)
    return (said["shared"] if 0 in winners else said["others"]).format(player=others)


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


def read_the_rules(page: Page, lang: str, help_: dict[str, Any], key: str) -> None:
    """Opens the Rules panel, reads the rules in short and finds one component's (``key``) text in it."""
    words = WORDS[lang]
    page.get_by_role("button", name=words["rules"]).click()
    rules = page.get_by_role("dialog", name=words["rules"])
    expect(rules).to_contain_text(help_["summary"].split("\n")[0])
    entry = next(entry for entry in help_["entries"] if entry["key"] == key)
    rules.get_by_label(FIND[lang]).fill(entry["name"])
    expect(rules.get_by_text(entry["text"])).to_be_visible()
    rules.get_by_role("button", name=words["close"]).click()
    expect(rules).to_be_hidden()


def entry_text(help_: dict[str, Any], key: str) -> str:
    return next(e["text"] for e in help_["entries"] if e["key"] == key)


def tap_valley(page: Page, lang: str, view: dict[str, Any], help_: dict[str, Any]) -> tuple[Locator, str]:
    """The card at the top of the pyramid (no move now), and its text."""
    top = next(cell["card"] for cell in view["pyramid"] if cell["slot"] == "T")
    key = "card:" + re.sub(r"[^a-z0-9]+", "_", top.lower()).strip("_")
    return board(page, lang).get_by_text("T", exact=True), entry_text(help_, key)


def tap_tomb(page: Page, lang: str, view: dict[str, Any], help_: dict[str, Any]) -> tuple[Locator, str]:
    """The burial chamber in the middle of the pyramid, and its text."""
    return board(page, lang).get_by_role("img", name=re.compile(r"^E5: ")), entry_text(help_, "tile:chamber")


def tap_solomon(page: Page, lang: str, view: dict[str, Any], help_: dict[str, Any]) -> tuple[Locator, str]:
    """An excavation card of the hand (a right click shows a playable piece's text), and what it says."""
    card = board(page, lang).get_by_role("button", name=re.compile({"en": "^choose card", "cs": "^zvolit kartu"}[lang]))
    return card.first, {"en": "Digs ", "cs": "Výkop v tomto tvaru"}[lang]


def tap_cleopatra(page: Page, lang: str, view: dict[str, Any], help_: dict[str, Any]) -> tuple[Locator, str]:
    """The empty dais of the throne in the palace, and the piece it awaits."""
    words = {"en": ("empty dais", "Pedestal and Throne"), "cs": ("prázdná vyvýšenina", "Podstavec a trůn")}[lang]
    return board(page, lang).get_by_text(words[0], exact=True), words[1]


def read_a_component(page: Page, lang: str, target: tuple[Locator, str], right: bool) -> None:
    """Taps (or, on a playable piece, right-clicks) a component and reads its text next to it."""
    node, text = target
    node.click(button="right" if right else "left")
    plan = board(page, lang)
    expect(plan.get_by_role("status")).to_contain_text(text)
    page.keyboard.press("Escape")
    expect(plan.get_by_role("status")).to_be_hidden()


RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|colour_\d|\blabel |\b(?:True|False|None)\b")
"""What only a programme says: an id with underscores, a numbered colour, a field's name, Python's constants."""


def raw_words(page: Page) -> list[str]:
    """The programme's words the page shows now (visible text and accessible names)."""
    return sorted(set(RAW.findall(shown_text(page))))


@dataclass(frozen=True)
class Title:
    """How a first game of one title is set up and played short."""

    game: str
    bots: int
    options: dict[str, Any]
    rules_key: str
    tap: Callable[[Page, str, dict[str, Any], dict[str, Any]], tuple[Locator, str]]
    right_click: bool = False
    prefer: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prefer_share: float = 0.4


TITLES = {
    "valley": Title("valley", 1, {}, "card:boat", tap_valley,
                    prefer={"en": ("end turn",), "cs": ("ukončit tah",)}),
    "tomb": Title("tomb", 1, {"max_rounds": 3}, "obstacle:snake", tap_tomb),
    "solomon": Title("solomon", 1, {}, "tile:scroll", tap_solomon, right_click=True,
                     prefer={"en": ("end turn", "choose card", "dig card", "pay"),
                             "cs": ("ukončit tah", "zvolit kartu", "kopat kartou", "zaplatit")}, prefer_share=0.95),
    "cleopatra": Title("cleopatra", 2, {"max_rounds": 2}, "card:artisan", tap_cleopatra,
                       prefer={"en": ("finish", "keep"), "cs": ()}, prefer_share=0.7),
}


@pytest.mark.parametrize(("game", "lang", "width"), [  # every game; Czech in three, a phone in three
    ("valley", "cs", 390),
    ("tomb", "en", 1280), ("tomb", "cs", 390), ("solomon", "cs", 1280), ("cleopatra", "en", 390),
])
def test_a_first_time_player_plays_to_the_winners_headline(
        live_server: LiveServer, open_tab: Callable[..., Tab], game: str, lang: str, width: int) -> None:
    title = TITLES[game]
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * title.bots
    created = live_server.post("/api/tables", {"game": game, "players": len(seats), "options": title.options,
                                               "seats": seats})
    table = created["table"]["id"]
    help_ = live_server.get(f"/api/games/{game}/help" + ("" if lang == "en" else f"?lang={lang}"))
    tab = open_tab(locale={"en": "en-US", "cs": "cs-CZ"}[lang])
    page = tab.page
    page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
    page.goto(live_server.url + created["invite_urls"]["0"])

    assert wait_turn(page, lang) == "play"
    token = kept_token(tab, table)  # the claim's token: the invite opens nothing once claimed
    expect(status_line(page, lang)).to_have_text(f"{WORDS[lang]['turn']} — "
                                                 + live_server.get(f"/api/tables/{table}/frame?lang={lang}", token)["decision"]["text"])
    read_the_guide(page, lang, help_["guide"])
    read_the_rules(page, lang, help_, title.rules_key)
    view = live_server.get(f"/api/tables/{table}/frame", token)["view"]
    read_a_component(page, lang, title.tap(page, lang, view, help_), title.right_click)

    rng = random.Random(7)
    clicks = Clicks()
    smallest = 99.0
    prefer = title.prefer.get(lang, ())
    while wait_turn(page, lang, timeout=120) == "play":
        if width < 600 and len(clicks.per_decision) % 25 == 0:
            smallest = min(smallest, smallest_text(page))
            assert overflowing(page) == []
        assert raw_words(page) == [], f"decision {len(clicks.per_decision)}"
        choose(page, rng, prefer=prefer if rng.random() < title.prefer_share else (), lang=lang, clicks=clicks)
        wait_answered(page)
        assert len(clicks.per_decision) < 600

    final = live_server.get(f"/api/tables/{table}/frame", token)
    assert final["status"] == "finished"
    expect(result_named(page, headline(lang, final["result"]["outcome"]["winners"]))).to_be_visible()
    assert raw_words(page) == [], "the end of the game"
    assert clicks.confirmed >= 1, "a move that cannot be taken back was asked for and confirmed"
    if width < 600:
        assert smallest >= 11
    tab.assert_clean()


def test_the_reading_finds_every_kind_of_programme_word() -> None:
    said = "Ann holds first_aid_kit and colour_2; label Fod; True, False, None — a red inscription, Papyrus of the dead"
    assert sorted(RAW.findall(said)) == ["False", "None", "True", "colour_2", "first_aid_kit", "label "]

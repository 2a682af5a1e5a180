"""The lobby against the real server, as a new player meets it: a game's card, a table against an easy bot in
English and in Czech, no English left in the Czech lobby, *My tables* saying where this browser is awaited,
and the phone layout."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.lobby import choose_game, stored_seat, table_of
from tests.web.wording import english_leftovers, english_share, shown_text

GAMES = {"solomon": "King Solomon's Treasury", "tomb": "Secret of the Ancient Tomb",
         "cleopatra": "Cleopatra and the Society of Architects", "valley": "Valley of the Kings"}
SHARED_WORDS = ["Obelisk", "English", "Čeština", "Language", "Jazyk", "Bot", "program", "limit", "talent", "bonus", "Anubis"]
"""Proper names (the language switcher names each language in its own words, and its label is in both) and
words Czech and English write alike."""


def wait_until(server: LiveServer, table: str, ready: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        summary = server.get(f"/api/tables/{table}")
        if ready(summary):
            return summary
        time.sleep(0.1)
    raise AssertionError(f"table {table} never got there: {summary}")


@pytest.mark.parametrize("locale,words", [
    ("en-US", {"button": "Set up a table", "form": "New table: {game}", "player2": "Player 2", "easy": "Bot (easy)",
               "public": "List in open tables", "create": "Create table", "go": "Go to your table",
               "created": "Table created", "mine": "My tables", "move": "Your move", "name": "Player 1",
               "refresh": "Refresh my tables"}),
    ("cs-CZ", {"button": "Připravit stůl", "form": "Nový stůl: {game}", "player2": "Hráč 2", "easy": "Bot (snadný)",
               "public": "Zobrazit mezi otevřenými stoly", "create": "Založit stůl", "go": "Přejít ke stolu",
               "created": "Stůl je připraven", "mine": "Moje stoly", "move": "Jste na tahu", "name": "Hráč 1",
               "refresh": "Obnovit moje stoly"}),
])
def test_a_table_against_an_easy_bot_is_made_from_the_game_card_and_kept_unlisted(
        live_server: LiveServer, open_tab: Callable[..., Tab], locale: str, words: dict[str, str]) -> None:
    tab = open_tab(locale=locale)
    page = tab.page
    page.goto(live_server.url + "/")
    lang = locale[:2]
    name = {g["id"]: g["name"] for g in live_server.get(f"/api/games?lang={lang}")}["valley"]
    card = page.get_by_role("article", name=name)
    expect(card.get_by_role("img")).to_have_attribute("alt", re.compile(re.escape(name)))
    expect(card.get_by_role("img")).to_have_js_property("complete", True)  # loaded (or failed): then it has a size
    assert card.get_by_role("img").evaluate("(img) => img.naturalWidth") > 0
    form = choose_game(page, name, words["button"], words["form"])
    form.get_by_label(words["player2"], exact=True).select_option(label=words["easy"])
    public = form.get_by_label(words["public"])
    expect(public).not_to_be_checked()
    form.get_by_role("button", name=words["create"]).click()

    created = page.get_by_role("region", name=words["created"])
    go = created.get_by_role("link", name=words["go"])
    table = table_of(str(go.get_attribute("href")))
    summary = wait_until(live_server, table, lambda s: s["status"] == "playing" and s["to_act"] == 0)
    assert summary["public"] is False
    assert [(s["kind"], s["bot"], s["claimed"]) for s in summary["seats"]] == [("human", None, True),
                                                                               ("bot", "greedy", True)]
    assert summary["seats"][0]["name"] == "", "an unnamed seat stays unnamed: each page names it in its reader's language"
    assert stored_seat(page, table)["seat"] == 0
    assert live_server.get("/api/tables?status=playing")["tables"] == []

    page.get_by_role("button", name=words["refresh"]).click()
    mine = page.get_by_role("list", name=words["mine"]).get_by_role("listitem")
    expect(mine).to_have_count(1)
    expect(mine.get_by_text(words["move"], exact=True)).to_be_visible()
    expect(mine).to_contain_text(words["name"])
    mine.get_by_role("link", name=name).click()
    page.wait_for_url(f"{live_server.url}/table/{table}")
    tab.assert_clean()


def test_a_person_in_a_seat_lists_the_table_unless_its_creator_says_otherwise(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab()
    tab.page.goto(live_server.url + "/")
    form = choose_game(tab.page, "Secret of the Ancient Tomb")
    public = form.get_by_label("List in open tables")
    expect(form.get_by_label("Players", exact=True)).to_have_value("4")
    expect(public).not_to_be_checked()
    form.get_by_label("Player 3", exact=True).select_option(label="A person (invite link)")
    expect(public).to_be_checked()
    expect(form.get_by_label("Name of player 3 (optional)")).to_be_visible()
    form.get_by_label("Player 3", exact=True).select_option(label="Bot (strong)")
    expect(public).not_to_be_checked()
    form.get_by_label("Player 3", exact=True).select_option(label="A person (invite link)")
    public.uncheck()
    form.get_by_label("Player 2", exact=True).select_option(label="A person (invite link)")
    expect(public).not_to_be_checked()
    tab.assert_clean()


def czech_and_english(open_tab: Callable[..., Tab], server: LiveServer) -> tuple[Page, Page]:
    pages = []
    for locale in ("cs-CZ", "en-US"):
        page = open_tab(locale=locale).page
        page.goto(server.url + "/")
        expect(page.get_by_role("article")).to_have_count(4)
        pages.append(page)
    return pages[0], pages[1]


def open_everything(page: Page, game: str, lang: str) -> None:
    """Opens ``game``'s form with every folded part open and every seat shown as a person's, in ``lang``."""
    words = {"cs": ("Připravit stůl", "Nový stůl: {game}", ["Další možnosti", "Pokročilé"], "Hráč {n}",
                    "Člověk (pozvánka odkazem)"),
             "en": ("Set up a table", "New table: {game}", ["More options", "Advanced"], "Player {n}",
                    "A person (invite link)")}[lang]
    form = choose_game(page, game, words[0], words[1])
    for summary in words[2]:
        form.get_by_text(summary, exact=True).click()
    form.get_by_label(words[3].format(n=2), exact=True).select_option(label=words[4])


def test_the_czech_lobby_with_every_option_open_shows_no_english(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    czech, english = czech_and_english(open_tab, live_server)
    names = {lang: {g["id"]: g["name"] for g in live_server.get(f"/api/games?lang={lang}")} for lang in ("cs", "en")}
    assert english_leftovers(shown_text(czech), shown_text(english), SHARED_WORDS) == []
    for game in GAMES:
        open_everything(czech, names["cs"][game], "cs")
        open_everything(english, names["en"][game], "en")
        czech_text, english_text = shown_text(czech), shown_text(english)
        assert "Další možnosti" in czech_text and "More options" in english_text
        leftovers = english_leftovers(czech_text, english_text, SHARED_WORDS)
        assert leftovers == [], f"{game}: English in the Czech lobby: {leftovers}"
        assert english_share(czech_text, english_text, SHARED_WORDS) == 0


def test_the_check_finds_english_left_in_a_czech_page() -> None:
    english = "Choose a game · Bot (easy) · When offerings tie · Obelisk"
    assert english_leftovers("Vyberte hru · Bot (snadný) · When offerings tie · Obelisk", english,
                             SHARED_WORDS) == ["When", "offerings", "tie"]
    assert english_leftovers("Vyberte hru · Bot (snadný)", english, SHARED_WORDS) == []


def seat_in(page: Page, table: str, token: str, seat: int) -> None:
    page.context.add_init_script(
        f"localStorage.setItem('obelisk.seat.{table}', {json.dumps(json.dumps({'token': token, 'seat': seat}))})")


def test_my_tables_put_the_tables_awaiting_this_browser_first_and_forget_a_gone_one(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    against_bot = live_server.post("/api/tables", {"game": "valley", "players": 2, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]})
    ann = live_server.post(f"/api/tables/{against_bot['table']['id']}/claim", {"token": against_bot["tokens"]["0"],
                                                                               "name": "Ann"})["token"]
    time.sleep(1.1)
    friends = live_server.post("/api/tables", {"game": "solomon", "players": 2, "seats": [
        {"kind": "human", "name": "Bea"}, {"kind": "human", "name": "Ann"}]})
    claimed = {seat: live_server.post(f"/api/tables/{friends['table']['id']}/claim",
                                      {"token": friends["tokens"][seat], "name": ["Bea", "Ann"][int(seat)]})["token"]
               for seat in ("0", "1")}
    mine = wait_until(live_server, against_bot["table"]["id"], lambda s: s["to_act"] == 0)
    theirs = wait_until(live_server, friends["table"]["id"], lambda s: s["status"] == "playing" and s["to_act"] == 0)
    assert theirs["updated"] > mine["updated"]

    tab = open_tab()
    seat_in(tab.page, against_bot["table"]["id"], ann, 0)
    seat_in(tab.page, friends["table"]["id"], claimed["1"], 1)
    seat_in(tab.page, "gone-table", "old-token", 0)
    tab.page.goto(live_server.url + "/")
    rows = tab.page.get_by_role("list", name="My tables").get_by_role("listitem")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Valley of the Kings")
    expect(rows.nth(0).get_by_text("Your move", exact=True)).to_be_visible()
    expect(rows.nth(0)).to_contain_text("Ann (you), Bot (easy)")
    expect(rows.nth(1)).to_contain_text("King Solomon's Treasury")
    expect(rows.nth(1)).to_contain_text("Bea, Ann (you)")
    expect(rows.nth(1)).to_contain_text("playing · last change")
    expect(rows.nth(1).get_by_text("Your move", exact=True)).to_have_count(0)
    html = tab.page.content()
    tokens = [against_bot["tokens"]["0"], *friends["tokens"].values(), ann, *claimed.values()]
    assert not [token for token in tokens if token in html], "a seat's token is on the page"
    gone = rows.nth(2)
    expect(gone).to_contain_text("A table that is gone")
    gone.get_by_role("button", name="Forget table gone-table").click()
    expect(rows).to_have_count(2)
    assert stored_seat(tab.page, "gone-table") is None
    assert stored_seat(tab.page, friends["table"]["id"])["seat"] == 1

    state = live_server.get(f"/api/tables/{friends['table']['id']}/frame", claimed["0"])
    live_server.post(f"/api/tables/{friends['table']['id']}/moves",
                     {"version": state["version"], "action": state["legal"][0][0]}, claimed["0"])
    wait_until(live_server, friends["table"]["id"], lambda s: s["to_act"] == 1)
    tab.page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(rows.get_by_text("Your move", exact=True)).to_have_count(2)
    tab.assert_clean()


def test_on_a_phone_the_lobby_is_one_column_readable_and_never_wider_than_the_screen(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab(locale="cs-CZ")
    page = tab.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    cards = page.get_by_role("article")
    expect(cards).to_have_count(4)
    lefts = {round(card.bounding_box()["x"]) for card in cards.all()}
    assert len(lefts) == 1
    open_everything(page, live_server.get("/api/games?lang=cs")[0]["name"], "cs")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    smallest = page.evaluate("""() => Math.min(...Array.from(document.body.querySelectorAll("*"))
      .filter((node) => node.checkVisibility() && Array.from(node.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim()))
      .map((node) => parseFloat(getComputedStyle(node).fontSize)))""")
    assert smallest >= 11
    tab.assert_clean()

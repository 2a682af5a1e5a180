"""The pages in English and Czech: the browser's language first, the switcher remembered, the seat kept.

What the table page shows in Czech is compared with the frame the API words for that seat with
``?lang=cs``, so the check holds for any game whatever its catalog translates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.person import status, wait_answered
from tests.web.lobby import choose_game, create_in_lobby
from tests.web.test_play import kept_token, token_of


def lobby_in(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    expect(page.get_by_role("article").first).to_be_visible()


def test_the_lobby_speaks_the_browsers_language_first_and_remembers_the_switch(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    czech = open_tab(locale="cs-CZ")
    page = czech.page
    lobby_in(page, live_server)
    games = {g["id"]: g for g in live_server.get("/api/games?lang=cs")}
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.get_by_label("Language / Jazyk")).to_have_value("cs")
    expect(page.get_by_role("heading", name="Nový stůl", exact=True)).to_be_visible()
    expect(page.get_by_label("Vaše jméno")).to_be_visible()
    expect(page.get_by_role("button", name="Obnovit otevřené stoly")).to_have_text("Obnovit")
    form = choose_game(page, games["valley"]["name"], "Připravit stůl", "Nový stůl: {game}")
    expect(form.get_by_role("button", name="Založit stůl")).to_be_visible()
    expect(form.get_by_role("group", name="Kdo hraje")).to_be_visible()
    expect(form.get_by_label("Hráč 1 (vy)")).to_have_value("you")
    expect(page.get_by_text("Žádný stůl nečeká na hráče.")).to_be_visible()
    assert page.title() == "Obelisk: herna"

    page.get_by_label("Language / Jazyk").select_option("en")
    expect(page.get_by_role("heading", name="New table", exact=True)).to_be_visible()
    expect(page.get_by_role("form", name="New table: Valley of the Kings")
           .get_by_role("button", name="Create table")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate("localStorage.getItem('obelisk.lang')") == "en"
    page.reload()
    expect(page.get_by_role("heading", name="New table", exact=True)).to_be_visible()
    expect(page.get_by_label("Language / Jazyk")).to_have_value("en")

    english = open_tab()
    lobby_in(english.page, live_server)
    expect(english.page.get_by_role("heading", name="New table", exact=True)).to_be_visible()
    expect(english.page.get_by_label("Language / Jazyk")).to_have_value("en")
    czech.assert_clean()
    english.assert_clean()


def test_the_created_links_survive_a_switch(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab()
    links = create_in_lobby(tab.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    tab.page.get_by_label("Language / Jazyk").select_option("cs")
    created = tab.page.get_by_role("region", name="Stůl je připraven")
    expect(created).to_contain_text("2 hráči")
    expect(created.get_by_role("link", name="Přejít ke stolu")).to_be_visible()
    expect(created.get_by_role("textbox", name="Pozvánka pro hráče 2 (Bea)")).to_have_value(links["seat-1"])
    expect(created.get_by_role("textbox", name="Pro diváky")).to_have_value(links["spectator"])
    tab.assert_clean()


def without_actor(text: str, actor: int) -> str:
    """A decision's text as the log shows it after its actor's name: without a leading mention of that actor."""
    for word, base in (("seat", 0), ("player", 1), ("hráč", 1)):
        found = re.match(rf"^{word} (\d+)\b[:,]?\s*", text, re.IGNORECASE)
        if found and int(found.group(1)) == actor + base and found.end() < len(text):
            return text[found.end():]
    return text


def shown(page: Page, words: str) -> dict[str, object]:
    """The seat's view, its moves and the log as the page shows them (the list of moves opened)."""
    moves = page.get_by_role("group", name=re.compile(f"^{words} "))
    if moves.count() and moves.get_attribute("open") is None:
        moves.get_by_text(re.compile(f"^{words}")).click()
    return {
        "view": page.get_by_role("group", name=re.compile("^(The table in words|Stůl slovy)$")).locator("pre").text_content(),
        "legal": [b.get_attribute("aria-label") or b.inner_text() for b in moves.get_by_role("button").all()],
        "log": page.get_by_role("group", name=re.compile("^(Log|Průběh hry)$")).inner_text(),
    }


def test_the_table_switches_language_in_place_keeping_the_seat(live_server: LiveServer,
                                                                open_tab: Callable[..., Tab]) -> None:
    host = open_tab()
    links = create_in_lobby(host.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    ann, bea = open_tab(), open_tab(locale="cs-CZ")
    ann.page.goto(links["seat-0"])
    bea.page.goto(links["seat-1"])
    expect(ann.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Ann.")
    token = kept_token(ann, table)
    assert token == token_of(links["seat-0"]), "the creator's link carries the seat's own token, kept as it is"
    expect(bea.page.get_by_role("region", name="Hráči u stolu")).to_contain_text("Hrajete jako Bea.")
    expect(bea.page.get_by_role("group", name="Průběh hry")).to_be_visible()

    page = ann.page
    page.evaluate("window.__samePage = true")
    page.get_by_label("Language / Jazyk").select_option("cs")
    expect(page.get_by_role("region", name="Hráči u stolu")).to_contain_text("Hrajete jako Ann.")
    expect(page.get_by_text("Stůl slovy")).to_be_visible()
    assert page.evaluate("window.__samePage") is True
    assert json.loads(page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')"))["token"] == token

    czech = live_server.get(f"/api/tables/{table}/frame?lang=cs", token)
    expect(page.get_by_role("group", name="Stůl slovy").locator("pre")).to_have_text(czech["text"])
    seen = shown(page, "Všechny tahy")
    assert seen["legal"] == [label + (" (nelze vzít zpět)" if final else "") for _, label, _, _, final in czech["legal"]]
    for entry in czech["log"]:
        if entry["actor"] != -1:
            assert without_actor(entry["text"], entry["actor"]) in seen["log"]
    expect(status(page, "cs").get_by_role("heading")).to_have_text(
        re.compile("^Jste na tahu") if czech["legal"] else "Bea přemýšlí…")

    if czech["legal"]:
        all_moves = page.get_by_role("group", name=re.compile("^Všechny tahy "))
        all_moves.get_by_role("button").first.click()
        dialog = page.get_by_role("dialog")
        if dialog.count() and dialog.is_visible():
            dialog.get_by_role("button").first.click()
        wait_answered(page)
    page.get_by_label("Language / Jazyk").select_option("en")
    expect(page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Ann.")
    english = live_server.get(f"/api/tables/{table}/frame", token)
    expect(page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(english["text"])
    for tab in (host, ann, bea):
        tab.assert_clean()


def test_errors_are_shown_in_the_readers_language(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab(locale="cs")
    tab.page.goto(live_server.url + "/table/nosuchtable")
    expect(tab.page.get_by_role("alert")).to_have_text("takový stůl neexistuje")
    english = open_tab()
    english.page.goto(live_server.url + "/table/nosuchtable")
    expect(english.page.get_by_role("alert")).to_have_text("no table 'nosuchtable'")
    tab.assert_clean()
    english.assert_clean()

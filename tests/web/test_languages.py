"""The pages in English and Czech: the browser's language first, the switcher remembered, the seat kept.

What the table page shows in Czech is compared with the frame the API words for that seat with
``?lang=cs``, so the check holds for any game whatever its catalog translates.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.test_play import create_in_lobby, token_of


def lobby_in(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    expect(page.locator('form[data-game="valley"]')).to_be_visible()


def test_the_lobby_speaks_the_browsers_language_first_and_remembers_the_switch(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    czech = open_tab(locale="cs-CZ")
    page = czech.page
    lobby_in(page, live_server)
    games = {g["id"]: g for g in live_server.get("/api/games?lang=cs")}
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#language")).to_have_value("cs")
    expect(page.locator("#games-title")).to_have_text("Nový stůl")
    expect(page.locator('label[for="player-name"]')).to_have_text("Vaše jméno")
    expect(page.locator("#refresh-open")).to_have_text("Obnovit")
    form = page.locator('form[data-game="valley"]')
    expect(form.locator("h3")).to_have_text(games["valley"]["name"])
    expect(form.locator("button[type=submit]")).to_have_text("Založit stůl")
    expect(form.locator("legend")).to_have_text("Místa")
    expect(page.locator("#open-tables")).to_have_text("Žádný stůl nečeká na hráče.")
    assert page.title() == "Obelisk: herna"

    page.select_option("#language", "en")
    expect(page.locator("#games-title")).to_have_text("New table")
    expect(form.locator("button[type=submit]")).to_have_text("Create table")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate("localStorage.getItem('obelisk.lang')") == "en"
    page.reload()
    expect(page.locator("#games-title")).to_have_text("New table")
    expect(page.locator("#language")).to_have_value("en")

    english = open_tab()
    lobby_in(english.page, live_server)
    expect(english.page.locator("#games-title")).to_have_text("New table")
    expect(english.page.locator("#language")).to_have_value("en")
    czech.assert_clean()
    english.assert_clean()


def test_the_created_links_survive_a_switch(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab()
    links = create_in_lobby(tab.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    tab.page.select_option("#language", "cs")
    expect(tab.page.locator("#created-title")).to_have_text("Stůl je připraven")
    expect(tab.page.locator("#created-summary")).to_contain_text("2 hráči")
    for name, link in links.items():
        expect(tab.page.locator(f'[data-link="{name}"]')).to_have_value(link)
    tab.assert_clean()


def shown(page: Page) -> dict[str, object]:
    return page.evaluate("""() => ({
      view: document.getElementById("view").textContent,
      legal: Array.from(document.querySelectorAll("#actions button"), (b) => b.textContent),
      log: Array.from(document.querySelectorAll("#log li"), (li) => li.textContent),
    })""")


def test_the_table_switches_language_in_place_keeping_the_seat(live_server: LiveServer,
                                                                open_tab: Callable[..., Tab]) -> None:
    host = open_tab()
    links = create_in_lobby(host.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    token = token_of(links["seat-0"])
    ann, bea = open_tab(), open_tab(locale="cs-CZ")
    ann.page.goto(links["seat-0"])
    bea.page.goto(links["seat-1"])
    expect(ann.page.locator("#whoami")).to_have_text("you are seat 0")
    expect(bea.page.locator("#whoami")).to_have_text("jste hráč 1")
    expect(bea.page.locator("#table-status")).to_have_text("hraje se")
    expect(bea.page.locator("#log-title")).to_have_text("Průběh hry")

    page = ann.page
    page.evaluate("window.__samePage = true")
    page.select_option("#language", "cs")
    expect(page.locator("#whoami")).to_have_text("jste hráč 0")
    expect(page.locator("#view-title")).to_have_text("Stůl, jak ho vidíte vy")
    assert page.evaluate("window.__samePage") is True
    assert json.loads(page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')"))["token"] == token

    czech = live_server.get(f"/api/tables/{table}/frame?lang=cs", token)
    expect(page.locator("#version")).to_have_text(str(czech["version"]))
    expect(page.locator("#log li")).to_have_count(len(czech["log"]))
    seen = shown(page)
    assert seen["view"] == czech["text"]
    assert seen["legal"] == [label for _, label, *_ in czech["legal"]]
    assert [text.endswith(entry["text"]) for text, entry in zip(seen["log"], czech["log"])] == [True] * len(czech["log"])
    expect(page.locator("#turn-title")).to_have_text("Jste na tahu" if czech["legal"] else "Čeká se na: hráč 1 (Bea)")

    if czech["legal"]:
        page.locator("#actions button").first.click()
        expect(page.locator("#version")).not_to_have_text(str(czech["version"]))
    page.select_option("#language", "en")
    expect(page.locator("#whoami")).to_have_text("you are seat 0")
    english = live_server.get(f"/api/tables/{table}/frame", token)
    expect(page.locator("#log li")).to_have_count(len(english["log"]))
    expect(page.locator("#view")).to_have_text(english["text"])
    for tab in (host, ann, bea):
        tab.assert_clean()


def test_errors_are_shown_in_the_readers_language(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab(locale="cs")
    tab.page.goto(live_server.url + "/table/nosuchtable")
    expect(tab.page.locator("#table-error")).to_have_text("takový stůl neexistuje")
    english = open_tab()
    english.page.goto(live_server.url + "/table/nosuchtable")
    expect(english.page.locator("#table-error")).to_have_text("no table 'nosuchtable'")
    tab.assert_clean()
    english.assert_clean()

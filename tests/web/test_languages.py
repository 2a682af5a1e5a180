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
    ann, bea = open_tab(), open_tab(locale="cs-CZ")
    ann.page.goto(links["seat-0"])
    bea.page.goto(links["seat-1"])
    expect(ann.page.locator("#whoami")).to_have_text("you are seat 0")
    token = kept_token(ann, table)
    assert token == token_of(links["seat-0"]), "the creator's link carries the seat's own token, kept as it is"
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

"""The table page's chat, with the real server: a player's line reaches a spectator's page as plain text, a
spectator's line stays off the players' page, and a muted seat's lines hide behind a count."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.test_table_live import seated


def chat_of(page: Page):  # noqa: ANN201 (a Playwright locator)
    return page.get_by_role("region", name="Chat")


def write(page: Page, text: str) -> None:
    chat = chat_of(page)
    chat.get_by_label("Write a message").fill(text)
    chat.get_by_role("button", name="Send").click()


def test_a_players_line_shows_as_text_and_a_spectators_line_stays_off_the_players_page(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    table, tokens = seated(live_server, "valley")
    player_tab, spectator_tab = open_tab(), open_tab()
    player, spectator = player_tab.page, spectator_tab.page
    player.goto(f"{live_server.url}/table/{table}#token={tokens[0]}")
    spectator.goto(f"{live_server.url}/table/{table}")
    expect(chat_of(player).get_by_text("Only the players read this chat while the game runs.")).to_be_visible()
    expect(chat_of(spectator).get_by_text("You write in the spectators' chat", exact=False)).to_be_visible()

    write(player, "<b>hi</b>")
    for page in (player, spectator):
        expect(chat_of(page).get_by_role("listitem").filter(has_text="<b>hi</b>")).to_contain_text("Ann: <b>hi</b>")
        expect(chat_of(page).get_by_text("hi", exact=True)).to_have_count(0)  # no element of its own: not bold

    expect(chat_of(spectator).get_by_label("Your name")).to_be_visible()
    expect(chat_of(player).get_by_label("Your name")).to_be_hidden()
    chat_of(spectator).get_by_label("Your name").fill("Eve")
    write(spectator, "the players cannot read this")
    expect(chat_of(spectator).get_by_text("Eve (spectator): the players cannot read this")).to_be_visible()
    write(player, "still only us")
    expect(chat_of(spectator).get_by_text("still only us")).to_be_visible()
    expect(chat_of(player).get_by_text("still only us")).to_be_visible()
    expect(player.get_by_text("the players cannot read this")).to_have_count(0)
    player_tab.assert_clean()
    spectator_tab.assert_clean()


def test_a_muted_seat_hides_behind_a_count_until_shown_again(live_server: LiveServer,
                                                            open_tab: Callable[..., Tab]) -> None:
    table, tokens = seated(live_server, "valley")
    ann_tab, bob_tab = open_tab(), open_tab()
    ann, bob = ann_tab.page, bob_tab.page
    ann.goto(f"{live_server.url}/table/{table}#token={tokens[0]}")
    bob.goto(f"{live_server.url}/table/{table}#token={tokens[1]}")
    write(bob, "buy the urn, buy the urn")
    line = chat_of(ann).get_by_role("listitem").filter(has_text="buy the urn")
    expect(line).to_be_visible()
    expect(chat_of(ann).get_by_role("button", name="Mute Ann")).to_have_count(0)  # one's own lines have none
    line.get_by_role("button", name="Mute Bob").click()
    expect(chat_of(ann).get_by_text("buy the urn")).to_have_count(0)
    expect(chat_of(ann).get_by_text("1 muted line")).to_be_visible()
    write(bob, "and the ankh")
    expect(chat_of(ann).get_by_text("2 muted lines")).to_be_visible()
    expect(chat_of(bob).get_by_text("and the ankh")).to_be_visible()
    ann.reload()
    expect(chat_of(ann).get_by_text("2 muted lines")).to_be_visible()
    expect(chat_of(ann).get_by_text("and the ankh")).to_have_count(0)
    chat_of(ann).get_by_role("button", name="Show them again").click()
    expect(chat_of(ann).get_by_text("and the ankh")).to_be_visible()
    ann_tab.assert_clean()
    bob_tab.assert_clean()


def test_the_czech_page_words_the_chat_and_a_flood_says_when_to_write_again(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    table, tokens = seated(live_server, "valley")
    tab = open_tab(locale="cs-CZ")
    page = tab.page
    page.goto(f"{live_server.url}/table/{table}#token={tokens[0]}")
    chat = page.get_by_role("region", name="Chat")
    expect(chat.get_by_text("Tento chat čtou během hry jen hráči.")).to_be_visible()
    for n in range(5):
        chat.get_by_label("Napsat zprávu").fill(f"zpráva {n}")
        chat.get_by_role("button", name="Odeslat").click()
        expect(chat.get_by_text(f"zpráva {n}")).to_be_visible()
    chat.get_by_label("Napsat zprávu").fill("o jednu víc")
    chat.get_by_role("button", name="Odeslat").click()
    expect(chat.get_by_role("alert")).to_contain_text("Píšete příliš rychle; znovu můžete psát za 1")
    expect(chat.get_by_text("o jednu víc", exact=True)).to_have_count(0)
    tab.assert_clean()


def test_the_chat_post_needs_the_seats_bearer_token(live_server: LiveServer) -> None:
    """No cookie opens a seat: a page of another site cannot write as a player, only the token can."""
    table, tokens = seated(live_server, "valley")
    request = urllib.request.Request(f"{live_server.url}/api/tables/{table}/chat", method="POST",
                                     data=json.dumps({"text": "hi"}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Cookie": f"token={tokens[0]}", "Origin": "http://evil.example"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a foreign page's chat post was taken")
    except urllib.error.HTTPError as refused:
        assert refused.code == 403 and json.loads(refused.read())["error"]["code"] == "cross_origin"
    answer = live_server.post(f"/api/tables/{table}/chat", {"text": "hi"}, tokens[0])
    assert (answer["line"]["channel"], answer["line"]["seat"]) == ("players", 0)
    assert live_server.post(f"/api/tables/{table}/chat", {"text": "hi"})["line"]["channel"] == "spectators"

"""Accounts in the browser: a person signs up on the account page, sits at a table, and opens it from another
browser after signing in there, by the page's labels, buttons and texts."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.lobby import create_in_lobby

PASSWORD = "a long enough secret"
CZECH_LABELS = ("Jméno", "Heslo")


def account_form(page: Page, title: str, name: str, password: str, button: str,
                 labels: tuple[str, str] = ("Name", "Password")) -> None:
    """Fills the account page's form ``title`` (its heading) by its ``labels`` and sends it with ``button``."""
    form = page.get_by_role("region", name=title)
    form.get_by_label(labels[0]).fill(name)
    form.get_by_label(labels[1]).fill(password)
    form.get_by_role("button", name=button).click()


def test_a_person_signs_up_sits_down_and_opens_the_table_from_another_browser(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    first = open_tab()
    page = first.page
    page.goto(live_server.url + "/account")
    account_form(page, "Create an account", "x", PASSWORD, "Create the account")
    expect(page.get_by_role("alert")).to_contain_text("a name has 2 to 40 characters")
    account_form(page, "Create an account", "Ann Wise", PASSWORD, "Create the account")
    expect(page.get_by_role("heading", name="Signed in as Ann Wise")).to_be_visible()
    expect(page.get_by_text("None yet.")).to_be_visible()
    page.get_by_label("E-mail address").fill("ann@")
    page.get_by_label("E-mail me when it is my turn").check()
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_role("alert")).to_contain_text("an e-mail address looks like name@example.org")
    page.get_by_label("E-mail address").fill("ann@example.org")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_role("status")).to_have_text("Settings saved.")

    create_in_lobby(page, live_server, [("human", "Ann"), ("easy", "")], public=False)
    expect(page.get_by_role("link", name="Your account: Ann Wise")).to_be_visible()

    second = open_tab()
    other = second.page
    other.goto(live_server.url + "/")
    expect(other.get_by_text("None yet.")).to_be_visible()
    other.get_by_role("link", name="Sign in").click()
    account_form(other, "Sign in", "ann wise", "not the password", "Sign in")
    expect(other.get_by_role("alert")).to_contain_text("that name and password do not match an account")
    account_form(other, "Sign in", "ann wise", PASSWORD, "Sign in")
    expect(other.get_by_role("heading", name="Signed in as Ann Wise")).to_be_visible()
    tables = other.get_by_role("list", name="My tables")
    expect(tables.get_by_role("listitem")).to_have_count(1)
    expect(tables).to_contain_text("Ann (you)")
    tables.get_by_role("link", name="Valley of the Kings").click()
    expect(other.get_by_text("You play as Ann.")).to_be_visible()

    other.goto(live_server.url + "/")
    expect(other.get_by_label("Your name", exact=True)).to_have_value("Ann Wise")  # no name typed here yet
    mine = other.get_by_role("list", name="My tables")
    expect(mine.get_by_role("link", name="Valley of the Kings")).to_be_visible()
    other.goto(live_server.url + "/account")
    other.get_by_role("button", name="Sign out").click()
    expect(other.get_by_role("heading", name="Create an account")).to_be_visible()
    first.assert_clean()
    second.assert_clean()


def test_the_account_page_speaks_czech(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab(locale="cs-CZ")
    page = tab.page
    page.goto(live_server.url + "/account")
    expect(page.get_by_role("heading", name="Založit účet")).to_be_visible()
    account_form(page, "Založit účet", "Řehoř", "krátké", "Založit účet", CZECH_LABELS)
    expect(page.get_by_role("alert")).to_have_text("heslo má 10 až 200 znaků")
    account_form(page, "Založit účet", "Řehoř", PASSWORD, "Založit účet", CZECH_LABELS)
    expect(page.get_by_role("heading", name="Jste přihlášeni jako Řehoř")).to_be_visible()
    page.get_by_role("button", name="Odhlásit se").click()
    expect(page.get_by_role("heading", name="Přihlásit se")).to_be_visible()
    tab.assert_clean()

"""Accounts: registering, signing in and out, the session cookie and its CSRF value, seats claimed as an account
(opened on any device, refused to another account holding their token) and the account's tables and settings.

Playing without an account is unchanged: every other server test plays without one.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from obelisk.server import accounts, store
from obelisk.server.accounts import CSRF_COOKIE, SESSION_COOKIE, SignInLimits, hash_session
from obelisk.server.app import create_app
from obelisk.server.store import AccountRow, SeatRow, SessionRow
from obelisk.server.table import ApiError
from tests.server.conftest import ORIGIN, bearer, config
from tests.server.test_api import error_of, new_table

PASSWORD = "correct horse battery"
ANN_AND_BOB = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A server whose sign-in limit never gets in the way (the test of the limit sets its own)."""
    with TestClient(create_app(config(db_url, sign_in_tries=1000))) as test_client:
        yield test_client


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, str]:
    """Register ``name`` (which signs the client in): the headers its changes carry."""
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return {"X-CSRF-Token": response.json()["csrf"]}


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, str]:
    """Sign in as ``name`` (the client's previous cookies dropped first): the headers its changes carry."""
    client.cookies.clear()
    response = client.post("/api/session", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    assert response.json()["account"]["name"].casefold() == name.casefold()
    return {"X-CSRF-Token": response.json()["csrf"]}


def csrf(client: TestClient) -> dict[str, str]:
    """The header a page sends with every change while signed in (read from the cookie it may read)."""
    return {"X-CSRF-Token": client.cookies[CSRF_COOKIE]} if CSRF_COOKIE in client.cookies else {}


def claim(client: TestClient, table: str, invite: str) -> tuple[int, str]:
    """Claim the seat of ``invite`` as the page would (as the account, when one is signed in)."""
    response = client.post(f"/api/tables/{table}/claim", json={"token": invite}, headers=csrf(client))
    assert response.status_code == 200, response.text
    return response.json()["seat"], response.json()["token"]


def set_cookies(response: Any) -> dict[str, str]:
    """The response's ``Set-Cookie`` headers by cookie name."""
    return {line.split("=", 1)[0]: line for line in response.headers.get_list("set-cookie")}


def engine_of(client: TestClient) -> Any:
    return client.app.state.tables.engine  # type: ignore[attr-defined]


def rows(client: TestClient, model: Any) -> list[Any]:
    with Session(engine_of(client)) as session:
        return list(session.scalars(select(model)))


def test_register_sign_in_and_out(client: TestClient) -> None:
    headers = register(client, "  Ann Wise ")
    me = client.get("/api/account")
    assert me.status_code == 200 and me.json()["account"]["name"] == "Ann Wise"
    assert me.json()["csrf"] == headers["X-CSRF-Token"] == client.cookies[CSRF_COOKIE]
    first = client.cookies[SESSION_COOKIE]
    signed_out = client.delete("/api/session", headers=headers)
    assert signed_out.status_code == 204 and set(set_cookies(signed_out)) == {SESSION_COOKIE, CSRF_COOKIE}
    assert not client.cookies
    error_of(client.get("/api/account"), 401, "not_signed_in")
    client.cookies.set(SESSION_COOKIE, first, domain="testserver.local")
    error_of(client.get("/api/account"), 401, "not_signed_in")  # deleted on the server, not just forgotten
    assert rows(client, SessionRow) == []
    sign_in(client, "ann wise")
    assert client.cookies[SESSION_COOKIE] != first
    assert client.get("/api/account").json()["account"]["name"] == "Ann Wise"


def test_names_are_unique_ignoring_case_and_bad_input_is_named(client: TestClient) -> None:
    register(client, "Ann")
    client.cookies.clear()
    error_of(client.post("/api/accounts", json={"name": "aNN", "password": PASSWORD}), 409, "name_taken")
    for name in ("A", " B ", "x" * 41, "Ann<b>", "Ann\u202e", "Ann\tWise"):
        error_of(client.post("/api/accounts", json={"name": name, "password": PASSWORD}), 400, "bad_name")
    for password in ("short", "x" * 201):
        error_of(client.post("/api/accounts", json={"name": "Bob", "password": password}), 400, "bad_password")
    error_of(client.post("/api/accounts", json={"name": "Bob", "password": PASSWORD, "admin": True}), 400,
             "bad_request")
    assert [row.name for row in rows(client, AccountRow)] == ["Ann"]
    assert len(rows(client, SessionRow)) == 1
    register(client, "Řehoř_2.0-x")


def test_the_database_keeps_an_argon2_hash_and_the_sessions_hash_only(client: TestClient) -> None:
    register(client, "Ann")
    (row,) = rows(client, AccountRow)
    assert row.password_hash.startswith("$argon2id$") and PASSWORD not in row.password_hash
    assert row.name_key == "ann"
    (session,) = rows(client, SessionRow)
    cookie = client.cookies[SESSION_COOKIE]
    assert session.id_hash == hash_session(cookie) and cookie not in session.id_hash
    assert len(cookie) >= 43  # 32 random bytes


class CountingHasher:
    """The real hasher, counting what ``verify`` was asked to check."""

    def __init__(self, real: Any) -> None:
        self.real, self.verified = real, []

    def verify(self, stored: str, password: str) -> bool:
        self.verified.append(stored)
        return self.real.verify(stored, password)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_unknown_names_and_wrong_passwords_get_the_same_answer_after_the_same_work(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    counting = CountingHasher(accounts._hasher)
    with TestClient(create_app(config(sqlite_url, sign_in_tries=1000))) as client:
        register(client, "Ann")
        client.cookies.clear()
        monkeypatch.setattr(accounts, "_hasher", counting)
        wrong = client.post("/api/session", json={"name": "Ann", "password": "not the password"})
        unknown = client.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() and wrong.json()["error"]["code"] == "bad_credentials"
    assert [h.startswith("$argon2id$") for h in counting.verified] == [True, True]  # a dummy hash for Nobody
    assert SESSION_COOKIE not in set_cookies(wrong) and SESSION_COOKIE not in set_cookies(unknown)


def test_password_guessing_is_rate_limited_by_address_and_by_name(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, sign_in_tries=5, sign_in_seconds=10.0))) as client:
        for _ in range(5):
            error_of(client.post("/api/session", json={"name": "Ann", "password": "guess guess"}), 401,
                     "bad_credentials")
        refused = client.post("/api/session", json={"name": "Ann", "password": "guess guess"})
        error_of(refused, 429, "too_many_sign_ins")
        retry = refused.json()["error"]["retry_after"]
        assert 1 <= retry <= 10 and refused.headers["Retry-After"] == str(retry)  # less once tries took time
        error_of(client.post("/api/accounts", json={"name": "Bob", "password": PASSWORD}), 429, "too_many_sign_ins")
        assert rows(client, AccountRow) == [] and rows(client, SessionRow) == []
    limits = SignInLimits(config(sqlite_url, sign_in_tries=5, sign_in_seconds=10.0))
    for address in range(5):
        limits.take(f"10.0.0.{address}", "Ann")
    with pytest.raises(ApiError) as refusal:
        limits.take("10.0.0.99", "ANN")  # a new address guessing the same name
    assert refusal.value.code == "too_many_sign_ins"
    limits.take("10.0.0.99", "Bob")


def test_a_cookie_set_before_sign_in_is_never_made_a_session(client: TestClient) -> None:
    register(client, "Ann")
    client.cookies.clear()
    planted = "planted-by-someone-else-" + "x" * 20
    client.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    error_of(client.get("/api/account"), 401, "not_signed_in")
    answer = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 200
    assert planted not in set_cookies(answer)[SESSION_COOKIE]
    assert client.cookies[SESSION_COOKIE] != planted
    assert client.get("/api/account").json()["account"]["name"] == "Ann"
    client.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    error_of(client.get("/api/account"), 401, "not_signed_in")


@pytest.mark.parametrize("base", ["http://testserver", "https://testserver"])
def test_the_cookies_are_http_only_same_site_lax_and_secure_over_https(sqlite_url: str, base: str) -> None:
    with TestClient(create_app(config(sqlite_url)), base_url=base) as client:
        answer = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    cookies = set_cookies(answer)
    session, csrf = cookies[SESSION_COOKIE].lower(), cookies[CSRF_COOKIE].lower()
    for line in (session, csrf):
        assert "samesite=lax" in line and "path=/" in line and f"max-age={30 * 24 * 3600}" in line
        assert ("; secure" in line) == base.startswith("https")
    assert "httponly" in session and "httponly" not in csrf


def test_an_expired_session_is_refused_and_removed(client: TestClient) -> None:
    register(client, "Ann")
    with Session(engine_of(client)) as session, session.begin():
        session.execute(update(SessionRow).values(expires=store.now() - timedelta(seconds=1)))
    error_of(client.get("/api/account"), 401, "not_signed_in")
    assert rows(client, SessionRow) == []
    register(client, "Bob")
    with Session(engine_of(client)) as session, session.begin():
        session.execute(update(SessionRow).values(expires=store.now() - timedelta(seconds=1)))
    sign_in(client, "Ann")  # sessions nobody came back with are swept at a sign-in
    assert len(rows(client, SessionRow)) == 1


def test_every_change_asked_with_the_cookie_needs_the_csrf_header_and_the_same_origin(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB, public=True)
    headers = register(client, "Ann")
    seat_token = client.post(f"/api/tables/{table}/claim", json={"token": invites["0"]}, headers=headers).json()
    assert seat_token["seat"] == 0
    version = client.get(f"/api/tables/{table}").json()["version"]
    changes = [
        ("POST", f"/api/tables/{table}/claim", {"token": seat_token["token"], "name": "Mallory"}),
        ("POST", f"/api/tables/{table}/join", {"seat": 1}),
        ("POST", f"/api/tables/{table}/moves", {"version": version, "action": 0}),
        ("POST", f"/api/tables/{table}/undo", {"version": version}),
        ("POST", f"/api/tables/{table}/chat", {"text": "hello"}),
        ("POST", f"/api/tables/{table}/rematch", {}),
        ("POST", f"/api/tables/{table}/seats/0/bot", {"bot": "random"}),
        ("POST", f"/api/tables/{table}/seats/0/human", {}),
        ("PUT", "/api/account/settings", {"email": "ann@example.org", "notify_email": True}),
        ("DELETE", "/api/session", None),
    ]
    before = client.get(f"/api/tables/{table}").json()
    for method, path, body in changes:
        for sent in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": headers["X-CSRF-Token"][:-1]}):
            error_of(client.request(method, path, json=body, headers=sent), 403, "csrf_failed")
        error_of(client.request(method, path, json=body, headers={**headers, "Origin": "https://evil.example"}),
                 403, "cross_origin")
    assert client.get(f"/api/tables/{table}").json() == before
    assert client.get(f"/api/tables/{table}/chat").json()["lines"] == []
    me = client.get("/api/account").json()["account"]
    assert (me["email"], me["notify_email"]) == (None, False)


def test_a_seat_claimed_as_the_account_opens_on_another_device_by_the_session_alone(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    headers = register(client, "Ann")
    seat, token = claim(client, table, invites["0"])
    client.cookies.clear()
    claim(client, table, invites["1"])  # Bob, without an account
    with Session(engine_of(client)) as session:
        accounts_of_seats = [row.account_id for row in session.scalars(select(SeatRow).order_by(SeatRow.seat))]
    assert accounts_of_seats[0] is not None and accounts_of_seats[1] is None
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] is None  # signed out: a spectator
    headers = sign_in(client, "Ann")  # another device: no token
    current = client.get(f"/api/tables/{table}/frame").json()
    assert current["seat"] == 0
    if current["table"]["to_act"] == 0:
        moved = client.post(f"/api/tables/{table}/moves", headers=headers,
                            json={"version": current["version"], "action": current["legal"][0][0]})
        assert moved.status_code == 200, moved.text
    line = client.post(f"/api/tables/{table}/chat", headers=headers, json={"text": "hi"}).json()["line"]
    assert (line["channel"], line["seat"]) == ("players", 0)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["seat"] == 0
    client.cookies.clear()
    assert client.get(f"/api/tables/{table}/frame", headers=bearer(token)).json()["seat"] == 0  # its token too


def test_another_account_holding_the_seats_token_is_refused_and_the_invite_cannot_claim_again(
        client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    register(client, "Ann")
    _, token = claim(client, table, invites["0"])
    client.cookies.clear()
    mallory = register(client, "Mallory")
    before = client.get(f"/api/tables/{table}").json()
    error_of(client.get(f"/api/tables/{table}/frame", headers=bearer(token)), 403, "seat_of_another_account")
    error_of(client.get(f"/api/tables/{table}/chat", headers=bearer(token)), 403, "seat_of_another_account")
    for path, body in ((f"/api/tables/{table}/claim", {"token": token, "name": "Mallory"}),
                       (f"/api/tables/{table}/seats/0/bot", {"bot": "random"}),
                       (f"/api/tables/{table}/chat", {"text": "mine now"})):
        error_of(client.post(path, json=body, headers={**mallory, **bearer(token)}), 403, "seat_of_another_account")
    error_of(client.post(f"/api/tables/{table}/claim", json={"token": invites["0"]}, headers=mallory), 403,
             "invite_used")
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["code"] == "seat_of_another_account"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] is None
    assert client.get(f"/api/tables/{table}").json() == before


def test_one_account_holds_one_seat_a_table_and_may_claim_without_it(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    headers = register(client, "Ann")
    claim(client, table, invites["0"])
    error_of(client.post(f"/api/tables/{table}/claim", json={"token": invites["1"]}, headers=headers), 409,
             "account_seated")
    answer = client.post(f"/api/tables/{table}/claim", json={"token": invites["1"], "as_account": False},
                         headers=headers)
    assert answer.json()["seat"] == 1
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] == 0
    again = client.post(f"/api/tables/{table}/claim", json={"token": answer.json()["token"]}, headers=headers)
    assert again.json() == answer.json()  # a page opened again: same answer, seat 1 stays the token's alone
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] == 0


def test_a_seat_claimed_without_an_account_is_tied_when_its_token_comes_back_signed_in(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    _, token = claim(client, table, invites["0"])
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] is None
    headers = register(client, "Ann")
    assert client.post(f"/api/tables/{table}/claim", json={"token": token}, headers=headers).json() == {
        "seat": 0, "token": token}
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] == 0
    assert [e["table"]["id"] for e in client.get("/api/account/tables").json()["tables"]] == [table]


def test_the_accounts_tables_list_those_waiting_for_its_move_first(client: TestClient) -> None:
    register(client, "Ann")
    waiting, _ = new_table(client, seats=ANN_AND_BOB)
    claim(client, waiting, _["0"])
    marks: set[bool] = set()
    for round_ in range(8):
        table, invites = new_table(client, seats=ANN_AND_BOB)
        ann, other = ("0", "1") if round_ % 2 == 0 else ("1", "0")
        claim(client, table, invites[ann])
        jar = dict(client.cookies)
        client.cookies.clear()
        claim(client, table, invites[other])
        client.cookies.update(jar)
        marks.add(client.get(f"/api/tables/{table}").json()["to_act"] == int(ann))
        if marks == {True, False}:
            break
    entries = client.get("/api/account/tables?lang=cs").json()["tables"]
    flags = [e["your_move"] for e in entries]
    assert True in flags and flags == sorted(flags, reverse=True)
    for entry in entries:
        summary = entry["table"]
        assert entry["your_move"] == (summary["to_act"] == entry["seat"])
        assert entry["url"] == f"/table/{summary['id']}" and summary["seats"][entry["seat"]]["claimed"]
    assert next(e for e in entries if e["table"]["id"] == waiting)["your_move"] is False
    client.cookies.clear()
    error_of(client.get("/api/account/tables"), 401, "not_signed_in")


def test_settings_keep_a_checked_address_and_the_turn_mail_choice(client: TestClient) -> None:
    headers = register(client, "Ann")
    for email in ("not an address", "ann@", "@example.org", "ann@example", "a" * 250 + "@example.org"):
        error_of(client.put("/api/account/settings", json={"email": email, "notify_email": False}, headers=headers),
                 400, "bad_email")
    error_of(client.put("/api/account/settings", json={"email": None, "notify_email": True}, headers=headers), 400,
             "email_needed")
    answer = client.put("/api/account/settings", json={"email": " ann@example.org ", "notify_email": True},
                        headers=headers)
    assert answer.status_code == 200, answer.text
    (row,) = rows(client, AccountRow)
    assert (row.email, row.notify_email) == ("ann@example.org", True)
    assert client.get("/api/account").json()["account"]["email"] == "ann@example.org"
    client.put("/api/account/settings", json={"email": "", "notify_email": False}, headers=headers)
    (row,) = rows(client, AccountRow)
    assert (row.email, row.notify_email) == (None, False)


def test_playing_without_an_account_sets_no_cookie_and_ties_no_seat(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    for invite in invites.values():
        response = client.post(f"/api/tables/{table}/claim", json={"token": invite})
        assert response.status_code == 200 and not response.headers.get_list("set-cookie")
    assert [row.account_id for row in rows(client, SeatRow)] == [None, None]
    assert not client.cookies


def _as_session(client: TestClient, cookies: dict[str, str]) -> dict[str, str]:
    """Makes the client send this browser's cookies (a session and its CSRF value): the headers its changes carry."""
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value, domain="testserver.local")
    return csrf(client)


def test_signing_out_closes_the_sockets_its_session_opened_a_seat_for(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    register(client, "Ann")
    _, token = claim(client, table, invites["0"])
    laptop = dict(client.cookies)
    sign_in(client, "Ann")
    phone = dict(client.cookies)

    _as_session(client, laptop)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as by_session, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as by_token:
        by_session.send_json({"type": "hello", "token": None})
        assert by_session.receive_json()["seat"] == 0
        by_token.send_json({"type": "hello", "token": token})
        assert by_token.receive_json()["seat"] == 0
        _as_session(client, phone)
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as on_phone:
            on_phone.send_json({"type": "hello", "token": None})
            assert on_phone.receive_json()["seat"] == 0

            headers = _as_session(client, laptop)
            assert client.delete("/api/session", headers=headers).status_code == 204
            said = by_session.receive_json()
            assert (said["type"], said["code"]) == ("error", "signed_out")
            with pytest.raises(WebSocketDisconnect):
                by_session.receive_json()
            for other in (on_phone, by_token):  # another session, and the seat's token, keep their sockets
                other.send_json({"type": "ping"})
                assert other.receive_json() == {"type": "pong"}

    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as again:  # the laptop's page again
        again.send_json({"type": "hello", "token": None})
        assert again.receive_json()["seat"] is None


def test_a_sign_out_in_one_process_closes_the_sockets_of_another(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("only PostgreSQL serves several processes")
    with TestClient(create_app(config(db_url)), base_url="http://testserver") as one, \
            TestClient(create_app(config(db_url)), base_url="http://testserver") as other:
        table, invites = new_table(one, seats=ANN_AND_BOB)
        headers = register(one, "Ann")
        claim(one, table, invites["0"])
        _as_session(other, dict(one.cookies))
        with other.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["seat"] == 0
            assert one.delete("/api/session", headers=headers).status_code == 204
            said = ws.receive_json()
            assert (said["type"], said["code"]) == ("error", "signed_out")

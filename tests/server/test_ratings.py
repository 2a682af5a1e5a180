"""Results and ratings: what a finished table writes for its accounts, the leaderboards and the profiles."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
import secrets
from datetime import datetime, timezone
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

import obelisk
from obelisk.core.seeds import SecretSeed
from obelisk.server import ratings
from obelisk.server.app import create_app
from obelisk.server.ratings import BOT_RATINGS, finish_of, record_finish, strength
from obelisk.server.store import AccountRow, RatingRow, ResultRow, SeatRow
from obelisk.server.storage import Storage
from obelisk.server.table import ApiError
from tests.server.conftest import bearer, config, processes, run_async
from tests.server.test_api import claim, error_of, frame_of, new_table, seated

SEED = 11
"""The secret seed every table of these tests is dealt with, so that a planned game can be played out."""
THREE = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


# ---- helpers --------------------------------------------------------------------------------------

def engine_of(client: TestClient) -> Engine:
    return client.app.state.tables.engine  # type: ignore[attr-defined]


def add_account(engine: Engine, name: str, created: datetime | None = None) -> str:
    """A new account called ``name`` (as registering makes one); its id."""
    account = secrets.token_hex(8)
    with Session(engine) as session, session.begin():
        session.add(AccountRow(id=account, name=name, name_key=name.casefold(), password_hash="not a password",
                               created=created or datetime.now(timezone.utc)))
    return account


def seat_account(engine: Engine, table: str, seat: int, account: str) -> None:
    """Seat ``account`` at ``seat`` of ``table``, as claiming the seat while signed in does."""
    with Session(engine) as session, session.begin():
        session.execute(update(SeatRow).where(SeatRow.table_id == table, SeatRow.seat == seat)
                        .values(account_id=account))


def results(engine: Engine, table: str) -> list[ResultRow]:
    with Session(engine) as session:
        return list(session.scalars(select(ResultRow).where(ResultRow.table_id == table).order_by(ResultRow.seat)))


def rating_rows(engine: Engine) -> dict[tuple[str, str], tuple[float, float, int]]:
    with Session(engine) as session:
        return {(r.account_id, r.game): (r.mu, r.sigma, r.games) for r in session.scalars(select(RatingRow))}


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new table is dealt with :data:`SEED` (its salt stays fresh)."""
    real = SecretSeed.new
    monkeypatch.setattr(SecretSeed, "new", classmethod(lambda cls: dataclasses.replace(real(), seed=SEED)))


@functools.cache
def tied_game(game_id: str, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The decisions of a random game dealt with :data:`SEED` in which some seats tie and others do not, and
    the places it ends with (found by playing random games with the rules alone)."""
    game = obelisk.load(game_id, players)
    for attempt in range(2000):
        rng = random.Random(attempt)
        state = game.new_initial_state(SEED)
        decisions = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            decisions.append(rng.choice(state.legal_actions()))
            state.apply_action(decisions[-1])
        places = tuple(state.outcome()["places"])
        if 1 < len(set(places)) < players:
            return tuple(decisions), places
    raise AssertionError("no tied game found")


def play_out(client: TestClient, table: str, tokens: dict[str, str], decisions: tuple[int, ...], played: int = 0
             ) -> dict[str, Any]:
    """Play ``decisions`` at ``table`` through the API, each by the seat to act, the first ``played`` of them
    being played already; the last frame (a spectator's)."""
    version = frame_of(client, table)["version"]
    game = obelisk.load("valley", len(tokens))
    state = game.new_initial_state(SEED)
    for index, action in enumerate(decisions):
        while state.is_chance_node():
            state.apply_action(state.sample_chance())
        seat = state.current_player()
        if index < played:
            state.apply_action(action)
            continue
        answer = client.post(f"/api/tables/{table}/moves", json={"version": version, "action": action},
                             headers=bearer(tokens[str(seat)]))
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        state.apply_action(action)
    return frame_of(client, table)


def finished_table(client: TestClient, rated: bool, accounts: dict[int, str]) -> tuple[str, dict[str, Any]]:
    """A three-person Valley table played to its tied end, ``accounts`` seated; its id and final frame."""
    table, tokens = seated(client, game="valley", players=3, seats=THREE, rated=rated)
    for seat, account in accounts.items():
        seat_account(engine_of(client), table, seat, account)
    decisions, places = tied_game("valley", 3)
    final = play_out(client, table, tokens, decisions)
    assert final["status"] == "finished" and final["result"]["outcome"]["places"] == list(places)
    return table, final


# ---- results --------------------------------------------------------------------------------------

def test_an_unrated_finish_writes_each_accounts_place_as_the_end_screen_shows_it(db_url: str, dealt: None) -> None:
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        ann, bob = add_account(engine, "Ann"), add_account(engine, "Bob")
        with Session(engine) as session, session.begin():
            session.add(RatingRow(account_id=ann, game="valley", mu=30.0, sigma=4.0, games=7,
                                  updated=datetime.now(timezone.utc)))
        kept = rating_rows(engine)
        table, tokens = seated(client, game="valley", players=3, seats=THREE)
        seat_account(engine, table, 0, ann)
        seat_account(engine, table, 2, bob)
        decisions, _ = tied_game("valley", 3)
        assert results(engine, table) == []
        before_end = play_out(client, table, tokens, decisions[:-1])
        assert before_end["status"] == "playing" and results(engine, table) == []  # nothing before the finish
        final = play_out(client, table, tokens, decisions, len(decisions) - 1)
        places = final["result"]["outcome"]["places"]
        assert 1 < len(set(places)) < 3  # a tie and a seat apart
        written = results(engine, table)
        assert [(r.seat, r.account_id, r.place, r.players, r.game, r.rated) for r in written] == [
            (0, ann, places[0], 3, "valley", False), (2, bob, places[2], 3, "valley", False)]
        winners = final["result"]["outcome"]["winners"]
        assert [r.won for r in written] == [0 in winners, 2 in winners]
        assert all(r.mu_before is None and r.mu_after is None for r in written)
        assert rating_rows(engine) == kept  # an unrated table moves no rating
        assert client.get(f"/api/tables/{table}").json()["rated"] is False


def test_a_rated_finish_moves_the_accounts_ratings_by_openskills_own_numbers(db_url: str, dealt: None) -> None:
    model = PlackettLuce()
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        ann, bob = add_account(engine, "Ann"), add_account(engine, "Bob")
        with Session(engine) as session, session.begin():
            session.add(RatingRow(account_id=ann, game="valley", mu=30.0, sigma=4.0, games=7,
                                  updated=datetime.now(timezone.utc)))
        table, final = finished_table(client, rated=True, accounts={0: ann, 1: bob})  # seat 2: no account
        places = final["result"]["outcome"]["places"]
        expected = model.rate([[model.rating(mu=30.0, sigma=4.0)], [model.rating()], [model.rating()]],
                              ranks=places)
        written = results(engine, table)
        assert [r.seat for r in written] == [0, 1] and all(r.rated for r in written)
        for row, team, start in zip(written, expected, [(30.0, 4.0), (model.mu, model.sigma)]):
            assert (row.mu_before, row.sigma_before) == pytest.approx(start)
            assert (row.mu_after, row.sigma_after) == pytest.approx((team[0].mu, team[0].sigma))
        # the direction: a first place raises the estimate, a last place lowers it
        for row in written:
            assert row.mu_after is not None and row.mu_before is not None
            if row.place == 1:
                assert row.mu_after > row.mu_before
            if row.place == max(places):
                assert row.mu_after < row.mu_before
        assert {row.place for row in written} & {1, max(places)}
        stored = rating_rows(engine)
        assert stored == {(ann, "valley"): (pytest.approx(expected[0][0].mu), pytest.approx(expected[0][0].sigma), 8),
                          (bob, "valley"): (pytest.approx(expected[1][0].mu), pytest.approx(expected[1][0].sigma), 1)}
        assert client.get(f"/api/tables/{table}").json()["rated"] is True


def test_a_seat_claimed_signed_in_puts_the_result_in_the_accounts_profile(db_url: str, dealt: None) -> None:
    """The whole path: an account registers, claims its seat signed in, and the finished rated table is in its
    profile and on the leaderboard."""
    with TestClient(create_app(config(db_url))) as client:
        registered = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse battery"})
        assert registered.status_code == 201, registered.text
        table, invites = new_table(client, game="valley", players=3, seats=THREE, rated=True)
        claimed = client.post(f"/api/tables/{table}/claim", json={"token": invites["0"]},
                              headers={"X-CSRF-Token": registered.json()["csrf"]})
        assert claimed.status_code == 200, claimed.text
        client.cookies.clear()
        tokens = {"0": claimed.json()["token"]}
        for seat in ("1", "2"):
            tokens[seat] = claim(client, table, invites[seat])[1]
        decisions, places = tied_game("valley", 3)
        play_out(client, table, tokens, decisions)
        [recent] = client.get("/api/players/ann").json()["recent"]
        assert (recent["table"], recent["place"], recent["players"], recent["rated"]) == (table, places[0], 3, True)
        [leader] = client.get("/api/ratings/valley").json()["players"]
        assert (leader["name"], leader["games"], leader["wins"]) == ("Ann", 1, int(places[0] == 1))


def test_a_shared_first_place_without_a_winner_counts_no_win(db_url: str, dealt: None) -> None:
    """Cleopatra's crocodile can eat every architect: all share first place and the game names no winner.
    The result keeps the game's word, and the profile and the leaderboard count no win."""
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        ann = add_account(engine, "Ann")
        table, _ = finished_table(client, rated=True, accounts={0: ann})
        with Session(engine) as session, session.begin():
            session.execute(ResultRow.__table__.delete().where(ResultRow.table_id == table))
        snapshot = Storage(engine).load(table, None)
        eaten = dataclasses.replace(finish_of(table, snapshot.game, snapshot.state, snapshot.seats, True),
                                    places=(1, 1, 1), winners=frozenset())
        with engine.begin() as connection:
            record_finish(connection, eaten, datetime.now(timezone.utc))
        [written] = results(engine, table)
        assert (written.place, written.won) == (1, False)
        [valley] = client.get("/api/players/ann").json()["games"]
        assert (valley["games"], valley["wins"], valley["average_place"]) == (1, 0, 1.0)
        [leader] = client.get("/api/ratings/valley").json()["players"]
        assert leader["wins"] == 0


def test_a_finish_seen_again_writes_nothing_more(db_url: str, dealt: None) -> None:
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        ann = add_account(engine, "Ann")
        table, _ = finished_table(client, rated=True, accounts={1: ann})
        first = [(r.seat, r.place, r.mu_after, r.sigma_after) for r in results(engine, table)]
        ratings_then = rating_rows(engine)
    # a restart, or a second process reading the finished table, records its finish again: nothing changes
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        snapshot = Storage(engine).load(table, None)
        assert snapshot.status == "finished" and snapshot.rated
        for _ in range(2):
            with engine.begin() as connection:
                record_finish(connection, finish_of(table, snapshot.game, snapshot.state, snapshot.seats, True),
                              datetime.now(timezone.utc))
        assert [(r.seat, r.place, r.mu_after, r.sigma_after) for r in results(engine, table)] == first
        assert rating_rows(engine) == ratings_then


def test_two_processes_sending_the_finishing_move_write_the_results_once(db_url: str, dealt: None) -> None:
    """Both processes hold the table one move before its end and send that move at once: one finishes the
    table, the other is refused, and the results and ratings are written once."""
    decisions, places = tied_game("valley", 3)

    async def run() -> None:
        async with processes(db_url) as (here, there):
            ann, bob = add_account(here.engine, "Ann"), add_account(here.engine, "Bob")
            snap, invites = await here.create("valley", 3, {}, THREE, False, None, rated=True)
            tokens = {seat: (await here.claim(snap.id, invite))[1] for seat, invite in invites.items()}
            seat_account(here.engine, snap.id, 0, ann)
            seat_account(here.engine, snap.id, 2, bob)
            for action in decisions[:-1]:
                snap = await here.snapshot(snap.id)
                assert snap.to_act is not None
                await here.move(snap.id, tokens[snap.to_act], snap.version, [action])
            snap = await here.snapshot(snap.id)
            assert (await there.snapshot(snap.id)).version == snap.version and snap.to_act is not None
            token = tokens[snap.to_act]
            done = await asyncio.gather(here.move(snap.id, token, snap.version, [decisions[-1]]),
                                        there.move(snap.id, token, snap.version, [decisions[-1]]),
                                        return_exceptions=True)
            refused = [outcome for outcome in done if isinstance(outcome, ApiError)]
            assert len(refused) == 1 and refused[0].code in ("stale_version", "finished"), done
            assert [(r.seat, r.place) for r in results(here.engine, snap.id)] == [(0, places[0]), (2, places[2])]
            assert {key: games for key, (_, _, games) in rating_rows(here.engine).items()} == {
                (ann, "valley"): 1, (bob, "valley"): 1}

    run_async(run())


def test_bots_play_at_their_fixed_rating_and_keep_it(sqlite_url: str) -> None:
    assert [strength(spec, obelisk.load("valley", 2)) for spec in
            ("random", "greedy", "ismcts:200", "ismcts:100", "ismcts:1000", "ismcts:2s")] == [
        "random", "easy", "normal", "normal", "strong", "strong"]
    fixed = dict(BOT_RATINGS)
    with TestClient(create_app(config(sqlite_url))) as client:
        engine = engine_of(client)
        ann = add_account(engine, "Ann")
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        table, tokens = seated(client, game="valley", players=2, seats=seats, rated=True)
        seat_account(engine, table, 0, ann)
        rng = random.Random(2)
        for _ in range(2000):
            current = frame_of(client, table, tokens["0"])
            if current["status"] == "finished":
                break
            if current["legal"]:
                answer = client.post(f"/api/tables/{table}/moves", headers=bearer(tokens["0"]),
                                     json={"version": current["version"], "action": rng.choice(current["legal"])[0]})
                assert answer.status_code in (200, 409), answer.text
        places = current["result"]["outcome"]["places"]
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating(mu=BOT_RATINGS["random"][0],
                                                               sigma=BOT_RATINGS["random"][1])]], ranks=places)
        [row] = results(engine, table)
        assert (row.mu_after, row.sigma_after) == pytest.approx((expected[0][0].mu, expected[0][0].sigma))
        assert set(rating_rows(engine)) == {(ann, "valley")}  # nothing is stored for the bot
    assert BOT_RATINGS == fixed and ratings.NEWCOMER == (model.mu, model.sigma)


# ---- creating a rated table ---------------------------------------------------------------------

@pytest.mark.one_database  # a refusal before anything is written
def test_a_rated_table_needs_a_boolean_and_the_default_options(client: TestClient) -> None:
    for wrong in ("yes", 1, None):
        message = error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "rated": wrong}),
                           400, "bad_request")
        assert "rated" in message
    message = error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "rated": True,
                                                        "options": {"tiebreak": "sets"}}), 400, "bad_request")
    assert "default options" in message and "tiebreak" in message
    assert client.get("/api/tables").json()["tables"] == []
    made = client.post("/api/tables", json={"game": "valley", "players": 2, "rated": True, "public": True})
    assert made.status_code == 201 and made.json()["table"]["rated"] is True
    assert client.get("/api/tables").json()["tables"][0]["rated"] is True


# ---- leaderboards and profiles ------------------------------------------------------------------

def test_the_leaderboard_lists_rated_accounts_best_first(db_url: str, dealt: None) -> None:
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        moment = datetime.now(timezone.utc)
        names = {name: add_account(engine, name) for name in ("Cleo", "Dora", "Eve", "Finn")}
        with Session(engine) as session, session.begin():
            for name, mu, sigma, games in (("Cleo", 30.0, 3.0, 4), ("Dora", 40.0, 8.0, 2), ("Eve", 27.0, 1.0, 9)):
                session.add(RatingRow(account_id=names[name], game="valley", mu=mu, sigma=sigma, games=games,
                                      updated=moment))
            session.add(RatingRow(account_id=names["Finn"], game="solomon", mu=50.0, sigma=1.0, games=3,
                                  updated=moment))
        board = client.get("/api/ratings/valley").json()
        assert board["game"] == "valley" and board["game_name"] == "Valley of the Kings"
        assert [(p["rank"], p["name"], p["rating"], p["games"]) for p in board["players"]] == [
            (1, "Eve", 24, 9), (2, "Cleo", 21, 4), (3, "Dora", 16, 2)]
        assert client.get("/api/ratings/valley?lang=cs").json()["game_name"] == "Údolí králů"
        assert "no game" in error_of(client.get("/api/ratings/chess"), 404, "not_found")
        error_of(client.get("/api/ratings/valley?lang=xx"), 400, "bad_request")


def test_a_profile_counts_games_wins_places_and_links_each_replay(db_url: str, dealt: None) -> None:
    with TestClient(create_app(config(db_url))) as client:
        engine = engine_of(client)
        ann, bob = add_account(engine, "Ann Lee"), add_account(engine, "Bob")
        rated_table, final = finished_table(client, rated=True, accounts={0: ann, 1: bob})
        places = final["result"]["outcome"]["places"]
        unrated_table, _ = finished_table(client, rated=False, accounts={1: ann})
        profile = client.get("/api/players/ann%20LEE").json()
        assert profile["name"] == "Ann Lee" and set(profile) == {"name", "since", "games", "recent"}
        [valley] = profile["games"]
        mine = [places[0], places[1]]
        assert valley == {"game": "valley", "game_name": "Valley of the Kings", "games": 2,
                          "wins": sum(place == 1 for place in mine), "average_place": round(sum(mine) / 2, 2),
                          "rating": ratings.shown(*rating_rows(engine)[(ann, "valley")][:2]), "rated_games": 1}
        recent = profile["recent"]
        assert [r["table"] for r in recent] == [unrated_table, rated_table]
        assert recent[0]["rated"] is False and recent[0]["change"] is None and recent[0]["place"] == places[1]
        row = results(engine, rated_table)[0]
        assert row.mu_before is not None and row.sigma_before is not None
        assert row.mu_after is not None and row.sigma_after is not None
        assert recent[1]["change"] == ratings.shown(row.mu_after, row.sigma_after) - ratings.shown(
            row.mu_before, row.sigma_before)
        assert (recent[1]["place"], recent[1]["players"]) == (places[0], 3)
        assert recent[1]["replay_url"] == f"/table/{rated_table}/replay"
        assert client.get(recent[1]["replay_url"]).status_code == 200
        assert client.get(f"/api/tables/{rated_table}/replay").status_code == 200
        in_play, _ = seated(client, game="valley", players=3, seats=THREE, rated=True)
        seat_account(engine, in_play, 2, ann)
        text = client.get("/api/players/Ann Lee").text
        assert ann not in text and "password" not in text and in_play not in text  # finished tables' facts only
        board = client.get("/api/ratings/valley").json()["players"]
        assert {p["name"] for p in board} == {"Ann Lee", "Bob"}
        assert sum(p["wins"] for p in board) == sum(place == 1 for place in places[:2])
        assert "no player" in error_of(client.get("/api/players/Nobody"), 404, "not_found")
def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/ratings/valley", "/players/Ann"):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")


"""The conformance suite every registered game must pass.

Each ``check_*`` function plays seeded random games and raises
``AssertionError`` with a precise message on the first violation. The test
suite runs them for every game and player count; a new game gets them for
free by registering itself.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import random
from typing import Any, Callable, Iterator

from obelisk.core import codec
from obelisk.core.protocol import CHANCE, TERMINAL, Game, IllegalActionError, State, _game_fields, rank_returns

_BAD_ACTIONS: tuple[Any, ...] = (-1, None, "1", 1.5, True, [0])


def random_playout(game: Game, seed: int, visit: Callable[[State, random.Random], None] | None = None, *,
                   chance_from_seed: bool = False) -> State:
    """Play one game with uniformly random choices; ``visit`` sees each state before its action.

    Chance is drawn from the generator of the choices, or with ``chance_from_seed`` as the tables and
    ``obelisk play`` draw it (``State.sample_chance()``, from the seed and the move number), so that the game's
    record with a commitment to ``seed`` verifies.
    """
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    limit = game.max_game_length()
    steps = 0
    while not state.is_terminal():
        if visit is not None:
            visit(state, rng)
        if state.is_chance_node():
            action = state.sample_chance() if chance_from_seed else state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
        assert steps <= limit, f"{game!r} seed {seed}: game longer than max_game_length()={limit}"
    if visit is not None:
        visit(state, rng)
    return state


def sampled_states(game: Game, games: int, seed: int, per_game: int = 6) -> Iterator[State]:
    """Clones of states spread over ``games`` random games (terminal states included)."""
    for g in range(games):
        final = random_playout(game, seed + g)
        history = final.history()
        rng = random.Random(f"sample:{seed + g}")
        picks = sorted({0, len(history)} | {rng.randrange(len(history) + 1) for _ in range(per_game)})
        for cut in picks:
            yield game.replay(seed + g, history[:cut])


def check_playouts(game: Game, games: int, seed: int = 0, label_rate: float = 0.25) -> None:
    """Random games end within the bound; every step's lists and distributions are valid.

    Labels (unique among the legal actions, parsed back by ``string_to_action``)
    are checked at a ``label_rate`` sample of the decisions, since labelling
    every legal action of every step costs more than the game itself.
    """
    n_actions = game.num_distinct_actions()
    n_chance = game.max_chance_outcomes()

    def visit(state: State, rng: random.Random) -> None:
        current = state.current_player()
        legal = state.legal_actions()
        if current == TERMINAL:
            assert legal == [], "a terminal state has legal actions"
            returns = state.returns()
            assert len(returns) == game.num_players and all(-1.0 <= r <= 1.0 for r in returns), returns
            assert abs(sum(returns)) < 1e-9, f"returns {returns} do not sum to 0"
            _check_scores(state)
            return
        assert legal, f"no legal action for current player {current}:\n{state}"
        assert legal == sorted(set(legal)), f"legal actions not ascending and unique: {legal}"
        if current == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "chance node without outcomes"
            assert all(0 <= a < n_chance for a, _ in outcomes), f"chance outcome outside [0, {n_chance})"
            assert all(p > 0 for _, p in outcomes), "a chance outcome has probability 0"
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), "chance probabilities do not sum to 1"
            assert [a for a, _ in outcomes] == legal, "chance outcomes are not in ascending id order"
            accepted = [a for a in range(-1, n_chance + 1) if state._is_outcome(a)]
            assert accepted == legal, f"_is_outcome accepts {accepted}, the outcomes are {legal}"
        else:
            assert 0 <= current < game.num_players, f"current_player {current} is not a seat"
            assert all(0 <= a < n_actions for a in legal), f"legal action outside [0, {n_actions})"
            assert state.chance_outcomes() == []
            if rng.random() < label_rate:
                labels = [state.action_to_string(a) for a in legal]
                assert all(isinstance(t, str) and t for t in labels), "empty action label"
                normalized = [" ".join(t.split()).casefold() for t in labels]
                assert len(set(normalized)) == len(labels), f"labels not unique among legal actions: {labels}"
                probe = rng.choice(legal)
                assert state.string_to_action(state.action_to_string(probe)) == probe

    for g in range(games):
        random_playout(game, seed + g, visit)


def _check_scores(state: State) -> None:
    scores = state.scores()
    assert len(scores) == state.num_players
    for entry in scores:
        assert set(entry) >= {"total", "breakdown"}, f"score entry lacks total/breakdown: {entry}"
        assert isinstance(entry["breakdown"], dict)
    json.dumps(scores)


def check_scores_at_any_point(game: Game, games: int, seed: int = 0) -> None:
    """``scores()`` and the ranking work from the first position to the last.

    A game left unfinished is still recorded with its points so far, so no
    game may assume its end-of-game accounting has been done.
    """
    for state in sampled_states(game, games, seed):
        try:
            _check_scores(state)
            ranks = rank_returns(state._rank_keys())
        except Exception as error:
            raise AssertionError(f"{game!r} move {state.move_number()}: scores or ranks fail: {error!r}") from error
        assert len(ranks) == game.num_players


def check_terminal_labels(game: Game, games: int, seed: int = 0) -> None:
    """At the end ``public_action_string`` refuses every id with ``IllegalActionError``: nothing can be applied."""
    ids = range(max(game.num_distinct_actions(), game.max_chance_outcomes()))
    for g in range(games):
        final = random_playout(game, seed + g)
        for seat in [None, *range(game.num_players)]:
            for action in ids:
                try:
                    told = final.public_action_string(action, seat)
                except IllegalActionError:
                    continue
                except Exception as error:
                    raise AssertionError(f"{game!r}: public_action_string({action}, {seat}) at the end raised "
                                         f"{error!r}") from error
                raise AssertionError(f"{game!r}: public_action_string({action}, {seat}) at the end told {told!r}")


def check_illegal_rejected(game: Game, games: int, seed: int = 0) -> None:
    """Illegal ids, non-ids and wrong actors raise ``IllegalActionError`` and change nothing."""
    n = max(game.num_distinct_actions(), game.max_chance_outcomes())
    for state in sampled_states(game, games, seed):
        before = json.dumps(state.to_json(), sort_keys=True)
        rng = random.Random(state.move_number())
        legal = set(state.legal_actions())
        candidates = [a for a in (rng.randrange(n) for _ in range(20)) if a not in legal]
        candidates += [n, n + 7, *_BAD_ACTIONS]
        for action in candidates:
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                assert str(error), "IllegalActionError without a message"
            else:
                raise AssertionError(f"illegal action {action!r} was accepted at move {state.move_number()}")
            assert json.dumps(state.to_json(), sort_keys=True) == before, f"rejected {action!r} changed the state"
        current = state.current_player()
        if legal and current >= 0:
            wrong = (current + 1) % game.num_players if game.num_players > 1 else CHANCE
            try:
                state.apply_action(min(legal), player=wrong)
            except IllegalActionError:
                pass
            else:
                raise AssertionError("an action by the wrong seat was accepted")
            assert json.dumps(state.to_json(), sort_keys=True) == before


def check_clone_and_serialization(game: Game, games: int, seed: int = 0) -> None:
    """Clones are independent; ``to_json``, pickle and deepcopy round-trip; replay reproduces; ``str`` is deterministic."""
    for index, state in enumerate(sampled_states(game, games, seed)):
        doc = state.to_json()
        text = json.dumps(doc, sort_keys=True)
        restored = game.state_from_json(json.dumps(doc))
        assert json.dumps(restored.to_json(), sort_keys=True) == text, "state_from_json(to_json()) differs"
        assert str(restored) == str(state), "restored state renders differently"
        assert restored.legal_actions() == state.legal_actions()
        replayed = game.replay(state.seed, state.history())
        assert json.dumps(replayed.to_json(), sort_keys=True) == text, "replay of the history differs"
        if index % 5 == 0:
            for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
                assert json.dumps(copied.to_json(), sort_keys=True) == text, "a pickled or deep-copied state differs"
                assert copied.legal_actions() == state.legal_actions()
                assert repr(copied.game) == repr(game)
        clone = state.clone()
        assert str(clone) == str(state)
        if not clone.is_terminal():
            rng = random.Random(7)
            clone.apply_action(clone.sample_chance(rng) if clone.is_chance_node() else rng.choice(clone.legal_actions()))
            assert json.dumps(state.to_json(), sort_keys=True) == text, "changing a clone changed the original"
        for seat in [None, *range(game.num_players)]:
            json.dumps(state.observation(seat))


def check_no_leaks(game: Game, games: int, seed: int = 0, require_hidden: bool = True) -> None:
    """What a seat sees cannot depend on what it cannot know.

    For every seat ``p`` the observation of ``p`` (and the spectator's) is
    identical after ``resample_from_infostate(p)``, and the resampled state is
    itself a playable game. ``require_hidden`` demands that resampling did
    re-deal something at least once, so a no-op resampler cannot pass.
    """
    changed = False
    for state in sampled_states(game, games, seed):
        original = json.dumps(state.to_json(), sort_keys=True)
        for seat in range(game.num_players):
            rng = random.Random(f"leak:{seed}:{state.move_number()}:{seat}")
            seen = state.observation(seat)
            spectator = state.observation(None)
            for _ in range(2):
                other = state.resample_from_infostate(seat, rng)
                assert other.observation(seat) == seen, (
                    f"seat {seat}'s observation changed after resampling at move {state.move_number()}:\n"
                    f"{_diff(seen, other.observation(seat))}"
                )
                assert other.observation(None) == spectator, "spectator observation changed after resampling"
                assert json.dumps(state.to_json(), sort_keys=True) == original, "resampling changed the original"
                changed = changed or _fields_text(other) != _fields_text(state)
                _play_out(other, rng)
    if require_hidden:
        assert changed, "resample_from_infostate never re-dealt anything: hidden information is not resampled"


def check_redeal_hides_the_truth(game: Game, games: int, seed: int = 0) -> None:
    """A re-deal carries nothing that rebuilds the true position.

    Its seed is drawn from the generator, its history holds only the actions
    applied since the re-deal, it is not ``replayable`` and ``to_json``
    refuses it; its move number is the true one. So neither ``Game.replay``
    nor a saved document of it can bring back the hidden parts, and a copy,
    pickle or further play keeps it so.
    """
    for state in sampled_states(game, games, seed, per_game=3):
        true_fields = _fields_text(state)
        for seat in range(game.num_players):
            rng = random.Random(f"truth:{seed}:{state.move_number()}:{seat}")
            other = state.resample_from_infostate(seat, rng)
            where = f"seat {seat}'s re-deal at move {state.move_number()}"
            assert not other.replayable and state.replayable, f"{where} claims to be replayable"
            assert other.history() == [], f"{where} carries a history: {other.history()[:10]}"
            assert other.seed != state.seed, f"{where} keeps the true seed"
            assert other.move_number() == state.move_number(), f"{where} changed the move number"
            assert f"re-dealt state move={state.move_number()} " in repr(other)
            try:
                other.to_json()
            except ValueError as error:
                assert "re-dealt" in str(error)
            else:
                raise AssertionError(f"{where} was saved by to_json")
            if state.move_number() > 0:
                rebuilt = game.replay(other.seed, other.history())
                assert _fields_text(rebuilt) != true_fields, f"{where}: its seed and history replay the truth"
            for copied in (other.clone(), pickle.loads(pickle.dumps(other))):
                assert not copied.replayable and copied.move_number() == other.move_number()
                assert _fields_text(copied) == _fields_text(other), f"{where}: a copy differs"
            if not other.is_terminal():
                legal = other.legal_actions()
                other.apply_action(other.sample_chance(rng) if other.is_chance_node() else rng.choice(legal))
                assert len(other.history()) == 1 and other.move_number() == state.move_number() + 1
                assert other.observation(seat)["move_number"] == state.move_number() + 1


def _fields_text(state: State) -> str:
    """Every game field of ``state`` (core fields aside) as canonical text."""
    return json.dumps(codec.encode(_game_fields(state)), sort_keys=True)


def check_resample_depends_only_on_the_infostate(
    game: Game, games: int, seed: int = 0, points: int = 3, redeals: int = 2, follow: int = 8
) -> None:
    """Re-dealing is a function of the seat's information and the generator alone.

    For every seat, pairs of states it cannot tell apart (identical
    ``observation(seat)``) are built in three ways: two games played side by
    side with the same public actions but different hidden chance outcomes and
    hidden choices, kept in step until the end (so pieces that left play late
    in the game are covered); the true state and a re-deal of it; two re-deals.
    ``points`` positions of each game (the last undecided one always among
    them) are tried. Generators in the same state must re-deal both alike: the
    same seed, evaluation, chance distribution and view of every seat, also
    after the same ``follow`` further actions. Otherwise the determinization,
    and every bot built on it, reads what the seat cannot know.
    """
    for g in range(games):
        for seat in range(game.num_players):
            for where, first, second in _indistinguishable_pairs(game, seed + g, seat, points):
                for k in range(redeals):
                    _check_same_redeal(first, second, seat, random.Random(f"redeal:{k}"), follow, where)


def _indistinguishable_pairs(game: Game, seed: int, seat: int, points: int) -> Iterator[tuple[str, State, State]]:
    for where, ours, theirs in _twin_games(game, seed, seat, points):
        yield where, ours, theirs
        twin = ours.resample_from_infostate(seat, random.Random(f"twin:{seed}:{seat}"))
        yield f"{where}, true state and a re-deal", ours, twin
        other = ours.resample_from_infostate(seat, random.Random(f"other twin:{seed}:{seat}"))
        yield f"{where}, two re-deals", twin, other


def _twin_games(game: Game, seed: int, seat: int, points: int) -> list[tuple[str, State, State]]:
    """``points`` pairs of positions from two games that differ in what ``seat`` cannot see.

    Both games take the same public actions; where an action is hidden from
    ``seat`` (another seat's draw or secret choice), the second game takes a
    different one whenever ``seat``'s view stays identical. When a difference
    comes to light (a hidden card is played), the second game starts again as
    a copy of the first, so the pair reaches the end of the game. The pairs are
    a uniform sample of the undecided positions plus the last one.
    """
    rng = random.Random(f"twin games:{seed}:{seat}")
    ours = game.new_initial_state(seed)
    theirs = game.new_initial_state(seed + 1)
    sample: list[tuple[str, State, State]] = []  # a reservoir of points - 1 earlier positions
    seen = 0
    last = None
    apart_since = 0
    while not ours.is_terminal():
        if last is not None:
            seen += 1
            if len(sample) < points - 1:
                sample.append(last)
            elif rng.random() < (points - 1) / seen:
                sample[rng.randrange(points - 1)] = last
        where = f"twin games of seed {seed}, move {ours.move_number()} (apart since move {apart_since})"
        last = (where, ours.clone(), theirs.clone())
        step = _next_step(ours, theirs, seat, rng)
        if step is None:
            theirs = ours.clone()
            apart_since = ours.move_number()
            step = _next_step(ours, theirs, seat, rng)
            assert step is not None, "a state cannot keep in step with its own clone"
        ours.apply_action(step[0])
        theirs.apply_action(step[1])
    return sample + [last] if last is not None and points > 0 else []


def _next_step(ours: State, theirs: State, seat: int, rng: random.Random) -> tuple[int, int] | None:
    """A random action of ``ours`` that ``theirs`` can match (see ``_matching_action``), and its match."""
    legal = ours.legal_actions()
    first = ours.sample_chance(rng) if ours.is_chance_node() else rng.choice(legal)
    rest = [a for a in legal if a != first]
    rng.shuffle(rest)
    for action in [first, *rest[: _MATCH_TRIES - 1]]:
        matching = _matching_action(ours, theirs, action, seat, rng)
        if matching is not None:
            return action, matching
    return None


def _matching_action(ours: State, theirs: State, action: int, seat: int, rng: random.Random) -> int | None:
    """An action of ``theirs`` that ``seat`` is told of as of ``action`` in ``ours`` and after which it sees the
    same; for an action hidden from ``seat``, half the time a different one first (another draw or choice)."""
    told = ours.public_action_string(action, seat)
    after = ours.clone()
    after.apply_action(action)
    wanted = after.observation(seat)
    legal = theirs.legal_actions()

    def alike() -> list[int]:
        found = [a for a in legal if a != action and theirs.public_action_string(a, seat) == told]
        rng.shuffle(found)
        return found[:_MATCH_TRIES]

    same = [action] if action in legal else []
    apart = told != ours.action_to_string(action) and rng.random() < 0.5
    for candidates in ((alike, lambda: same) if apart else (lambda: same, alike)):
        for candidate in candidates():
            trial = theirs.clone()
            trial.apply_action(candidate)
            if trial.observation(seat) == wanted:
                return candidate
    return None


_MATCH_TRIES = 6
"""Actions tried in each game to keep the two in step."""


def _check_same_redeal(first: State, second: State, seat: int, rng: random.Random, follow: int, where: str) -> None:
    seen = first.observation(seat)
    assert second.observation(seat) == seen, f"{where}: not a pair seat {seat} cannot tell apart"
    state_rng = random.Random()
    state_rng.setstate(rng.getstate())
    ours = first.resample_from_infostate(seat, rng)
    theirs = second.resample_from_infostate(seat, state_rng)
    assert rng.getstate() == state_rng.getstate(), (
        f"{where}: seat {seat}'s re-deals of two positions it cannot tell apart use the generator differently, "
        f"so the re-deal depends on hidden information"
    )
    for step in range(follow + 1):
        mine, other = _redeal_signature(ours), _redeal_signature(theirs)
        if mine != other:
            label = "" if step == 0 else f" and {step} further action(s)"
            raise AssertionError(
                f"{where}: seat {seat} cannot tell the two positions apart, yet the same generator re-deals them "
                f"differently (after the re-deal{label}), so the re-deal depends on hidden information:\n"
                f"{_diff(mine, other)}"
            )
        if ours.is_terminal():
            return
        action = ours.sample_chance(rng) if ours.is_chance_node() else rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)


def _redeal_signature(state: State) -> dict[str, Any]:
    """Everything anyone can learn of a state: every seat's view, the chance distribution, the seed and the
    evaluation bots read."""
    return {
        "seed": state.seed,
        "views": [state.observation(viewer) for viewer in [None, *range(state.num_players)]],
        "chance": state.chance_outcomes(),
        "evaluate": state.evaluate(),
    }


def check_action_strings_do_not_leak(game: Game, games: int, seed: int = 0, max_actions: int = 12) -> None:
    """What a seat is told of an action reveals no more than its observation afterwards.

    For every seat ``p`` other than the actor: two actions after which ``p``'s
    observation is identical must be described to ``p`` identically by
    ``public_action_string`` (the channel of move logs, the CLI and replays).
    """
    for state in sampled_states(game, games, seed, per_game=4):
        actor = state.current_player()
        if actor == TERMINAL:
            continue
        actions = state.legal_actions()[:max_actions]
        after = {}
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            after[action] = child
        for seat in [None, *range(game.num_players)]:
            if seat == actor:
                continue
            told: dict[str, str] = {}
            for action in actions:
                seen = json.dumps(after[action].observation(seat), sort_keys=True)
                text = state.public_action_string(action, seat)
                assert told.setdefault(seen, text) == text, (
                    f"seat {seat} at move {state.move_number()} is told {text!r} and {told[seen]!r} for two "
                    f"actions of {'chance' if actor == CHANCE else f'seat {actor}'} it cannot tell apart"
                )


def _play_out(state: State, rng: random.Random) -> None:
    limit = state.game.max_game_length()
    while not state.is_terminal():
        assert state.move_number() <= limit, "a resampled state does not end within max_game_length"
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


def _diff(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _diff(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
    return f"{path or '<root>'}: {str(a)[:200]} != {str(b)[:200]}"


def check_determinism(game: Game, seed: int = 0) -> None:
    """The same seed and choices give the same game, rendering and chance samples."""
    first = random_playout(game, seed)
    second = random_playout(game, seed)
    assert first.history() == second.history()
    assert str(first) == str(second)
    a, b = game.new_initial_state(seed), game.new_initial_state(seed)
    while a.is_chance_node():
        outcome = a.sample_chance()
        assert outcome == b.sample_chance()
        a.apply_action(outcome)
        b.apply_action(outcome)


ALL_CHECKS: tuple[Callable[..., None], ...] = (
    check_playouts,
    check_illegal_rejected,
    check_clone_and_serialization,
    check_no_leaks,
    check_redeal_hides_the_truth,
    check_resample_depends_only_on_the_infostate,
    check_action_strings_do_not_leak,
    check_scores_at_any_point,
    check_terminal_labels,
)


def playout_digests(game: Game, seed: int, every: int = 50) -> list[str]:
    """Step-by-step fingerprints of one seeded random game, to prove a refactoring changed nothing.

    Each step folds into a running SHA-256: the player to act, the legal actions (or chance
    outcomes), every seat's observation, the spectator's, the action's full and per-seat labels,
    and at the end the scores and returns. The digest after every ``every`` steps and the final one
    are returned, so two versions of a game can be compared and the first differing stretch found.
    """
    import hashlib

    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    seats: list[int | None] = [*range(game.num_players), None]
    running = hashlib.sha256()
    digests: list[str] = []
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            choices: Any = state.chance_outcomes()
            action = state.sample_chance(rng)
        else:
            choices = state.legal_actions()
            action = rng.choice(choices)
        step = {
            "player": state.current_player(),
            "choices": choices,
            "views": [state.observation(seat) for seat in seats],
            "label": state.action_to_string(action),
            "public": [state.public_action_string(action, seat) for seat in seats],
            "action": action,
        }
        running.update(json.dumps(step, sort_keys=True, default=repr).encode())
        state.apply_action(action)
        steps += 1
        if steps % every == 0:
            digests.append(running.hexdigest()[:16])
    end = {
        "views": [state.observation(seat) for seat in seats],
        "scores": state.scores(),
        "returns": state.returns(),
        "text": str(state),
        "tensor": game.observation_tensor(state.observation(0)),
    }
    running.update(json.dumps(end, sort_keys=True, default=repr).encode())
    digests.append(f"{steps}:{running.hexdigest()[:16]}")
    return digests

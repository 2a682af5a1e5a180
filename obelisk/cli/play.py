"""``obelisk list`` and ``obelisk play``: terminal games against bots (or friends at one keyboard)."""

from __future__ import annotations

import contextlib
import functools
import json
import select
import sys
import textwrap
from datetime import datetime
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable

try:
    import termios
except ImportError:  # not a POSIX terminal: nothing typed ahead can be told apart
    termios = None  # type: ignore[assignment]

import typer
from rich.table import Table

import obelisk
from obelisk.bots.hints import suggest
from obelisk.cli import Interrupted, UserError
from obelisk.cli.common import (
    bot_title,
    check_seed_option,
    data_dir,
    game_name,
    load_game,
    make_bots,
    make_console,
    output_file,
    parse_extra_options,
    parse_seats,
    plain,
    small_number,
    tolerate_undecodable_input,
    write_failed,
)
from obelisk.cli.rules import fitted, rules_text, show_paged
from obelisk.core import CHANCE, Game, GameInfo, IllegalActionError, Option, State, i18n
from obelisk.core.help import HelpLookupError
from obelisk.core.outcome import player, players, sentence
from obelisk.core.previews import Preview, offered as previews
from obelisk.core.records import (RecordError, make_record, read_record, replay_record, save_record,
                                  verified_commitment)
from obelisk.core.seeds import SecretSeed
from obelisk.core.shortcuts import offered as shortcuts
from obelisk.core.text import SCREEN_WIDTH, ordinal, readable, wrapped

console = make_console()
tr = i18n.ui


class LeftGame(Exception):
    """The player left: typed ``q`` or ended the input (the message says which)."""


def list_games(json_output: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """List the games with their player ranges and options."""
    infos = obelisk.list_games()
    if json_output:
        print(json.dumps([info.to_dict() for info in infos], indent=1))
        return
    table = Table(title=tr("Obelisk games"))
    for column in (tr("id"), tr("name"), tr("players"), tr("options")):
        table.add_column(column)
    for info in infos:
        options = "\n".join(_option_text(info, o) for o in info.options)
        table.add_row(plain(info.id), plain(game_name(info)), f"{info.min_players}-{info.max_players}",
                      plain(options or "-"))
    console.print(table)


def _option_text(info: GameInfo, option: Option) -> str:
    """An option as ``obelisk list`` shows it: its id and default, then the label and value names players see
    in the lobby (the game's catalog words them), so a player can tell what to type."""
    worded = option.to_dict(functools.partial(i18n.domain(info.id).term, "option"))
    head = f"{option.name}={option.default!r}" + (f": {worded['label']}" if worded["label"] else "")
    if option.allowed is not None and worded["value_labels"]:
        return head + "".join(f"\n  {value!r}: {label}" for value, label in zip(option.allowed, worded["value_labels"]))
    if option.bounds is not None:
        return head + f" ({option.bounds[0]}-{option.bounds[1]} {worded['unit']})".replace(" )", ")")
    return head


STRENGTHS: dict[str, str] = {"easy": "greedy", "normal": "ismcts:500ms", "strong": "ismcts:3s"}
"""The bots' strength asked by the setup dialog (and ``--strength``): its bot spec."""
DEFAULT_STRENGTH = "normal"
_STRENGTH_HELP = ("The bots in the seats you leave open: "
                  + ", ".join(f"{name} ({spec})" for name, spec in STRENGTHS.items()) + ".")


def strength_meaning(name: str) -> str:
    """What a strength means to the player, in the active language."""
    return {
        "easy": tr("looks one move ahead (plays at once)"),
        "normal": tr("searches half a second a move"),
        "strong": tr("searches three seconds a move"),
    }[name]


def strength_word(name: str) -> str:
    """A strength's name as the dialog shows it and accepts it, in the active language (the English name is
    accepted too: it is the ``--strength`` value)."""
    return {"easy": tr("easy"), "normal": tr("normal"), "strong": tr("strong")}[name]


def player_name(entry: dict[str, str]) -> str:
    """How the screens name a seat's player (a record's ``players`` entry): "you", a bot in words, or the name
    the record gives."""
    if entry["kind"] == "human":
        return tr("you") if entry["name"] == "you" else entry["name"]
    return bot_title(entry["kind"]) if entry["name"] == entry["kind"] else entry["name"]


def play(
    ctx: typer.Context,
    game_id: str = typer.Argument(None, metavar="GAME", help="Game id (see `obelisk list`); asked if omitted."),
    players: int = typer.Option(None, "--players", "-p", help="Number of players."),
    seats: str = typer.Option(None, "--seats", help="Comma-separated: you,random,greedy,ismcts:1s ..."),
    strength: str = typer.Option(None, "--strength", help=_STRENGTH_HELP),
    seed: int = typer.Option(None, "--seed", help="Fixed seed (practice, research); default: a secret seed, "
                             "committed to at the start and revealed at the end."),
    auto: bool = typer.Option(True, "--auto/--no-auto", help="Play a decision with a single legal choice "
                              "for you (it is shown with the other seats' moves)."),
    save: Path = typer.Option(None, "--save", help="Where to save the game record (default: the records "
                              "folder in the user data folder, or in $OBELISK_DATA_DIR; with --resume, "
                              "the record resumed)."),
    resume: Path = typer.Option(None, "--resume", metavar="RECORD", help="Continue the unfinished game of "
                                "this record, with its seats and its seed."),
) -> None:
    """Play a game in the terminal; with no GAME, a short dialog asks for the game, players, seat and bots.

    Game options go as --NAME VALUE (e.g. --cards my_cards.json).
    """
    if resume is not None:
        if ctx.args or any(value is not None for value in (game_id, players, seats, strength, seed)):
            raise UserError(tr("--resume continues the record's own game, seats and seed: give no game, game "
                               "options, --players, --seats, --strength or --seed with it"))
        tolerate_undecodable_input()
        _resume(resume, save, auto)
        return
    words = list(ctx.args)
    if game_id is not None and game_id.startswith("-"):  # a game option, and the game is to be asked
        words.insert(0, game_id)
        game_id = None
    options = parse_extra_options(words)
    fixed_seed = check_seed_option(seed)
    if strength is not None and strength not in STRENGTHS:
        raise UserError(tr("--strength must be one of {names}, got {given}", names=", ".join(STRENGTHS),
                           given=_shown(strength)))
    if strength is not None and seats is not None:
        raise UserError(tr("give --seats or --strength, not both"))
    tolerate_undecodable_input()
    dialog = game_id is None
    try:
        if dialog:
            game_id = _ask_game()
            if players is None:
                players = _ask_players(game_id)
        game = load_game(game_id, players, options)
        if seats is None:
            if dialog:
                seats = _ask_seats(game, strength)
            elif strength is not None:
                seats = "you," + STRENGTHS[strength]
    except LeftGame:
        console.print(tr("no game chosen"))
        return
    except KeyboardInterrupt:
        raise Interrupted(tr("no game chosen")) from None
    seat_specs = parse_seats(seats, game, "you," + ",".join(["random"] * (game.num_players - 1)))
    secret: SecretSeed | None = None
    if fixed_seed is None:
        secret = SecretSeed.new()
        game_seed = secret.seed
    else:
        game_seed = fixed_seed
    bots = make_bots(seat_specs, game, game_seed)
    path = output_file(save or _default_record_path(game, secret, game_seed), tr("record"))
    humans = [s for s in range(game.num_players) if s not in bots]
    seated = tr.n("{n} player", "{n} players", game.num_players)
    console.print(plain(game_name(game.info), "bold") + plain(f" — {seated}"))
    if secret is not None:
        console.print(plain(tr("shuffles committed: {commitment} (seed and salt revealed at the end)",
                               commitment=secret.commitment)))
    else:
        console.print(plain(tr("fixed-seed game (seed {seed}): every shuffle and draw follows from the seed",
                               seed=game_seed)))
    names = [{"name": "you" if s in humans else seat_specs[s], "kind": "human" if s in humans else seat_specs[s]}
             for s in range(game.num_players)]
    for seat, entry in enumerate(names):
        console.print(plain(tr("  player {player}: {who}", player=seat + 1, who=player_name(entry))))
    console.print(plain(tr("record: {path}", path=path)))
    _finish(Match(game.new_initial_state(game_seed), bots, names, secret, path, auto))


def _resume(record: Path, save: Path | None, auto: bool) -> None:
    """Go on with a saved unfinished game: the same seats, the same (secret) seed, checked against the record."""
    try:
        doc = read_record(record)
        game, states = replay_record(doc)
    except RecordError as error:
        raise UserError(str(error)) from None
    state = states[-1]
    if state.is_terminal():
        raise UserError(tr("the game in {path} is finished; `obelisk replay` shows it", path=repr(str(record))))
    names = [{"name": p["name"], "kind": p["kind"]} for p in doc["players"]]
    specs = ["you" if p["kind"] == "human" else p["kind"] for p in names]
    secret = SecretSeed(doc["seed"], doc["seed_salt"]) if verified_commitment(doc) is not None else None
    bots = make_bots(specs, game, state.seed)
    path = output_file(save or record, tr("record"))
    console.print(plain(game_name(game.info), "bold") + plain(" — " + tr.n(
        "{n} player, resumed at move {move}", "{n} players, resumed at move {move}", game.num_players,
        move=state.move_number())))
    if secret is not None:
        console.print(plain(tr("shuffles committed: {commitment} (the record's seed and every draw verified "
                               "against it)", commitment=secret.commitment)))
    else:
        console.print(plain(tr("fixed-seed game (seed {seed})", seed=state.seed)))
    for seat, entry in enumerate(names):
        console.print(plain(tr("  player {player}: {who}", player=seat + 1, who=player_name(entry))))
    console.print(plain(tr("record: {path}", path=path)))
    _finish(Match(state, bots, names, secret, path, auto))


def _finish(match: Match) -> None:
    """Play ``match`` to its end or until the player leaves, and save its record either way."""
    path, secret = match.path, match.secret
    left = ""
    interrupted = False
    try:
        match.run()
    except LeftGame as how:
        left = str(how)
    except KeyboardInterrupt:
        console.print()  # after the ^C on the prompt's line
        interrupted = True
    except BaseException:
        with contextlib.suppress(Exception):  # keep the game for a bug report; the original error goes on
            save_record(match.record(), path)
        raise
    state = match.state
    _save(match.record(), path)
    if interrupted:
        raise Interrupted(tr("game left unfinished at move {move}; record saved to {path}",
                             move=state.move_number(), path=path))
    if left:
        console.print(plain(tr("game left unfinished at move {move} ({how}); record saved to {path}",
                               move=state.move_number(), how=left, path=path)))
        return
    console.print(plain(tr("record saved to {path}", path=path)))
    if secret is not None:
        console.print(plain(tr("seed revealed: {seed} (salt {salt}); `obelisk replay` verifies it against the "
                               "commitment", seed=secret.seed, salt=secret.salt)))


class Match:
    """A game at this keyboard: the position, who sits where, and where its record goes.

    Humans answer at the prompt; the position is replaced (never edited) when a command such as
    ``undo`` takes steps back, so ``state`` is always one the rules reached.
    """

    def __init__(self, state: State, bots: dict[int, Any], names: list[dict[str, str]],
                 secret: SecretSeed | None, path: Path, auto: bool = True) -> None:
        self.state = state
        self.bots = bots
        self.names = names
        self.secret = secret
        self.path = path
        self.auto = auto
        self.help = state.game.help()
        humans = [s for s in range(state.num_players) if s not in bots]
        self.viewer: int | None = humans[0] if humans else None
        self._last_asked: tuple[int, int] | None = None
        """(seat, move number) of the latest decision asked at the keyboard."""
        self._others_moved = False
        """Whether another seat or chance moved since that decision (then the whole screen is drawn again)."""
        self._pending: list[tuple[int, str]] = []
        """(actor, label as the viewer saw it) of the steps not yet told; the viewer's own only when automatic."""
        self._together: list[tuple[int, int]] = []
        """History ranges [start, end) played by one shortcut: ``undo`` takes each back as one answer."""

    def record(self) -> dict[str, Any]:
        return make_record(self.state, self.names, seed_commitment=self.secret.commitment if self.secret else None,
                           seed_salt=self.secret.salt if self.secret else None)

    def run(self) -> None:
        """Play to the end: bots and chance move on their own, humans are asked."""
        while not self.state.is_terminal():
            state = self.state
            actor = state.current_player()
            automatic = False
            if actor == CHANCE:
                action = state.sample_chance()
            elif actor in self.bots:
                with console.status(plain(tr("player {player} ({kind}) is thinking…", player=actor + 1,
                                             kind=player_name(self.names[actor])))):
                    action = self.bots[actor].choose(state)
            else:
                self.viewer = actor
                legal = state.legal_actions()
                automatic = self.auto and len(legal) == 1
                if automatic:
                    action = legal[0]
                else:
                    self._tell()
                    chosen = self.ask(actor)
                    if chosen is None:
                        continue
                    if len(chosen) > 1:
                        start = len(state.history())
                        self._together.append((start, start + len(chosen)))
                    for action in chosen[:-1]:
                        state.apply_action(action)
                    action = chosen[-1]
            self._others_moved = self._others_moved or actor != self.viewer
            if self.viewer is not None and (actor != self.viewer or automatic):
                self._pending.append((actor, state.public_action_string(action, self.viewer)))
            state.apply_action(action)
        self._tell()
        view = self.state.observation(self.viewer)
        console.rule(tr("game over"))
        console.print(plain(self.state.game.render_observation(view)))
        humans = [seat for seat in range(self.state.num_players) if seat not in self.bots]
        print_scores(self.state, self.names, humans[0] if len(humans) == 1 else None)

    def _tell(self) -> None:
        """What happened since the viewer's last decision, one line per run of one seat's moves or of chance."""
        runs: list[tuple[int, list[str]]] = []
        for actor, label in self._pending:
            if runs and runs[-1][0] == actor:
                runs[-1][1].append(label)
            else:
                runs.append((actor, [label]))
        for actor, labels in runs:
            if actor == CHANCE:
                who = tr("chance")
            elif actor == self.viewer:
                who = tr("player {player} (you, the only choice)", player=actor + 1)
            else:
                who = tr("player {player} ({kind})", player=actor + 1, kind=player_name(self.names[actor]))
            for line in wrapped(f"{who}: ", [readable(label) for label in labels], " · "):
                console.print(plain(line, "dim"))
        self._pending = []

    def ask(self, seat: int) -> list[int] | None:
        """The actions ``seat`` chooses: a listed number or a legal label (one action) or a shortcut's word
        (its actions); commands are run in between.

        None when a command replaced the position, which is then shown anew.
        """
        state = self.state
        view = state.observation(seat)
        last_seat, last_move = self._last_asked or (None, state.move_number())
        follows = last_seat == seat and state.move_number() > last_move and not self._others_moved
        brief = state.game.render_brief(view) if follows else ""
        self._last_asked = (seat, state.move_number())
        self._others_moved = False
        if brief:
            console.print(plain(brief))
        else:
            console.rule(tr("player {player} to play", player=seat + 1))
            console.print(plain(state.game.render_observation(view)))
        legal = view["legal_actions"]
        offered = {shortcut.word: shortcut for shortcut in shortcuts(state, seat)}
        for line in choice_lines(state, seat, brief or state.game.render_observation(view)):
            console.print(plain(line))
        by_label = {_folded(label): action for action, label in legal}
        fresh = True
        while True:
            answer = _read(tr("your move (number, label or help; q to quit): "), fresh)
            fresh = False
            chosen = small_number(answer, len(legal))
            if chosen:
                return [legal[chosen - 1][0]]
            if answer.lower() in offered:
                return list(offered[answer.lower()].actions)
            word, _, argument = answer.partition(" ")
            if word.startswith("?"):  # "? 3" and "?3" ask for move 3's preview
                word, argument = "preview", (word[1:] + " " + argument).strip()
            command = COMMANDS.get(word.lower())
            if command is not None:
                if command.run(self, seat, argument.strip()):
                    return None
                continue
            if _folded(answer) in by_label:
                return [by_label[_folded(answer)]]
            if word.lower() in self.help.lookups:
                _look_up(self, argument.strip())
                continue
            console.print(tr("type a number from 1 to {last}, a label from the list, or q", last=len(legal)),
                          style="red")


SCREEN_HEIGHT = 24
"""The terminal's lines: the previews go under the options only while the whole decision fits."""


def choice_lines(state: State, seat: int, shown: str) -> list[str]:
    """What follows ``shown`` (the view or the brief line) on the screen of ``seat``'s decision: the numbered
    options, the shortcuts, and the moves' previews while the screen with its rule and prompt still fits
    ``SCREEN_HEIGHT`` lines (else ``? N`` tells them)."""
    legal = state.observation(seat)["legal_actions"]
    lines = option_lines([label for _, label in legal])
    for shortcut in shortcuts(state, seat):
        lines += wrapped(f"  {shortcut.word}: ", [shortcut.text])
    said = preview_lines(previews(state, seat), [action for action, _ in legal])
    if len(shown.split("\n")) + len(lines) + len(said) + 2 <= SCREEN_HEIGHT:
        lines += said
    return lines


def preview_lines(found: list[Preview], actions: list[int]) -> list[str]:
    """The engine's previews (``obelisk.core.previews``) under the numbered options: each after the numbers of
    the moves it speaks for (``3-8, 10: …``), wrapped to the screen's width."""
    numbers = {action: number for number, action in enumerate(actions, 1)}
    lines = []
    for preview in found:
        listed = sorted(numbers[action] for action in preview.actions if action in numbers)
        if listed:
            lines += wrapped(f"  {_spans(listed)}: ", [preview.text])
    return lines


def _spans(numbers: list[int]) -> str:
    """``3-8, 10`` for 3, 4, 5, 6, 7, 8 and 10."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def option_lines(labels: list[str], width: int = SCREEN_WIDTH) -> list[str]:
    """The numbered options in as many columns as fit ``width``, numbered down each column.

    Each column is as wide as its longest option, so a long list takes a few lines instead of
    one per option. When it saves lines, an option much longer than most gets a line of its own
    where it falls in the list (``end turn without digging`` after the ``move A1→B1`` columns),
    and the runs of options between such lines go in columns each; options too long to share a
    line get one each.
    """
    digits = len(str(len(labels)))
    cells = [f"{number:>{digits}}. {label}" for number, label in enumerate(labels, 1)]
    if not cells:
        return []
    typical = sorted(len(cell) for cell in cells)[len(cells) // 2]
    runs: list[list[str]] = []
    for cell in cells:
        long = len(cell) > 1.5 * typical
        if long or not runs or len(runs[-1][-1]) > 1.5 * typical:
            runs.append([cell])
        else:
            runs[-1].append(cell)
    apart = [line for run in runs for line in _columns(run, width)]
    whole = _columns(cells, width)
    return apart if len(apart) < len(whole) else whole


def _columns(cells: list[str], width: int) -> list[str]:
    """``cells`` down as many columns as fit ``width`` (two spaces in front of each line and between columns)."""
    for columns in range(min(len(cells), width // 8), 0, -1):
        rows = -(-len(cells) // columns)
        groups = [cells[start:start + rows] for start in range(0, len(cells), rows)]
        widths = [max(len(cell) for cell in group) for group in groups]
        if columns == 1 or 2 + sum(widths) + 2 * (len(groups) - 1) <= width:
            break
    if columns == 1:
        return [line for cell in cells for line in textwrap.wrap(cell, width, initial_indent="  ",
                                                                 subsequent_indent=" " * 7)]
    return ["  " + "  ".join(f"{group[row]:<{w}}" for group, w in zip(groups, widths) if row < len(group)).rstrip()
            for row in range(rows)]


@dataclass(frozen=True)
class Command:
    """A word typed at the move prompt instead of a move; ``run`` returns whether the position changed."""

    usage: str
    meaning: Callable[[], str]
    """What it does, in the active language."""
    run: Callable[[Match, int, str], bool]


COMMANDS: dict[str, Command] = {}
"""The move prompt's commands by name, in the order ``help`` lists them. A new command is one more
function decorated with ``@command(name, usage, lambda: tr(meaning))``; it gets the match, the seat at the prompt
and the rest of the typed line, prints only what that seat may see, and returns whether it replaced
the position."""


def command(name: str, usage: str, meaning: Callable[[], str]) -> Callable[[Callable[[Match, int, str], bool]],
                                                            Callable[[Match, int, str], bool]]:
    def add(run: Callable[[Match, int, str], bool]) -> Callable[[Match, int, str], bool]:
        COMMANDS[name] = Command(usage, meaning, run)
        return run
    return add


@command("help", "help", lambda: tr("these commands"))
def _help(match: Match, seat: int, argument: str) -> bool:
    console.print(plain(tr("  a number or a label from the list plays that action")))
    for entry in COMMANDS.values():
        console.print(plain(f"  {entry.usage:<12} {entry.meaning()}"))
    for word in match.help.lookups:
        console.print(plain(fitted(f"  {word + ' ' + tr('NAME'):<12} " + tr(
            "what that component does: its text and numbers (a unique beginning of the name is enough)"), indent=15)))
    console.print(plain(f"  {'q, quit':<12} " + tr("save the game and leave")))
    return False


@command("preview", "? N", lambda: tr("what move N would do (? alone: every previewed move)"))
def _preview(match: Match, seat: int, argument: str) -> bool:
    state = match.state
    legal = state.observation(seat)["legal_actions"]
    actions = [action for action, _ in legal]
    found = previews(state, seat)
    if not argument:
        lines = preview_lines(found, actions)
        for line in lines or [tr("no move here has a preview: each label says what it does")]:
            console.print(plain(line))
        return False
    number = small_number(argument, len(legal))
    if not number:
        console.print(tr("type ? and a number from 1 to {last}", last=len(legal)), style="red")
        return False
    action, label = legal[number - 1]
    text = next((preview.text for preview in found if action in preview.actions), None)
    said = text if text is not None else tr("no preview: the label says what it does")
    for line in wrapped(f"  {number}. {readable(label)}: ", [said]):
        console.print(plain(line))
    return False


@command("rules", "rules", lambda: tr("the rules in short and the names of the game's components"))
def _rules(match: Match, seat: int, argument: str) -> bool:
    show_paged(console, rules_text(match.help))
    return False


def _look_up(match: Match, name: str) -> None:
    try:
        entry = match.help.find(name)
    except HelpLookupError as error:
        console.print(plain(str(error)), style="red")
        return
    console.print(plain(fitted(entry.describe())))


@command("legend", "legend", lambda: tr("what the symbols on the screen mean"))
def _legend(match: Match, seat: int, argument: str) -> bool:
    legend = match.state.game.render_legend(match.state.observation(seat))
    console.print(plain(legend or tr("this game's screen uses no symbols")))
    return False


@command("board", "board", lambda: tr("draw the whole screen again (a walk shows one line a step)"))
def _board(match: Match, seat: int, argument: str) -> bool:
    return True  # asked again at the same move, the decision gets the whole screen


LOG_LINES = 20


@command("log", "log [N|all]", lambda: tr("the last N steps of the game as your seat saw them (default {n})",
                                           n=LOG_LINES))
def _log(match: Match, seat: int, argument: str) -> bool:
    state = match.state
    history = state.history()
    count = LOG_LINES if not argument else len(history) if argument == "all" else small_number(argument, 10**6)
    if count is None:
        console.print(tr("log takes a number of steps or 'all'"), style="red")
        return False
    replayed = state.game.new_initial_state(state.seed)
    lines = []
    for action in history:
        actor = replayed.current_player()
        who = tr("chance") if actor == CHANCE else tr("player {player}", player=actor + 1)
        lines.append(f"{replayed.move_number():>4}. {who}: {replayed.public_action_string(action, seat)}")
        replayed.apply_action(action)
    for line in lines[-count:] if count else []:
        console.print(plain(line))
    if not lines:
        console.print(tr("nothing has happened yet"))
    return False


@command("hint", "hint", lambda: tr("the search bot's three best moves for you: how often it chose each, and "
                                     "your expected result"))
def _hint(match: Match, seat: int, argument: str) -> bool:
    with console.status(plain(tr("thinking about a hint…"))):
        suggestions = suggest(match.state, seat, seed=match.state.move_number())
    parts = [f"{n}. {s.label} ({s.share:.0%}" + ("" if s.value is None else f", {s.value:+.2f}") + ")"
             for n, s in enumerate(suggestions, 1)]
    for line in wrapped(tr("hint: "), parts, " · "):
        console.print(plain(line))
    if any(s.value is not None for s in suggestions):
        console.print(plain(tr("  (share of the search that chose it, expected result from +1 first to -1 last)"),
                            "dim"))
    return False


@command("undo", "undo [N]", lambda: tr("take back your last N moves of this turn (default 1), where the game "
                                         "allows it"))
def _undo(match: Match, seat: int, argument: str) -> bool:
    wanted = small_number(argument, 10**6) if argument else 1
    if not wanted:
        console.print(tr("undo takes a number of moves from 1"), style="red")
        return False
    state = match.state
    steps = _asked_steps(state, seat, wanted, match.auto, match._together)
    try:
        match.state = state.undo(seat, steps)
    except IllegalActionError as error:
        console.print(plain(tr("nothing to undo: {reason}", reason=error)))
        return False
    kept = len(match.state.history())
    match._together = [(start, end) for start, end in match._together if end <= kept]
    console.print(plain(tr.n("took back {n} move", "took back {n} moves", wanted)))
    return True


def _asked_steps(state: State, seat: int, wanted: int, auto: bool, together: list[tuple[int, int]]) -> int:
    """How many of ``seat``'s latest decisions take back its ``wanted`` last answers (the automatic ones too).

    A single choice played for the seat would only be played again, so it goes back with the answer before it;
    the decisions of one shortcut (the history ranges ``together``) are one answer.
    """
    history = state.history()
    first = {start for start, _ in together}
    later = {step for start, end in together for step in range(start + 1, end)}
    steps = asked = 0
    while asked < wanted and steps < len(history):
        steps += 1
        at = len(history) - steps
        before = state.game.replay(state.seed, history[:at])
        if before.current_player() != seat:
            break
        if at in first or (at not in later and (not auto or len(before.legal_actions()) > 1)):
            asked += 1
    return steps


@command("save", "save", lambda: tr("write the record now and go on playing"))
def _save_now(match: Match, seat: int, argument: str) -> bool:
    _save(match.record(), match.path)
    console.print(plain(tr("record saved to {path}; the game goes on", path=match.path)))
    return False


def _save(record: dict[str, Any], path: Path) -> None:
    try:
        save_record(record, path)
    except OSError as error:
        print(json.dumps(record, indent=1, sort_keys=True))
        raise write_failed(tr("record (printed above instead)"), path, error) from None


def _default_record_path(game: Game, secret: SecretSeed | None, seed: int) -> Path:
    """A new file in the records folder, named by game and time (and never by a secret seed)."""
    tag = secret.commitment.removeprefix("sha256:")[:12] if secret is not None else f"seed{seed}"
    return data_dir() / "records" / f"{game.id}-{datetime.now():%Y%m%d-%H%M%S}-{tag}.json"


def _ask_game() -> str:
    infos = obelisk.list_games()
    if not infos:
        raise UserError(tr("no games are installed"))
    for number, info in enumerate(infos, 1):
        console.print(plain(tr("  {number}. {name} ({id}, {low}-{high} players)", number=number, name=game_name(info),
                               id=info.id, low=info.min_players, high=info.max_players)))
    while True:
        answer = _read(tr("Which game (number or id, q to quit)? "))
        chosen = small_number(answer, len(infos))
        if chosen:
            return infos[chosen - 1].id
        if answer in {i.id for i in infos}:
            return answer
        console.print(tr("type a number from 1 to {last}, a game id, or q", last=len(infos)), style="red")


def _ask_players(game_id: str) -> int:
    info = next(i for i in obelisk.list_games() if i.id == game_id)
    low, high = info.min_players, info.max_players
    default = info.default_players or low
    if low == high:
        return low
    while True:
        answer = _read(tr("How many players ({low}-{high}, Enter = {default})? ", low=low, high=high, default=default))
        if not answer:
            return default
        chosen = small_number(answer, high)
        if chosen is not None and chosen >= low:
            return chosen
        console.print(tr("type a number from {low} to {high}, Enter for {default}, or q", low=low, high=high,
                         default=default), style="red")


def _ask_seats(game: Game, strength: str | None) -> str:
    """The seat list from two questions: which player I am (counted from 1), and how strong the bots are."""
    last = game.num_players
    mine = 0
    while True:
        answer = _read(tr("Which player are you (1 plays first ... {last} plays last, Enter = 1)? ", last=last))
        chosen = small_number(answer, last) if answer else 1
        if chosen:
            mine = chosen - 1
            break
        console.print(tr("type a number from 1 to {last}, Enter for 1, or q", last=last), style="red")
    if strength is None:
        words = {strength_word(name).casefold(): name for name in STRENGTHS} | {name: name for name in STRENGTHS}
        for name, spec in STRENGTHS.items():
            console.print(plain(f"  {strength_word(name):<8} {bot_title(spec)}: {strength_meaning(name)}"))
        shown = ", ".join(strength_word(name) for name in STRENGTHS)
        while True:
            answer = _read(tr("Bots' strength ({names}; Enter = {default})? ", names=shown,
                              default=strength_word(DEFAULT_STRENGTH))).casefold()
            if answer in words or not answer:
                strength = words[answer] if answer else DEFAULT_STRENGTH
                break
            console.print(tr("type {names}, Enter for {default}, or q", names=shown,
                             default=strength_word(DEFAULT_STRENGTH)), style="red")
    bot = STRENGTHS[strength]
    return ",".join("you" if seat == mine else bot for seat in range(game.num_players))


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _read(prompt: str, fresh: bool = False) -> str:
    """One answer, stripped; ``q`` and the end of the input leave the game.

    ``fresh``: the first answer to a new screen, so what was typed before it was shown is thrown away (a move
    typed ahead must not act on a later decision than the one it was typed for)."""
    if fresh:
        _discard_typed_ahead()
    try:
        answer = input(prompt).strip()
    except EOFError:
        console.print()  # the prompt's line is left open
        raise LeftGame(tr("end of input")) from None
    if answer.lower() in ("q", "quit"):
        raise LeftGame(tr("quit"))
    return answer


def _discard_typed_ahead() -> None:
    """Flush what the terminal holds unread, saying so in one line when a whole line was waiting."""
    if termios is None or not sys.stdin.isatty():
        return
    try:
        waiting = bool(select.select([sys.stdin], [], [], 0)[0])
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):
        return
    if waiting:
        console.print(tr("(what was typed before this screen was shown is ignored: type it again if you mean it)"),
                      style="dim")


def _folded(label: str) -> str:
    return " ".join(label.split()).casefold()


def print_scores(state: State, names: list[dict[str, str]], viewer: int | None = None) -> None:
    """The end screen (``obelisk replay`` shows it too): who won and, for ``viewer``, their place; the reasons
    in words (``State.outcome``); then the table of places and a row per scoring category.

    One column per seat, so games with many categories fit a terminal.
    """
    outcome = state.outcome()
    for line in headline(outcome, viewer):
        console.print(plain(line), style="bold")
    for reason in outcome["reasons"]:
        for line in wrapped("", [reason]):
            console.print(plain(line))
    scores = state.scores()
    places = _places(outcome["places"])
    categories = list(dict.fromkeys(c for entry in scores for c in entry["breakdown"]))
    table = Table(title=tr("final scores"))
    table.add_column("")
    for seat in range(state.num_players):
        table.add_column(plain(player(seat) + f"\n{player_name(names[seat])}"), justify="right")
    table.add_row(tr("Place"), *[plain(place) for place in places], style="bold")
    for c in categories:
        table.add_row(plain(state.game.score_heading(c)), *[plain(entry["breakdown"].get(c, "")) for entry in scores])
    table.add_row(tr("Total"), *[plain(entry["total"]) for entry in scores], style="bold")
    console.print(table)


def headline(outcome: dict[str, Any], viewer: int | None = None) -> list[str]:
    """``Player 2 wins``, and for the ``viewer`` seat its own result: ``You finished 2nd``."""
    winners, places = outcome["winners"], outcome["places"]
    if len(winners) == 1:
        lines = [tr("Player {n} wins", n=winners[0] + 1)]
    elif winners:
        lines = [sentence(tr("{players} share the win", players=players(winners)))]
    else:
        lines = [tr("Nobody wins")]
    if viewer is not None:
        if viewer in winners:
            lines.append(tr("You win") if len(winners) == 1 else tr("You share the win"))
        else:
            lines.append(tr("You finished {place}", place=ordinal(places[viewer])))
    return lines


def _places(places: list[int]) -> list[str]:
    """Each seat's place as the table shows it: ``1st``, ``2nd`` …; a place several seats share is ``=1st``."""
    return [("=" if places.count(place) > 1 else "") + ordinal(place) for place in places]


def register(app: typer.Typer) -> None:
    app.command("list")(list_games)
    app.command("play", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(play)

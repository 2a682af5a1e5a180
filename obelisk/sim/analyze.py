"""Balance reports: a Markdown file with PNG plots, computed from game records alone.

The report imports no game module. Everything game-specific is read from
what every game already provides through the protocol:

* ``scores()`` breakdowns — each game names its scoring categories, so
  "winners vs. others per category" shows e.g. corruption in Cleopatra or
  treasures in Solomon without knowing either game;
* the records' action labels — the *kind* of an action is the first word of
  its label (``buy``, ``entomb``, ``play`` ...) and the label itself names the
  card, tile, character or item (parenthesised details such as a board
  position are dropped, see :func:`label_key`). For each label the report gives the win rate
  of the seats that chose it at least once in a game (Wilson 95% interval)
  against the overall rate, and for each kind how often winners chose it
  compared with the other seats. That is the per-game influence figure: in
  Valley it ranks cards bought and entombed, in Solomon tiles and card
  numbers, in Cleopatra characters, in Tomb items.

Influence is correlation, not causation: a card strong players can afford
late looks good because they could afford it. Compare bots of equal strength
(one spec for every seat, the default) to read it as balance.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from obelisk.sim.tasks import GameResult
from obelisk.sim.stats import mean_interval, wilson_interval

MAX_LABELS = 20
"""Labels shown per kind figure (the most frequent ones)."""
MAX_KIND_FIGURES = 6
EXTREMES = 12
"""Labels shown at each end of the overall best/worst figure."""


def label_key(label: str) -> str:
    """A label without its parenthesised details (board position, change given ...), spaces collapsed.

    ``"buy Statue of Horus (B3) for 3"`` → ``"buy Statue of Horus for 3"``: the
    same card bought from another slot counts as the same choice.
    """
    return " ".join(re.sub(r"\([^()]*\)", " ", label).split()) or label.strip()


def action_kind(label: str) -> str:
    """The first word of a label, lowercased: ``"Buy Sphinx (3)"`` → ``"buy"``."""
    match = re.match(r"\s*([A-Za-z][A-Za-z_'-]*)", label)
    return match.group(1).lower() if match else "other"


@dataclass
class LabelStat:
    label: str
    kind: str
    seat_games: int = 0
    wins: float = 0.0
    choices: int = 0

    def rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0


@dataclass
class Analysis:
    """Aggregates over a list of finished games (every one with its record)."""

    game: str
    players: int
    games: int
    seat_wins: list[float]
    scores_by_seat: list[list[float]]
    winner_scores: list[float]
    lengths: list[int]
    decisions: list[int]
    breakdown_winners: dict[str, list[float]]
    breakdown_others: dict[str, list[float]]
    labels: dict[str, LabelStat]
    kind_winners: dict[str, float]
    kind_others: dict[str, float]
    winner_slots: float
    other_slots: float
    baseline: float
    notes: list[str] = field(default_factory=list)


def analyse(game_id: str, players: int, results: Sequence[GameResult]) -> Analysis:
    """Aggregate ``results`` (which must carry records) into the report's statistics."""
    seat_wins = [0.0] * players
    scores_by_seat: list[list[float]] = [[] for _ in range(players)]
    winner_scores: list[float] = []
    breakdown_winners: dict[str, list[float]] = defaultdict(list)
    breakdown_others: dict[str, list[float]] = defaultdict(list)
    labels: dict[str, LabelStat] = {}
    kind_winners: Counter[str] = Counter()
    kind_others: Counter[str] = Counter()
    winner_slots = other_slots = 0.0
    total_wins = 0.0
    for result in results:
        winners = result.winners()
        share = 1.0 / len(winners)
        chosen: list[Counter[str]] = [Counter() for _ in range(players)]
        for entry in (result.record or {}).get("actions", []):
            if entry.get("player", -1) >= 0:
                chosen[entry["player"]][label_key(entry["label"])] += 1
        for seat in range(players):
            win = share if seat in winners else 0.0
            total_wins += win
            seat_wins[seat] += win
            scores_by_seat[seat].append(result.scores[seat])
            target = breakdown_winners if win else breakdown_others
            for category, points in result.breakdowns[seat].items():
                if isinstance(points, (int, float)) and not isinstance(points, bool):
                    target[category].append(float(points))
            if win:
                winner_scores.append(result.scores[seat])
                winner_slots += 1
            else:
                other_slots += 1
            for label, count in chosen[seat].items():
                stat = labels.get(label)
                if stat is None:
                    stat = labels[label] = LabelStat(label, action_kind(label))
                stat.seat_games += 1
                stat.wins += win
                stat.choices += count
                (kind_winners if win else kind_others)[stat.kind] += count
    seat_games = len(results) * players
    return Analysis(
        game=game_id,
        players=players,
        games=len(results),
        seat_wins=seat_wins,
        scores_by_seat=scores_by_seat,
        winner_scores=winner_scores,
        lengths=[r.length for r in results],
        decisions=[r.decisions for r in results],
        breakdown_winners=dict(breakdown_winners),
        breakdown_others=dict(breakdown_others),
        labels=labels,
        kind_winners=dict(kind_winners),
        kind_others=dict(kind_others),
        winner_slots=winner_slots,
        other_slots=other_slots,
        baseline=total_wins / seat_games if seat_games else 0.0,
    )


def influential_kinds(analysis: Analysis) -> list[str]:
    """Kinds with at least two distinct labels, most chosen first (those get a figure each by default)."""
    per_kind: dict[str, list[LabelStat]] = defaultdict(list)
    for stat in analysis.labels.values():
        per_kind[stat.kind].append(stat)
    kinds = [k for k, stats in per_kind.items() if len(stats) >= 2]
    kinds.sort(key=lambda k: (-sum(s.choices for s in per_kind[k]), k))
    return kinds[:MAX_KIND_FIGURES]


def _minimum_support(analysis: Analysis) -> int:
    """Seat-games a label needs before its win rate is shown (1 % of all seat-games, at least 3)."""
    return max(3, math.ceil(0.01 * analysis.games * analysis.players))


def extreme_labels(analysis: Analysis) -> list[LabelStat]:
    """Labels of every kind with enough support: the best and the worst win rates, best first."""
    minimum = _minimum_support(analysis)
    stats = [s for s in analysis.labels.values() if s.seat_games >= minimum]
    stats.sort(key=lambda s: (-s.rate(), -s.seat_games, s.label))
    if len(stats) <= 2 * EXTREMES:
        return stats
    return stats[:EXTREMES] + stats[-EXTREMES:]


def label_rows(analysis: Analysis, kind: str) -> list[LabelStat]:
    """The most often chosen labels of a kind (enough games to say something), best win rate first."""
    minimum = _minimum_support(analysis)
    stats = [s for s in analysis.labels.values() if s.kind == kind and s.seat_games >= minimum]
    stats.sort(key=lambda s: (-s.seat_games, s.label))
    shown = stats[:MAX_LABELS]
    shown.sort(key=lambda s: (-s.rate(), s.label))
    return shown


def write_report(
    analysis: Analysis, out: Path, command: str, bots: Sequence[str], kinds: Sequence[str] | None = None
) -> Path:
    """Write ``report.md`` and its PNG figures into ``out``; return the report's path.

    ``kinds`` picks the action kinds that get a win-rate-by-label figure
    (default: the most chosen kinds with at least two distinct labels).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    a = analysis
    n = a.games
    lines = [
        f"# Balance report: {a.game}, {a.players} players",
        "",
        f"{n} games between {', '.join(bots)} (seats rotated). Command: `{command}`",
        "",
        "## Seat advantage",
        "",
        "| seat | wins | win rate | 95% CI (Wilson) | advantage vs. fair share |",
        "|---:|---:|---:|---|---:|",
    ]
    fair = 1.0 / a.players
    for seat, wins in enumerate(a.seat_wins):
        low, high = wilson_interval(wins, n)
        lines.append(f"| {seat} | {wins:g} | {wins / n:.1%} | {low:.1%} – {high:.1%} | {wins / n - fair:+.1%} |")
    first_low, first_high = wilson_interval(a.seat_wins[0], n)
    verdict = "no significant" if first_low <= fair <= first_high else "a significant"
    lines += ["", f"First seat: {verdict} advantage at 95% (fair share {fair:.1%}).", "", "![seats](seats.png)", ""]

    figure, axis = plt.subplots(figsize=(6, 3.5))
    rates = [w / n for w in a.seat_wins]
    errors = _error_bars(rates, [wilson_interval(w, n) for w in a.seat_wins])
    axis.bar([f"seat {s}" for s in range(a.players)], rates, yerr=errors, capsize=4, color="#c8a24a")
    axis.axhline(fair, color="black", linestyle="--", linewidth=1, label="fair share")
    axis.set_ylabel("win rate")
    axis.set_title("Win rate by seat (95% Wilson CI)")
    axis.legend()
    _save(figure, out / "seats.png")

    lines += ["## Scores", "", "| seat | mean score | 95% CI |", "|---:|---:|---|"]
    for seat, scores in enumerate(a.scores_by_seat):
        mean, low, high = mean_interval(scores)
        lines.append(f"| {seat} | {mean:.2f} | {low:.2f} – {high:.2f} |")
    winner_mean = mean_interval(a.winner_scores)[0]
    lines += ["", f"Winning score: mean {winner_mean:.2f}, range {min(a.winner_scores):g} – "
              f"{max(a.winner_scores):g}.", "", "![scores](scores.png)", ""]
    figure, axis = plt.subplots(figsize=(6, 3.5))
    everything = [s for seat in a.scores_by_seat for s in seat]
    bins = _bins(everything)
    axis.hist(everything, bins=bins, alpha=0.6, label="all seats", color="#4a78c8")
    axis.hist(a.winner_scores, bins=bins, alpha=0.7, label="winners", color="#c8a24a")
    axis.set_xlabel("final score")
    axis.set_ylabel("seats")
    axis.set_title("Score distribution")
    axis.legend()
    _save(figure, out / "scores.png")

    length_mean = mean_interval(a.lengths)[0]
    decision_mean = mean_interval(a.decisions)[0]
    lines += ["## Game length", "",
              f"Actions per game (chance included): mean {length_mean:.1f}, min {min(a.lengths)}, "
              f"max {max(a.lengths)}; player decisions: mean {decision_mean:.1f}.", "", "![length](length.png)", ""]
    figure, axis = plt.subplots(figsize=(6, 3.5))
    axis.hist(a.decisions, bins=_bins(a.decisions), color="#7a9a5a")
    axis.set_xlabel("player decisions per game")
    axis.set_ylabel("games")
    axis.set_title("Game length")
    _save(figure, out / "length.png")

    categories = sorted(set(a.breakdown_winners) | set(a.breakdown_others))
    if categories:
        lines += ["## Score categories: winners vs. others", "",
                  "| category | winners (mean) | others (mean) | difference |", "|---|---:|---:|---:|"]
        win_means = [mean_interval(a.breakdown_winners.get(c, []))[0] for c in categories]
        other_means = [mean_interval(a.breakdown_others.get(c, []))[0] for c in categories]
        for c, w, o in zip(categories, win_means, other_means):
            lines.append(f"| {c} | {w:.2f} | {o:.2f} | {w - o:+.2f} |")
        lines += ["", "![categories](categories.png)", ""]
        _winners_vs_others(plt, categories, win_means, other_means, "mean points", "Score breakdown",
                           out / "categories.png")

    lines += _influence(a, out, plt, list(kinds) if kinds else influential_kinds(a))
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _winners_vs_others(plt: Any, labels: Sequence[str], winners: Sequence[float], others: Sequence[float],
                       xlabel: str, title: str, path: Path) -> None:
    """A horizontal bar pair per label: winners' mean above, the other seats' below."""
    figure, axis = plt.subplots(figsize=(7, 0.5 * len(labels) + 1.5))
    positions = range(len(labels))
    axis.barh([p + 0.2 for p in positions], winners, height=0.4, label="winners", color="#c8a24a")
    axis.barh([p - 0.2 for p in positions], others, height=0.4, label="others", color="#4a78c8")
    axis.set_yticks(list(positions), labels)
    axis.set_xlabel(xlabel)
    axis.set_title(title)
    axis.legend()
    _save(figure, path)


def _influence(a: Analysis, out: Path, plt: Any, kinds_shown: Sequence[str]) -> list[str]:
    """Action kinds chosen by winners vs. others, the best and worst labels, then win rate per label by kind."""
    lines = ["## Influence of choices", "",
             "Derived from the records' action labels (kind = first word of the label). A label's win rate is "
             "over the seats that chose it at least once in a game; the dashed line is the overall rate. "
             "Correlation, not causation.", ""]
    kinds = sorted(set(a.kind_winners) | set(a.kind_others))
    if not kinds:
        return lines + ["No player decisions were recorded.", ""]
    per_winner = [a.kind_winners.get(k, 0) / max(a.winner_slots, 1) for k in kinds]
    per_other = [a.kind_others.get(k, 0) / max(a.other_slots, 1) for k in kinds]
    lines += ["| action kind | per game, winners | per game, others | ratio |", "|---|---:|---:|---:|"]
    for k, w, o in sorted(zip(kinds, per_winner, per_other), key=lambda t: -(t[1] + t[2])):
        ratio = f"{w / o:.2f}" if o else "–"
        lines.append(f"| {k} | {w:.2f} | {o:.2f} | {ratio} |")
    lines += ["", "![kinds](kinds.png)", ""]
    _winners_vs_others(plt, kinds, per_winner, per_other, "choices per seat and game",
                       "Action kinds: winners vs. others", out / "kinds.png")
    extremes = extreme_labels(a)
    if len(extremes) >= 2:
        lines += _label_section(a, out, plt, extremes, "labels", "Best and worst choices (all kinds)")
    for kind in kinds_shown:
        rows = label_rows(a, kind)
        if not rows:
            lines += [f"No `{kind}` choice was made in enough games to show (kinds seen: {', '.join(kinds)}).", ""]
            continue
        name = "influence-" + re.sub(r"[^a-z0-9_-]", "_", kind)
        lines += _label_section(a, out, plt, rows, name, f"Win rate by `{kind}` choice")
    return lines


def _label_section(a: Analysis, out: Path, plt: Any, rows: Sequence[LabelStat], name: str, title: str) -> list[str]:
    """A table and a horizontal bar chart of win rates (Wilson 95% CI) for the given labels."""
    lines = [f"### {title}", "", "| label | seat-games | win rate | 95% CI |", "|---|---:|---:|---|"]
    intervals = [wilson_interval(s.wins, s.seat_games) for s in rows]
    for stat, (low, high) in zip(rows, intervals):
        lines.append(f"| {stat.label} | {stat.seat_games} | {stat.rate():.1%} | {low:.1%} – {high:.1%} |")
    lines += ["", f"![{name}]({name}.png)", ""]
    figure, axis = plt.subplots(figsize=(7, 0.32 * len(rows) + 1.5))
    rates = [s.rate() for s in rows]
    positions = list(range(len(rows)))[::-1]
    axis.barh(positions, rates, xerr=_error_bars(rates, intervals), capsize=3, color="#c8a24a")
    axis.set_yticks(positions, [_short(s.label) for s in rows], fontsize=8)
    axis.axvline(a.baseline, color="black", linestyle="--", linewidth=1)
    axis.set_xlabel("win rate of seats that chose it")
    axis.set_title(title.replace("`", "'"))
    _save(figure, out / f"{name}.png")
    return lines


def _error_bars(values: Sequence[float], intervals: Sequence[tuple[float, float]]) -> list[list[float]]:
    """Matplotlib's ``[below, above]`` error lengths (clamped: rounding can put a bound a hair past the value)."""
    return [[max(0.0, v - low) for v, (low, _) in zip(values, intervals)],
            [max(0.0, high - v) for v, (_, high) in zip(values, intervals)]]


def _bins(values: Sequence[float]) -> int | list[float]:
    """Integer-wide bins for small integer ranges, else 30."""
    if not values:
        return 10
    low, high = min(values), max(values)
    if high - low <= 60 and all(float(v).is_integer() for v in values):
        return [low - 0.5 + i for i in range(int(high - low) + 2)]
    return 30


def _short(label: str, width: int = 42) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def _save(figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    import matplotlib.pyplot as plt

    plt.close(figure)

"""Mistakes by information (issue 22, item 3): each card of a play record judged by what its player
knew when he played it, beside the double-dummy verdict.

The double-dummy replay (:mod:`pyanalyzer.analysis.playcheck`, Thousand's
:mod:`pyanalyzer.thousand.review`) blames a card that changed the result with every card seen, so it
blames a player for not guessing a layout he could not see. Here each card is also judged with
:func:`pyanalyzer.analysis.advise.advise`: over every layout consistent with what its player knew at
that moment (his hand, the hands open to him, the cards played and the voids they showed, the
talon or discard as the rules show them), how much lower his side's expected result was after the
card he played than after the best card. The verdicts:

* ``error``: the card lowered his expectation by more than ``threshold`` (tricks, or points in
  Thousand);
* ``unlucky``: within ``threshold`` of the best card by information, but double dummy it changed
  the result (the layout was not the one the odds favoured);
* ``ok``: neither; ``forced``: he had one card (or only cards of the same worth) to play.

A record has some thirty decisions, each an enumeration of the unseen cards: a decision with at most
``exact_limit`` consistent layouts (default 20,000; 2,000 in Thousand) is judged exactly, one with
more over ``samples`` random layouts drawn with ``seed`` (the same layouts for each of his cards),
and the step says which.

>>> from pyanalyzer.model.layout_io import parse_layout_with_record
>>> from pyanalyzer.analysis.playcheck import check_play
>>> layout, record = parse_layout_with_record("contract=6s declarer=E lead=S S=As,7s,9d W=Ks,Ac,Jc "
...                                           "E=Qs,Jd,9h played=As,Ks,Qs,7s,Jc,9h,9d,Ac,Jd")
>>> review = judge_by_information(check_play(layout, record, "reference"), record, engine="reference")
>>> [(step.seat, step.move.code, step.verdict) for step in review.steps][:4]
[('S', 'As', 'unlucky'), ('W', 'Ks', 'forced'), ('E', 'Qs', 'forced'), ('S', '7s', 'ok')]

(South's ♠A lead and his ♦9 both leave the declarer 0.55 tricks on average over the 20 layouts
South cannot tell apart; here the ♦9 would have kept East to none.)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyanalyzer.analysis.advise import advise
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_move
from pyanalyzer.render.html import HtmlView, table_html

#: The default threshold of an ``error``: a quarter of a trick in the trick games; in Thousand five
#: points (the opponents' points are rounded to fives, so less seldom matters).
THRESHOLD_TRICKS = 0.25
THRESHOLD_POINTS = 5.0
#: A decision with at most this many consistent layouts is judged exactly, else sampled; Thousand's
#: solves cost several times a trick game's (points, not tricks), so its limit is lower.
EXACT_LIMIT = 20_000
EXACT_LIMIT_POINTS = 2_000
#: Random layouts per sampled decision.
SAMPLES = 400
#: The seed of the sampled decisions when none is given (so a review always reproduces).
SEED = 0

VERDICTS = ("error", "unlucky", "ok", "forced")


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def default_threshold(layout: Layout) -> float:
    return THRESHOLD_POINTS if layout.rules.counts_points else THRESHOLD_TRICKS


def default_exact_limit(layout: Layout) -> int:
    return EXACT_LIMIT_POINTS if layout.rules.counts_points else EXACT_LIMIT


@dataclass
class InformationStep:
    """One card of the record judged by its player's information."""

    trick: int
    seat: str
    move: Move
    #: The double-dummy replay's verdict: the card changed the result.
    dd_changed: bool
    verdict: str
    #: His side's expected result after the card played and after the best card, the difference
    #: (his loss, >= 0), the interval of the played card's expectation when sampled.
    expected: float | None = None
    best: Move | None = None
    best_expected: float | None = None
    cost: float = 0.0
    interval: tuple[float, float] | None = None
    #: Consistent layouts, how many were solved, and whether all were (None: forced, not judged).
    layouts: int | None = None
    solved: int | None = None
    exact: bool | None = None

    def describe(self, style: str = "symbols", names=None, unit: str = "tricks") -> str:
        """``trick 2, W played ♥K: error, 0.40 tricks worse for his side than ♥7 (expected 1.20 against
        1.60 over all 20 layouts)``; expectations count the declarer's side's result."""
        name = names(self.seat) if names else self.seat
        played = format_move(self.move, style)
        if self.verdict == "forced":
            return f"trick {self.trick}, {name} played {played}: forced"
        how = (f"over all {self.layouts:,} layouts" if self.exact
               else f"over {self.solved:,} sampled of {self.layouts:,} layouts")
        dd = "; double dummy it changed the result" if self.dd_changed else ""
        if self.cost == 0:
            what = f"the best by information (expected {self.expected:.2f} {how})"
        else:
            what = (f"{self.cost:.2f} {unit} worse for his side than {format_move(self.best, style)} "
                    f"(expected {self.expected:.2f} against {self.best_expected:.2f} {how})")
        return f"trick {self.trick}, {name} played {played}: {self.verdict}, {what}{dd}"

    def to_dict(self) -> dict:
        return {"trick": self.trick, "seat": self.seat, "card": self.move.code, "verdict": self.verdict,
                "dd_changed": self.dd_changed, "expected": _rounded(self.expected),
                "best": None if self.best is None else self.best.code, "best_expected": _rounded(self.best_expected),
                "cost": _rounded(self.cost),
                "interval": None if self.interval is None else [_rounded(v) for v in self.interval],
                "layouts": self.layouts, "solved": self.solved, "exact": self.exact}


@dataclass
class InformationReview(HtmlView):
    """The double-dummy replay of a record (``dd``) with each card judged by information."""

    dd: object  # PlayCheck (trick games) or thousand.review.DealReview
    steps: list[InformationStep]
    threshold: float
    open_hands: tuple[str, ...]
    exact_limit: int
    samples: int
    seed: int
    seconds: float
    #: Stopped by Ctrl-C: ``steps`` holds the cards judged before; the others were not judged.
    interrupted: bool = False
    record_length: int = 0
    unit: str = field(default="tricks")

    @property
    def layout(self) -> Layout:
        return self.dd.layout

    @property
    def errors(self) -> list[InformationStep]:
        return [s for s in self.steps if s.verdict == "error"]

    @property
    def unlucky(self) -> list[InformationStep]:
        return [s for s in self.steps if s.verdict == "unlucky"]

    def verdict(self) -> str:
        judged = f"{len(self.steps)} of {self.record_length} cards judged" if self.interrupted else (
            f"{len(self.steps)} cards judged")
        partial = "PARTIAL (interrupted): " if self.interrupted else ""
        return (f"{partial}By information ({judged}): {len(self.errors)} error(s), {len(self.unlucky)} "
                f"unlucky card(s).")

    def format(self, style: str = "symbols") -> str:
        names = self.layout.rules.seat_name
        out = [self.dd.format(style), "", self.verdict()]
        opened = f"; hands open to all: {' '.join(self.open_hands)}" if self.open_hands else ""
        out.append(f"Each card against the best card by what its player knew (error: more than "
                   f"{self.threshold:g} {self.unit} worse for his side{opened}); exact up to {self.exact_limit:,} "
                   f"layouts, else {self.samples:,} sampled (seed {self.seed}).")
        flagged = [s for s in self.steps if s.verdict in ("error", "unlucky")]
        if flagged:
            out.extend("  " + s.describe(style, names, self.unit) for s in flagged)
        out.append("")
        out.append(f"Card by card (verdict; cost in {self.unit} by information; ! changed the double-dummy result):")
        for step in self.steps:
            cost = "" if step.verdict == "forced" else f" {step.cost:.2f}"
            mark = " !" if step.dd_changed else ""
            sampled = "" if step.exact in (None, True) else " (sampled)"
            out.append(f"  {step.trick:>2}. {step.seat} {format_move(step.move, style):<4} "
                       f"{step.verdict}{cost}{mark}{sampled}")
        if self.interrupted:
            out.append(f"  (interrupted: {self.record_length - len(self.steps)} card(s) not judged)")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def html_parts(self, style: str = "symbols") -> dict:
        """``--html``: the card-by-card verdicts as a table (double dummy beside by information)."""
        parts = super().html_parts(style)
        names = self.layout.rules.seat_name
        rows = [[step.trick, names(step.seat), format_move(step.move, style),
                 "changed the result" if step.dd_changed else None, step.verdict,
                 None if step.verdict == "forced" else f"{step.cost:.2f}",
                 None if step.expected is None else f"{step.expected:.2f}",
                 None if step.best is None else format_move(step.best, style),
                 None if step.layouts is None else f"{step.layouts:,}" + ("" if step.exact else " (sampled)")]
                for step in self.steps]
        parts["table"] = table_html(["trick", "player", "card", "double dummy", "by information",
                                     f"cost ({self.unit})", "expected", "best", "layouts"], rows)
        parts["text"] = parts["text"].split("\nCard by card (verdict;")[0]  # (the table says it)
        return parts

    def to_dict(self) -> dict:
        data = dict(self.dd.to_dict())
        data["by_information"] = {
            "threshold": self.threshold, "unit": self.unit, "open": list(self.open_hands),
            "exact_limit": self.exact_limit, "samples": self.samples, "seed": self.seed,
            "interrupted": self.interrupted, "judged": len(self.steps), "cards": self.record_length,
            "steps": [s.to_dict() for s in self.steps],
            "errors": [s.to_dict() for s in self.errors],
            "unlucky": [s.to_dict() for s in self.unlucky],
            "seconds": round(self.seconds, 3)}
        return data


def judge_by_information(dd, record: Sequence, *, open_hands: Sequence[str] = (), threshold: float | None = None,
                         engine: str = "fast", exact_limit: int | None = None, samples: int = SAMPLES,
                         seed: int | None = None, threads: int = 2, progress=None,
                         backends=None, stop_when=None) -> InformationReview:
    """Judge each card of ``record`` (the moves of ``dd``'s replay, from ``dd.layout``) by what its
    player knew; ``open_hands``: hands face up, seen by every other player (the whisters playing
    open); ``backends``: the engines to use, one per thread (the web's worker brings its own);
    ``stop_when``: asked between blocks of layouts, stops the review once true (as Ctrl-C does).
    See the module docstring."""
    start_time = time.perf_counter()
    layout: Layout = dd.layout
    rules = layout.rules
    open_hands = tuple(rules.seat(s) for s in open_hands)
    threshold = default_threshold(layout) if threshold is None else threshold
    exact_limit = default_exact_limit(layout) if exact_limit is None else exact_limit
    if threshold < 0:
        raise LayoutError(f"--threshold must be 0 or more, not {threshold:g}", str(threshold))
    if layout.contract.is_allpass:
        raise LayoutError("--by-information judges trick contracts, misère and Thousand records, not all-pass",
                          "allpass")
    seed = SEED if seed is None else seed
    moves = [m if isinstance(m, Move) else Move(m) for m in record]
    replay = list(dd.steps)  # each with trick, seat and changed
    if backends is None:
        backends = [make_backend(engine) for _ in range(threads)]
    steps: list[InformationStep] = []
    interrupted = False
    now = layout
    try:
        for number, (move, dd_step) in enumerate(zip(moves, replay)):
            seat = now.to_move
            step = InformationStep(dd_step.trick, seat, move, dd_step.changed, "forced")
            if len({_worth(now, m) for m in now.moves()}) > 1:
                staged = _Staged(progress, f"record move {number + 1} of {len(replay)} ({seat})") if progress else None
                advice = advise(layout, seat, tuple(s for s in open_hands if s != seat), moves=moves[:number],
                                engine=engine, exact_limit=exact_limit, samples=samples, seed=seed,
                                threads=threads, strategy="never", progress=staged, backends=backends,
                                stop_when=stop_when)
                if advice.interrupted:
                    interrupted = True
                    break
                _judge(step, advice, move, threshold)
            steps.append(step)
            now = now.play(move)
    except KeyboardInterrupt:  # between two decisions: the cards judged stand
        interrupted = True
    return InformationReview(dd, steps, threshold, open_hands, exact_limit, samples, seed,
                             time.perf_counter() - start_time, interrupted, len(replay),
                             "points" if rules.counts_points else "tricks")


def _worth(layout: Layout, move: Move) -> tuple:
    """Moves of the same worth in every layout the player could have in mind: touching cards of a
    trick game (no card in play between them; a discard he did not make may be in play, for all he
    knows); in Thousand every card counts its own points, so each is its own."""
    if layout.rules.counts_points or move.declare:
        return (move.card.index, move.declare)
    rank_order = [c for c in layout.rules.deck if c.suit_number == move.card.suit_number]
    in_play = {c for hand in layout.hands.values() for c in hand} | set(layout.played)
    if layout.to_move != layout.declarer:
        in_play |= set(layout.discard)
    mine = layout.hands[layout.to_move]
    higher = sorted((c for c in rank_order if c in in_play and c.rank_number >= move.card.rank_number),
                    key=lambda c: c.rank_number)
    top = move.card
    for card in higher[1:]:
        if card not in mine:
            break
        top = card
    return (top.index, False)


def _judge(step: InformationStep, advice, move: Move, threshold: float) -> None:
    key = move if move.declare else move.card
    played = advice.cards[key]
    best = advice.best
    step.expected = played.expected
    step.best = best if isinstance(best, Move) else Move(best)
    step.best_expected = advice.cards[best].expected
    step.cost = max(0.0, played.cost)
    step.interval = played.interval
    step.layouts, step.solved, step.exact = advice.layouts, advice.solved, advice.exact
    if step.cost > threshold + 1e-9:
        step.verdict = "error"
    elif step.dd_changed:
        step.verdict = "unlucky"
    else:
        step.verdict = "ok"


class _Staged:
    """A progress line whose stages are named within the record's move (``record move 5 of 30 (W), card Ks``)."""

    def __init__(self, progress, prefix: str) -> None:
        self.progress, self.prefix = progress, prefix

    def stage(self, label: str, number: int | None = None, count: int | None = None, **more) -> None:
        if hasattr(self.progress, "stage"):
            self.progress.stage(f"{self.prefix}, {label}", number, count, **more)

    def __call__(self, done: int, total: int | None) -> None:
        self.progress(done, total)

    def __getattr__(self, name):
        return getattr(self.progress, name)


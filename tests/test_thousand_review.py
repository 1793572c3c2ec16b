"""Thousand, "was it makeable?": the review of a written-down deal and its play record
(pyanalyzer/thousand/review.py) and the command's text (pyanalyzer/cli/thousand_review.py).

Expected values come from the reference minimax (the test oracle), solving each layout on the
record's path afresh with ``solve`` rather than the move values the review reads; the points of
a finished record are counted by hand from the rules (A 11, 10 10, K 4, Q 3, J 2, 9 0; marriages
♠40 ♣60 ♦80 ♥100).
"""

from __future__ import annotations

import json
import random

import pytest

from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.thousand_review import has_play_record, review_command_text
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import IllegalPlayError, LayoutError, PrefInputError
from pyanalyzer.model.cards import THOUSAND
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import parse_layout, parse_layout_with_moves
from pyanalyzer.model.move import Move
from pyanalyzer.model.rules import THOUSAND_RULES
from pyanalyzer.thousand.review import best_points, check_bid, review_deal

#: Three tricks left, no trump yet, South (the declarer, 0 points so far, but he has won a trick and
#: may declare) to lead; bid 100. Counted by hand: declaring ♥K+ or ♥Q+ now, or leading ♠A first,
#: gives 113 (the marriage's 100 and ♠A's trick with East's ♠J: the defenders let East's ♥10 take
#: the hearts and keep ♥A over his last trump); leading a heart without declaring breaks the
#: marriage: 13.
ENDING = "game=thousand bid=100 declarer=S lead=S won=S S=Kh,Qh,As W=9h,Ah,9s E=Th,Js,Ts"
#: ♥Q led without declaring (the declarer's mistake: 113 -> 13); East takes it with ♥10, leads ♠J
#: to South's ♠A (South 13), West's ♥A takes the last trick. South made 13: failed by 87.
DECLARER_ERRS = "Qh,9h,Th,Js,As,9s,Kh,Ah,Ts"
#: ♠A first (best), but East drops ♠10 instead of ♠J (a defender's mistake: 113 -> 121); South
#: declares ♥K+ (100), East's ♥10 takes it, West's ♥A over-trumps South's ♥Q: South 21 + 100 = 121.
DEFENDER_ERRS = "As,9s,Ts,Kh+,9h,Th,Js,Qh,Ah"
#: A written-down deal before the exchange, with the cards South gave.
DEAL = ("game=thousand bid=120 declarer=S lead=S S=As,Ks,Qs,Js,9s,Ts,Ac W=Tc,Kc,Qc,Jc,9c,Ad,Td "
        "E=Kd,Qd,Jd,9d,Ah,Th,Kh talon=Qh,Jh,9h gave=W:Qh,E:Jh")


def reference_total(layout: Layout) -> int:
    """The declarer's points for the deal with best play, solved afresh by the reference minimax."""
    if not layout.tricks_left:
        return layout.scored.get(layout.declarer, 0)
    return solve(layout, engine="reference", cards=False, line=False).total


def move(code: str) -> Move:
    return Move(THOUSAND.card(code[0], code[1]), code.endswith("+"))


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_the_declarers_mistake_counted_by_hand(engine):
    layout, record = parse_layout_with_moves(f"{ENDING} played={DECLARER_ERRS}")
    review = review_deal(layout, record, engine=engine)
    assert review.start_value == 113 and review.makeable
    assert [(s.move.code, s.before, s.after, s.mistake_by) for s in review.mistakes] == [
        ("Qh", 113, 13, "declarer")]
    assert review.mistakes[0].keeping == [move("As"), move("Kh+"), move("Qh+")]
    assert review.final_value == 13 and review.complete
    assert review.actual_points == 13 and review.made is False
    assert "bid 100 was makeable with 13 to spare" in review.verdict()
    assert "In the play he made 13: the bid failed by 87." in review.verdict()


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_defenders_mistake_counted_by_hand(engine):
    layout, record = parse_layout_with_moves(f"{ENDING} played={DEFENDER_ERRS}")
    review = review_deal(layout, record, engine=engine)
    assert [(s.trick, s.seat, s.move.code, s.before, s.after, s.mistake_by) for s in review.mistakes] == [
        (6, "E", "Ts", 113, 121, "defender")]
    assert review.mistakes[0].keeping == [move("Js")]
    assert review.actual_points == 121 and review.made is True
    assert review.declared == [("S", "♥", 100)]
    assert "(21 in cards, 100 in marriages): the bid was made with 21 to spare." in review.verdict()


def test_every_move_of_a_record_against_fresh_solves():
    """Random endings, a record mixing best and worst moves: each step's before/after equals the
    reference minimax solving the layouts on the path afresh; a changed value is the mover's
    mistake (down: the declarer's, up: a defender's), and only such moves are marked."""
    rng = random.Random(18)
    fast = make_backend("fast")
    checked = 0
    for _ in range(12):
        layout = _random_ending(rng, tricks=3)
        record, current = [], layout
        while current.tricks_left:
            moves = current.moves()
            move = rng.choice(moves)
            record.append(move)
            current = current.play(move)
        review = review_deal(layout, record, fast)
        assert review.start_value == reference_total(layout)
        current = layout
        for step, move in zip(review.steps, record):
            before = reference_total(current)
            nxt = current.play(move)
            after = reference_total(nxt)
            assert (step.before, step.after) == (before, after)
            if step.changed:
                assert step.mistake_by == ("declarer" if current.to_move == "S" else "defender")
                assert (after < before) == (current.to_move == "S")
                checked += 1
            current = nxt
        assert review.actual_points == current.scored.get("S", 0)
    assert checked > 0  # the random records did contain mistakes


def _random_ending(rng: random.Random, tricks: int) -> Layout:
    cards = list(THOUSAND)
    rng.shuffle(cards)
    hands = {seat: Hand(cards[i * tricks:(i + 1) * tricks], THOUSAND) for i, seat in enumerate("SWE")}
    trump = rng.choice([None, *THOUSAND.suits])
    won = frozenset(s for s in "SWE" if rng.random() < 0.6)
    lead = rng.choice("SWE")
    return Layout(hands, _bid(100), "S", lead, rules=THOUSAND_RULES, current_trump=trump, won=won,
                  scored={"S": rng.choice([40, 60, 80])})


def _bid(value):
    from pyanalyzer.model.contract import POINTS, Contract

    return Contract(POINTS, value)


def test_a_written_down_deal_and_its_makeable_bid():
    layout = parse_layout(DEAL)
    review = review_deal(layout, [], engine="fast")
    expected = solve(layout, engine="fast", cards=False, line=False).total
    assert review.start_value == expected and review.makeable == (expected >= 120)
    assert review.steps == [] and not review.complete and review.made is None
    assert f"makes {expected} points" in review.verdict()


def test_before_the_exchange_the_best_give_away_counts():
    before = parse_layout(DEAL.replace(" gave=W:Qh,E:Jh", ""))
    assert before.exchange_pending
    backend = make_backend("fast")
    best, gave = best_points(before, backend)
    assert gave is not None and set(gave) == {"W", "E"}
    given = parse_layout(DEAL.replace("gave=W:Qh,E:Jh", f"gave=W:{gave['W'].code},E:{gave['E'].code}"))
    assert best == solve(given, engine="fast", cards=False, line=False).total
    assert best >= solve(parse_layout(DEAL), engine="fast", cards=False, line=False).total
    with pytest.raises(LayoutError, match="gave"):
        review_deal(before, [], backend)


def test_a_bid_check_of_a_score_record():
    layout = parse_layout(DEAL)
    backend = make_backend("fast")
    check = check_bid(layout, (), 7, True, backend)
    assert check.best == solve(layout, engine="fast", cards=False, line=False).total
    text = check.describe()
    assert text.startswith("line 7: S bid 120 and failed: ")
    assert ("not makeable" in text) == (check.best < 120)
    assert check.to_dict()["makeable"] == check.makeable


def test_bad_records_are_named():
    layout = parse_layout(ENDING)
    with pytest.raises(IllegalPlayError, match="Ah"):
        review_deal(layout, [Move(THOUSAND.card("A", "h"))], engine="reference")
    with pytest.raises(LayoutError, match="Thousand"):
        review_deal(parse_layout("contract=6s declarer=S lead=S S=As W=7h E=7d"), [], engine="reference")
    with pytest.raises(PrefInputError):
        parse_layout_with_moves(f"{ENDING} played={DECLARER_ERRS},9d")


def test_the_command_text_and_json():
    text = f"{ENDING} played={DECLARER_ERRS}"
    assert has_play_record(text) and not has_play_record(ENDING) and not has_play_record(ENDING + " played=Qh")
    shown = review_command_text(text, engine="reference")
    assert "changed the result" in shown and "Move by move" in shown
    data = json.loads(review_command_text(text, as_json=True, engine="reference"))
    assert {"start_value", "makeable", "final_value", "complete", "actual_points", "made", "steps",
            "mistakes", "nodes", "seconds", "engine"} <= set(data)
    assert data["steps"][0]["move"] == "Qh" and data["mistakes"][0]["mistake_by"] == "declarer"
    letters = review_command_text(text, notation="letters", engine="reference")
    assert "Qh" in letters or "HQ" in letters or "H:Q" in letters


def test_the_command_text_under_the_declaration_options():
    """Declaring on the first lead: refused under the default rules, read with the option (the
    record is checked under the rules the command was given)."""
    from pyanalyzer.cli.options import with_marriage_options

    text = ENDING.replace(" won=S", "") + " played=Kh+,9h,Th,Js,As,9s,Qh,Ah,Ts"
    with pytest.raises(IllegalPlayError, match="has not won a trick"):
        review_command_text(text, engine="reference")
    data = json.loads(review_command_text(text, as_json=True, engine="reference",
                                          rules_change=lambda layout: with_marriage_options(layout, False, True)))
    assert data["steps"][0]["move"] == "Kh+" and data["declared"] == [{"seat": "S", "suit": "♥", "points": 100}]

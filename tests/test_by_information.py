"""``--by-information`` (issue 22, item 3): each card of a record judged by what its player knew.

The expected values come from the oracle of ``test_advise_oracle.py`` (its own enumeration of the
layouts a player cannot tell apart, the reference minimax on each), never from ``advise`` itself; the
double-dummy verdict from the reference minimax's card values. The rule checked: a card is an
``error`` when its side's expectation is more than the threshold below the best card's, ``unlucky``
when it is within the threshold but changed the double-dummy result, ``forced`` when every legal
card is worth the same in every layout, else ``ok``.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from test_advise_oracle import Averaged, dd_values, known_to, random_ending, replay, wants_more

from pyanalyzer.analysis.by_information import judge_by_information
from pyanalyzer.analysis.playcheck import check_play
from pyanalyzer.cli.main import main
from pyanalyzer.model.layout_io import format_one_line, parse_layout_with_moves, parse_layout_with_record
from pyanalyzer.thousand.review import review_deal

#: South leads against East's 6♠ seeing only his own cards. Over the 20 layouts he cannot tell
#: apart (the oracle) the ♠A and the ♦9 both leave the declarer 11/20 of a trick on average, the ♠7
#: a whole one: the ♠A is a best card by information. Here the ♦9 keeps East to 0 tricks and the ♠A
#: gives him 1 (reference minimax): unlucky, not an error.
UNLUCKY = ("contract=6s declarer=E lead=S S=As,7s,9d W=Ks,Ac,Jc E=Qs,Jd,9h "
           "played=As,Ks,Qs,7s,Jc,9h,9d,Ac,Jd")
#: 6♣ by South; East wins the first trick and leads the ♥7: over the 6 layouts he cannot tell apart
#: it gives the declarer a whole trick more than the ♥Q (1 against 0, the oracle): an error.
ERROR = ("contract=6c declarer=S lead=S S=Qs,Ts,9h W=9s,Ad,7d E=As,Qh,7h "
         "played=Qs,9s,As,7h,9h,7d,Ts,Ad,Qh")


def reviewed(text: str, **options):
    layout, record = parse_layout_with_record(text)
    return judge_by_information(check_play(layout, record, "reference"), record, engine="reference",
                                threads=1, **options), layout, record


def oracle_verdict(start, record, number: int, threshold: float) -> tuple[str, object]:
    """The oracle's verdict on card ``number`` of ``record`` and its cost (a Fraction); ``forced``
    when every legal card is worth the same in every layout the player cannot tell apart."""
    current, _ = replay(start, record[:number])
    seat = current.to_move
    current, layouts = known_to(start, record[:number], seat)
    oracle = Averaged(current, seat, layouts)
    code = record[number].code
    per_layout = oracle.values
    if all(per_layout[c] == per_layout[code] for c in per_layout):
        return "forced", 0
    counted = current.declarer
    values = dd_values(current, counted)
    best = (max if wants_more(current, seat) else min)(values.values())
    changed = values[code] != best
    cost = oracle.cost[code]
    if cost > threshold:
        return "error", cost
    return ("unlucky" if changed else "ok"), cost


def test_a_guess_that_failed_is_unlucky():
    review, layout, record = reviewed(UNLUCKY)
    first = review.steps[0]
    assert (first.seat, first.move.code, first.verdict) == ("S", "As", "unlucky")
    assert first.dd_changed and first.cost == 0 and first.layouts == 20 and first.exact
    assert oracle_verdict(layout, record, 0, 0.25) == ("unlucky", 0)
    assert first.expected == pytest.approx(11 / 20)
    assert [s.verdict for s in review.errors] == []
    assert "1 unlucky" in review.verdict()


def test_a_card_worse_by_information_is_an_error():
    review, layout, record = reviewed(ERROR)
    step = review.steps[3]
    assert (step.seat, step.move.code, step.verdict) == ("E", "7h", "error")
    assert step.cost == pytest.approx(1.0) and step.best.code == "Qh" and step.layouts == 6
    assert oracle_verdict(layout, record, 3, 0.25) == ("error", 1)
    assert review.errors == [step]
    # A threshold above the loss: no longer an error, and double dummy it did change the result.
    lenient, _, _ = reviewed(ERROR, threshold=1.5)
    assert lenient.steps[3].verdict == "unlucky"


@pytest.mark.parametrize("game,kind,cards", [("preferans", "tricks", 3), ("preferans", "misere", 3),
                                             ("whist", "tricks", 2), ("thousand", "points", 3)])
def test_every_verdict_follows_the_oracle(game, kind, cards):
    """Random records played out from random small endings: every card's cost and verdict."""
    rng = random.Random(f"by information {game} {kind}")
    for _ in range(2):
        start = random_ending(rng, game, cards, kind)
        layout, record = start, []
        while any(len(hand) for hand in layout.hands.values()):
            record.append(rng.choice(layout.moves()))
            layout = layout.play(record[-1])
        if game == "thousand":
            replayed = review_deal(start, record, "reference")
        else:
            replayed = check_play(start, [m.card for m in record], "reference")
        review = judge_by_information(replayed, record, engine="reference", threads=1)
        assert len(review.steps) == len(record)
        threshold = review.threshold
        for number, step in enumerate(review.steps):
            verdict, cost = oracle_verdict(start, record, number, threshold)
            context = (format_one_line(start), number)
            # The review calls forced only one card or touching ones (worth the same everywhere); other
            # cards worth the same in every layout are judged, at no cost.
            if step.verdict == "forced":
                assert verdict == "forced", context
            else:
                assert step.verdict == ("ok" if verdict == "forced" else verdict), context
            assert step.cost == pytest.approx(float(cost), abs=1e-9), context


def test_sampled_decisions_say_so_and_reproduce():
    first, _, _ = reviewed(UNLUCKY, exact_limit=5, samples=12, seed=3)
    again, _, _ = reviewed(UNLUCKY, exact_limit=5, samples=12, seed=3)
    judged = [s for s in first.steps if s.verdict != "forced"]
    assert judged and all(s.exact is False and s.solved == 12 and s.interval is not None
                          for s in judged if s.layouts > 5)
    strip = [{k: v for k, v in r.to_dict()["by_information"].items() if k != "seconds"} for r in (first, again)]
    assert strip[0] == strip[1]
    assert "12 sampled" in first.format() and "seed 3" in first.format()


class StopAtSecondDecision:
    """A progress line that Ctrl-C interrupts when the second decision begins."""

    def __init__(self) -> None:
        self.decisions: set[str] = set()

    def stage(self, label: str, number=None, count=None, **more) -> None:
        self.decisions.add(label.split(",")[0])
        if len(self.decisions) == 2:
            raise KeyboardInterrupt

    def __call__(self, done, total) -> None:
        pass


def test_ctrl_c_keeps_the_cards_judged_and_marks_the_review_partial():
    review, _, record = reviewed(UNLUCKY, progress=StopAtSecondDecision())
    assert review.interrupted
    assert 1 <= len(review.steps) < len(record)
    assert review.verdict().startswith("PARTIAL")
    data = review.to_dict()["by_information"]
    assert data["interrupted"] and data["judged"] == len(review.steps) and data["cards"] == len(record)
    assert "not judged" in review.format()


# -- the command line --------------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_contract_json_has_the_verdicts():
    result = run("contract", UNLUCKY, "--by-information", "--json", "--engine", "reference")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["steps"][0]["changed"] is True  # the double-dummy verdict beside
    info = data["by_information"]
    assert info["threshold"] == 0.25 and info["unit"] == "tricks"
    assert [(s["seat"], s["card"]) for s in info["unlucky"]] == [("S", "As")]
    assert info["errors"] == []
    assert {s["verdict"] for s in info["steps"]} <= {"error", "unlucky", "ok", "forced"}


def test_whist_record_by_information():
    text = ("game=whist contract=n declarer=N lead=E N=As,Kh E=Qs,Qh S=Ts,2h W=8s,Ah "
            "played=Qs,Ts,8s,As,Kh,Qh,2h,Ah")
    result = run("contract", text, "--by-information", "--engine", "reference")
    assert result.exit_code == 0, result.output
    assert "By information (8 cards judged)" in result.stdout


def test_thousand_record_by_information():
    text = ("game=thousand bid=100 declarer=S lead=S won=S S=Kh,Qh,As W=9h,Ah,9s E=Th,Js,Ts "
            "played=Qh,9h,Th,Js,As,9s,Kh,Ah,Ts")
    result = run("thousand", text, "--by-information", "--json", "--engine", "reference")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)["by_information"]
    assert info["unit"] == "points" and info["threshold"] == 5
    # South's ♥Q without declaring the marriage: the oracle's loss by information.
    layout, record = parse_layout_with_moves(text)
    verdict, cost = oracle_verdict(layout, record, 0, 5)
    assert info["steps"][0]["verdict"] == verdict == "error"
    assert info["steps"][0]["cost"] == pytest.approx(float(cost))


@pytest.mark.parametrize("args,token", [
    (["contract", UNLUCKY, "--threshold", "1"], "--threshold"),
    (["contract", UNLUCKY, "--open", "W"], "--open"),
    (["contract", UNLUCKY, "--by-information", "--open", "X"], "X"),
    (["contract", UNLUCKY, "--by-information", "--threshold", "-1"], "-1"),
    (["contract", "contract=6s declarer=E lead=S S=As,7s W=Ks,Ac E=Qs,Jd", "--by-information"], "played="),
    (["contract", "contract=allpass lead=S S=As,7s,7h W=Ks,Ac,8h E=Qs,Jd,9h played=As,Ks,Qs",
      "--by-information"], "all-pass"),
    (["thousand", "game=thousand bid=100 declarer=S lead=S won=S S=Kh,Qh,As W=9h,Ah,9s E=Th,Js,Ts",
      "--by-information"], "played="),
])
def test_bad_input_is_one_line_and_exit_2(args, token):
    result = run(*args, "--engine", "reference")
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pref: error: "), result.stderr
    assert token in lines[0], lines[0]
    assert result.stdout == ""


def test_open_hands_are_seen_by_every_other_player():
    """With West's hand face up, South sees it: nothing is unknown to him at the first lead (one
    layout), so his ♠A is judged on the real layout, where the ♦9 is a trick better: an error."""
    review, layout, record = reviewed(UNLUCKY, open_hands=("W",))
    first = review.steps[0]
    assert first.layouts == 1 and first.verdict == "error" and first.cost == pytest.approx(1.0)
    assert "hands open to all: W" in review.format()


def test_html_view_shows_the_verdicts():
    review, _, _ = reviewed(UNLUCKY)
    html = review._repr_html_()
    assert "<svg" in html and "1 unlucky" in html
    # (pref contract --by-information --html writes the same): the verdicts as a table, card by card
    rows = html.split("<tbody>")[1].split("</tr>")
    first = rows[0]
    assert ">South<" in first and ">changed the result<" in first and ">unlucky<" in first and ">0.55<" in first
    assert ">West<" in rows[1] and ">forced<" in rows[1]


def test_cards_around_an_unseen_discard_are_not_forced():
    """West leads the ♦A; East must follow with the ♦10 or the ♦7, which look touching in the real
    layout (the ♦9 and ♦8 are in the discard, out of play), but East does not know the discard: they
    may be South's, so his choice is judged."""
    text = ("contract=misere declarer=S lead=W S=Ts,Qc,Tc,8h W=Ks,8s,Ad,Qh E=Td,7d,Jh,Kh "
            "talon=Qc,Tc discard=9d,8d played=Ad,Td,8h")
    review, _, _ = reviewed(text)
    assert review.steps[1].seat == "E" and review.steps[1].verdict != "forced"

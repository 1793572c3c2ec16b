"""Thousand layouts: the notation (bid, trump, won, points, gave), validation, moves with declarations,
the state a move leaves (trump, points, who has won a trick), and the solve result.

Expected points here are counted by hand from the rules (docs/rules.md, "Thousand"):
card points A 11, 10 10, K 4, Q 3, J 2, 9 0; marriages ♠40 ♣60 ♦80 ♥100.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.main import main
from pyanalyzer.errors import IllegalPlayError, LayoutError, PrefInputError
from pyanalyzer.model.cards import THOUSAND
from pyanalyzer.model.layout_io import (
    format_layout_file,
    format_one_line,
    parse_layout,
    parse_layout_with_moves,
)
from pyanalyzer.model.move import Move
from pyanalyzer.model.rules import THOUSAND_RULES, MarriageRules, with_marriage_rules

#: Four tricks left; South has won a trick, so he may declare his spade marriage (hand count: 84
#: card points in the twelve cards, all South's with the spade marriage: 84 + 40 = 124).
SPADES = "game=thousand bid=120 declarer=S lead=S won=S S=As,Ts,Ks,Qs W=Ac,Tc,Kc,Qc E=Ad,Td,Kd,Qd"
#: A written-down deal: hands before the exchange, the talon, and the cards South gave.
DEAL = ("game=thousand bid=120 declarer=S lead=S S=As,Ks,Qs,Js,9s,Ts,Ac W=Tc,Kc,Qc,Jc,9c,Ad,Td "
        "E=Kd,Qd,Jd,9d,Ah,Th,Kh talon=Qh,Jh,9h gave=W:Qh,E:Jh")


def card(code: str):
    return THOUSAND.card(code[:-1], code[-1])


def test_card_points_and_marriages_of_the_rules():
    assert sum(THOUSAND_RULES.card_points()) == 120
    assert sorted(points for _mask, points in THOUSAND_RULES.declarations()) == [40, 60, 80, 100]
    aces = with_marriage_rules(THOUSAND_RULES, MarriageRules(ace_marriage=200))
    assert (sum(card("A" + s).mask for s in "scdh"), 200) in aces.declarations()


@pytest.mark.parametrize("text", [
    SPADES,
    SPADES.replace("S=As,", "S=") + " trump=h points=S:45,W:12 played=As",
    DEAL,
    "game=thousand declarer=W lead=W S=9s W=Js E=Qs",
])
def test_both_formats_read_back_to_an_equal_layout(text):
    layout = parse_layout(text)
    assert parse_layout(format_one_line(layout)) == layout
    for style in ("symbols", "letters", "russian"):
        assert parse_layout(format_layout_file(layout, style)) == layout


def test_the_state_keys_are_read():
    layout = parse_layout(SPADES.replace("won=S", "won=S,E") + " trump=♥ points=S:45,W:12")
    assert layout.contract.bid == 120 and layout.current_trump.letter == "h"
    assert layout.won == {"S", "E"} and dict(layout.scored) == {"S": 45, "W": 12}
    assert layout.position().trump == 3 and layout.position().leader_may_declare


def test_russian_letters_and_tens():
    layout = parse_layout("game=thousand declarer=S lead=S S=♠ТК W=♠Д10 E=♠В9")
    assert [c.code for c in layout.hands["S"]] == ["As", "Ks"]
    assert [c.code for c in layout.hands["W"]] == ["Ts", "Qs"]


def test_a_written_down_deal_builds_the_hands_after_the_exchange():
    layout = parse_layout(DEAL)
    assert len(layout.hands["S"]) == len(layout.hands["W"]) == len(layout.hands["E"]) == 8
    assert card("Qh") in layout.hands["W"] and card("Jh") in layout.hands["E"]
    assert card("9h") in layout.hands["S"] and not layout.exchange_pending


def test_before_the_exchange_the_layout_says_so():
    layout = parse_layout(DEAL.replace(" gave=W:Qh,E:Jh", ""))
    assert layout.exchange_pending
    with pytest.raises(LayoutError, match="exchange is still to be made"):
        layout.position()


@pytest.mark.parametrize("text, token", [
    ("game=thousand declarer=S lead=S S=7s W=Ac E=Ad", "7s"),
    ("game=thousand declarer=S lead=S S=8h W=Ac E=Ad", "8h"),
    ("game=thousand bid=123 declarer=S lead=S S=As W=Ac E=Ad", "123"),
    ("game=thousand bid=95 declarer=S lead=S S=As W=Ac E=Ad", "95"),
    ("game=thousand bid=x declarer=S lead=S S=As W=Ac E=Ad", "x"),
    ("game=thousand contract=6s declarer=S lead=S S=As W=Ac E=Ad", "contract"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad trump=x", "x"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad won=N", "N"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad points=S:x", "S:x"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad points=S:999", "S:999"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad gave=S:Ad", "S:Ad"),
    ("game=thousand declarer=S lead=S S=As W=Ac E=Ad gave=W:Ad", "Ad"),
    ("contract=6s declarer=S lead=S S=As W=Ac E=Ad trump=h", "trump"),
    ("game=thousand declarer=S lead=S S=As,Ks,Qs,Js,9s,Ts,Ac,Ad,Kd W=Tc,Kc,Qc,Jc,9c,Td,Qd,Jd,9d "
     "E=Ah,Th,Kh,Qh,Jh,9h", "E"),
])
def test_bad_input_names_the_offending_token(text, token):
    with pytest.raises(PrefInputError) as error:
        parse_layout(text)
    if token is not None:
        assert error.value.token == token or token in str(error.value)


def test_a_full_deck_of_25_cards_cannot_be_written():
    # 24 cards in the deck: a 25th is a repeated card or one of another deck.
    text = ("game=thousand declarer=S lead=S S=As,Ks,Qs,Js,9s,Ts,Ac,Tc W=Kc,Qc,Jc,9c,Ad,Td,Kd,Qd "
            "E=Jd,9d,Ah,Th,Kh,Qh,Jh,9h,As")
    with pytest.raises(PrefInputError, match="As"):
        parse_layout(text)


def test_moves_list_each_declaring_lead_after_its_card():
    layout = parse_layout(SPADES)
    assert [m.code for m in layout.moves()] == ["As", "Ts", "Ks", "Ks+", "Qs", "Qs+"]
    # Without having won a trick (and not on the first lead by the option) no declaration.
    assert [m.code for m in parse_layout(SPADES.replace(" won=S", "")).moves()] == ["As", "Ts", "Ks", "Qs"]
    first = with_marriage_rules(THOUSAND_RULES, MarriageRules(on_first_lead=True))
    layout = parse_layout(SPADES.replace(" won=S", ""))
    from dataclasses import replace
    assert "Ks+" in [m.code for m in replace(layout, rules=first).moves()]


def test_a_declaration_scores_and_changes_the_trump_before_the_trick_is_won():
    layout = parse_layout("game=thousand declarer=S lead=S won=S trump=s "
                          "S=Kh,Qh W=9h,As E=Ah,Ts")
    after = layout.play(Move(card("Qh"), True))
    assert after.current_trump.letter == "h" and after.scored["S"] == 100
    after = after.after(card("9h")).after(card("Ah"))  # hearts are trump now: E's ace wins
    assert after.lead == "E" and after.won == {"S", "E"} and after.scored["E"] == 11 + 3
    with pytest.raises(IllegalPlayError, match="whole marriage"):
        parse_layout("game=thousand declarer=S lead=S won=S S=Kh,Qs W=9h,As E=Ah,Ts").play(Move(card("Kh"), True))


def test_a_play_record_with_declarations_is_replayed_and_checked():
    layout, moves = parse_layout_with_moves(SPADES + " played=Ts,Qc,Qd,Qs+,Kc,Kd")
    assert [m.code for m in moves] == ["Ts", "Qc", "Qd", "Qs+", "Kc", "Kd"]
    with pytest.raises(IllegalPlayError, match="not won a trick"):
        parse_layout_with_moves(SPADES.replace(" won=S", "") + " played=Qs+,Kc,Kd")
    with pytest.raises(LayoutError, match="current trick"):
        parse_layout_with_moves(SPADES + " played=Qs+")


def test_the_solve_counts_cards_and_marriages(engine_name):
    result = solve(parse_layout(SPADES + " points=S:20"), engine=engine_name)
    assert result.declarer_points == 124 and result.total == 144 and result.made
    assert result.cards[Move(card("Ks"), True)] == 124 and result.cards[Move(card("Ks"))] == 84
    assert any(move.declare for move in result.line)
    assert result.seat_points == {"S": 124, "W": 0, "E": 0}


@pytest.fixture(params=["reference", "fast"])
def engine_name(request):
    return request.param


def test_pref_solve_json_has_the_issue_keys():
    result = CliRunner().invoke(main, ["solve", SPADES, "--json", "--cards"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("declarer_points", "defender_points", "made", "cards", "line", "nodes", "seconds"):
        assert key in data
    assert data["declarer_points"] == 124 and data["made"] is True
    assert data["cards"]["Ks+"] == 124 and data["cards"]["Ks"] == 84
    assert any(code.endswith("+") for code in data["line"])


@pytest.mark.parametrize("text, token", [
    ("game=thousand declarer=S lead=S S=7s W=Ac E=Ad", "7s"),
    ("game=thousand bid=123 declarer=S lead=S S=As W=Ac E=Ad", "123"),
])
def test_pref_solve_bad_input_is_one_line_exit_2(text, token):
    result = CliRunner().invoke(main, ["solve", text])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and token in result.output


def test_solve_makes_the_best_exchange_of_a_deal_written_before_it():
    before = parse_layout(DEAL.replace(" gave=W:Qh,E:Jh", ""))
    result = solve(before, cards=False)
    assert result.exchange is not None and len(result.exchange.gives) == 90
    assert set(result.layout.gave) == {"W", "E"} and not result.layout.exchange_pending
    # Oracle: every give solved as a layout of its own (gave= written out); the best is the maximum.
    best = max(solve(parse_layout(DEAL.replace("gave=W:Qh,E:Jh", f"gave=W:{g.given['W'].code},E:{g.given['E'].code}")),
                     cards=False, line=False).declarer_points for g in result.exchange.gives)
    assert result.declarer_points == best
    assert json.loads(CliRunner().invoke(main, ["solve", DEAL.replace(" gave=W:Qh,E:Jh", ""), "--json"]).output
                      )["exchange"]["gives"] == 90

"""The SVG diagram (pyanalyzer/render/svg.py), read back with an XML parser: valid XML, every
card of the layout drawn exactly once, red suits red, the seat to move marked, the trick in
progress, the values under the cards, the playable cards marked for a web page."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.model.move import Move
from pyanalyzer.render.svg import RED, layout_svg

LAYOUTS = Path(__file__).resolve().parent.parent / "layouts"
NS = {"svg": "http://www.w3.org/2000/svg"}


def read(name: str):
    return parse_layout((LAYOUTS / name).read_text(encoding="utf-8"))


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on invalid XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert width > 100 and height > 100
    return root


def cards(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "card" in g.get("class", "").split()]


def all_cards(layout) -> list[str]:
    """The cards a layout holds: the hands, the trick in progress, the discard, and a talon card
    that lies in none of them (codes as in the one-line layout)."""
    codes = [card.code for seat in layout.seats for card in layout.hands[seat]]
    codes += [card.code for card in (*layout.played, *layout.discard)]
    codes += [card.code for card in layout.talon if card.code not in codes]
    return sorted(codes)


def texts(element: ET.Element) -> str:
    return "".join(element.itertext())


def notes(root: ET.Element) -> str:
    """The notes beside South, their text elements joined by spaces (a long item takes lines)."""
    group = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "notes")
    return " ".join(texts(t) for t in group.iter("{http://www.w3.org/2000/svg}text"))


@pytest.mark.parametrize("name", ["kovalevskaya.txt", "whist-deal.txt", "thousand-deal.txt",
                                  "allpass-talon-matters.txt", "seven-clubs.txt"])
def test_every_card_is_drawn_exactly_once(name):
    layout = read(name)
    root = parsed(layout_svg(layout))
    drawn = sorted(g.get("data-card") for g in cards(root))
    assert drawn == all_cards(layout)
    by_card = {g.get("data-card"): g.get("data-seat") for g in cards(root)}
    for seat in layout.seats:
        for card in layout.hands[seat]:
            assert by_card[card.code] == seat


def test_red_suits_are_red_and_black_suits_black():
    root = parsed(layout_svg(read("kovalevskaya.txt")))
    symbols = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if "suit" in t.get("class", "")]
    assert {texts(t) for t in symbols} == set("♠♣♦♥")
    for text in symbols:  # the colour is an attribute: it survives a notebook that strips <style>
        red = texts(text) in "♦♥"
        assert ("red" if red else "black") in text.get("class").split(), texts(text)
        assert (text.get("fill") == RED) == red, texts(text)


def test_the_seat_to_move_is_marked_and_only_it():
    layout = read("kovalevskaya.txt")  # East leads
    root = parsed(layout_svg(layout))
    seats = {g.get("data-seat"): g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")
             if "seat" in g.get("class", "").split()}
    assert seats == {"W": "seat", "E": "seat to-move", "S": "seat"}


def test_a_trick_in_progress_is_drawn_in_the_middle_and_the_next_player_marked():
    layout = read("kovalevskaya.txt").after(Card("Qs")).after(Card("7s"))  # East ♠Q, South ♠7
    root = parsed(layout_svg(layout))
    played = {g.get("data-card"): g.get("data-seat") for g in cards(root) if "played" in g.get("class")}
    assert played == {"Qs": "E", "7s": "S"}
    to_move = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "to-move" in g.get("class", "")]
    assert [g.get("data-seat") for g in to_move] == ["W"]
    legal = sorted(g.get("data-card") for g in cards(root) if g.get("data-legal") == "true")
    assert legal == ["As", "Ks"]  # West must follow spades
    assert sorted(g.get("data-move") for g in cards(root) if g.get("data-move")) == ["As", "Ks"]
    assert "West to play" in texts(root)
    assert sorted(all_cards(layout)) == sorted(g.get("data-card") for g in cards(root))


def test_values_are_printed_under_their_cards():
    layout = read("kovalevskaya.txt")
    values = {Card("Qs"): 1, Card("Js"): 1, Card("Kd"): 0}  # any numbers: the drawing shows them
    root = parsed(layout_svg(layout, values=values))
    by_card = {g.get("data-card"): g for g in cards(root)}
    for card, value in values.items():
        shown = [t for t in by_card[card.code].iter("{http://www.w3.org/2000/svg}text")
                 if "value" in t.get("class", "").split()]
        assert [texts(t) for t in shown] == [str(value)]
    assert not [t for t in by_card["Jh"].iter("{http://www.w3.org/2000/svg}text")
                if "value" in t.get("class", "").split()]


def test_the_best_moves_values_are_marked():
    layout = read("kovalevskaya.txt")
    root = parsed(layout_svg(layout, values={Card("Kd"): 1, Card("Jh"): 0}, best=[Card("Kd")]))
    marked = {g.get("data-card"): t.get("class") for g in cards(root)
              for t in g.iter("{http://www.w3.org/2000/svg}text") if "value" in t.get("class", "")}
    assert marked == {"Kd": "value best", "Jh": "value"}


def test_a_declaring_lead_has_its_own_move_and_value():
    # South has won a trick and leads: he may lead the K or Q of hearts declaring the marriage.
    layout = parse_layout("game=thousand bid=120 declarer=S lead=S won=S points=S:30 "
                          "S=Kh,Qh,As W=9h,Jh,Ks E=Th,Ah,Qs")
    values = {Move(Card("Kh", layout.rules.deck)): 40, Move(Card("Kh", layout.rules.deck), True): 140}
    root = parsed(layout_svg(layout, values=values))
    king = next(g for g in cards(root) if g.get("data-card") == "Kh")
    assert king.get("data-legal") == "true" and king.get("data-move") == "Kh"
    declaring = king.find("svg:g[@class='move']", NS)
    assert declaring.get("data-move") == "Kh+" and declaring.get("data-legal") == "true"
    assert texts(declaring) == "+140"
    assert "40" in [texts(t) for t in king.iter("{http://www.w3.org/2000/svg}text")]
    moves = {g.get("data-move") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-move")}
    assert moves == {"Kh", "Kh+", "Qh", "Qh+", "As"}
    assert "Points: South 30" in notes(root)


def test_legal_false_marks_nothing_and_a_given_set_marks_those():
    layout = read("kovalevskaya.txt")
    assert not [g for g in cards(parsed(layout_svg(layout, legal=False))) if g.get("data-legal")]
    root = parsed(layout_svg(layout, legal=[Card("Jh")]))
    assert [g.get("data-card") for g in cards(root) if g.get("data-legal")] == ["Jh"]


def test_whist_is_drawn_round_the_compass():
    layout = read("whist-deal.txt")
    root = parsed(layout_svg(layout))
    seats = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "seat" in g.get("class", "").split()]
    place = {}
    for g in seats:
        x, y = (float(v) for v in (g.find("svg:text", NS).get("x"), g.find("svg:text", NS).get("y")))
        place[g.get("data-seat")] = (x, y)
    assert place["N"][1] < place["W"][1] == place["E"][1] < place["S"][1]
    assert place["W"][0] < place["N"][0] < place["E"][0]
    assert "Hearts trump" in texts(root)


def test_thousand_shows_talon_gifts_trump_and_bid():
    layout = read("thousand-deal.txt")
    root = parsed(layout_svg(layout))
    assert "bid 125 by South" in texts(root)
    assert "Trump: none yet" in notes(root) and "Gave: West ♣J, East ♦Q" in notes(root)
    talon = [g.get("data-talon") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-talon")]
    assert talon == ["Js", "Th", "Kh"]  # in South's hand now: shown as the talon, drawn once in the hand


def test_a_title_is_escaped():
    layout = parse_layout('contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d title="<A & B>"')
    root = parsed(layout_svg(layout))
    assert "<A & B>" in texts(root)


def test_random_positions_of_every_game_draw_each_card_once_and_mark_the_legal_moves():
    """Random layouts (Preferans contracts, misère, all-pass with a talon), Whist deals and a
    Thousand deal, each after 0 to 7 random moves: valid XML, every card once at its place,
    the legal moves (a declaring lead too) marked and nothing else."""
    import random

    from positions import play_random_cards, random_layout

    from pyanalyzer.whist.deal import random_deal, whist_layout

    rng = random.Random(19)
    thousand = read("thousand-deal.txt")
    layouts = []
    for _ in range(30):
        contract = rng.choice(["6s", "7n", "misere", "allpass"])
        layout = random_layout(rng, rng.randint(2, 10), contract, talon_cards=2 if contract == "allpass" else 0)
        layouts.append(play_random_cards(rng, layout, rng.randint(0, 7), keep_last_trick=True))
        deal = whist_layout(random_deal(rng), trump=rng.choice(["s", "h", None]))
        layouts.append(play_random_cards(rng, deal, rng.randint(0, 7)))
        moves = thousand
        for _ in range(rng.randint(0, 7)):
            moves = moves.play(rng.choice(moves.moves()))
        layouts.append(moves)
    for layout in layouts:
        root = parsed(layout_svg(layout))
        drawn = cards(root)
        assert sorted(g.get("data-card") for g in drawn) == all_cards(layout)
        where = {g.get("data-card"): g.get("data-seat") for g in drawn}
        assert all(where[card.code] == seat for seat in layout.seats for card in layout.hands[seat])
        assert all(where[card.code] == seat for seat, card in zip(layout.played_by(), layout.played))
        marked = {g.get("data-move") for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if g.get("data-legal") == "true"}
        assert marked == {move.code for move in layout.moves()}

"""The reprs of the model's values read back: ``eval(repr(x)) == x``, as python-chess's do.

Each repr is evaluated with only the names ``pyanalyzer`` exports, so those names are enough.
The layouts are every layout file of the repository, walked through random legal plays.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

import pyanalyzer
from pyanalyzer import (
    PREFERANS,
    PREFERANS_RULES,
    THOUSAND,
    THOUSAND_RULES,
    WHIST,
    WHIST_RULES,
    AllPassRules,
    Card,
    Contract,
    Hand,
    MarriageRules,
    Rank,
    Suit,
    parse_layout,
    read_layout,
    with_conventions,
    with_marriages,
)
from pyanalyzer.errors import NotationError
from pyanalyzer.model.contract import ALLPASS, MISERE, TRICKS

EXPORTED = {name: getattr(pyanalyzer, name) for name in pyanalyzer.__all__}
DECKS = (PREFERANS, WHIST, THOUSAND)
LAYOUTS = Path(__file__).resolve().parents[1] / "layouts"
LAYOUT_FILES = sorted(path for path in LAYOUTS.rglob("*.txt")
                      if "records" not in path.parts and path.name not in ("solutions.txt", "sheet.txt"))


def round_trip(value):
    """``value`` read back from its repr (with the exported names only)."""
    return eval(repr(value), {"__builtins__": {}}, dict(EXPORTED))


@pytest.mark.parametrize("deck", DECKS, ids=lambda deck: deck.name)
def test_every_card_suit_and_rank_of_each_deck(deck):
    for card in deck:
        again = round_trip(card)
        assert again == card and again is card, repr(card)
    for suit in deck.suits:
        assert round_trip(suit) == suit
        assert round_trip(suit).symbol == suit.symbol and round_trip(suit).name == suit.name
    for rank in deck.ranks:
        again = round_trip(rank)
        assert (again, again.text, again.russian) == (rank, rank.text, rank.russian)


def test_a_card_is_named_by_its_code():
    assert Card("Qs") is PREFERANS.card("Q", "s") and Card("qS") is Card("Qs")
    assert repr(Card("2h", WHIST)) == "Card('2h', WHIST)"
    # Thousand's ten ranks second to the ace (ranks 9 J Q K T A): diamonds are suit 2, so 2 * 6 + 4.
    assert Card("Td", THOUSAND).index == 16
    for bad in ("Q", "2s", "Qx", "10s", ""):
        with pytest.raises(ValueError):
            Card(bad)


def test_suits_and_ranks_are_named_by_their_letters():
    assert (Suit("h").symbol, Suit("h").name) == ("♥", "hearts")
    assert (Rank("T").text, Rank("Q").russian, Rank("8").russian) == ("10", "Д", None)
    with pytest.raises(ValueError):
        Suit("x")


def every_contract(rules):
    yield Contract(MISERE)
    yield Contract(ALLPASS)
    trumps = (*rules.deck.suits, None)
    for level in rules.contract_levels:
        for trump in trumps:
            yield Contract(TRICKS, level, trump)
    if not rules.bidding:
        for trump in trumps:
            yield Contract(TRICKS, None, trump)


@pytest.mark.parametrize("rules", [PREFERANS_RULES, WHIST_RULES], ids=lambda rules: rules.game)
def test_every_contract_of_each_game(rules):
    contracts = list(every_contract(rules))
    assert len(set(contracts)) == len(contracts)
    for contract in contracts:
        assert round_trip(contract) == contract, repr(contract)
        assert Contract.parse(contract.code, rules) == contract
        assert Contract(str(contract).replace("misère", "misere")) == contract


def test_a_contract_code_is_checked():
    for bad in ("0s", "11s", "7x", "misery", "1234567890s"):
        with pytest.raises(NotationError):
            Contract(bad)
    with pytest.raises(ValueError):
        Contract("7d", 7)


@pytest.mark.parametrize("deck", DECKS, ids=lambda deck: deck.name)
def test_random_hands(deck):
    rng = random.Random(f"hands {deck.name}")
    cards = list(deck)
    for size in range(len(cards) + 1):
        hand = Hand(rng.sample(cards, size), deck)
        again = round_trip(hand)
        assert again == hand and again.deck is deck, repr(hand)


def walk(layout, rng):
    """``layout`` and the layouts after random legal plays from it, to the last card."""
    yield layout
    while layout.tricks_left > 1 or len(layout.played) < len(layout.seats) - 1:
        layout = layout.after(rng.choice(layout.legal_cards()))
        yield layout


@pytest.mark.parametrize("path", LAYOUT_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_layout_file_walked_through_random_plays(path):
    rng = random.Random(path.name)
    start = read_layout(str(path))
    for layout in walk(start, rng):
        assert round_trip(layout) == layout, repr(layout)
    if start.contract.is_allpass:
        for name in ("standard", "beat-talon", "rostov"):
            for four_handed in (False, True):
                played_so = with_conventions(start, AllPassRules.named(name, four_handed))
                assert round_trip(played_so) == played_so, repr(played_so)


def test_every_contract_on_a_layout():
    layout = read_layout(str(LAYOUTS / "seven-clubs.txt"))
    assert layout.declarer is not None
    for contract in every_contract(layout.rules):
        declarer = None if contract.is_allpass else layout.declarer
        changed = replace(layout, contract=contract, declarer=declarer, discard=())
        assert round_trip(changed) == changed, repr(changed)


def test_a_layout_under_rules_of_its_own_has_no_text_form():
    layout = read_layout(str(LAYOUTS / "seven-clubs.txt"))
    own = replace(layout, rules=replace(PREFERANS_RULES, hand_size=12))
    assert repr(own).startswith("<Layout under rules of its own for preferans: ")


def test_thousand_layouts_moves_and_options():
    layout = parse_layout("game=thousand bid=120 declarer=S lead=S won=S trump=d points=S:45,E:12 "
                          "gave=W:Jh S=Ks,Qs,Ah W=Jh,9s,Td E=Ts,As,Kd")
    assert round_trip(layout) == layout
    for marriages in (MarriageRules(ace_marriage=200), MarriageRules(on_first_lead=True),
                      MarriageRules(values=(("s", 100), ("h", 80), ("c", 60), ("d", 40)))):
        varied = with_marriages(layout, marriages)
        assert round_trip(varied) == varied and varied.rules.marriages == marriages
    assert round_trip(THOUSAND_RULES.marriages) == THOUSAND_RULES.marriages
    for move in layout.moves():
        assert round_trip(move) == move
    assert any(move.declare for move in layout.moves())

"""All-pass: guaranteed minima, the self-interested line, talon tricks, conventions, CLI.

The brute-force oracles here play the game through :class:`~pyanalyzer.model.layout.Layout`
itself (its ``legal_cards``, ``trick_winner`` and ``after``), so they share no
code with the engine (``solver/pref_engine/``) or with the reference minimax; the full deals,
too big for them, are checked with the reference minimax. Fixed seeds.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from positions import PREF_DECK, PREF_SUITS, deal_masks, play_random_cards, random_layout
from pref_engine import Engine

from pyanalyzer.cli.main import main
from pyanalyzer.engines.reference import ReferenceSolver, self_interested_play
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import PREFERANS
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_one_line, parse_layout
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import PREFERANS_RULES, AllPassRules
from pyanalyzer.preferans.allpass import analyse_allpass, with_conventions

SEATS = ("S", "W", "E")
ALLPASS = Contract.parse("allpass", PREFERANS_RULES)
OPEN, BEAT, ROSTOV = AllPassRules(), AllPassRules(talon="beat"), AllPassRules.named("rostov")
FOUR_HANDED = AllPassRules(four_handed=True)


def layout(text: str, conventions: AllPassRules = OPEN) -> Layout:
    return with_conventions(parse_layout(text), conventions)


# -- oracles: plain recursion over the Layout's own rules -----------------------------------


def _key(position: Layout):
    return (tuple(tuple(position.hands[s]) for s in SEATS), position.lead, position.played,
            position.talon)


def brute_guaranteed(position: Layout, seat: str) -> int:
    """Fewest tricks ``seat`` can be sure of, the other two playing together against it."""

    memo: dict = {}

    def value(pos):
        key = _key(pos)
        if key not in memo:
            results = [int(winner == seat) + value(child)
                       for winner, child in (_play(pos, card) for card in pos.legal_cards())]
            memo[key] = 0 if pos.tricks_left == 0 else (
                min(results) if pos.to_move == seat else max(results))
        return memo[key]

    return value(position)


def brute_split(position: Layout, rostov: bool = False) -> tuple[dict[str, int], list]:
    """Self-interested play (max^n), ties to the first card in card order (♠♣♦♥, low to high)."""

    def prefer(seat, outcome, taken):
        if not rostov:
            return (outcome[seat],)
        totals = {s: outcome[s] + taken[s] for s in SEATS}
        return (totals[seat] - min(totals[s] for s in SEATS if s != seat), totals[seat])

    def play(pos, taken):
        if pos.tricks_left == 0:
            return dict.fromkeys(SEATS, 0), []
        best = None
        for card in sorted(pos.legal_cards(), key=lambda c: c.index):
            winner, child = _play(pos, card)
            after = dict(taken)
            if winner in SEATS:
                after[winner] += 1
            rest, line = play(child, after)
            outcome = {s: rest[s] + (s == winner) for s in SEATS}
            key = prefer(pos.to_move, outcome, taken)
            if best is None or key < best[0]:
                best = (key, outcome, [card] + line)
        return best[1], best[2]

    return play(position, dict.fromkeys(SEATS, 0))


def _play(position: Layout, card):
    """(winner of the trick the card completes or None, layout after the card)."""
    winner = None
    if len(position.played) == len(SEATS) - 1:
        winner = position.trick_winner(position.played + (card,))
    return winner, position.after(card)


def replay(position: Layout, line) -> dict[str, int]:
    """Tricks per seat (and ``nobody``) when ``line`` is played out; every card must be legal."""
    won = dict.fromkeys(SEATS + ("nobody",), 0)
    for card in line:
        assert card in position.legal_cards(), (card, format_one_line(position))
        winner, position = _play(position, card)
        if len(position.played) == 0:
            won[winner or "nobody"] += 1
    assert position.tricks_left == 0
    return won


def random_allpass(rng: random.Random, tricks: int, conventions: AllPassRules = OPEN,
                   talon_cards: int | None = None, plays: int | None = None) -> Layout:
    """An all-pass layout (tests/positions.py): 0-2 talon cards unless given, half of the time
    from 2 or 3 suits (more voids) when they can hold the cards, then 0-2 random cards
    played unless given (never into the last trick)."""
    talon_cards = rng.choice([0, 1, 2, 2]) if talon_cards is None else talon_cards
    rules = PREFERANS_RULES.__class__(**{**PREFERANS_RULES.__dict__, "allpass": conventions})
    position = random_layout(rng, tricks, "allpass", talon_cards=min(talon_cards, tricks), suits_drawn=(2, 3),
                             rules=rules)
    return play_random_cards(rng, position, rng.randint(0, 2) if plays is None else plays, keep_last_trick=True)


# -- hand-checked endings -------------------------------------------------------------------


def test_talon_trick_goes_to_the_highest_card_of_its_suit():
    # Talon ♥K: S ♥7, W ♥8, E ♥9 -> E (highest heart; the talon card itself does not count).
    # Then S leads again (first hand leads after a talon trick): ♠A wins.
    result = analyse_allpass(layout("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h"))
    assert result.guaranteed == {"S": 1, "W": 0, "E": 1}
    assert result.split == {"S": 1, "W": 0, "E": 1, "nobody": 0}
    assert [c.code for c in result.split_line] == ["7h", "8h", "9h", "As", "Ks", "Qs"]


def test_talon_card_to_be_beaten_no_card_beats_it():
    # The same deal, but the talon ♥K must be beaten: no heart beats it, nobody takes trick 1.
    result = analyse_allpass(layout("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h", BEAT))
    assert result.guaranteed == {"S": 1, "W": 0, "E": 0}
    assert result.split == {"S": 1, "W": 0, "E": 0, "nobody": 1}


def test_four_handed_dealer_takes_the_unbeaten_talon_trick():
    result = analyse_allpass(layout("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h",
                                    AllPassRules(talon="beat", four_handed=True)))
    assert result.split == {"S": 1, "W": 0, "E": 0, "dealer": 1}
    assert "-> dealer" in result.format()
    assert result.to_dict()["conventions"] == {"talon": "beat", "four_handed": True, "aim": "fewest"}


def test_nobody_follows_the_talon_suit():
    # Talon ♦A and nobody holds a diamond: everyone discards, nobody takes the trick.
    # E alone (he plays last): he throws ♠A and keeps ♣7; S then leads, and E's ♣7 is
    #   under every club and he is void in spades: E = 0.
    # S alone (he plays first): whatever he keeps, he must lead it to trick 2 (first hand
    #   leads after a talon trick), and W and E, seeing his discard, throw their cards of
    #   that suit: S = 1.
    text = "contract=allpass lead=S talon=Ad S=7s,8c W=8s,9c E=As,7c"
    result = analyse_allpass(layout(text))
    assert result.guaranteed == {s: brute_guaranteed(layout(text), s) for s in SEATS}
    assert result.guaranteed["E"] == 0 and result.guaranteed["S"] == 1
    assert result.split["nobody"] == 1
    assert result.split_tricks[0].winner is None


def test_after_the_talon_tricks_first_hand_leads_not_the_winner():
    # Two talon tricks won by E (♥A, ♦A), then the third trick is led by S, first hand.
    text = "contract=allpass lead=S talon=7h,7d S=8h,8d,7s W=9h,9d,8s E=Ah,Ad,As"
    result = analyse_allpass(layout(text))
    assert result.guaranteed == {"S": 0, "W": 0, "E": 3}
    assert [c.code for c in result.split_line[6:]] == ["7s", "8s", "As"]


def test_rostov_ignores_the_talon_and_first_hand_leads():
    # Closed talon: a plain first trick. S leads ♥8... Compare with the open talon below.
    text = "contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h"
    closed = analyse_allpass(layout(text, ROSTOV))
    assert closed.guaranteed == {"S": 1, "W": 0, "E": 1}
    assert "nobody" not in closed.split and sum(closed.split.values()) == 2
    assert closed.to_dict()["talon_rule"] == "closed"


def test_mid_trick_in_a_talon_trick():
    # S has played ♥7 to the talon ♥K; W must follow hearts.
    text = "contract=allpass lead=S talon=Kh played=7h S=As W=Ks,8h E=Qs,9h"
    result = analyse_allpass(layout(text))
    assert result.layout.to_move == "W"
    assert set(c.code for c in result.cards) == {"8h"}
    assert result.guaranteed == {s: brute_guaranteed(layout(text), s) for s in SEATS}


def test_card_values_of_the_player_to_move():
    text = "contract=allpass lead=W talon=9c S=Ac,7s,Kd W=Jc,7c,8s E=Tc,Qd,As"
    result = analyse_allpass(layout(text))
    base = layout(text)
    for card, value in result.cards.items():
        winner, child = _play(base, card)
        assert value == brute_guaranteed(child, "W") + (winner == "W")
    assert min(result.cards.values()) == result.guaranteed["W"]


# -- the talon rule changes the answer --------------------------------------------------


#: The guaranteed minima of layouts/allpass-talon-matters.txt under each talon rule: the reference
#: minimax's values (recomputed by the slow test below).
TALON_MATTERS = {"open": {"S": 7, "W": 5, "E": 3}, "rostov": {"S": 6, "W": 6, "E": 4}}


def _talon_matters_deal(rule: str) -> Layout:
    from pathlib import Path

    from pyanalyzer.model.layout_io import read_layout

    deal = read_layout(str(Path(__file__).parents[1] / "layouts" / "allpass-talon-matters.txt"))
    return with_conventions(deal, OPEN if rule == "open" else ROSTOV)


@pytest.mark.parametrize("rule", ["open", "rostov"])
def test_a_deal_where_the_open_talon_changes_the_answer_compared_with_rostov(rule):
    """layouts/allpass-talon-matters.txt: every guaranteed minimum moves with the talon rule;
    the engine gives the reference minimax's numbers."""
    assert analyse_allpass(_talon_matters_deal(rule), lines=False, cards=False).guaranteed == TALON_MATTERS[rule]


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["open", "rostov"])
def test_the_talon_matters_minima_are_the_reference_minimax_s(rule):
    """The numbers above, from the reference minimax (a full deal: 1-2 minutes each)."""
    reference = analyse_allpass(_talon_matters_deal(rule), make_backend("reference"), lines=False,
                                cards=False, split=False)
    assert reference.guaranteed == TALON_MATTERS[rule]


def test_small_deal_where_the_talon_rule_changes_the_answer():
    # S: ♠K ♦7, W: ♠7 ♥J, E: ♥A ♥10; talon ♥K.
    # Open talon: S has no heart and discards; W must play ♥J and E ducks it with ♥10, so
    #   W takes the talon trick (W = 1); S's last card then wins trick 2 (nobody follows
    #   ♦7, W's ♠7 is below ♠K): S = 1. E never wins: E = 0.
    # Rostov (closed): S leads both tricks and nobody can beat ♠K or follow ♦7: S = 2,
    #   W and E take nothing.
    text = "contract=allpass lead=S talon=Kh S=Ks,7d W=7s,Jh E=Ah,Th"
    open_talon, closed = layout(text), layout(text, ROSTOV)
    assert analyse_allpass(open_talon).guaranteed == {"S": 1, "W": 1, "E": 0}
    assert analyse_allpass(closed).guaranteed == {"S": 2, "W": 0, "E": 0}
    assert {s: brute_guaranteed(open_talon, s) for s in SEATS} == {"S": 1, "W": 1, "E": 0}
    assert {s: brute_guaranteed(closed, s) for s in SEATS} == {"S": 2, "W": 0, "E": 0}


# -- against the brute force ----------------------------------------------------------------


@pytest.mark.parametrize("conventions", [OPEN, BEAT, ROSTOV], ids=["open", "beat", "rostov"])
def test_guaranteed_minima_and_lines_against_brute_force(conventions, fast_backend):
    rng = random.Random(f"allpass-{conventions.talon}")
    for _ in range(150):
        position = random_allpass(rng, rng.randint(1, 3), conventions)
        result = analyse_allpass(position, fast_backend, split=False)
        for seat in SEATS:
            assert result.guaranteed[seat] == brute_guaranteed(position, seat), (
                format_one_line(position), seat)
            assert replay(position, result.lines[seat])[seat] == result.guaranteed[seat]
        mover = position.to_move
        for card, value in result.cards.items():
            winner, child = _play(position, card)
            assert value == brute_guaranteed(child, mover) + (winner == mover)


@pytest.mark.parametrize("conventions", [OPEN, BEAT, ROSTOV], ids=["open", "beat", "rostov"])
def test_self_interested_split_against_brute_force(conventions, fast_backend):
    rng = random.Random(f"maxn-{conventions.talon}")
    for _ in range(150):
        position = random_allpass(rng, rng.randint(1, 3), conventions)
        result = analyse_allpass(position, fast_backend, cards=False, lines=False)
        expected, line = brute_split(position, rostov=conventions.aim == "fewer_than_each")
        got = {s: result.split[s] for s in SEATS}
        assert got == expected, format_one_line(position)
        assert result.split_line == line
        won = replay(position, result.split_line)
        assert {s: won[s] for s in SEATS} == expected
        if position.talon_tricks:
            assert result.split["nobody"] == won["nobody"]


def test_engine_against_reference_on_thousands_of_positions():
    """The engine's talon tricks against the reference minimax: values, card values, lines."""
    rng = random.Random(2026)
    engine = Engine(tt_size_mb=4)
    for _ in range(2500):
        tricks = rng.randint(2, 5)
        hands, extra = deal_masks(rng, PREF_DECK, 3, tricks, extra=2)
        talon = tuple(extra[:rng.choice([1, 2, 2])])
        counted = rng.randrange(3)
        pos = Position(tuple(hands), PREF_SUITS, None, True, rng.randrange(3), (),
                                tuple(s == counted for s in range(3)), False, talon,
                                rng.random() < 0.5)
        reference = ReferenceSolver.for_position(pos)
        assert engine.solve(pos) == reference.solve(pos)
        assert engine.card_values(pos) == reference.card_values(pos)
        line = engine.best_line(pos)
        assert len(line) == 3 * tricks


def test_engine_self_interested_against_the_reference_max_n():
    rng = random.Random(99)
    engine = Engine(tt_size_mb=2)
    for _ in range(600):
        tricks = rng.randint(1, 4)
        hands, extra = deal_masks(rng, PREF_DECK, 3, tricks, extra=2)
        talon = tuple(extra[:min(tricks, rng.choice([0, 1, 2]))])
        pos = Position(tuple(hands), PREF_SUITS, None, True, rng.randrange(3), (), (True, False, False),
                                False, talon, rng.random() < 0.5)
        rostov = rng.random() < 0.3
        taken = tuple(rng.randrange(3) for _ in range(3)) if rostov else None
        counts, line = engine.self_interested(pos, rostov, taken)
        assert (counts, line) == self_interested_play(pos, rostov, taken)


# -- properties on full deals ---------------------------------------------------------------


def test_full_deals_split_is_within_each_guarantee_and_sums_to_ten(fast_backend):
    """Self-interested play never leaves a seat worse than what it can guarantee alone."""
    rng = random.Random(5)
    for _ in range(12):
        position = random_allpass(rng, 10, rng.choice([OPEN, BEAT, ROSTOV]),
                                  talon_cards=2, plays=0)
        result = analyse_allpass(position, fast_backend, cards=False)
        for seat in SEATS:
            assert result.split[seat] <= result.guaranteed[seat]
            assert replay(position, result.lines[seat])[seat] == result.guaranteed[seat]
        assert sum(result.split.values()) == 10
        won = replay(position, result.split_line)
        assert {s: won[s] for s in SEATS} == {s: result.split[s] for s in SEATS}


def _rotate(position: Layout) -> Layout:
    """Every seat's cards move to the next seat in play order (S -> W -> E -> S)."""
    moved = {SEATS[(i + 1) % 3]: position.hands[s] for i, s in enumerate(SEATS)}
    lead = SEATS[(SEATS.index(position.lead) + 1) % 3]
    return Layout(moved, position.contract, None, lead, position.talon, (), position.played,
                  rules=position.rules)


def test_seat_rotation_leaves_every_answer_unchanged(fast_backend):
    rng = random.Random(12)
    for _ in range(40):
        position = random_allpass(rng, rng.choice([3, 4, 10]), rng.choice([OPEN, BEAT, ROSTOV]))
        rotated = _rotate(position)
        a = analyse_allpass(position, fast_backend)
        b = analyse_allpass(rotated, fast_backend)
        for i, seat in enumerate(SEATS):
            turned = SEATS[(i + 1) % 3]
            assert b.guaranteed[turned] == a.guaranteed[seat]
            assert b.split[turned] == a.split[seat]
        assert b.split_line == a.split_line
        assert b.cards == a.cards


def test_suit_permutation_leaves_the_guaranteed_minima_unchanged(fast_backend):
    rng = random.Random(21)
    for _ in range(25):
        position = random_allpass(rng, rng.choice([4, 10]), rng.choice([OPEN, BEAT]), plays=0)
        order = rng.sample(range(4), 4)

        def swap(card, order=order):
            return PREFERANS.from_index(order[card.suit_number] * 8 + card.rank_number)

        permuted = Layout({s: Hand([swap(c) for c in position.hands[s]], PREFERANS) for s in SEATS},
                          ALLPASS, None, position.lead, tuple(swap(c) for c in position.talon),
                          rules=position.rules)
        assert (analyse_allpass(permuted, fast_backend, split=False).guaranteed
                == analyse_allpass(position, fast_backend, split=False).guaranteed)


@pytest.mark.slow
def test_full_deals_against_the_reference_minimax(reference_backend, fast_backend):
    """Guaranteed minima of full 10-card deals with the talon against the reference (minutes)."""
    rng = random.Random(8)
    for _ in range(5):
        position = random_allpass(rng, 10, rng.choice([OPEN, BEAT]), talon_cards=2, plays=0)
        expected = analyse_allpass(position, reference_backend, cards=False, lines=False, split=False)
        got = analyse_allpass(position, fast_backend, cards=False, lines=False, split=False)
        assert got.guaranteed == expected.guaranteed, format_one_line(position)


# -- the command ----------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, ["allpass", *args])


def test_cli_json_has_the_documented_keys():
    result = run("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["guaranteed"] == {"S": 1, "W": 0, "E": 1}
    assert data["lines"]["S"] == ["7h", "8h", "9h", "As", "Ks", "Qs"]
    assert data["split"] == {"S": 1, "W": 0, "E": 1, "nobody": 0}
    assert data["split_line"] == ["7h", "8h", "9h", "As", "Ks", "Qs"]
    assert "ties go to the first card" in data["split_rule"]


def test_cli_text_output_says_the_split_is_one_concept_among_several():
    result = run("layouts/allpass.txt")
    assert result.exit_code == 0, result.output
    assert "one solution concept among several" in result.output.lower()
    assert "Line holding S" in result.output and "Self-interested play:" in result.output


def test_cli_conventions():
    text = "contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h"
    beat = json.loads(run(text, "--json", "--convention", "beat-talon", "--four-handed").output)
    assert beat["split"] == {"S": 1, "W": 0, "E": 0, "dealer": 1}
    rostov = json.loads(run(text, "--json", "--convention", "rostov").output)
    assert rostov["talon_rule"] == "closed" and rostov["conventions"]["aim"] == "fewer_than_each"


@pytest.mark.parametrize("args, token", [
    (["contract=misere declarer=S lead=S S=As W=Ks E=Qs"], "misere"),
    (["contract=allpass lead=S S=As W=Ks E=Qs talon=Zz"], "Zz"),
    (["contract=allpass lead=S S=As W=Ks,Kh E=Qs"], "W"),
    (["contract=allpass lead=S S=As W=Ks E=Qs talon=Kh,Ah"], "talon"),   # 2 talon tricks, 1 trick
    (["contract=allpass lead=S S=As W=Ks E=Qs", "--taken", "X=1"], "X"),
    (["contract=allpass lead=S S=As W=Ks E=Qs", "--taken", "S=z"], "S=z"),
    (["contract=allpass lead=S S=As W=Ks E=Qs", "--taken", "S=5,W=5"], "S=5,W=5"),
    ([], "LAYOUT"),
    (["layouts/allpass.txt", "--engine", "reference"], "--no-split"),
])
def test_cli_bad_input_is_one_line_with_status_2(args, token):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line]
    assert len(lines) == 1 and token in lines[0], result.output


def test_cli_batch_writes_one_json_line_per_layout(tmp_path):
    batch = tmp_path / "deals.txt"
    batch.write_text("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h\n"
                     "contract=allpass lead=S S=As W=Ks\n"
                     "# a comment\n"
                     "contract=allpass lead=W S=7s W=8s E=As\n", encoding="utf-8")
    result = run("--batch", str(batch))
    assert result.exit_code == 1, result.output  # line 2 failed
    records = [json.loads(line) for line in result.output.splitlines()]
    assert len(records) == 3
    assert records[0]["guaranteed"] == {"S": 1, "W": 0, "E": 1}
    assert records[1]["line"] == 2 and "E" in records[1]["error"]
    assert records[2]["split"] == {"S": 0, "W": 0, "E": 1}


def test_cli_rostov_taken_changes_the_aim():
    # With the Rostov aim, earlier tricks change what each player wants; --taken is accepted
    # and the split still sums to the tricks left.
    text = "contract=allpass lead=S S=As,7h,8d W=Ks,8h,9d E=Qs,9h,Td"
    data = json.loads(run(text, "--json", "--convention", "rostov", "--taken", "S=3,W=0,E=4").output)
    assert sum(data["split"].values()) == 3

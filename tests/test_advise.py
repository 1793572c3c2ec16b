"""``advise`` (issue 22): single-dummy advice checked against oracles computed here.

The oracle of the per-card values is built in the test, independently of the analyzer's
enumeration: every assignment of the unseen cards to the unseen hands (itertools), filtered
by the voids the test reads off the play itself (a player who did not follow the suit led
holds none of it; in Preferans one who did not trump either holds no trump), each layout
solved card by card by the reference minimax, and averaged.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest
from click.testing import CliRunner
from positions import random_layout

from pyanalyzer.analysis.advise import advise
from pyanalyzer.cli.main import main
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_io import format_one_line, parse_layout


def _play(layout, rng, count):
    moves = []
    for _ in range(count):
        if layout.tricks_left <= 1:
            break
        card = rng.choice(layout.legal_cards())
        moves.append(card)
        layout = layout.after(card)
    return layout, moves


def _voids(start, moves):
    """{seat: set of suit numbers he showed out of}, read off the play."""
    voids = {seat: set() for seat in start.seats}
    layout = start
    for card in moves:
        seat = layout.to_move
        if layout.played and card.suit_number != layout.played[0].suit_number:
            voids[seat].add(layout.played[0].suit_number)
            trump = layout.trump_number
            if layout.rules.must_trump and trump is not None and card.suit_number != trump:
                voids[seat].add(trump)
        layout = layout.after(card)
    return voids


def _oracle(start, moves, seat, sees):
    """The mean of each legal card's double-dummy value over every consistent layout."""
    now = start
    for card in moves:
        now = now.after(card)
    voids = _voids(start, moves)
    unseen = [s for s in now.seats if s != seat and s not in sees]
    pool = sorted((c for s in unseen for c in now.hands[s]), key=lambda c: c.index)
    sizes = [len(now.hands[s]) for s in unseen]
    backend = make_backend("reference")
    sums, count = {}, 0
    for first in itertools.combinations(pool, sizes[0]):
        rest = [c for c in pool if c not in first]
        groups = [list(first)] + ([rest] if len(unseen) == 2 else [])
        if any(c.suit_number in voids[s] for s, cards in zip(unseen, groups) for c in cards):
            continue
        hands = dict(now.hands)
        for s, cards in zip(unseen, groups):
            hands[s] = Hand(cards, now.rules.deck)
        values = backend.card_values(replace(now, hands=hands).position())
        for card, value in values.items():
            sums[card] = sums.get(card, 0) + value
        count += 1
    return {now.rules.deck.from_index(c): total / count for c, total in sums.items()}, count


@pytest.mark.parametrize("seed", range(12))
def test_expected_values_equal_the_average_over_every_consistent_layout(seed):
    rng = random.Random(seed)
    start = random_layout(rng, rng.randint(2, 4), ["6s", "7h", "6n", "8c"])
    _, moves = _play(start, rng, rng.randint(0, 4))
    now = start
    for card in moves:
        now = now.after(card)
    seat = now.to_move
    others = [s for s in now.seats if s != seat]
    sees = tuple(rng.sample(others, rng.randint(0, 1)))
    expected, count = _oracle(start, moves, seat, sees)
    for engine in ("reference", "fast"):
        advice = advise(start, seat, sees, moves=moves, engine=engine, threads=1)
        assert advice.exact and advice.layouts == count
        assert {card: a.expected for card, a in advice.cards.items()} == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("text", [
    "contract=6s declarer=S lead=W S=Ac,Qc,7s W=Kc,7d,8s E=8d,9d,9s",
    "contract=misere declarer=S lead=W S=7s,Ah,8c W=8s,Kh,9c E=9s,Qh,Tc",
    "contract=allpass lead=S S=7s,Ah,8c W=8s,Kh,9c E=9s,Qh,Tc",
    "game=thousand bid=100 declarer=S lead=S won=S S=Kh,Qh,As W=9h,9s,Js E=Ah,Ts,Jh",
])
def test_with_every_hand_seen_the_advice_is_the_double_dummy_value_of_each_card(text):
    layout = parse_layout(text)
    seat = layout.to_move
    others = tuple(s for s in layout.seats if s != seat)
    advice = advise(layout, seat, others, engine="fast", threads=1)
    dd = make_backend("reference").card_values(layout.position(side=advice.counted))
    assert advice.layouts == 1 and advice.exact
    by_engine_move = {(m.engine_move if hasattr(m, "engine_move") else m.index): a for m, a in advice.cards.items()}
    assert {m: a.expected for m, a in by_engine_move.items()} == dd
    assert all(a.distribution == {dd[m]: 1.0} for m, a in by_engine_move.items())


def test_a_sample_reproduces_with_its_seed_and_its_interval_holds_the_mean():
    layout = parse_layout("contract=6s declarer=S lead=S S=As,Ks,Qs,Ac,Kc W=7s,8s,7c,8c,9c "
                          "E=9s,Ts,Js,Tc,Jc")  # 252 consistent layouts for the declarer
    runs = [advise(layout, "S", exact_limit=10, samples=60, seed=7, threads=1, engine="fast")
            for _ in range(2)]
    assert not runs[0].exact and runs[0].solved == 60 and runs[0].seed == 7
    assert runs[0].to_json()["cards"] == runs[1].to_json()["cards"]
    exact = advise(layout, "S", engine="fast", threads=1)
    assert exact.exact and exact.layouts == 252
    for card, sampled in runs[0].cards.items():
        low, high = sampled.interval
        assert low <= sampled.expected <= high
        assert exact.cards[card].interval is None


def test_the_costs_are_measured_from_the_best_card_for_the_advised_side():
    layout = parse_layout("contract=6s declarer=S lead=W S=Ac,Qc,7s W=Kc,7d,8s E=8d,9d,9s")
    advice = advise(layout, "W", engine="fast", threads=1)  # W defends: he wants S's tricks low
    low = min(a.expected for a in advice.cards.values())
    assert advice.cards[advice.best].expected == low and advice.cards[advice.best].cost == 0
    assert all(a.cost == pytest.approx(a.expected - low) for a in advice.cards.values())


def test_the_misere_defender_sees_his_partner_and_the_declarer_s_twelve_cards():
    # The defenders play open and know S's twelve cards; only the discard is unknown: C(4, 2) layouts.
    layout = parse_layout("contract=misere declarer=S lead=W S=7s,8h W=8s,Kh E=9s,Qh discard=7d,8d")
    advice = advise(layout, "W", engine="fast", threads=1)
    assert advice.layouts == 6 and advice.view.piles == ("S", None)


def test_cli_json_and_one_line_errors():
    text = "contract=6s declarer=S lead=W S=Ac,Qc,7s W=Kc,7d,8s E=8d,9d,9s"
    run = CliRunner().invoke(main, ["advise", text, "--seat", "W", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["layouts"] == 20 and data["exact"] and data["best"] in data["cards"]
    assert set(data["cards"]["Kc"]) >= {"expected", "distribution"}
    for args, token in [(["--seat", "E"], "E is not to move"), (["--seat", "W", "--sees", "W"], "--sees W"),
                        (["--seat", "Q"], "'Q'"), (["--seat", "W", "--samples", "0"], "--samples"),
                        (["--seat", "W", "--moves", "Ah"], "Ah")]:
        bad = CliRunner().invoke(main, ["advise", text, *args])
        assert bad.exit_code == 2 and token in bad.stderr and "Traceback" not in bad.output, bad.output


def test_a_record_in_the_layout_is_the_play_so_far():
    text = "contract=6s declarer=S lead=S S=As,Ac,7d W=7s,8s,7h E=9s,Ts,8h"
    layout = parse_layout(text)
    with_record = CliRunner().invoke(main, ["advise", text + " played=As,7s,9s", "--seat", "S", "--json"])
    with_moves = CliRunner().invoke(main, ["advise", format_one_line(layout), "--seat", "S", "--moves",
                                           "As,7s,9s", "--json"])
    assert with_record.exit_code == 0 and with_moves.exit_code == 0, with_record.output + with_moves.output
    first, second = json.loads(with_record.stdout), json.loads(with_moves.stdout)
    assert first["cards"] == second["cards"] and first["layouts"] == second["layouts"]


@pytest.mark.parametrize("seed", range(6))
def test_a_misere_defender_on_lead_is_sure_of_what_the_unknown_discard_analysis_finds(seed):
    """Issue 22 item 4: the defenders' lead without knowing the discard is the misère analysis's
    question (one defence against every discard); the best card's guarantee is its answer."""
    from positions import deal_hands

    from pyanalyzer.model.contract import Contract
    from pyanalyzer.model.layout import Layout
    from pyanalyzer.preferans.misere import analyse_unknown_discard

    rng = random.Random(2000 + seed)
    hands, talon = deal_hands(rng, rng.randint(2, 3), 2, suits_drawn=None)
    lead = rng.choice(["W", "E"])
    layout = Layout(hands, Contract("misere"), "S", lead, discard=tuple(talon))
    advice = advise(layout, lead, engine="fast", threads=1)
    assert advice.guarantee is not None and advice.layouts == advice.view.count()
    open_discard = Layout(hands, Contract("misere"), "S", lead)
    expected = analyse_unknown_discard(open_discard, talon, discard_candidates=None, engine="fast").one_defence
    assert max(advice.guarantee.values()) == expected
    # One defence against every discard never beats the average with the discard known.
    assert all(advice.guarantee[c] <= a.expected + 1e-9 for c, a in advice.cards.items())


def test_touching_cards_are_judged_by_what_the_player_knows():
    # (found by advtest) E cannot place the discarded ♦9: ♦7 and ♦10 do not touch for him.
    start = parse_layout("contract=misere declarer=S lead=W S=Ts,Qc,Tc,8h W=Ks,8s,7c,Qh E=Jd,Td,7d,Kh "
                         "talon=Qc,Tc discard=9h,9d")
    moves = [next(c for c in start.rules.deck if c.code == "7c")]
    expected, count = _oracle_misere_defender(start, moves, "E")
    advice = advise(start, "E", moves=moves, engine="reference", threads=1, strategy="never")
    assert advice.layouts == count == 15
    assert {card: a.expected for card, a in advice.cards.items()} == pytest.approx(expected, abs=1e-9)


def _oracle_misere_defender(start, moves, seat):
    """A misère defender's per-card means: the declarer's hand and discard are his cards less
    the partner's (open), dealt every way (the talon cards in either), no voids shown here."""
    now = start
    for card in moves:
        now = now.after(card)
    declarer = now.declarer
    pool = sorted(list(now.hands[declarer]) + list(now.discard), key=lambda c: c.index)
    backend = make_backend("reference")
    sums, count = {}, 0
    for kept in itertools.combinations(pool, len(now.hands[declarer])):
        hands = dict(now.hands)
        hands[declarer] = Hand(kept, now.rules.deck)
        discard = tuple(c for c in pool if c not in kept)
        values = backend.card_values(replace(now, hands=hands, discard=discard).position())
        for card, value in values.items():
            sums[card] = sums.get(card, 0) + value
        count += 1
    return {now.rules.deck.from_index(c): total / count for c, total in sums.items()}, count


# -- the pictures: the layout as the advised player sees it ------------------------------------


def _svg_tree(path):
    import xml.etree.ElementTree as ElementTree

    return ElementTree.parse(path).getroot()


SVG = "{http://www.w3.org/2000/svg}"


def test_svg_and_html_show_the_layout_as_he_sees_it_with_each_cards_expected_value(tmp_path):
    """South sees neither defender (six layouts): their hands are drawn as a count, no card of
    theirs is in the picture; his ♣A is worth 2 tricks (best), his ♣Q none (the oracle above:
    the ♣A takes both tricks in every layout, the ♣Q loses the first to the ♣K)."""
    text = "contract=6s declarer=S lead=S S=Ac,Qc W=Kc,7d E=8d,9d"
    svg, html = tmp_path / "advice.svg", tmp_path / "advice.html"
    run = CliRunner().invoke(main, ["advise", text, "--seat", "S", "--svg", str(svg), "--html", str(html)])
    assert run.exit_code == 0, run.output
    root = _svg_tree(svg)
    seats = {g.get("data-seat"): g for g in root.iter(f"{SVG}g") if "seat" in (g.get("class") or "").split()}
    assert {s for s, g in seats.items() if "hidden" in g.get("class")} == {"W", "E"}
    assert seats["W"].get("data-count") == "2" and "2 cards, unseen" in "".join(seats["W"].itertext())
    cards = {g.get("data-card"): g for g in root.iter(f"{SVG}g") if g.get("class") == "card"}
    assert set(cards) == {"Ac", "Qc"}  # the unseen cards are not drawn
    values = {code: [t for t in g.iter(f"{SVG}text") if "value" in t.get("class")] for code, g in cards.items()}
    assert [(t.text, "best" in t.get("class")) for t in values["Ac"]] == [("2.00", True)]
    assert [(t.text, "best" in t.get("class")) for t in values["Qc"]] == [("0.00", False)]
    page = html.read_text(encoding="utf-8")
    assert "<table" in page and "♣A (best)" in page and "2.000" in page and "exact over all 6 layouts" in page


def test_an_unseen_discard_is_drawn_as_its_count():
    """A misère defender (Kovalevskaya's East) does not see the discard: two cards, unseen."""
    from pyanalyzer.render.svg import layout_svg

    layout = parse_layout("contract=misere declarer=S lead=W S=7s,8h W=8s,Kh E=9s,Qh discard=7d,8d")
    drawn = layout_svg(layout, hidden=("S", "discard"))
    assert 'data-seat="discard"' not in drawn and "2 cards, unseen" in drawn
    assert 'data-card="7s"' not in drawn and 'data-card="8s"' in drawn
    assert 'data-seat="discard"' in layout_svg(layout)  # (shown when not hidden)


# -- the declarer's discard of twelve cards: the twelve-card rankings in advise's shape ----------

#: seven-clubs.txt before the discard: South's ten cards, the talon ♠8 ♠7 in no hand.
TWELVE = ("contract=7c declarer=S lead=S talon=8s,7s S=As,Ac,9c,8c,7c,Kd,Jd,Ah,Kh,Th "
          "W=Qs,Js,Ts,Kc,Jc,Ad,9d,7d,Jh,9h E=Ks,9s,Qc,Tc,Qd,Td,8d,Qh,8h,7h")


def test_the_declarers_discard_is_the_twelve_card_ranking_in_advises_shape():
    """Sampled (cheap): every discard class once, each with the ranking's own figures on the same
    seeded layouts (``rank_discards``, the ranking of pref contract --hand S=<12 cards>), the best
    the likeliest to make, each cost the chance of making lost."""
    from pyanalyzer.model.layout_io import parse_layout as parse
    from pyanalyzer.preferans.discard_advice import advise_discard
    from pyanalyzer.preferans.makeable import twelve_cards
    from pyanalyzer.preferans.odds import rank_discards

    layout = parse(TWELVE)
    advice = advise_discard(layout, "S", exact_limit=0, samples=24, seed=5, threads=1)
    ranking = rank_discards(twelve_cards(layout), "S", "S", layout.contract, screen_samples=24, finalists=0,
                            seed=5, threads=1)
    assert advice.layouts == 184_756 and not advice.exact
    assert set(advice.cards) == {choice.discard for choice in ranking.screened}
    for choice in ranking.screened:
        card = advice.cards[choice.discard]
        assert card.expected == pytest.approx(choice.odds.expected_tricks)
        assert advice.deciding[choice.discard] == pytest.approx(choice.p_make)
        assert card.outcomes["made"] == pytest.approx(choice.p_make)
        assert sum(card.distribution.values()) == pytest.approx(1)
    top = max(advice.deciding.values())
    assert advice.deciding[advice.best] == top and advice.cards[advice.best].cost == 0
    assert all(advice.cards[d].cost == pytest.approx(top - p) for d, p in advice.deciding.items())
    data = advice.to_json()
    assert data["question"] == "discard" and data["ranked_by"] == "p_made" and data["best"] == ",".join(
        c.code for c in advice.best)
    entry = data["cards"][data["best"]]
    assert entry["method"] == "sample" and entry["solved"] == 24 and "interval" in entry


def test_pref_advise_asks_the_declarer_with_twelve_cards_for_his_discard():
    run = CliRunner().invoke(main, ["advise", TWELVE, "--seat", "S", "--exact-limit", "0", "--samples", "12",
                                    "--seed", "1", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["question"] == "discard" and data["twelve"][:2] == ["7s", "8s"] and data["best"] in data["cards"]
    text = CliRunner().invoke(main, ["advise", TWELVE, "--seat", "S", "--exact-limit", "0", "--samples", "12"])
    assert text.exit_code == 0 and "Which two to discard?" in text.output, text.output
    for args, token in [(["--seat", "S", "--sees", "W"], "--sees"),
                        (["--seat", "W"], "discard is still open: give discard= (advice starts with the play), "
                                          "or ask the declarer (--seat S)")]:
        bad = CliRunner().invoke(main, ["advise", TWELVE, *args])
        assert bad.exit_code == 2 and token in bad.stderr and "Traceback" not in bad.output, bad.output


@pytest.mark.slow
def test_the_misere_discard_of_twelve_cards_exactly():
    """Throwing the two aces leaves a hand nobody can catch (every card of his suits has a
    higher one outstanding: tests/test_misere.py's hand); any other discard keeps an ace and is
    caught sometimes, so it is dropped once provably worse (bounds)."""
    from pyanalyzer.preferans.discard_advice import advise_discard

    layout = parse_layout("contract=misere declarer=S lead=W talon=As,Ah S=7s,8s,9s,7c,8c,9c,7d,8d,7h,8h "
                          "W=Ts,Js,Qs,Ks,Tc,Jc,Qc,Kc,Ac,9d E=Td,Jd,Qd,Kd,Ad,9h,Th,Jh,Qh,Kh")
    advice = advise_discard(layout, "S")
    assert {c.code for c in advice.best} == {"As", "Ah"} and advice.deciding[advice.best] == 1.0
    assert advice.cards[advice.best].distribution == {0: 1.0} and advice.exact_discards[advice.best]
    data = advice.to_json()
    others = [entry for key, entry in data["cards"].items() if key != data["best"]]
    assert others and all(e["dropped"] and e["p_clean"] is None and e["cost_at_least"] > 0 for e in others)

# -- the best single strategy (issue 22, item 2) ----------------------------------------------------

#: 6NT, South to play third to the first trick of a 3-card ending after West's ♥8 and East's ♥Q,
#: seeing neither hand: the 6 ways West may hold 2 of ♣J ♥K ♣7 ♦7 (East the other 2).
FUSION = "contract=6n declarer=S lead=W S=Kc,Tc,Qd W=Jc,Kh,8h E=7c,7d,Qh"


def _card(layout, code):
    return next(c for c in layout.rules.deck if c.code == code)


def test_one_plan_is_worth_less_than_the_average_where_the_layout_must_be_guessed():
    """South discards ♦Q; East, on lead, chooses per layout. By hand, South's tricks in the six
    layouts (West's pair): ♣J♥K 1, ♣J♣7 0, ♣J♦7 1, ♥K♣7 1, ♥K♦7 2, ♣7♦7 1: mean 6/6 = 1.0. The 2
    with ♥K♦7 needs ♣10 on East's ♣7 lead (East has ♣J♣7), but the same ♣7 lead from ♣7♦7 or ♥K♣7
    (West has ♣J) needs ♣K: one plan ("♣K on the ♣7") makes 1 there, so at best 5/6. (The brute force
    over South's pure strategies in tests/test_advise_oracle.py gives the same three values.)"""
    layout = parse_layout(FUSION)
    moves = [_card(layout, "8h"), _card(layout, "Qh")]
    advice = advise(layout, "S", moves=moves, engine="reference", threads=1)
    assert {card.code: a.expected for card, a in advice.cards.items()} == pytest.approx(
        {"Kc": 1 / 3, "Tc": 1.5, "Qd": 1.0})
    assert {card.code: a.strategy for card, a in advice.cards.items()} == pytest.approx(
        {"Kc": 1 / 3, "Tc": 4 / 3, "Qd": 5 / 6})
    assert advice.strategy_note.startswith("exact over the 6 layouts")
    run = CliRunner().invoke(main, ["advise", FUSION, "--seat", "S", "--moves", "8h,Qh"])
    assert run.exit_code == 0, run.output
    assert "one plan" in run.stdout and "strategy fusion" in run.stdout
    row = next(line for line in run.stdout.splitlines() if line.lstrip().startswith("♦Q"))
    assert row.split()[1:] == ["1.000", "0.500", "0.833"]
    data = json.loads(CliRunner().invoke(main, ["advise", FUSION, "--seat", "S", "--moves", "8h,Qh",
                                                "--json"]).stdout)
    assert data["cards"]["Qd"]["strategy"] == pytest.approx(5 / 6) and data["strategy_note"]


def test_the_best_plan_may_start_with_another_card_than_the_best_average():
    """West declares 6♣ and leads, seeing neither defender (20 layouts). The averages favour ♠A and
    ♣J (6/5 each, against 11/10 for ♦K); the best single plans give 1, 1 and 11/10 (the brute
    force of tests/test_advise_oracle.py, its single-strategy case 332): only ♦K's value needs
    no later guess. The table marks ♦K "best plan", the JSON names it."""
    text = "contract=6c declarer=W lead=W S=7s,Ac,8c W=As,Jc,Kd E=8s,Td,Jh"
    advice = advise(parse_layout(text), "W", engine="fast", threads=1)
    assert {card.code: a.strategy for card, a in advice.cards.items()} == pytest.approx(
        {"As": 1.0, "Jc": 1.0, "Kd": 1.1})
    assert advice.best.code in ("As", "Jc") and advice.best_strategy.code == "Kd"
    assert advice.to_json()["best_strategy"] == "Kd"
    row = next(line for line in advice.format().splitlines() if line.lstrip().startswith("♦K"))
    assert row.endswith("best plan")


def test_strategy_never_and_too_many_layouts_leave_it_out_and_say_why():
    layout = parse_layout(FUSION)
    moves = [_card(layout, "8h"), _card(layout, "Qh")]
    never = advise(layout, "S", moves=moves, engine="reference", threads=1, strategy="never")
    assert never.strategy is None and "never" in never.strategy_note
    assert all(a.strategy is None for a in never.cards.values())
    # 252 layouts for the declarer on lead: more than auto searches.
    big = parse_layout("contract=6s declarer=S lead=S S=As,Ks,Qs,Ac,Kc W=7s,8s,7c,8c,9c E=9s,Ts,Js,Tc,Jc")
    auto = advise(big, "S", engine="fast", threads=1)
    assert auto.strategy is None and "252 consistent layouts" in auto.strategy_note
    data = auto.to_json()
    assert all(card["strategy"] is None for card in data["cards"].values()) and "252" in data["strategy_note"]


def test_the_step_budget_gives_up_and_says_so(monkeypatch):
    """The budget is a count of search steps (the same on any machine); this ending takes 50."""
    from pyanalyzer.analysis import strategy

    layout = parse_layout(FUSION)
    moves = [_card(layout, "8h"), _card(layout, "Qh")]
    monkeypatch.setattr(strategy, "STRATEGY_STEPS", 20)
    auto = advise(layout, "S", moves=moves, engine="reference", threads=1)
    assert auto.strategy is None and "gave up after 20 search steps" in auto.strategy_note
    assert auto.exact and all(a.strategy is None for a in auto.cards.values())
    always = advise(layout, "S", moves=moves, engine="reference", threads=1, strategy="always")
    assert always.strategy is not None


def test_ctrl_c_in_the_strategy_search_keeps_the_averages(monkeypatch):
    """The search calls the progress display every few steps; a display that takes Ctrl-C there
    stops it: the averages stand, the single-strategy values are left out and marked."""
    from pyanalyzer.analysis import strategy

    class CtrlC:
        label = ""

        def stage(self, label, *args, **kwargs):
            self.label = label

        def __call__(self, done, total):
            if self.label == "single strategy":
                raise KeyboardInterrupt

    monkeypatch.setattr(strategy, "PROGRESS_EVERY", 5)
    layout = parse_layout(FUSION)
    moves = [_card(layout, "8h"), _card(layout, "Qh")]
    advice = advise(layout, "S", moves=moves, engine="reference", threads=1, progress=CtrlC())
    assert advice.exact and not advice.interrupted and advice.strategy_interrupted
    assert advice.strategy is None and "interrupted after 5 search steps" in advice.strategy_note
    assert advice.cards[_card(layout, "Qd")].expected == 1.0
    assert advice.to_json()["interrupted"] is True and "INTERRUPTED" in advice.headline()


def test_a_cancel_stops_the_strategy_search_and_keeps_the_averages(monkeypatch):
    """The web's cancel (advise's ``stop_when``) is asked every few search steps too; the
    enumeration asks it with the histograms after each block, the strategy search with none."""
    from pyanalyzer.analysis import strategy

    monkeypatch.setattr(strategy, "PROGRESS_EVERY", 5)
    layout = parse_layout(FUSION)
    moves = [_card(layout, "8h"), _card(layout, "Qh")]
    asked = []

    def cancelled(histograms):
        asked.append(histograms)
        return histograms == []

    advice = advise(layout, "S", moves=moves, engine="reference", threads=1, strategy="always", stop_when=cancelled)
    assert [] in asked and advice.exact and advice.strategy_interrupted
    assert advice.strategy is None and "interrupted after 5 search steps" in advice.strategy_note
    assert advice.cards[_card(layout, "Qd")].expected == 1.0


def test_bad_strategy_value_is_one_line_and_exit_2(capsys):
    from pyanalyzer.cli.runner import run

    assert run(["advise", FUSION, "--seat", "S", "--moves", "8h,Qh", "--strategy", "sometimes"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1 and "'sometimes'" in out.err

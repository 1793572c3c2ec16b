"""Whist: rules, PBN, layouts, solving, the DD table, Bid Whist options and ``pref table``."""

from __future__ import annotations

import doctest
import importlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.main import main
from pyanalyzer.cli.whist import table_command
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import DuplicateCardError, LayoutError, NotationError, PrefInputError
from pyanalyzer.model.cards import WHIST
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.layout_io import format_layout_file, format_one_line, parse_layout, read_layout
from pyanalyzer.model.rules import PREFERANS_RULES, WHIST_RULES, rules_for
from pyanalyzer.render.diagram import diagram
from pyanalyzer.whist import Deal, dd_table, lho, partner, random_deal, trump_from_turned, whist_layout
from pyanalyzer.whist.bid import BidWhistDeal, bid_whist_position, solve_bid_whist

REPO = Path(__file__).resolve().parent.parent
EASY = "N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543"
SQUEEZE = "N:.A3..2 ...KQJ A.2.J. .K5.Q."


@pytest.mark.parametrize("name", ["pyanalyzer.whist", "pyanalyzer.whist.deal", "pyanalyzer.whist.pbn",
                                  "pyanalyzer.whist.table", "pyanalyzer.whist.bid",
                                  "pyanalyzer.cli.whist"])
def test_docstring_examples(name):
    assert doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).failed == 0


# -- rules ---------------------------------------------------------------------


def test_whist_rules():
    rules = rules_for("whist")
    assert rules is WHIST_RULES
    assert rules.seats == ("N", "E", "S", "W") and rules.hand_size == 13 and not rules.must_trump
    assert len(rules.deck) == 52
    assert rules.side_of("E") == ("E", "W") and rules.side_name("S") == "North-South"
    assert PREFERANS_RULES.side_of("S") == ("S",) and PREFERANS_RULES.side_name("S") == "South"
    assert lho("S") == "W" and partner("N") == "S"


def test_whist_contracts():
    assert Contract.parse("s", WHIST_RULES) == Contract("tricks", None, WHIST.suits[0])
    assert Contract.parse("nt", WHIST_RULES).code == "n"
    assert str(Contract.parse("♥", WHIST_RULES)) == "♥"
    assert Contract.parse("4h", WHIST_RULES).level == 4
    with pytest.raises(NotationError, match="level must be 1 to 7"):
        Contract.parse("8h", WHIST_RULES)
    with pytest.raises(NotationError, match="unknown trump"):
        Contract.parse("x", WHIST_RULES)
    with pytest.raises(NotationError):  # Preferans still needs a level
        Contract.parse("s", PREFERANS_RULES)


def test_trump_from_turned_card():
    deal = Deal.from_pbn(EASY)
    assert trump_from_turned(deal, "W", "5d").letter == "d"
    with pytest.raises(LayoutError, match="not in the dealer's hand"):
        trump_from_turned(deal, "W", "Ad")
    layout = whist_layout(deal, dealer="W", turned="5d")
    assert layout.lead == "N" and layout.contract.trump.letter == "d"
    with pytest.raises(LayoutError, match="differs"):
        whist_layout(deal, "s", dealer="W", turned="5d")


# -- PBN -----------------------------------------------------------------------


def test_pbn_round_trip():
    rng = random.Random(3)
    for cards in (13, 7, 1):
        deal = random_deal(rng, cards)
        assert Deal.from_pbn(deal.pbn()) == deal
        for first in "NESW":
            assert Deal.from_pbn(deal.pbn(first)) == deal
    tagged = Deal.from_pbn(f'[Deal "{EASY}"]')
    assert tagged.pbn() == EASY
    assert Deal.from_pbn("e:" + EASY[2:]).pbn("E") == "E:" + EASY[2:]


@pytest.mark.parametrize("text, error, message", [
    ("AKQ.JT9.87.65432", NotationError, "starts with the first seat"),
    ("X:... ... ... ...", NotationError, "starts with the first seat"),
    ("N:A... K... Q...", NotationError, "four hands, not 3"),
    ("N:A.. K... Q... J...", NotationError, "four suits"),
    ("N:A1... K... Q... J...", PrefInputError, "unknown card '1'"),
    ("N:AA... K... Q... J...", DuplicateCardError, "duplicate card 'As'"),
    ("N:A... A... Q... J...", DuplicateCardError, "'As' is in both N and E"),
    ("N:AK... Q... J... T...", LayoutError, "wrong hand sizes"),
])
def test_pbn_errors(text, error, message):
    with pytest.raises(error, match=message):
        Deal.from_pbn(text)


# -- layouts, solving, diagram -------------------------------------------------


def test_whist_layout_formats_round_trip():
    layout = read_layout(str(REPO / "layouts" / "whist-deal.txt"))
    assert layout.rules is WHIST_RULES and layout.tricks_left == 13
    assert parse_layout(format_one_line(layout)) == layout
    assert parse_layout(format_layout_file(layout)) == layout
    assert format_one_line(layout).startswith("game=whist contract=h declarer=N lead=N ")


def test_whist_layout_errors():
    with pytest.raises(LayoutError, match="missing hand for W"):
        parse_layout("game=whist contract=s declarer=N lead=E N=As E=Ks S=Qs")
    with pytest.raises(LayoutError, match="unknown seat"):
        parse_layout("game=whist contract=s declarer=X lead=E N=As E=Ks S=Qs W=Js")
    # Any card when void: no duty to trump (Preferans would reject this discard).
    layout = parse_layout("game=whist contract=s declarer=N lead=N N=2c E=Ks S=Qh,Qs W=Jh,Js "
                          "played=Ah,3d")
    assert layout.to_move == "S"


def test_squeeze_layout_solves_with_partnerships():
    layout = read_layout(str(REPO / "layouts" / "whist-squeeze.txt"))
    for engine in ("fast", "reference"):
        result = solve(layout, engine=engine)
        assert result.declarer_tricks == 3
        assert result.verdict() == "North-South take 3 of the 3 tricks left, East-West 0."
        assert result.cards == {WHIST.card("A", "s"): 3, WHIST.card("J", "d"): 1, WHIST.card("2", "h"): 1}
        assert [t.winner for t in result.tricks][:1] == ["S"]
    # The same ending counted for East-West.
    other = whist_layout(Deal.from_layout(layout), "nt", declarer="W", lead="S")
    assert solve(other, engine="reference").declarer_tricks == 0


def test_partner_tricks_count_for_the_side():
    # N leads the ♠2 to partner S's ♠A: the trick is North-South's.
    deal = Deal.from_pbn("N:2... 3... A... 4...")
    assert solve(whist_layout(deal, "nt", "N", lead="N"), engine="fast").declarer_tricks == 1
    assert solve(whist_layout(deal, "nt", "E", lead="N"), engine="fast").declarer_tricks == 0


def test_full_deal_verdicts():
    layout = whist_layout(Deal.from_pbn(EASY), "nt", "N")
    assert solve(layout, cards=False, line=False).verdict() == "North-South take 13 tricks, East-West 0."
    bid = parse_layout(format_one_line(layout).replace("contract=n", "contract=7n"))
    assert solve(bid, cards=False, line=False).verdict() == (
        "North-South take 13 tricks, East-West 0: 7NT makes.")
    bid = parse_layout(format_one_line(layout).replace("contract=n declarer=N lead=E",
                                                       "contract=1d declarer=E lead=S"))
    assert solve(bid, cards=False, line=False).verdict() == (
        "East-West take 3 tricks, North-South 10: 1♦ goes down by 4 tricks.")


def test_four_hand_diagram():
    text = diagram(read_layout(str(REPO / "layouts" / "whist-squeeze.txt")))
    lines = text.splitlines()
    assert lines[1] == "No-trump, North-South counted, South to lead"
    north, west, south = (lines.index(x) for x in
                          ("          North", "West             East", "          South"))
    assert north < west < south
    assert "♣ -              ♣ K Q J" in lines


def test_preferans_diagram_unchanged():
    text = diagram(parse_layout("contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d"))
    assert text.splitlines()[2] == "        West             East"


# -- the DD table --------------------------------------------------------------


def test_table_of_an_easy_deal():
    table = dd_table(Deal.from_pbn(EASY))
    assert table.tricks["N"] == {"s": 13, "h": 12, "d": 10, "c": 13, "n": 13}
    assert table.tricks["W"] == {"s": 0, "h": 1, "d": 3, "c": 0, "n": 0}
    data = table.to_dict()
    assert list(data["table"]) == ["N", "E", "S", "W"]
    assert list(data["table"]["E"]) == ["s", "h", "d", "c", "n"]
    assert data["deal"] == EASY


def test_fast_table_equals_reference_table_on_endings(fast_backend, reference_backend):
    rng = random.Random(11)
    for cards in (1, 2, 3, 4, 3, 4):
        deal = random_deal(rng, cards)
        assert dd_table(deal, fast_backend).tricks == dd_table(deal, reference_backend).tricks, deal.pbn()


class SearchCounter:
    """A backend that also adds up the nodes of the searches it runs."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.searched = 0

    def solve(self, position):
        before = self.backend.nodes
        try:
            return self.backend.solve(position)
        finally:
            self.searched += self.backend.nodes - before

    def __getattr__(self, name):
        return getattr(self.backend, name)


def test_threads_share_out_the_denominations():
    """Two or three engines, each with its own table, give the one-thread table; every
    search is counted once (the table's nodes are its searches'; not one thread's nodes:
    an engine's table serves every denomination it takes, which share positions)."""
    rng = random.Random("table-threads")
    one = make_backend("fast", tt_size_mb=8)
    many = [SearchCounter(make_backend("fast", tt_size_mb=8)) for _ in range(3)]
    for cards in (6, 8, 13):
        deal = random_deal(rng, cards)
        for backend in (one, *many):
            backend.clear()
        alone = dd_table(deal, one)
        calls: list[int] = []
        searched = sum(backend.searched for backend in many)
        shared = dd_table(deal, many[:2] if cards < 13 else many, lambda done, total, calls=calls: calls.append(done))
        assert shared.tricks == alone.tricks, deal.pbn()
        assert [list(row) for row in shared.tricks.values()] == [["s", "h", "d", "c", "n"]] * 4
        assert shared.nodes == sum(backend.searched for backend in many) - searched > 0
        assert sorted(calls) == list(range(1, 21))
    assert dd_table(deal, "fast", threads=2).tricks == alone.tricks


def test_table_entries_equal_solve():
    deal = random_deal(random.Random(5), 5)
    table = dd_table(deal)
    for declarer in "NESW":
        for trump in ("s", "n"):
            layout = whist_layout(deal, trump, declarer)
            assert solve(layout, cards=False, line=False).declarer_tricks == table.tricks[declarer][trump]


# -- Bid Whist -----------------------------------------------------------------


def test_downtown_ranks_the_deuce_over_the_king_and_keeps_the_ace():
    deal = BidWhistDeal.from_pbn("N:2... K... 3... A...")
    assert solve_bid_whist(deal, "h", "uptown", lead="N", engine="reference").tricks == 0
    deal = BidWhistDeal.from_pbn("N:2... K... 3... 4...")
    assert solve_bid_whist(deal, "h", "downtown", lead="N", engine="reference").tricks == 1
    deal = BidWhistDeal.from_pbn("N:2... A... 3... 4...")
    assert solve_bid_whist(deal, "h", "downtown", lead="N", engine="reference").tricks == 0


def test_jokers_are_the_highest_trumps():
    # N's big joker beats W's little joker and E's trump ace; a joker lead calls for trumps.
    deal = BidWhistDeal.from_pbn("N:...+B A... .2.. ...+L")
    assert deal.tricks == 1
    assert solve_bid_whist(deal, "s", lead="N", engine="reference").tricks == 1
    deal = BidWhistDeal.from_pbn("N:A... K... .2.. ...+L")
    assert solve_bid_whist(deal, "s", lead="N", engine="reference").tricks == 0
    # After a joker lead E must follow with his only trump, the ♠2, and keep the ♥A.
    deal = BidWhistDeal.from_pbn("N:.4..+L 2.A.. .3..+B ..32.")
    position = bid_whist_position(deal, WHIST.suits[0], "uptown", "N", "N")
    position = replace(position, hands=(position.hands[0] & ~(1 << 52),) + position.hands[1:],
                       played=(52,))
    assert set(make_backend("reference").card_values(position)) == {0}
    with pytest.raises(LayoutError, match="wrong hand sizes"):
        BidWhistDeal.from_pbn("N:.4..+L 2.A..+B .3.. ..32.")


def test_bid_whist_no_trump_with_a_joker_is_refused():
    deal = BidWhistDeal.from_pbn("N:A...+B K..Q. Q..J. J..T.")
    with pytest.raises(LayoutError, match="no-trump with a joker"):
        solve_bid_whist(deal, "nt")


def test_bid_whist_fast_equals_reference(fast_backend, reference_backend):
    rng = random.Random(17)
    for i in range(30):
        pack = [(s, r) for s in range(4) for r in range(13)] + [("J", "B"), ("J", "L")]
        rng.shuffle(pack)
        size = 1 + i % 4
        hands, jokers = {}, {}
        for n, seat in enumerate("NESW"):
            part = pack[n * size:(n + 1) * size]
            hands[seat] = [WHIST.cards[s * 13 + r] for s, r in part if s != "J"]
            jokers[seat] = "".join(r for s, r in part if s == "J")
        from pyanalyzer.model.hand import Hand

        deal = BidWhistDeal({s: Hand(c, WHIST) for s, c in hands.items()}, jokers)
        assert BidWhistDeal.from_pbn(deal.pbn()).pbn() == deal.pbn()
        trump = WHIST.suits[i % 4]
        for ranking in ("uptown", "downtown"):
            for lead in "NE":
                position = bid_whist_position(deal, trump, ranking, "N", lead)
                assert fast_backend.solve(position) == reference_backend.solve(position), deal.pbn()


# -- the command line ----------------------------------------------------------


def run_table(*args, input=None):
    return CliRunner().invoke(table_command, list(args), input=input)


def test_table_command_text_and_json():
    result = run_table(EASY)
    assert result.exit_code == 0
    assert "      ♠  ♥  ♦  ♣ NT\n   N 13 12 10 13 13" in result.output  # DDS's strain order
    result = run_table(EASY, "--json")
    data = json.loads(result.output)
    assert data["table"]["N"] == {"s": 13, "h": 12, "d": 10, "c": 13, "n": 13}
    assert data["table"]["E"]["d"] == 3


def test_table_command_threads():
    tables = [json.loads(run_table(SQUEEZE, "--json", "--threads", n, "--tt-mb", "8").output)["table"]
              for n in ("1", "3")]
    assert tables[0] == tables[1]
    result = run_table(SQUEEZE, "--threads", "0")
    assert result.exit_code == 2


def test_table_command_batch(tmp_path):
    path = tmp_path / "deals.pbn"
    path.write_text(f"# two deals and a bad line\n{EASY}\nN:A... K...\n{SQUEEZE}\n", encoding="utf-8")
    result = run_table("--batch", str(path))
    assert result.exit_code == 1  # line 3 failed
    records = [json.loads(line) for line in result.output.splitlines()]
    assert records[0]["table"]["S"]["n"] == 13
    assert records[1] == {"error": "bad PBN deal 'N:A... K...': it needs four hands, not 2", "line": 3}
    # In a table the declarer's left leads: West, not South as in the squeeze layout.
    assert records[2]["table"]["S"]["n"] == 1 and records[2]["deal"] == SQUEEZE
    result = run_table("--batch", "-", input=EASY + "\n")
    assert json.loads(result.output)["table"]["W"]["h"] == 1


@pytest.mark.parametrize("args, message", [
    (["N:AK.. Q.J.."], "four hands"),
    ([], "give either a DEAL (PBN or a whist layout) or --batch FILE"),
    ([EASY, "--batch", "x"], "give either"),
    (["--batch", "/nonexistent/deals.pbn"], "cannot read batch file"),
])
def test_table_command_errors(args, message):
    result = run_table(*args)
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1


def test_pref_solve_accepts_whist_layouts():
    result = CliRunner().invoke(main, ["solve", str(REPO / "layouts" / "whist-squeeze.txt"), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["declarer_tricks"] == 3 and data["layout"].startswith("game=whist")
    result = CliRunner().invoke(main, ["solve", "game=whist contract=s declarer=N lead=E N=As"])
    assert result.exit_code == 2 and "missing hand for E" in result.output


def test_dd_table_reports_progress_after_each_search():
    calls = []
    deal = Deal.from_pbn("N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543")
    dd_table(deal, "fast", lambda done, total: calls.append((done, total)))
    assert calls == [(n, 20) for n in range(1, 21)]


def test_table_tt_mb_option_sets_the_table_size():
    pbn = "N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543"
    small = CliRunner().invoke(main, ["table", pbn, "--json", "--tt-mb", "1"])
    default = CliRunner().invoke(main, ["table", pbn, "--json"])
    assert small.exit_code == 0 and default.exit_code == 0
    assert json.loads(small.output)["table"] == json.loads(default.output)["table"]
    bad = CliRunner().invoke(main, ["table", pbn, "--tt-mb", "0"])
    assert bad.exit_code == 2 and "--tt-mb" in bad.output


def test_an_emptied_table_leaves_no_trace():
    """``Engine.clear`` empties the winning-rank table: a deal searched after others (the
    table emptied between deals, as ``pref table`` and the benchmarks do) takes the table
    probes a fresh engine takes, search by search. Earlier deals' entries, and those a new
    trump dropped, stay in memory past each bucket's count of used entries; a probe that
    read them (the compare takes two slots at once) changes the probes of the sixth and
    seventh deals here."""
    from pref_engine import Engine

    def probes(engine, deal):
        counts = []
        for d in ("s", "h", "d", "c", "n"):
            for leader in "NSEW":
                engine.solve(whist_layout(deal, None if d == "n" else d, "N", lead=leader).position())
                counts.append(engine.stats["tt_probes"])
        return counts

    rng = random.Random(20240607)     # (benchmarks/whist_vs_dds.py's tune deals)
    reused = Engine(tt_size_mb=256)
    for _ in range(7):
        deal = random_deal(rng, 13)
        reused.clear()
        assert probes(reused, deal) == probes(Engine(tt_size_mb=256), deal)

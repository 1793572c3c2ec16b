"""Rough edges a new user hit (issue 16, section 3): pickled cards, notations, flags, help examples."""

from __future__ import annotations

import copy
import json
import pickle
import re
import shlex
from pathlib import Path

import published_layouts
import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main
from pyanalyzer.model.cards import DECKS, PREFERANS, WHIST
from pyanalyzer.model.notation import format_card, parse_cards
from pyanalyzer.preferans.puzzles import Order, generate, parse_constraint
from pyanalyzer.whist.deal import Deal

REPO = Path(__file__).resolve().parent.parent

# -- cards keep their identity through pickling (worker processes) ---------------------------


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_card_survives_pickling(deck):
    assert pickle.loads(pickle.dumps(deck)) is deck
    for card in deck:
        again = pickle.loads(pickle.dumps(card))
        assert again == card and hash(again) == hash(card)
        assert again is card  # the deck's own card object comes back
        assert copy.deepcopy(card) is card


def test_pickled_cards_find_each_other_in_containers():
    hand = [PREFERANS.card("A", "s"), PREFERANS.card("T", "h")]
    again = pickle.loads(pickle.dumps(hand))
    assert PREFERANS.card("A", "s") in again
    assert set(again) == set(hand)
    assert WHIST.card("A", "s") != PREFERANS.card("A", "s")  # other deck, other card


def test_has_constraint_matches_with_two_jobs():
    # The worker processes receive the order (and the constraint's cards) pickled; before the
    # fix no card compared equal to its pickled copy and "S has As" never matched.
    order = Order("contract", tricks=(5, 5), constraints=(parse_constraint("S has As"),))
    puzzles = list(generate(order, 2, 3, jobs=2, max_attempts=400))
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert "As" in [c.code for c in puzzle.layout.hands["S"]]


# -- every notation on every command that takes --notation ------------------------------------

#: The ranks each notation writes after a suit symbol (README, "Notation").
NOTATION_RANKS = {
    "symbols": ("7", "8", "9", "10", "J", "Q", "K", "A"),
    "letters": ("7", "8", "9", "T", "J", "Q", "K", "A"),
    "russian": ("7", "8", "9", "10", "В", "Д", "К", "Т"),
}
SUIT_SYMBOLS = "♠♣♦♥"

# A small layout holding aces and tens (the ranks the notations write differently).
TRICKS = "contract=6s declarer=S lead=W S=As,Ts,7d W=7h,8h,Ah E=Ad,Kh,Th"
MISERE = TRICKS.replace("contract=6s", "contract=misere")
ALLPASS = "contract=allpass lead=S talon=Ah S=As,Ts,7d W=7h,8h,Jd E=Ad,Kh,Th"
TALON = ("contract=6s declarer=S lead=W talon=Ac,Ah S=As,Ks,Ts,7s,Kc,Ad,Kd,Th,8h,9h "
         "W=7c,8c,9c,Tc,Jc,Qc,7d,8d,9d,Td E=8s,9s,Js,Qs,Jd,Qd,7h,Jh,Qh,Kh")
NOTATION_RUNS = {
    "show": ["show", TRICKS],
    "solve": ["solve", TRICKS, "--cards"],
    "allpass": ["allpass", ALLPASS],
    "contract": ["contract", TRICKS],
    "contract-talon": ["contract", TALON],
    "misere": ["misere", MISERE],
    "misere-talon": ["misere", "contract=misere declarer=S lead=W S=7s,8s,7d W=Ts,As,Ad "
                     "E=Qs,Ks,Kd", "--talon", "Th,Ah"],
}


def _ranks_after_symbols(text: str) -> list[str]:
    """Every rank the output writes with a suit symbol: ``♠A``, ``♠AK10``, and diagram lines
    ``♠ A K 10`` (a column that starts with a suit symbol)."""
    ranks = []
    for line in text.splitlines():
        for segment in re.split(r" {2,}", line.strip()):
            if re.match(rf"[{SUIT_SYMBOLS}] ", segment):
                tokens = segment[2:].split()
            else:
                tokens = re.findall(rf"[{SUIT_SYMBOLS}]([^\s,.;:()]+)", segment)
            for token in tokens:
                ranks.extend(re.findall(r"10|.", token))
    return ranks


@pytest.mark.parametrize("notation", list(NOTATION_RANKS))
@pytest.mark.parametrize("name", list(NOTATION_RUNS))
def test_notation_is_applied_everywhere(name, notation):
    result = CliRunner().invoke(main, [*NOTATION_RUNS[name], "--notation", notation])
    assert result.exit_code == 0, result.output
    ranks = _ranks_after_symbols(result.stdout)
    allowed = set(NOTATION_RANKS[notation]) | {"-"}  # "-": a void
    wrong = [r for r in ranks if r not in allowed]
    assert not wrong, (wrong, result.stdout)
    if notation != "letters":
        # letters writes cards as codes (Ts, Ah) outside diagrams: the symbol-led ranks may be few
        assert ranks, result.stdout


@pytest.mark.parametrize("notation, spades", [("symbols", "♠ A 10"), ("letters", "♠ A T"),
                                             ("russian", "♠ Т 10")])
@pytest.mark.parametrize("command", ["show", "solve", "misere"])
def test_diagram_in_each_notation(command, notation, spades):
    layout = MISERE if command == "misere" else TRICKS
    result = CliRunner().invoke(main, [command, layout, "--notation", notation])
    assert result.exit_code == 0, result.output
    south = result.stdout.split("South\n", 1)[1].splitlines()
    assert south[0].strip() == spades, result.stdout


@pytest.mark.parametrize("notation, talon", [("symbols", "talon ♥A "), ("letters", "talon Ah "),
                                            ("russian", "talon ♥Т ")])
def test_allpass_verdict_talon_in_notation(notation, talon):
    result = CliRunner().invoke(main, ["allpass", ALLPASS, "--notation", notation])
    assert result.exit_code == 0, result.output
    verdict = next(line for line in result.stdout.splitlines() if line.startswith("All-pass ("))
    assert talon in verdict, verdict


# -- pref contract never guesses the declarer; each command points to the right one -------------

WEST_TEN = "W=" + published_layouts.hand_codes("test-05", "W")       # West of the published 7♣ deal


def _one_line_error(result, token):
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pref: error: ") and token in lines[0], lines


def test_ten_cards_without_declarer_is_an_error():
    # The command: before, W was silently taken as the declarer on 200 samples.
    result = CliRunner().invoke(main, ["contract", "--hand", WEST_TEN, "--contract", "6c", "--lead", "W"])
    _one_line_error(result, "--declarer")


def test_ten_cards_with_own_seat_as_declarer_is_before_the_talon():
    result = CliRunner().invoke(main, ["contract", "--hand", WEST_TEN, "--contract", "6c", "--lead", "W",
                                       "--declarer", "W", "--samples", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("6♣ by W before the talon")


@pytest.mark.parametrize("extra, token", [
    (["--declarer", "S", "--discard", "7s,8s"], "--discard"),  # a whister has no discard
    (["--declarer", "W", "--known", "7s"], "--known"),  # --known belongs to the whister's view
])
def test_options_of_the_other_view_are_refused(extra, token):
    result = CliRunner().invoke(main, ["contract", "--hand", WEST_TEN, "--contract", "6c", "--lead", "W",
                                       *extra])
    _one_line_error(result, token)


@pytest.mark.parametrize("contract, command", [("misere", "pref misere"), ("allpass", "pref allpass")])
def test_contract_points_to_the_command_for_misere_and_allpass(contract, command):
    declarer = "declarer=S " if contract == "misere" else ""
    result = CliRunner().invoke(main, ["contract", f"contract={contract} {declarer}lead=E S=7s W=As E=Ks"])
    _one_line_error(result, command)


def test_misere_states_its_verdict_once():
    result = CliRunner().invoke(main, ["misere", str(REPO / "layouts" / "kovalevskaya.txt")])
    assert result.exit_code == 0, result.output
    # Published answer (layouts/kovalevskaya.txt): caught for exactly 1 trick.
    assert result.stdout.count("for 1 trick") == 1, result.stdout  # (the source says "for exactly")
    assert not any(line.startswith("Misère caught") for line in result.stdout.splitlines())
    assert "The defenders catch South's misère for 1 trick." in result.stdout


def test_symmetry_note_says_what_was_solved():
    # No interchangeable suits: South holds different ranks in every suit.
    exact = CliRunner().invoke(main, ["contract", "--hand", "S=As,Ks,Qs,Js,Ts,9s,8s,Ac,Kc,Ad",
                                      "--discard", "Ah,Kh", "--contract", "10s", "--lead", "S"])
    assert "exact over all 184,756 splits (each solved: no interchangeable suits)" in exact.stdout
    # South void in diamonds and hearts: those two suits are interchangeable, and the splits
    # pair up (a split and its suit-swapped image) except the self-symmetric ones.
    void = CliRunner().invoke(main, ["contract", "--hand", "S=As,Ks,Qs,Js,Ts,9s,8s,7s,Ac,Kc",
                                     "--discard", "Qc,Jc", "--contract", "10s", "--lead", "S", "--json"])
    data = json.loads(void.stdout)
    assert data["splits"] == 184756 and data["splits"] // 2 < data["solves"] < data["splits"]
    text = CliRunner().invoke(main, ["contract", "--hand", "S=As,Ks,Qs,Js,Ts,9s,8s,7s,Ac,Kc",
                                     "--discard", "Qc,Jc", "--contract", "10s", "--lead", "S"])
    assert (f"exact over all 184,756 splits ({data['solves']:,} distinct layouts solved, the others "
            "the same up to interchangeable suits)") in text.stdout


# -- every example in every command's --help runs ------------------------------------------------

#: Example input files that stand for the user's own: the test writes or links them.
PLACEHOLDER_FILES = {
    # one one-line layout per line (pref solve --batch)
    "deals.txt": "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh\n"
                 "contract=misere declarer=S lead=W S=7s,8d W=As,Ad E=Ks,Kd\n",
    # one PBN deal per line (pref table --batch): the table help's own deal
    "deals.pbn": "N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 876.AKQ.JT95.AKQ 5432.5432.432.87\n",
}
#: A Leningrad score record, for "pref score game.txt --convention leningrad ...".
PLACEHOLDER_LINKS = {"game.txt": "layouts/records/piter-four.txt"}


def _help(command: str) -> str:
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.stdout


def _examples(command: str) -> list[str]:
    """The command lines of the help's ``Examples:`` block."""
    lines = _help(command).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Examples:")
    examples = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        examples.append(line.strip())
    return examples


COMMANDS = sorted(main.commands)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_examples(command):
    examples = _examples(command)
    assert examples and all(e.startswith(f"pref {command} ") for e in examples), examples


def _run_example(line: str, folder: Path):
    words = shlex.split(line)
    assert words[0] == "pref"
    out = None
    if ">" in words:  # the example redirects its output to a file
        at = words.index(">")
        words, out = words[:at], words[at + 1]
    result = CliRunner().invoke(main, words[1:])
    if out is not None:
        (folder / out).write_text(result.stdout)
    return result


@pytest.mark.parametrize("example", [e for c in COMMANDS for e in _examples(c)])
def test_help_example_runs(example, tmp_path, monkeypatch):
    (tmp_path / "layouts").symlink_to(REPO / "layouts")
    for name, text in PLACEHOLDER_FILES.items():
        (tmp_path / name).write_text(text)
    for name, target in PLACEHOLDER_LINKS.items():
        (tmp_path / name).symlink_to(REPO / target)
    monkeypatch.chdir(tmp_path)
    if example.startswith("pref serve "):
        # The server's examples run up to the point where it would listen and wait for ever
        # (the server itself is tested in tests/test_web.py).
        import uvicorn

        monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = _run_example(example, tmp_path)
    assert result.exit_code == 0, (example, result.output)
    assert "Traceback" not in result.output and "error" not in result.stderr


def test_table_help_deals_are_valid():
    # Every PBN deal the help quotes (in the prose too, wrapped over lines) is a full deal.
    text = " ".join(_help("table").split())
    deals = [" ".join(d.split()) for d in re.findall(r'"([NESW]:[^"]+)"', text)]
    assert len(deals) >= 2
    for deal in deals:
        hands = Deal.from_pbn(deal).hands
        assert sorted(len(hand) for hand in hands.values()) == [13, 13, 13, 13], deal


# -- pref show --json --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kovalevskaya.txt", "seven-clubs.txt", "whist-deal.txt",
                                  "allpass-talon-matters.txt"])
def test_show_json_describes_the_layout(name):
    from pyanalyzer.model.layout_io import format_one_line, parse_one_line, read_layout

    path = str(REPO / "layouts" / name)
    result = CliRunner().invoke(main, ["show", path, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    layout = read_layout(path)
    assert data["one_line"] == format_one_line(layout)
    assert format_one_line(parse_one_line(data["one_line"])) == data["one_line"]
    assert data["contract"] == layout.contract.code and data["game"] == layout.rules.game
    assert (data["declarer"], data["lead"], data["title"], data["source"]) == (
        layout.declarer, layout.lead, layout.title, layout.source)
    assert {seat: sorted(cards) for seat, cards in data["hands"].items()} == {
        seat: sorted(c.code for c in hand) for seat, hand in layout.hands.items()}
    for key in ("talon", "discard", "played"):
        assert data[key] == [c.code for c in getattr(layout, key)]


def test_show_json_refuses_a_second_format():
    result = CliRunner().invoke(main, ["show", str(REPO / "layouts" / "kovalevskaya.txt"), "--json",
                                       "--one-line"])
    _one_line_error(result, "--json")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_json(command):
    # README, "Command line": every command takes --json.
    assert "--json" in _help(command)


# -- a run without --seed draws one, uses it and says which -------------------------------------


def _contract(*args):
    return CliRunner().invoke(main, ["contract", "--hand", WEST_TEN, "--contract", "6c", "--lead", "W",
                                     *args])


def test_before_the_talon_reports_the_seed_it_drew():
    first = _contract("--declarer", "W", "--samples", "3", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert isinstance(data["seed"], int)  # was null ("seed None" in text)
    again = json.loads(_contract("--declarer", "W", "--samples", "3", "--json", "--seed",
                                 str(data["seed"])).stdout)
    assert again == data
    text = _contract("--declarer", "W", "--samples", "3")
    assert re.search(r"; seed \d+\)", text.stdout), text.stdout


def test_sampled_whister_view_reports_the_seed_it_drew():
    first = _contract("--declarer", "S", "--samples", "30", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert isinstance(data["seed"], int)
    again = json.loads(_contract("--declarer", "S", "--samples", "30", "--json", "--seed",
                                 str(data["seed"])).stdout)
    assert again["histogram"] == data["histogram"] and again["seed"] == data["seed"]
    text = _contract("--declarer", "S", "--samples", "30")
    assert re.search(r"Monte Carlo over 30 random layouts \(seed \d+\)", text.stdout), text.stdout


# -- JSON probabilities without float noise -----------------------------------------------------


def _floats(value):
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _floats(item)
    elif isinstance(value, list):
        for item in value:
            yield from _floats(item)


def test_before_talon_probability_has_no_float_noise():
    from pyanalyzer.model.contract import Contract
    from pyanalyzer.preferans.odds import TalonEstimate

    hand = published_layouts.KOVALEVSKAYA.layout.hands["S"]
    # 9 clean misères of 10: caught 1 - 0.9, which is 0.09999999999999998 in floats.
    data = TalonEstimate(hand, "S", Contract("misere"), "E", 10, 9, 1).to_dict()
    assert data["p_caught"] == 0.1
    assert all(f == float(f"{f:.10g}") for f in data["p_caught_interval"])


def test_exact_probabilities_in_json_keep_ten_significant_digits():
    result = CliRunner().invoke(main, ["contract", "--hand", "S=" + published_layouts.hand_codes("test-05", "S"),
                                       "--discard", "8s,7s", "--contract", "7c", "--lead", "S", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    made = sum(data["histogram"][7:])
    # The exact ratio (counts from the histogram) to 10 significant digits, nothing more.
    assert data["p_make"] == float(f"{made / data['splits']:.10g}")
    for value in _floats(data):
        assert value == float(f"{value:.10g}"), value


# -- Cyrillic Т (ace) and Latin T (ten) ---------------------------------------------------------


@pytest.mark.parametrize("text, token", [
    ("♠ТК ♦Д10 ♥T", "♥T"),   # a Latin T among Russian letters in one hand
    ("♠ТT", "♠ТT"),           # Cyrillic ace, Latin ten, one token
    ("Td ♠ТК", "Td"),         # compact Latin ten next to a Russian holding
    ("♦д t", "t"),            # lower case counts too
])
def test_latin_ten_among_russian_letters_is_refused(text, token):
    from pyanalyzer.errors import NotationError
    from pyanalyzer.model.notation import parse_cards

    with pytest.raises(NotationError) as info:
        parse_cards(text, PREFERANS)
    assert info.value.token == token and "write 10 for the ten" in str(info.value)


def test_russian_letters_with_10_are_read():
    from pyanalyzer.model.notation import parse_cards

    assert [c.code for c in parse_cards("♠Т10 ♦К", PREFERANS)] == ["As", "Ts", "Kd"]
    assert [c.code for c in parse_cards("♠AT ♦K", PREFERANS)] == ["As", "Ts", "Kd"]  # all Latin


def test_layout_mixing_russian_and_latin_t_is_refused():
    # Russian letters in East's hand, a Latin T in South's: one line naming the token, exit 2.
    layout = "contract=6s declarer=S lead=W S=♠AT,♦7 W=♥78,♥Т E=♦ТК,♥К"
    result = CliRunner().invoke(main, ["show", layout])
    _one_line_error(result, "'♠AT'")
    assert "write 10 for the ten" in result.stderr
    fine = CliRunner().invoke(main, ["show", layout.replace("♠AT", "♠A10")])
    assert fine.exit_code == 0, fine.output


# -- the same idea, the same flag ---------------------------------------------------------------


def test_allpass_talon_rule_and_its_old_name():
    path = str(REPO / "layouts" / "allpass-talon-matters.txt")
    new = CliRunner().invoke(main, ["allpass", path, "--talon-rule", "rostov", "--json", "--no-split"])
    old = CliRunner().invoke(main, ["allpass", path, "--convention", "rostov", "--json", "--no-split"])
    assert new.exit_code == 0 and old.exit_code == 0, (new.output, old.output)
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("seconds", "nodes")}  # noqa: E731
    assert strip(new.stdout) == strip(old.stdout)
    assert json.loads(new.stdout)["conventions"]["talon"] == "closed"  # the Rostov rule took effect
    assert "--talon-rule" in _help("allpass")


# -- one talon rule: the hand written before the talon, no discard --------------------------------

DISCARD_PUZZLES = [json.loads(line) for line in
                   (REPO / "layouts" / "puzzles" / "discard" / "puzzles.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("record", DISCARD_PUZZLES[:5], ids=lambda r: r["layout"].split("title=")[1])
def test_every_command_reads_an_open_discard_alike(record):
    """solve plays the best discard, misere/contract list every discard: the same best value.

    Expected: the puzzle set's answer and value (layouts/puzzles/discard/puzzles.jsonl, each
    proven the only good discard when the set was made), and the commands agree with each other.
    """
    from pyanalyzer.analysis.solve import solve
    from pyanalyzer.model.layout_io import parse_one_line
    from pyanalyzer.preferans.makeable import analyse_makeable
    from pyanalyzer.preferans.misere import analyse_unknown_discard

    layout = parse_one_line(record["layout"])
    result = solve(layout, line=False, cards=False)
    assert result.declarer_tricks == record["value"]
    assert {c.code for c in result.layout.discard} <= set(record["equivalent"])
    best = min if layout.contract.is_misere else max
    assert best(result.discards.values()) == record["value"]
    if layout.contract.is_misere:
        outcomes = analyse_unknown_discard(layout, layout.talon).outcomes
        assert min(o.forced for o in outcomes) == record["value"]
        command = CliRunner().invoke(main, ["misere", record["layout"], "--json"])
        assert command.exit_code == 0, command.output
        assert min(o["forced"] for o in json.loads(command.stdout)["discards"]) == record["value"]
    else:
        table = analyse_makeable(layout)
        denomination = layout.contract.trump.letter if layout.contract.trump else "n"
        assert table.best[denomination].tricks == record["value"]


def test_solve_names_the_discard_it_chose():
    record = DISCARD_PUZZLES[0]  # a misère; its unique answer is in puzzles.jsonl
    answer = " ".join(format_card(card, "symbols") for card in parse_cards(record["answer"], PREFERANS))
    result = CliRunner().invoke(main, ["solve", record["layout"], "--no-line"])
    assert result.exit_code == 0, result.output
    assert f"South's best discard with open cards: {answer} " in result.stdout
    assert f"Discard: {answer}\n" in result.stdout  # the diagram shows the hand after it
    data = json.loads(CliRunner().invoke(main, ["solve", record["layout"], "--json"]).stdout)
    codes = ",".join(card.code for card in parse_cards(record["answer"], PREFERANS))
    assert data["discards"][codes] == record["value"] and f"discard={codes}" in data["layout"]


def test_table_reads_a_whist_layout_file_and_one_line_form():
    from pyanalyzer.model.layout_io import format_one_line, read_layout

    path = REPO / "layouts" / "whist-deal.txt"
    # The file's own comment gives the deal's PBN: the same deal either way.
    pbn = next(line.split("PBN: ", 1)[1] for line in path.read_text().splitlines() if "PBN: " in line)
    from_file = CliRunner().invoke(main, ["table", str(path), "--json"])
    from_pbn = CliRunner().invoke(main, ["table", pbn, "--json"])
    assert from_file.exit_code == 0 and from_pbn.exit_code == 0, (from_file.output, from_pbn.output)
    assert json.loads(from_file.stdout)["table"] == json.loads(from_pbn.stdout)["table"]
    one_line = format_one_line(read_layout(str(path)))
    batch = CliRunner().invoke(main, ["table", "--batch", "-", "--json"], input=one_line + "\n")
    assert json.loads(batch.stdout.splitlines()[0])["table"] == json.loads(from_pbn.stdout)["table"]


def test_table_refuses_a_preferans_layout():
    result = CliRunner().invoke(main, ["table", str(REPO / "layouts" / "kovalevskaya.txt")])
    _one_line_error(result, "preferans")


# -- Whist: suits ♠ ♥ ♦ ♣, tables in DDS's strain order ----------------------------------------


def test_whist_diagram_shows_spades_hearts_diamonds_clubs():
    result = CliRunner().invoke(main, ["show", str(REPO / "layouts" / "whist-deal.txt")])
    assert result.exit_code == 0, result.output
    north = result.stdout.split("North\n", 1)[1].splitlines()[:4]
    # layouts/whist-deal.txt: N ♠KJ ♥AKQJ63 ♦AQ3 ♣A7
    assert [line.strip() for line in north] == ["♠ K J", "♥ A K Q J 6 3", "♦ A Q 3", "♣ A 7"]


def test_whist_hands_are_written_spades_hearts_diamonds_clubs():
    from pyanalyzer.model.notation import format_cards, parse_cards

    cards = parse_cards("Ac Ad Ah As", WHIST)
    assert format_cards(cards) == "♠A ♥A ♦A ♣A"
    assert format_cards(cards, "compact") == "As,Ah,Ad,Ac"
    # Preferans keeps its order of seniority ♠ ♣ ♦ ♥.
    assert format_cards(parse_cards("Ac Ad Ah As", PREFERANS)) == "♠A ♣A ♦A ♥A"


def test_table_columns_in_dds_strain_order():
    deal = "N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 876.AKQ.JT95.AKQ 5432.5432.432.87"
    result = CliRunner().invoke(main, ["table", deal])
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "NT" in line)
    # Values from endplay (DDS) for this deal: N/S ♠9 ♥10 ♦9 ♣11 NT10, E/W ♠4 ♥3 ♦3 ♣2 NT2.
    assert lines[header].split() == ["♠", "♥", "♦", "♣", "NT"]
    assert [line.split() for line in lines[header + 1:header + 5]] == [
        ["N", "9", "10", "9", "11", "10"], ["S", "9", "10", "9", "11", "10"],
        ["E", "4", "3", "3", "2", "2"], ["W", "4", "3", "3", "2", "2"]]
    data = json.loads(CliRunner().invoke(main, ["table", deal, "--json"]).stdout)
    assert list(data["table"]) == ["N", "E", "S", "W"]  # DDS's resTable: hands N E S W
    assert list(data["table"]["N"]) == ["s", "h", "d", "c", "n"]  # strains S H D C NT


#: Which command takes which shared option (README, "Command line").
SHARED_OPTIONS = {
    "--cards": {"solve", "allpass", "misere"},
    "--no-line": {"solve", "allpass", "misere"},
    "--notation": {"show", "solve", "allpass", "misere", "contract", "thousand", "advise"},
    "--engine": {"solve", "allpass", "misere", "contract", "table", "thousand", "advise"},
    "--threads": {"misere", "contract", "table", "thousand", "advise"},
    "--seed": {"misere", "contract", "puzzles", "thousand", "advise"},
    "--tt-mb": {"solve", "allpass", "table", "thousand", "serve"},
    "--svg": {"show", "solve", "misere", "contract", "thousand", "advise"},
    "--html": {"show", "solve", "misere", "contract", "thousand", "advise"},
    "--color": set(),  # on the group (pref --color never solve ...), for every command at once
    "--scheduler": {"solve", "allpass", "table", "misere", "contract", "thousand", "puzzles", "advise"},
    "--by-information": {"contract", "thousand"},
}


@pytest.mark.parametrize("option", list(SHARED_OPTIONS))
def test_shared_options_are_where_they_apply(option):
    having = {command for command in COMMANDS
              if re.search(rf"(^|[\s,/]){re.escape(option)}\b", _help(command), re.MULTILINE)}
    assert having == SHARED_OPTIONS[option]


@pytest.mark.parametrize("command, layout", [("allpass", str(REPO / "layouts" / "allpass.txt")),
                                             ("misere", str(REPO / "layouts" / "kovalevskaya.txt")),
                                             ("solve", str(REPO / "layouts" / "kovalevskaya.txt"))])
def test_cards_and_no_line_mean_the_same_everywhere(command, layout):
    run = lambda *args: CliRunner().invoke(main, [command, layout, *args])  # noqa: E731
    full = run("--cards")
    bare = run("--no-cards", "--no-line", "--tt-mb", "16") if command != "misere" else run(
        "--no-cards", "--no-line")
    assert full.exit_code == 0 and bare.exit_code == 0, (full.output, bare.output)
    assert "after each card:" in full.stdout and "after each card:" not in bare.stdout
    line_marker = "Line holding" if command == "allpass" else "Best play:"
    assert line_marker in full.stdout and line_marker not in bare.stdout
    # The answer itself does not change.
    verdict = [line for line in full.stdout.splitlines() if line.startswith(("All-pass (", "The defenders"))]
    assert len(verdict) == 1 and verdict[0] in bare.stdout.splitlines()


@pytest.mark.parametrize("notation", list(NOTATION_RANKS))
@pytest.mark.parametrize("name", ["kovalevskaya.txt", "whist-deal.txt", "allpass.txt"])
def test_file_format_in_each_notation_reads_back(name, notation):
    from pyanalyzer.model.layout_io import format_one_line, parse_layout, read_layout

    path = str(REPO / "layouts" / name)
    result = CliRunner().invoke(main, ["show", path, "--file-format", "--notation", notation])
    assert result.exit_code == 0, result.output
    assert format_one_line(parse_layout(result.stdout)) == format_one_line(read_layout(path))


def test_readme_python_example_runs_from_the_repository_root():
    """The README's Python API example, run as a newcomer would: from the checkout's root, where
    the engine's sources (solver/) sit beside the code. The installed engine is imported, not
    the unbuilt sources, and each line printed starts with what the README's comment says."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    example = readme.split("## Python API", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    expected = [line.split("#", 1)[1].strip() if "#" in line else None
                for line in example.splitlines() if line.startswith("print(")]
    done = subprocess.run([sys.executable, "-c", example], cwd=root, capture_output=True, text=True,
                          encoding="utf-8")
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    assert len(printed) == len(expected)
    checked = 0
    for line, comment in zip(printed, expected):
        if comment:
            claim = comment.split(":", 1)[0] if comment[0].isdigit() else comment
            assert line.startswith(claim.split("  ")[0]), (line, comment)
            checked += 1
    assert checked >= 4

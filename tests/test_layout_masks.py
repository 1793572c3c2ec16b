"""The batch lines read in masks (``pyanalyzer/model/layout_masks.py``) against the full reader.

The oracle is the :class:`Layout` (``layout_from_fields``): on every line, valid or not, the
masks reader either gives None (the line is then read in full: its error is the layout's) or a
layout the full reader accepts too, with the same position, one-line form, player to move and
tricks left. The lines: random layouts of every contract kind and of each game, from the first
lead and from a trick in progress, with a discard, spelled in the other accepted ways, and
mutated into bad lines of every kind the layout refuses.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from positions import play_random_cards, random_layout

from pyanalyzer.analysis.solve import LineSolution, Solution
from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.cards import DECKS, PREFERANS, Card
from pyanalyzer.model.layout_format import format_one_line
from pyanalyzer.model.layout_io import layout_from_fields, one_line_fields, read_layout, read_one_line
from pyanalyzer.model.layout_masks import LayoutMasks, read_masks


def _valid_lines(rng: random.Random) -> list[str]:
    """Layouts of every kind, written in their one-line form."""
    layouts = []
    for _ in range(150):
        layout = random_layout(rng, rng.randint(1, 10), ["6s", "7h", "8n", "9d", "10c", "misere", "allpass"])
        if rng.random() < 0.4:
            layout = play_random_cards(rng, layout, rng.randint(1, 2))
        layouts.append(layout)
    for _ in range(40):   # a full deal after the discard, and one with the discard still open
        layout = random_layout(rng, 10, ["6s", "misere", "8n"], talon_cards=2)
        layouts.append(replace(layout, talon=(), discard=layout.talon) if rng.random() < 0.7 else layout)
    whist, thousand = read_layout("layouts/whist-deal.txt"), read_layout("layouts/thousand-deal.txt")
    layouts += [play_random_cards(rng, whist, rng.randint(0, 50)) for _ in range(20)]
    layouts += [play_random_cards(rng, thousand, rng.randint(3, 20)) for _ in range(10)]
    titles = [None, None, "Study", "A study", 'say "hi"']
    return [format_one_line(replace(layout, title=rng.choice(titles))) for layout in layouts]


def _respelled(rng: random.Random, line: str) -> str:
    """The line with its keys, seats and cards spelled in other accepted ways."""
    words = []
    for word in line.split(" "):
        key, _, value = word.partition("=")
        holds_cards = key in ("S", "W", "E", "N", "discard", "played")
        if key in ("S", "W", "E", "N", "declarer", "lead") and rng.random() < 0.3:
            key, value = (key.lower(), value) if len(key) == 1 else (key, value.lower())
        if holds_cards and value != "-":
            cards = value.split(",")
            pick = rng.random()
            if pick < 0.2:
                cards = [c.lower() for c in cards]
            elif pick < 0.4:
                cards = [c.replace("T", "10") for c in cards]
            elif pick < 0.5:
                cards = [c[0] + {"s": "♠", "c": "♣", "d": "♦", "h": "♥"}[c[1]] if len(c) == 2 else c for c in cards]
            elif pick < 0.6:
                cards = [" ".join(cards)]   # blanks: a quoted value, read in full
            value = ",".join(cards)
        words.append(f'{key}="{value}"' if " " in value else f"{key}={value}")
    return " ".join(words)


def _mutated(rng: random.Random, line: str) -> str:
    """The line with one change that most often makes it a bad layout."""
    words = line.split(" ")
    hands = [i for i, word in enumerate(words) if word[:2] in ("S=", "W=", "E=", "N=")]
    cards = [c.code for c in PREFERANS]
    pick = rng.randrange(12)
    i = rng.choice(hands)
    key, _, value = words[i].partition("=")
    held = [c for c in value.split(",") if c != "-"]
    if pick == 0 and held:      # a card short
        held.pop(rng.randrange(len(held)))
    elif pick == 1:             # a card more: another hand's, or any
        held.append(rng.choice(cards))
    elif pick == 2 and held:    # a card twice in a hand
        held.append(held[0])
    elif pick == 3:             # an unknown card
        held.append(rng.choice(["Xs", "1s", "As+", "Q"]))
    elif pick == 4:
        return line.replace("discard=", "discard=7s,") if "discard=" in line else line + " discard=7s"
    elif pick == 5:
        return line + rng.choice([" talon=7s,8s", " talon=", " played=7s", " played=As,Ah,Ad,Ac"])
    elif pick == 6:
        return line + rng.choice([" foo=1", " bid=120", " trump=h", " won=S", " game=whist", " game=thousand",
                                  " =x", " =", " x", "  lead=S", " Contract=6s", " S=As s=Ks"])
    elif pick == 7:
        return " ".join(word for word in words if not word.startswith(rng.choice(["declarer=", "lead=", "contract="])))
    elif pick == 8:
        return line.replace("contract=", "contract=" + rng.choice(["5", "x", "1", "allpass "]), 1)
    elif pick == 9:
        return line.replace("lead=", "lead=" + rng.choice(["N", "X", ""]), 1)
    elif pick == 10:
        return " ".join(words[:i] + words[i + 1:])   # a hand missing
    else:
        return line + " S=As"   # a seat twice
    words[i] = f"{key}={','.join(held) or '-'}"
    return " ".join(words)


def _lines() -> list[str]:
    rng = random.Random("layout-masks")
    valid = _valid_lines(rng)
    return valid + [_respelled(rng, line) for line in valid] + [_mutated(rng, line) for line in valid * 3]


LINES = _lines()


def test_the_masks_reader_agrees_with_the_layout_on_every_line():
    accepted = refused = bad = 0
    for line in LINES:
        masks = read_masks(line)
        try:
            layout = layout_from_fields(one_line_fields(line))
        except PrefInputError as error:
            bad += 1
            assert masks is None, f"read in masks, but the layout refuses it ({error}): {line}"
            continue
        if masks is None:
            refused += 1
            continue
        accepted += 1
        assert masks.position() == layout.position(), line
        assert masks.one_line() == format_one_line(layout), line
        assert (masks.to_move, masks.tricks_left, masks.is_full_deal, masks.played) == (
            layout.to_move, layout.tricks_left, layout.tricks_left == layout.rules.hand_size and not layout.played,
            layout.played), line
        assert (masks.rules, masks.contract, masks.declarer, masks.lead, masks.discard) == (
            layout.rules, layout.contract, layout.declarer, layout.lead, layout.discard), line
    # Every kind of line met (regression counts of these lines: 171, 323 and 606): valid lines in
    # masks, valid lines left to the full reader, bad lines.
    assert accepted > 140 and refused > 250 and bad > 500, (accepted, refused, bad)


def test_a_line_solution_writes_what_the_layouts_solution_writes():
    """LineSolution (a layout in masks) against Solution (its Layout), the same answer given to
    both: the same verdict and JSON line, and that line as ``json.dumps`` writes its object (keys'
    order, spacing, escapes: titles with quotes; card values, a line, the discards' values)."""
    rng = random.Random("line-solutions")
    compared = 0
    for line in LINES:
        try:
            layout = layout_from_fields(one_line_fields(line))
        except PrefInputError:
            continue
        masks = read_masks(line)
        if masks is None:
            continue
        cards = {card: rng.randint(0, layout.tricks_left) for card in layout.legal_cards()}
        answer = (rng.randint(0, layout.tricks_left), list(cards)[:2], rng.choice([None, cards]),
                  rng.randint(0, 10**6), rng.random() / 1000, rng.choice(["fast", "reference"]))
        solution, line_solution = Solution(layout, *answer), LineSolution(masks, *answer)
        assert line_solution.verdict() == solution.verdict(), line
        assert line_solution.json_line() == solution.json_line(), line
        assert json.dumps(json.loads(solution.json_line()), ensure_ascii=False) == solution.json_line(), line
        compared += 1
    assert compared > 140   # (regression count: 171)
    layout = read_layout('contract=6d declarer=S lead=S S=As,Ks W=Ah,Kh E=Ad,Kd discard=7s,8s title="a \\"b\\""')
    discards = {(Card("7s"), Card("8s")): 2, (Card("7s"), Card("As")): 1}
    text = Solution(layout, 2, [], None, 10, 0.5, "fast", discards=discards).json_line()
    assert json.dumps(json.loads(text), ensure_ascii=False) == text and '"discards": {"' in text


@pytest.mark.parametrize("line", [
    "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh",
    "contract=misere declarer=w lead=e s=as,7d w=7h,8h e=ad,kh",
    "contract=8n declarer=E lead=S S=7d W=T♥,8h E=Ad,Kh played=10s",
    "contract=7c declarer=W lead=S S=- W=7h E=8h played=As",
    "game=whist contract=4h declarer=N lead=E N=As E=Ah S=Ad W=Ac",
    "contract=6d declarer=S lead=S S=As,Ks W=Ah,Kh E=Ad,Kd discard=7s,8s title=Study",
])
def test_common_lines_are_read_in_masks(line):
    """The lines a batch usually holds skip the full layout (else the batch runs slower unseen)."""
    assert isinstance(read_one_line(line), LayoutMasks)


@pytest.mark.parametrize("line", [
    "contract=allpass lead=S S=As W=Ks E=Qs",                            # all-pass: its own analysis
    "contract=6s declarer=S lead=S S=As,Ks W=Ah,Kh E=Ad,Kd talon=7s,8s",  # the discard still open
    "contract=6s declarer=S lead=S S=♠AK W=Ah,Kh E=Ad,Kd",                # a suit-grouped hand
    "game=thousand declarer=S lead=S won=S S=Kh,Qh W=9h,9s E=Ah,Ts",     # card points
    "contract=6s  declarer=S lead=S S=As W=Ks E=Qs =x",                  # a word without a key: its error
])
def test_other_lines_are_read_in_full(line):
    assert read_masks(line) is None


def test_answers_remembered_are_the_answers_written_afresh():
    """A batch writes each verdict and the JSON record's fields around it once per rules, contract,
    declarer, lead, cards played, tricks taken and tricks left, then reuses them
    (``_TrickAnswer._said``): every line's verdict and JSON line with the answers of all the lines
    before it remembered, in a random order, must be the ones written with nothing remembered."""
    import pyanalyzer.analysis.solve as solve

    rng = random.Random("remembered-answers")
    answers = []
    # (And endings of a few tricks from every point of a trick: the same contract, declarer, lead and
    # tricks left with another player to move.)
    endings = [format_one_line(play_random_cards(rng, random_layout(rng, rng.randint(1, 3), ["6s", "misere"]),
                                                 rng.randint(0, 2))) for _ in range(300)]
    for line in LINES + endings:
        try:
            layout = layout_from_fields(one_line_fields(line))
        except PrefInputError:
            continue
        if layout.contract.is_allpass or layout.rules.counts_points:
            continue
        masks = read_masks(line)
        for _ in range(3):
            taken = rng.randint(0, layout.tricks_left)
            answers.append(Solution(layout, taken, [], None, 7, 0.25, "fast"))
            if masks is not None:
                answers.append(LineSolution(masks, taken, [], None, 7, 0.25, "fast"))
    afresh = []
    for answer in answers:
        solve._SAID.clear()
        afresh.append((answer.verdict(), answer.json_line()))
    order = list(range(len(answers)))
    rng.shuffle(order)
    remembered = {number: (answers[number].verdict(), answers[number].json_line()) for number in order}
    assert [remembered[number] for number in range(len(answers))] == afresh
    assert len(answers) > 3000 and len(solve._SAID) > 2000   # (regression counts: 3,612 answers, 2,310 remembered)


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=lambda deck: deck.name)
def test_a_hands_codes_are_its_cards_in_display_order(deck):
    """``Deck.compact`` (each suit's texts remembered as they are met) against its
    definition: the codes of the mask's cards sorted in display order, comma-separated; ``-`` for none."""
    rng = random.Random(f"compact-{deck.name}")
    for _ in range(3000):
        mask = rng.getrandbits(len(deck)) & rng.choice([rng.getrandbits(len(deck)), -1])
        held = sorted((card for card in deck if mask >> card.index & 1), key=lambda card: card.display_key)
        assert deck.compact(mask) == (",".join(card.code for card in held) or "-"), mask

"""Misère: how many cards a proof leaves free (the measurement behind partition search).

    python benchmarks/misere_deciding.py [--set tune|report] [--positions N] [--seed SEED]
                                         [--hands H,...] [--splits N] [--part 1|2|both]

A self-contained Python search (not the engine): plain alpha-beta null-window tests of
"the declarer takes at least ``target`` tricks" in misère (no trump, 8-card suits, one
declarer against two defenders), one move per run of touching cards, a cheap misère order,
an exact table (a dict, never full) keyed rank-relative like the engine's (the owners of
the cards out in rank order), and optionally the engine's first misère rules *caught* /
*clean* (``quicktricks.misere_sure``) with deciding cards of their own. Every node returns,
with its answer, its *deciding cards* by the partition-search rule
(``solver/pref_engine/partition.pyx``):

* the winner of every trick of the proof that beat a card of its own suit;
* where every move of a seat was refuted, the bottom card of each run tried once for the
  whole run, if the run reaches the deciding cards of its suit;
* the union over the children the proof used (one child at a cut, every child else);
* a table entry's own deciding cards when the entry answers;
* *caught*: his lowest card of each suit both sides hold; *clean*: their lowest.

An entry with deciding cards stands for every position with the same shape (cards per suit
of each seat), the same leader and the same owners of the cards out from the top of each
suit down to its lowest deciding card; the cards below are *free* (interchangeable).

Part 1: ``N`` random deals of 3-7 tricks, the declarer seat 0, each with every seat on
lead; the value from the tests at ``value`` (succeeds) and ``value + 1`` (fails), checked
against the engine (a mismatch stops the run); the search with *caught*/*clean*. Per
tricks left and per test: cards out, deciding cards, free cards, and the positions the
root's entry stands for (the ways to deal the free cards with each hand's count per suit
fixed; median, share above one); the nodes without and with the entries used.

Part 2: the enumeration setting (``benchmarks/misere_splits.py``): the first ``N`` splits
of each declarer hand in order, one table for all, MTD(f) from the last split's value.
Beside the exact table, a shadow table of the deciding-card entries of every store at 4-7
tricks left (earlier splits and earlier positions of this one), only probed, so the tree is
the exact table's: at each trick start of 4-7 tricks the exact table does not decide (the
key absent, or its bounds not deciding the target), the share a shadow entry would answer
(same shape and leader, the same owners of the deciding cards, its bound deciding the
target), also among the trick starts the engine does not decide at its root. Then the full
simulation: the splits searched again with the entries used (with and without
*caught*/*clean*, and with the engine's other sure rules as leaves that decide on every
card out), against the plain search's nodes and the engine's. The split values, and every
answer an entry gives, are checked against the engine.
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from positions import PREF_DECK, PREF_SUITS, deal_masks  # noqa: E402
from pref_engine import Engine  # noqa: E402

from layouts import SETS, split_masks  # noqa: E402
from pyanalyzer.model.position import Position  # noqa: E402

SUIT_MASKS = PREF_SUITS
SEATS = 3


def up_to(card: int) -> int:
    """``card`` and the cards below it in its suit (a mask)."""
    return ((2 << card) - 1) & SUIT_MASKS[card >> 3]


def runs_of(hand: int, out: int, legal: int) -> list[tuple[int, int]]:
    """(bottom, top) of every run of touching cards of ``hand`` among ``legal``: two cards
    of a hand touch when no other card out (any hand or the trick) lies between them."""
    runs = []
    for suit_mask in SUIT_MASKS:
        cards = legal & suit_mask
        if not cards:
            continue
        suit_out = out & suit_mask
        bottom = top = -1
        c = suit_out
        while c:
            card = (c & -c).bit_length() - 1
            c &= c - 1
            if cards >> card & 1:
                if bottom < 0:
                    bottom = card
                top = card
            elif bottom >= 0:
                runs.append((bottom, top))
                bottom = -1
        if bottom >= 0:
            runs.append((bottom, top))
    return runs


def trick_winner(trick: tuple[int, ...]) -> tuple[int, bool]:
    """The trick's winning place and whether the winner beat a card of its own suit."""
    suit = trick[0] >> 3
    best, beat = 0, False
    for i in range(1, len(trick)):
        if trick[i] >> 3 == suit:
            beat = True
            if trick[i] > trick[best]:
                best = i
    return best, beat


def relative_key(hands, out: int) -> tuple[int, int]:
    """The exact table's key of a trick start, rank-relative as the engine's
    (``transtable.pxd``): the cards out per suit and their owners in order."""
    counts = 0
    for m in SUIT_MASKS:
        counts = counts << 4 | bin(out & m).count("1")
    owners = 0
    h1, h2 = hands[1], hands[2]
    while out:
        low = out & -out
        out ^= low
        owners = owners << 2 | (1 if h1 & low else 2 if h2 & low else 0)
    return counts, owners


def extract(cards: int, out: int) -> int:
    """``cards`` numbered among the cards ``out`` (from the lowest)."""
    result, i = 0, 0
    while out:
        low = out & -out
        out ^= low
        if cards & low:
            result |= 1 << i
        i += 1
    return result


def deposit(numbers: int, out: int) -> int:
    """The cards ``out`` whose numbers among them (from the lowest) are in ``numbers``."""
    result, i = 0, 0
    while out:
        low = out & -out
        out ^= low
        if numbers >> i & 1:
            result |= low
        i += 1
    return result


class Prover:
    """Null-window misère tests with deciding cards, an exact-key table (rank-relative: every
    card out with its owner, as the engine's plain table).

    ``runs_rule`` / ``winners_rule`` off loosen the deciding-card rule (for the soundness
    test, which must then fail). ``on_trick_start(hands, leader, target, left, entry)`` is
    called at every trick start the trick count does not decide, before the table answers
    (``entry``: the exact table's [lower, lower cards, upper, upper cards] or None);
    ``on_store(hands, leader, left, reached, target, cards)`` at every store.
    ``partition``: a :class:`ShadowTable` the search also stores to and, where the exact
    table does not decide, answers from (partition search; the answer's deciding cards are
    then every card out down to the entry's lowest of each suit). ``sure(hands, leader,
    target)``: True / False where a sure rule answers at a trick start (after the tables),
    else None; its deciding cards are taken to be every card out (no rule's own).
    ``caught_clean``: the engine's first misère rules (``quicktricks.misere_sure``) at trick
    starts, before the table, with their own deciding cards (:meth:`caught_or_clean`;
    ``caught_clean_cards`` off: none, the loosened rule).
    """

    def caught_or_clean(self, hands, leader: int) -> tuple[bool | None, int]:
        """As ``quicktricks.misere_sure``: True if he must take every trick left (*caught*:
        in every suit both sides hold, his lowest card beats all of theirs; he is on lead or
        the leader holds such a suit), False if he takes none (*clean*: his highest below
        all of theirs; a defender is on lead or the leader holds such a suit), else None.
        The deciding cards: per suit both sides hold, his lowest card (caught: the cards
        below it are all theirs) or their lowest (clean: the cards below it are all his)."""
        mine = hands[self.declarer]
        theirs = 0
        for seat in range(SEATS):
            if seat != self.declarer:
                theirs |= hands[seat]
        caught = clean = True
        caught_cards = clean_cards = shared = 0
        for m in SUIT_MASKS:
            my_cards, their_cards = mine & m, theirs & m
            if my_cards and their_cards:
                shared |= m
                my_low, their_low = my_cards & -my_cards, their_cards & -their_cards
                caught = caught and my_low.bit_length() > their_cards.bit_length()
                clean = clean and my_cards.bit_length() < their_low.bit_length()
                if not caught and not clean:
                    return None, 0
                caught_cards |= my_low
                clean_cards |= their_low
        leads_shared = hands[leader] & shared != 0
        keep = self.caught_clean_cards
        if caught and (leads_shared or leader == self.declarer):
            return True, caught_cards if keep else 0
        if clean and (leads_shared or leader != self.declarer):
            return False, clean_cards if keep else 0
        return None, 0


    def __init__(self, declarer: int, runs_rule: bool = True, winners_rule: bool = True,
                 partition: ShadowTable | None = None, sure=None, caught_clean: bool = False,
                 caught_clean_cards: bool = True):
        self.declarer = declarer
        self.sure = sure
        self.caught_clean = caught_clean
        self.caught_clean_cards = caught_clean_cards
        self.runs_rule = runs_rule
        self.winners_rule = winners_rule
        self.partition = partition
        self.table: dict = {}
        self.nodes = 0
        self.on_trick_start = None
        self.on_store = None

    def reaches(self, hands: tuple[int, ...], leader: int, target: int) -> tuple[bool, int]:
        """Can the defenders make the declarer take ``target`` tricks from this trick start?
        The answer and its deciding cards (a mask)."""
        left = bin(hands[leader]).count("1")
        return self._search(tuple(hands), leader, (), target, left)

    def _order(self, seat: int, trick: tuple[int, ...], runs: list[tuple[int, int]]) -> list:
        """Misère's cheap order: the declarer ducks (his highest card under the trick's
        winner; else, last to play, his highest; else his lowest above), leads low and
        discards high; a defender leads low, follows under the declarer's winning card
        with his highest such card, else low, and discards high."""
        if not trick:
            return sorted(runs, key=lambda r: r[0] & 7)
        suit = trick[0] >> 3
        if runs[0][0] >> 3 != suit:                     # a discard: high cards first
            return sorted(runs, key=lambda r: -(r[1] & 7))
        place, _ = trick_winner(trick)
        best = trick[place]
        if seat == self.declarer:
            last = len(trick) == SEATS - 1
            return sorted(runs, key=lambda r: (0, -r[1]) if r[1] < best else
                          ((1, -r[1]) if last else (1, r[0])))
        if (seat - len(trick) + place) % SEATS == self.declarer:     # he is winning the trick
            return sorted(runs, key=lambda r: (0, -r[1]) if r[1] < best else (1, r[0]))
        return sorted(runs, key=lambda r: r[0])

    def _search(self, hands, leader, trick, target, left):
        self.nodes += 1
        if target <= 0:
            return True, 0
        if target > left:
            return False, 0
        key = None
        if not trick:
            if self.caught_clean:
                answer, cards = self.caught_or_clean(hands, leader)
                if answer is not None:
                    return answer, cards
            out = hands[0] | hands[1] | hands[2]
            key = (relative_key(hands, out), leader)
            entry = self.table.get(key)
            if self.on_trick_start is not None:
                self.on_trick_start(hands, leader, target, left, entry)
            if entry is not None:
                if entry[0] >= target:
                    return True, deposit(entry[1], out)
                if entry[2] < target:
                    return False, deposit(entry[3], out)
            if self.partition is not None:
                found = self.partition.answer(hands, leader, target)
                if found is not None:
                    return found[0], top_cards(hands, found[1])
            if self.sure is not None:
                answer = self.sure(hands, leader, target)
                if answer is not None:
                    return answer, hands[0] | hands[1] | hands[2]
        n = len(trick)
        seat = (leader + n) % SEATS
        hand = hands[seat]
        out = hands[0] | hands[1] | hands[2]
        for card in trick:
            out |= 1 << card
        legal = hand
        if trick:
            legal = hand & SUIT_MASKS[trick[0] >> 3] or hand
        runs = self._order(seat, trick, runs_of(hand, out, legal))
        maxer = seat != self.declarer
        result = not maxer
        cards = 0
        for bottom, _top in runs:
            child = hands[:seat] + (hand & ~(1 << bottom),) + hands[seat + 1:]
            if n == SEATS - 1:
                played = trick + (bottom,)
                place, beat = trick_winner(played)
                winner = (leader + place) % SEATS
                reached, child_cards = self._search(child, winner, (), target - (winner == self.declarer),
                                                    left - 1)
                if beat and self.winners_rule:
                    child_cards |= 1 << played[place]
            else:
                reached, child_cards = self._search(child, leader, trick + (bottom,), target, left)
            if reached == maxer:
                result = reached
                cards = child_cards
                break
            cards |= child_cards
        else:
            if self.runs_rule:
                for bottom, top in runs:
                    if top != bottom and cards & out & up_to(top):
                        cards |= 1 << bottom
        if key is not None:
            entry = self.table.get(key)
            if entry is None:
                entry = self.table[key] = [0, 0, left, 0]
            if result and target > entry[0]:
                entry[0], entry[1] = target, extract(cards, out)
            elif not result and target - 1 < entry[2]:
                entry[2], entry[3] = target - 1, extract(cards, out)
            if self.partition is not None:
                self.partition.store(hands, leader, result, target, cards)
            if self.on_store is not None:
                self.on_store(hands, leader, left, result, target, cards)
        return result, cards


# -- what an entry stands for ------------------------------------------------------------


def shape_of(hands) -> tuple:
    return tuple(bin(h & m).count("1") for h in hands for m in SUIT_MASKS)


def owners_from_top(hands) -> list[tuple[int, ...]]:
    """Per suit, the owners of the cards out from the top down."""
    seqs = []
    for m in SUIT_MASKS:
        seq = []
        for card in range(m.bit_length() - 1, m.bit_length() - 9, -1):
            for seat, h in enumerate(hands):
                if h >> card & 1:
                    seq.append(seat)
                    break
        seqs.append(tuple(seq))
    return seqs


def kept_counts(hands, cards: int) -> tuple[int, ...]:
    """Per suit, the cards out at or above the lowest deciding card of the suit."""
    out = hands[0] | hands[1] | hands[2]
    counts = []
    for m in SUIT_MASKS:
        deciding = cards & out & m
        if deciding:
            lowest = (deciding & -deciding).bit_length() - 1
            counts.append(bin(out & m & ~((1 << lowest) - 1)).count("1"))
        else:
            counts.append(0)
    return tuple(counts)


def top_cards(hands, counts) -> int:
    """The top ``counts[s]`` cards out of each suit ``s`` (a mask)."""
    out = hands[0] | hands[1] | hands[2]
    cards = 0
    for m, k in zip(SUIT_MASKS, counts):
        suit_out = out & m
        for _ in range(k):
            top = 1 << (suit_out.bit_length() - 1)
            cards |= top
            suit_out &= ~top
    return cards


def free_cards(hands, cards: int) -> int:
    """The cards out below the lowest deciding card of their suit (a mask)."""
    out = hands[0] | hands[1] | hands[2]
    free = 0
    for m in SUIT_MASKS:
        deciding = cards & out & m
        free |= out & m & (((deciding & -deciding) - 1) if deciding else m)
    return free


def positions_per_entry(hands, cards: int) -> int:
    """The ways to deal the free cards with each hand's count per suit fixed."""
    free = free_cards(hands, cards)
    ways = 1
    for m in SUIT_MASKS:
        counts = [bin(h & free & m).count("1") for h in hands]
        ways *= math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)
    return ways


def images(hands, cards: int):
    """Every position the entry of ``cards`` stands for among the same cards out: the free
    cards of each suit dealt anew, each hand's count per suit fixed."""
    import itertools

    free = free_cards(hands, cards)
    per_suit = []
    for m in SUIT_MASKS:
        suit_free = [c for c in range(32) if (free & m) >> c & 1]
        counts = [bin(h & free & m).count("1") for h in hands]
        deals = []
        for first in itertools.combinations(suit_free, counts[0]):
            rest = [c for c in suit_free if c not in first]
            for second in itertools.combinations(rest, counts[1]):
                third = [c for c in rest if c not in second]
                deals.append(tuple(sum(1 << c for c in part) for part in (first, second, third)))
        per_suit.append(deals)
    fixed = tuple(h & ~free for h in hands)
    for combo in itertools.product(*per_suit):
        yield tuple(fixed[s] | sum(d[s] for d in combo) for s in range(SEATS))


class ShadowTable:
    """Deciding-card entries, probed by shape, leader and the owners of the top cards."""

    def __init__(self):
        self.entries: dict = collections.defaultdict(dict)

    def store(self, hands, leader, reached, target, cards):
        counts = kept_counts(hands, cards)
        owners = owners_from_top(hands)
        pattern = tuple(owners[s][:counts[s]] for s in range(4))
        by_pattern = self.entries[shape_of(hands), leader].setdefault(counts, {})
        bounds = by_pattern.get(pattern)
        if bounds is None:
            bounds = by_pattern[pattern] = [0, 99]
        if reached:
            bounds[0] = max(bounds[0], target)
        else:
            bounds[1] = min(bounds[1], target - 1)

    def answer(self, hands, leader, target) -> tuple[bool, tuple[int, ...]] | None:
        """The answer of an entry whose bound decides ``target`` here and the entry's kept
        cards per suit, else None."""
        by_counts = self.entries.get((shape_of(hands), leader))
        if not by_counts:
            return None
        owners = owners_from_top(hands)
        for counts, by_pattern in by_counts.items():
            bounds = by_pattern.get(tuple(owners[s][:counts[s]] for s in range(4)))
            if bounds is not None:
                if bounds[0] >= target:
                    return True, counts
                if bounds[1] < target:
                    return False, counts
        return None


class CheckedTable(ShadowTable):
    """A deciding-card table whose every answer is checked against the engine."""

    def __init__(self, first, engine):
        super().__init__()
        self.first = first
        self.engine = engine

    def answer(self, hands, leader, target):
        found = super().answer(hands, leader, target)
        if found is not None:
            self.engine.clear()
            if self.engine.reaches(replace(self.first, hands=hands, leader=leader), target) != found[0]:
                raise AssertionError(f"a deciding-card entry answers wrong: {hands} leader {leader}")
        return found


# -- part 1: random positions ------------------------------------------------------------


def engine_value(eng, hands, leader, declarer: int = 0) -> int:
    pos = Position(tuple(hands), PREF_SUITS, None, True, leader, (),
                   tuple(s == declarer for s in range(SEATS)), False)
    return eng.solve(pos)


def prove_value(prover: Prover, hands, leader, value: int, left: int):
    """The tests at ``value`` (must succeed) and ``value + 1`` (must fail), where the trick
    count does not answer them alone: [(reached, cards)]."""
    tests = []
    for target, expected in ((value, True), (value + 1, False)):
        if 0 < target <= left:
            reached, cards = prover.reaches(hands, leader, target)
            if reached != expected:
                raise AssertionError(f"value mismatch: {hands} leader {leader} target {target}")
            tests.append((reached, cards))
    return tests


def part_random(layout_set: str, count: int, seed: str) -> None:
    eng = Engine(tt_size_mb=4)
    rng = random.Random(f"{seed}-{layout_set}")
    rows = collections.defaultdict(list)
    nodes = collections.Counter()
    for tricks in range(3, 8):
        for _ in range(count):
            hands, _ = deal_masks(rng, PREF_DECK, SEATS, tricks)
            hands = tuple(hands)
            for leader in range(SEATS):
                value = engine_value(eng, hands, leader)
                prover = Prover(declarer=0, caught_clean=True)
                partition = Prover(declarer=0, partition=ShadowTable(), caught_clean=True)
                prove_value(partition, hands, leader, value, tricks)
                nodes[tricks, "partition"] += partition.nodes
                for reached, cards in prove_value(prover, hands, leader, value, tricks):
                    free = free_cards(hands, cards)
                    rows[tricks, reached].append((bin(cards).count("1"), bin(free).count("1"),
                                                  positions_per_entry(hands, cards)))
                nodes[tricks] += prover.nodes
    print(f"\n### Part 1: {count} random deals a tricks-left, every seat on lead ({layout_set}, "
          f"seed {seed!r}); the search with *caught*/*clean*; values checked against the engine\n")
    print("| tricks left | test | tests | cards out | deciding cards (mean) | free cards (mean) |"
          " positions an entry stands for: median / mean | share of entries standing for more than one |")
    print("|---|---|---|---|---|---|---|---|")
    for (tricks, reached), data in sorted(rows.items()):
        deciding = statistics.mean(d for d, _, _ in data)
        free = statistics.mean(f for _, f, _ in data)
        ways = [w for _, _, w in data]
        print(f"| {tricks} | {'succeeds' if reached else 'fails'} | {len(data)} | {3 * tricks} |"
              f" {deciding:.1f} | {free:.2f} |"
              f" {statistics.median(ways):g} / {statistics.mean(ways):.1f} |"
              f" {sum(w > 1 for w in ways) / len(ways):.0%} |")
    print("\nnodes of the Python search by tricks left, the exact table only -> the deciding-card"
          " entries used too (each position from empty tables): "
          + ", ".join(f"{t}: {nodes[t]:,} -> {nodes[t, 'partition']:,}" for t in range(3, 8)))


# -- part 2: the enumeration setting -----------------------------------------------------


def solve_splits(prover: Prover, first, masks, eng) -> list[int]:
    """MTD(f) from the last split's value, split after split, on one prover (its table
    kept); each value checked against the engine. The nodes of each split."""
    tricks = bin(first.hands[0]).count("1")
    guess = 0
    nodes = []
    for w, e in masks:
        hands = (first.hands[0], w, e)
        before = prover.nodes
        lo, hi, t = 0, tricks, guess
        while lo < hi:
            t = min(max(t, lo + 1), hi)
            reached, _ = prover.reaches(hands, 0, t)
            if reached:
                lo, t = t, t + 1
            else:
                hi, t = t - 1, t - 1
        value = eng.solve(replace(first, hands=hands))
        if value != lo:
            raise AssertionError(f"value mismatch: split {hands}: {lo}, the engine {value}")
        guess = lo
        nodes.append(prover.nodes - before)
    return nodes


def part_splits(kind_hand: str, count: int) -> None:
    first, masks = split_masks("misere", kind_hand)
    masks = masks[:count]
    eng = Engine(tt_size_mb=16)
    root = Engine(tt_size_mb=0.25)
    shadow = ShadowTable()
    starts = collections.Counter()       # (tricks left, outcome) -> trick starts
    store_stats = collections.defaultdict(list)

    def on_trick_start(hands, leader, target, left, entry):
        if not 4 <= left <= 7:
            return
        if entry is not None and (entry[0] >= target or entry[2] < target):
            starts[left, "hit"] += 1
            return
        outcome = "miss" if entry is None else "undecided"
        starts[left, outcome] += 1
        pos = replace(first, hands=hands, leader=leader)
        root.clear()
        reached = root.reaches(pos, target)
        hard = root.stats["nodes"] > 1            # not decided at the engine's root
        starts[left, outcome + " hard"] += hard
        found = shadow.answer(hands, leader, target)
        if found is not None:
            starts[left, outcome + " answered"] += 1
            starts[left, outcome + " hard answered"] += hard
            if reached != found[0]:
                raise AssertionError(f"a deciding-card entry answers wrong: {hands} leader {leader}")

    def on_store(hands, leader, left, reached, target, cards):
        if 4 <= left <= 7:
            shadow.store(hands, leader, reached, target, cards)
            store_stats[left].append((bin(cards).count("1"), bin(free_cards(hands, cards)).count("1"),
                                      positions_per_entry(hands, cards)))

    def engine_sure(hands, leader, target):
        root.clear()
        reached = root.reaches(replace(first, hands=hands, leader=leader), target)
        return reached if root.stats["nodes"] == 1 else None

    exact = Prover(declarer=0, caught_clean=True)
    exact.on_trick_start = on_trick_start
    exact.on_store = on_store
    runs = {"plain, caught/clean": solve_splits(exact, first, masks, eng)}
    runs["partition, caught/clean"] = solve_splits(
        Prover(0, partition=CheckedTable(first, root), caught_clean=True), first, masks, eng)
    runs["plain"] = solve_splits(Prover(0), first, masks, eng)
    runs["partition"] = solve_splits(Prover(0, partition=CheckedTable(first, root)), first, masks, eng)
    runs["plain, caught/clean, sure"] = solve_splits(Prover(0, caught_clean=True, sure=engine_sure),
                                                     first, masks, eng)
    runs["partition, caught/clean, sure"] = solve_splits(
        Prover(0, partition=CheckedTable(first, root), caught_clean=True, sure=engine_sure), first, masks, eng)
    runs["engine"] = engine_splits(first, masks)

    def pct(a: int, b: int) -> str:
        return f"{a:,} ({a / max(1, b):.1%})"

    print(f"\n### Part 2: misère `{kind_hand}`, the first {len(masks):,} splits; values checked against"
          " the engine\n")
    print("The tree of the exact table with *caught*/*clean* (the shadow entries only probed; their"
          " answers checked against the engine). *Hard*: a trick start the engine does not decide at"
          " its root (from an empty table: its sure rules do not answer).\n")
    print("| tricks left | trick starts | exact table decides | misses (key absent) |"
          " answered by a deciding-card entry | hard misses | of them answered |"
          " hits not deciding | of them answered |"
          " stores: deciding / free cards (mean) | positions a stored entry stands for: median,"
          " share above one |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    total = collections.Counter()
    for left in range(7, 3, -1):
        for k in ("hit", "miss", "undecided", "miss answered", "miss hard", "miss hard answered",
                  "undecided answered"):
            total[k] += starts[left, k]
    for left in list(range(7, 3, -1)) + ["4-7"]:
        c = total if left == "4-7" else {k: starts[left, k] for k in
                                         ("hit", "miss", "undecided", "miss answered", "miss hard",
                                          "miss hard answered", "undecided answered")}
        data = [x for t in range(4, 8) for x in store_stats[t]] if left == "4-7" else store_stats[left]
        ways = [x for _, _, x in data] or [0]
        print(f"| {left} | {c['hit'] + c['miss'] + c['undecided']:,} | {c['hit']:,} | {c['miss']:,} |"
              f" {pct(c['miss answered'], c['miss'])} | {c['miss hard']:,} |"
              f" {pct(c['miss hard answered'], c['miss hard'])} | {c['undecided']:,} |"
              f" {pct(c['undecided answered'], c['undecided'])} |"
              f" {statistics.mean(d for d, _, _ in data) if data else 0:.1f} /"
              f" {statistics.mean(f for _, f, _ in data) if data else 0:.2f} |"
              f" {statistics.median(ways):g}, {sum(x > 1 for x in ways) / len(ways):.1%} |")
    print("\nFull simulation: the same splits searched with the deciding-card entries used at every"
          " trick start the exact table does not decide (*partition*); *caught/clean*: the misère"
          " rules of `misere_sure` with their deciding cards; *sure*: the engine's other sure"
          " rules as leaves (a trick start the engine decides at its root from an empty table),"
          " every card out deciding there; *engine*: `Engine.reaches`, 64 MB, the same tests.\n")
    print("| search | nodes | a split: mean / median | against its plain search |\n|---|---|---|---|")
    for name, nodes in runs.items():
        base = runs[name.replace("partition", "plain")]
        change = "" if name == "engine" else f"{sum(nodes) / sum(base) - 1:+.1%}"
        print(f"| {name} | {sum(nodes):,} | {statistics.mean(nodes):,.0f} / {statistics.median(nodes):,.0f} |"
              f" {change} |")


def engine_splits(first, masks) -> list[int]:
    """The engine's nodes a split: MTD(f) from the last split's value, one warm table."""
    eng = Engine(tt_size_mb=64)
    tricks = bin(first.hands[0]).count("1")
    guess = 0
    nodes = []
    for w, e in masks:
        pos = replace(first, hands=(first.hands[0], w, e))
        lo, hi, t, n = 0, tricks, guess, 0
        while lo < hi:
            t = min(max(t, lo + 1), hi)
            reached = eng.reaches(pos, t)
            n += eng.stats["nodes"]
            if reached:
                lo, t = t, t + 1
            else:
                hi, t = t - 1, t - 1
        guess = lo
        nodes.append(n)
    return nodes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="tune", dest="layout_set",
                        help="the seed of part 1's deals and part 2's declarer hands")
    parser.add_argument("--positions", type=int, default=100, help="part 1: random deals a tricks-left")
    parser.add_argument("--seed", default="misdec", help="part 1's seed (with the set's name)")
    parser.add_argument("--hands", help="part 2's declarer hands (default: the set's first two)")
    parser.add_argument("--splits", type=int, default=100, help="part 2: the first N splits a hand")
    parser.add_argument("--part", choices=("1", "2", "both"), default="both")
    args = parser.parse_args(argv)
    if args.part in ("1", "both"):
        part_random(args.layout_set, args.positions, args.seed)
    if args.part in ("2", "both"):
        hands = args.hands.split(",") if args.hands else SETS[args.layout_set]["hands"][:2]
        for hand in hands:
            part_splits(hand, args.splits)


if __name__ == "__main__":
    main()

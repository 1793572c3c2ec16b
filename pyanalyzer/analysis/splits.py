"""Enumeration over the unknown cards: every split (or a random sample), solved in parallel.

This is the shared machinery behind every "over all layouts" question (the
declarer's odds, the whister's odds, the misère catch probability): the known
hands are fixed, the unknown cards are dealt into the unknown hands (and
possibly an out-of-play pile such as an unseen discard) in every possible way,
and each resulting open layout is solved exactly.

Reductions, all exact:

* **suit symmetry**: non-trump suits in which every known hand holds the same
  ranks (and whose cards are worth the same points, with the same declarations
  still possible in them) are interchangeable, so splits that differ only by
  permuting them are solved once and weighted by how many they stand for;
* **a warm transposition table**: splits are handed out in lexicographic order
  in long blocks, so consecutive splits share most cards and most table entries;
  each block is solved inside the engine without the GIL. The threads' engines share one
  table of ``threads x tt_size_mb`` (:func:`pyanalyzer.engines.registry.make_backends`) and
  take consecutive blocks from one queue: the entries a split stores serve splits far later
  in the order, whichever thread solves them (markedly fewer nodes a split than a table
  each, benchmarks/RESULTS.md). Engines that do not share a table (backends passed in
  separately, a cluster's workers) take a contiguous share of the splits each instead (a
  lane, :class:`pyanalyzer.engines.executor.Lanes`), the same share in every enumeration of
  a run of them (a discard ranking's classes): each table then holds its own share's positions.

Blocks of splits run on several threads (:class:`pyanalyzer.engines.executor.Executor`),
each with its own engine (the engine releases the GIL while it searches), or on the
workers of a Dask cluster (``--scheduler``; the blocks are cut here, after the symmetry
reduction, and a sample's splits are drawn here, so the result does not depend on who
solves them); the calling thread merges the blocks' histograms. Ctrl-C (or SIGTERM) stops the
workers, waits until every one has returned (so shared engines are free again),
and the tally of the splits finished so far is returned, marked partial and
interrupted: for an enumeration it proves bounds (:meth:`Tally.bounds`), for a
sample it is a smaller sample.

>>> from pyanalyzer.engines.reference import Position
>>> template = Position(hands=(0b0000_0011, 0, 0), suit_masks=(0b1111_1111,),
...     trump=None, must_trump=True, leader=0, played=(), declarer_side=(True, False, False),
...     maximize=True)
>>> tally = solve_splits(template, unknown_seats=(1, 2), sizes=(2, 2), unknown=0b0011_1100,
...     engine="reference", threads=1)
>>> tally.splits, tally.histogram
(6, [6, 0, 0])
"""

from __future__ import annotations

import itertools
import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from pyanalyzer.engines.executor import Executor, Lanes
from pyanalyzer.engines.registry import SPLITS_TT_MB, WarmEngine, make_backends, share_one_table
from pyanalyzer.model.position import iter_bits

#: ``progress(done, total)`` is called from the calling thread a few times a second.
Progress = Callable[[int, int], None]
#: Splits a block has at least on a cluster (unless a worker's share is smaller): a task there
#: costs milliseconds of round trip and of the scheduler's CPU, the solving of some 100 splits.
REMOTE_BLOCK = 1024


@dataclass
class Tally:
    """How often each value came out, weighted by the splits each solve stands for.

    A complete enumeration gives exact probabilities; a random sample gives
    estimates with a confidence interval. An enumeration stopped early
    (Ctrl-C, or ``stop_when``) proves only bounds: the splits solved are
    known, each unsolved one could go either way (:meth:`bounds`).
    """

    histogram: list[int]
    #: Splits counted (weighted): the denominator of every probability.
    splits: int = 0
    #: Distinct layouts actually solved (after the reductions).
    solves: int = 0
    #: Total splits in the enumeration (or samples asked for).
    total: int = 0
    partial: bool = False
    seconds: float = 0.0
    nodes: int = 0
    #: An enumeration of every split (complete or not); False: a random sample.
    enumeration: bool = True
    #: Stopped early by ``stop_when``: the histogram covers only part of the splits.
    pruned: bool = False
    #: Stopped by Ctrl-C (or SIGTERM).
    interrupted: bool = False

    @property
    def exact(self) -> bool:
        """True only for a complete enumeration: its probabilities are exact."""
        return self.enumeration and not self.partial

    @property
    def method(self) -> str:
        return "enumeration" if self.enumeration else "sample"

    @property
    def unsolved(self) -> int:
        """Splits of an enumeration not counted (0 for a sample)."""
        return self.total - self.splits if self.enumeration else 0

    def probability(self, predicate: Callable[[int], bool]) -> float:
        """The share of the splits counted; over all splits only when :attr:`exact`."""
        if not self.splits:
            return float("nan")
        return self.count(predicate) / self.splits

    def count(self, predicate: Callable[[int], bool]) -> int:
        return sum(n for v, n in enumerate(self.histogram) if predicate(v))

    def expected(self) -> float:
        if not self.splits:
            return float("nan")
        return sum(v * n for v, n in enumerate(self.histogram)) / self.splits

    def bounds(self, predicate: Callable[[int], bool]) -> tuple[float, float]:
        """What an enumeration proves about the share of all splits: at least those known
        to satisfy ``predicate``, at most those plus every unsolved split."""
        if not self.total:
            return float("nan"), float("nan")
        known = self.count(predicate)
        return known / self.total, (known + self.unsolved) / self.total

    def expected_bounds(self) -> tuple[float, float]:
        """Bounds on the mean over all splits: each unsolved split counts from 0 to the maximum."""
        if not self.total:
            return float("nan"), float("nan")
        known = sum(v * n for v, n in enumerate(self.histogram))
        top = len(self.histogram) - 1
        return known / self.total, (known + self.unsolved * top) / self.total

    def confidence(self, predicate: Callable[[int], bool], z: float = 1.96) -> tuple[float, float]:
        """A 95% Wilson interval for a sample's probability; an enumeration's proven bounds
        (a point when it is complete)."""
        if self.enumeration:
            return self.bounds(predicate)
        if not self.splits:
            return float("nan"), float("nan")
        return wilson_interval(self.probability(predicate), self.splits, z)


def wilson_interval(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed in ``n`` random draws (``z``: 1.96
    for 95%); of positive width even when every draw agreed."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def count_splits(unknown: int, sizes: Sequence[int]) -> int:
    """How many ways the unknown cards deal into piles of ``sizes`` (the rest out of play)."""
    left, total = bin(unknown).count("1"), 1
    for size in sizes:
        total *= math.comb(left, size)
        left -= size
    return total


def all_splits(unknown: int, sizes: Sequence[int], start: int = 0) -> Iterator[tuple[int, ...]]:
    """Every way to deal the unknown cards into piles of ``sizes``, in lexicographic order
    (from the ``start``-th on: whole subtrees are skipped by their counts, so a worker's share
    of an enumeration starts without dealing the splits before it)."""
    bits = [1 << card for card in iter_bits(unknown)]

    def deal(remaining: list[int], rest_mask: int, piles: tuple[int, ...], skip: int) -> Iterator[tuple[int, ...]]:
        size = sizes[len(piles)]
        last = len(piles) == len(sizes) - 1
        if last and size == len(remaining):  # the last pile takes what is left: one way
            if not skip:
                yield piles + (rest_mask,)
            return
        if len(piles) == len(sizes) - 2 and sizes[-1] == len(remaining) - size:
            # The next pile is the last and takes the rest: no recursion per split (this
            # loop runs once per split of an enumeration, on the thread feeding the engines).
            for chosen in itertools.islice(itertools.combinations(remaining, size), skip, None):
                mask = sum(chosen)
                yield piles + (mask, rest_mask & ~mask)
            return
        if last:
            for chosen in itertools.islice(itertools.combinations(remaining, size), skip, None):
                yield piles + (sum(chosen),)
            return
        if len(remaining) < sum(sizes[len(piles):]):   # the piles want more cards than are left
            return
        # Every choice here leaves as many cards, so as many splits below it: skip whole choices.
        below = count_splits((1 << (len(remaining) - size)) - 1, sizes[len(piles) + 1:])
        skipped, skip = divmod(skip, below)
        for chosen in itertools.islice(itertools.combinations(remaining, size), skipped, None):
            mask = sum(chosen)
            left = rest_mask & ~mask
            yield from deal([b for b in remaining if b & left], left, piles + (mask,), skip)
            skip = 0

    yield from deal(bits, unknown, (), start)


def random_splits(unknown: int, sizes: Sequence[int], count: int,
                  rng: random.Random) -> Iterator[tuple[int, ...]]:
    """``count`` independent uniformly random splits."""
    cards = list(iter_bits(unknown))
    for _ in range(count):
        rng.shuffle(cards)
        piles, start = [], 0
        for size in sizes:
            mask = 0
            for card in cards[start:start + size]:
                mask |= 1 << card
            piles.append(mask)
            start += size
        yield tuple(piles)


def declaration_masks(template) -> list[tuple[int, int]]:
    """The template's declarations as ``(cards mask, points)`` (the Position's form)."""
    return [(int(cards), int(points)) for cards, points in template.marriages]


def possible_declarations(template, unknown: int,
                          unknown_seats: Sequence[int] | None = None) -> set[tuple[int, int]]:
    """The declarations some hand may still make in some split: a seat holds all their cards,
    or holds some and may receive the others from ``unknown`` (any seat, when
    ``unknown_seats`` is not given: a superset, which only loses symmetry)."""
    receiving = range(len(template.hands)) if unknown_seats is None else unknown_seats
    possible = set()
    for mask, points in declaration_masks(template):
        for seat, hand in enumerate(template.hands):
            reachable = hand | (unknown if seat in receiving else 0)
            if mask & ~reachable == 0:
                possible.add((mask, points))
                break
    return possible


def interchangeable_suits(template, unknown: int,
                          unknown_seats: Sequence[int] | None = None) -> list[list[int]]:
    """Groups of non-trump suits with the same ranks in every hand and among the unknown cards,
    the same card points, and the same points of the declarations still possible inside them."""
    masks = template.suit_masks
    width = [bin(m).count("1") for m in masks]
    lows = [(m & -m).bit_length() - 1 for m in masks]
    known = list(template.hands)  # the known cards of every hand, unknown seats' included
    declarations = possible_declarations(template, unknown, unknown_seats)
    in_trick = 0  # the suits of a trick in progress: the trick follows the suit led
    for card in template.played:
        in_trick |= 1 << card
    groups: dict[tuple, list[int]] = {}
    for suit, mask in enumerate(masks):
        if suit == template.trump or mask & in_trick:
            continue
        shape = (width[suit],) + tuple((h & mask) >> lows[suit] for h in known + [unknown])
        if template.card_points:
            shape += (tuple(template.card_points[card] for card in iter_bits(mask)),
                      tuple(sorted((cards >> lows[suit], points) for cards, points in declarations
                                   if cards & ~mask == 0)))
        groups.setdefault(shape, []).append(suit)
    return [g for g in groups.values() if len(g) > 1]


def _suit_permutations(template, groups: list[list[int]]) -> list[Callable[[int], int]]:
    """Every card renaming that permutes the suits inside each group (identity first)."""
    masks = template.suit_masks
    lows = [(m & -m).bit_length() - 1 for m in masks]
    per_group = [list(itertools.permutations(g)) for g in groups]
    maps = []
    for choice in itertools.product(*per_group):
        moves = []  # (mask of source suit, shift to the target suit)
        for group, image in zip(groups, choice):
            for source, target in zip(group, image):
                if source != target:
                    moves.append((masks[source], lows[target] - lows[source]))
        if not moves:
            continue

        def rename(mask: int, moves=tuple(moves)) -> int:
            out = mask
            for suit_mask, _ in moves:
                out &= ~suit_mask
            for suit_mask, shift in moves:
                part = mask & suit_mask
                out |= part << shift if shift >= 0 else part >> -shift
            return out

        maps.append(rename)
    return maps


def common_suit_groups(templates: Sequence, unknown: int,
                       unknown_seats: Sequence[int] | None = None) -> list[list[int]]:
    """The suits interchangeable in every one of ``templates``: together in a group of each."""
    keys: dict[int, tuple] = {}
    for template in templates:
        for number, group in enumerate(interchangeable_suits(template, unknown, unknown_seats)):
            for suit in group:
                keys[suit] = keys.get(suit, ()) + ((id(template), number),)
    groups: dict[tuple, list[int]] = {}
    for suit, key in keys.items():
        if len(key) == len(templates):
            groups.setdefault(key, []).append(suit)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def reduce_by_symmetry(splits: Iterable[tuple[int, ...]], templates, unknown: int,
                       unknown_seats: Sequence[int] | None = None
                       ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Keep one split of each orbit under interchangeable suits, with the orbit's size.

    ``templates``: one position, or several solved on the same splits (the suits must then be
    interchangeable in each). A renaming is used only if it maps the declarations still
    possible onto themselves (a declaration across suits, such as four aces, must map to one
    of the same points)."""
    templates = list(templates) if isinstance(templates, (list, tuple)) else [templates]
    template = templates[0]
    groups = common_suit_groups(templates, unknown, unknown_seats)
    renames = _suit_permutations(template, groups) if groups else []
    for each in templates:
        declarations = possible_declarations(each, unknown, unknown_seats)
        renames = [rename for rename in renames
                   if {(rename(cards), points) for cards, points in declarations} == declarations]
    if not renames:
        for split in splits:
            yield split, 1
        return
    for split in splits:
        images = {split}
        canonical = True
        for rename in renames:
            image = tuple(rename(m) for m in split)
            if image < split:
                canonical = False
                break
            images.add(image)
        if canonical:
            yield split, len(images)


def value_ceiling(template, unknown: int, sizes: Sequence[int]) -> int:
    """The largest value any split can have: every trick left, or every card point in play
    (the unknown cards' included) and every declaration's points."""
    known_cards = sum(bin(h).count("1") for h in template.hands)
    if not template.card_points:
        return (known_cards + len(template.played) + sum(sizes)) // len(template.hands)
    cards = unknown
    for mask in (*template.hands, *(1 << card for card in template.played)):
        cards |= mask
    return (sum(template.card_points[card] for card in iter_bits(cards))
            + sum(points for _, points in declaration_masks(template)))


@dataclass
class BlockSolver:
    """The work on one block of splits, per template: ``(histogram, splits counted (weighted),
    layouts solved, nodes)``. Every split of the block is solved for each template
    in turn on the same engine, so the templates share its table (the positions after each of
    a player's cards share most of their subtrees). Picklable (a cluster worker runs it);
    ``stop`` (a local run's) stays behind."""

    templates: tuple
    unknown_seats: tuple[int, ...]
    #: The unknown seats' cards known in advance (their template hands).
    known: tuple[int, ...]
    #: Length of the histograms: the largest value + 1.
    width: int
    stop: threading.Event | None = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "stop": None}

    def __call__(self, backend, chunk: list[tuple[tuple[int, ...], int]]) -> list[tuple[list[int], int, int, int]]:
        out = []
        for template in self.templates:
            if self.stop is not None and self.stop.is_set():
                out.append(([0] * self.width, 0, 0, 0))  # (not begun: stopped)
                continue
            before = backend.nodes
            local, counted, solves = self._solve(backend, template, chunk)
            out.append((local, counted, solves, backend.nodes - before))
        return out

    def _solve(self, backend, template, chunk) -> tuple[list[int], int, int]:
        seats = self.unknown_seats
        local = [0] * self.width
        counted = 0
        if hasattr(backend, "solve_batch"):
            # The whole block in the engine, without the GIL.
            first = list(template.hands)
            for seat, mask in zip(seats, chunk[0][0]):
                first[seat] = template.hands[seat] | mask
            values = backend.solve_batch(replace(template, hands=tuple(first)), seats, list(self.known),
                                         [split for split, _ in chunk])
            for value, (_, weight) in zip(values, chunk):
                local[value] += weight
                counted += weight
            return local, counted, len(values)  # (fewer values when a stop cut the block short)
        hands = list(template.hands)
        solves = 0
        for split, weight in chunk:
            if self.stop is not None and self.stop.is_set():
                break
            for seat, mask in zip(seats, split):
                hands[seat] = template.hands[seat] | mask
            local[backend.solve(replace(template, hands=tuple(hands)))] += weight
            counted += weight
            solves += 1
        return local, counted, solves


def cut_blocks(work: Iterable[tuple[tuple[int, ...], int]], total: int, block: int,
               workers: int, smallest: int | None = None) -> Iterator[list[tuple[tuple[int, ...], int]]]:
    """``work`` (splits with their weights, ``total`` the weights' sum) in blocks of ``block``,
    shorter towards the end (guided self-scheduling): once fewer than ``2 x workers`` full blocks
    are left, a block takes half a worker's share of the rest, down to ``smallest`` (by default an
    eighth of ``block``), so that the workers finish together instead of one of them solving the
    last long block alone.

    >>> [len(chunk) for chunk in cut_blocks(((n, 1) for n in range(1000)), 1000, 128, 2)]
    [128, 128, 128, 128, 122, 92, 69, 52, 39, 29, 22, 16, 16, 16, 15]
    """
    work = iter(work)
    smallest = max(1, block // 8 if smallest is None else min(block, smallest))
    units = counted = 0
    while True:
        # Units left: the splits left (``total`` counts by weight) at the units per split so far.
        left = (total - counted) * (units / counted if counted else 1)
        size = block if left >= 2 * workers * block else min(block, max(smallest, math.ceil(left / (2 * workers))))
        chunk = list(itertools.islice(work, size))
        if not chunk:
            return
        units += len(chunk)
        counted += sum(weight for _, weight in chunk)
        yield chunk


def solve_splits(template, unknown_seats: Sequence[int], sizes: Sequence[int], unknown: int,
                 engine: str = "fast", threads: int = 2, samples: int | None = None,
                 seed: int | None = None, progress: Progress | None = None,
                 tt_size_mb: int = SPLITS_TT_MB, block: int | None = None,
                 stop_when: Callable[[list[int]], bool] | None = None,
                 backends: Sequence | None = None,
                 dealt: tuple[Iterable[tuple[tuple[int, ...], int]], int] | None = None) -> Tally:
    """Solve the template with the unknown cards dealt every possible way (or ``samples`` times).

    ``template`` is a position (see :mod:`pyanalyzer.engines.reference`); the hand of
    each of ``unknown_seats`` gets ``sizes`` more cards from ``unknown`` (its
    template hand holds the cards already known to be there, often none).
    Unknown cards beyond the sizes are out of play. Returns the tally of values.

    ``tt_size_mb`` is each thread's share of the table (the threads' engines share one of
    ``threads x tt_size_mb``): an enumeration fills it, and with less a hard misère needs
    more nodes per split (benchmarks/RESULTS.md).
    ``backends`` (one per thread, e.g. :func:`pyanalyzer.engines.registry.make_backends`) lets
    many enumerations share engines and their tables instead of allocating new ones each time.

    ``stop_when(histogram)`` is asked after each block of splits: when it
    answers true the enumeration stops early and the tally is marked pruned
    (used to drop a candidate once it is provably worse than another).

    ``dealt = (splits, total)`` hands over splits the caller dealt itself (``(split, weight)``
    pairs, e.g. under constraints such as the voids shown by a play): an enumeration of
    ``total`` splits, or with ``samples`` given, a sample of that many.
    """
    return solve_splits_each([template], unknown_seats, sizes, unknown, engine, threads, samples, seed,
                             progress, tt_size_mb, block,
                             None if stop_when is None else (lambda histograms: stop_when(histograms[0])),
                             backends, dealt)[0]


def solve_splits_each(templates: Sequence, unknown_seats: Sequence[int], sizes: Sequence[int], unknown: int,
                      engine: str = "fast", threads: int = 2, samples: int | None = None,
                      seed: int | None = None, progress: Progress | None = None,
                      tt_size_mb: int = SPLITS_TT_MB, block: int | None = None,
                      stop_when: Callable[[list[list[int]]], bool] | None = None,
                      backends: Sequence | None = None,
                      dealt: tuple[Iterable[tuple[tuple[int, ...], int]], int] | None = None) -> list[Tally]:
    """:func:`solve_splits` for several templates over the same splits (the positions after
    each of a player's candidate cards): one tally per template. Each block of splits is solved
    for every template on one engine, so the templates share its table; ``stop_when`` gets
    the histograms, one per template. Suit symmetry is used where it holds for every template.
    """
    start = time.perf_counter()
    exact = samples is None
    work: Iterator | None = None
    if dealt is not None:
        work, total = iter(dealt[0]), dealt[1]
    elif exact:
        total = count_splits(unknown, sizes)
    else:
        total = samples
        rng = random.Random(seed)
        work = ((split, 1) for split in random_splits(unknown, sizes, samples, rng))

    max_value = max(value_ceiling(template, unknown, sizes) for template in templates)
    if backends is None:
        backends = make_backends(engine, max(1, threads), tt_size_mb)
    start_nodes = [backend.nodes for backend in backends]
    stop = threading.Event()
    executor = Executor(states=backends, remote=WarmEngine(engine, tt_size_mb))
    smallest = None   # (an eighth of a block)
    if block is None:
        # Long runs of consecutive splits per worker keep each engine's table warm.
        block = max(64, min(8192, total // (executor.workers * 4)))
        if executor.cluster is not None and block < REMOTE_BLOCK:
            # A short run on a cluster: as many equal blocks for every worker, each of at least
            # REMOTE_BLOCK splits if there are that many (not a round trip per few splits).
            rounds = max(1, total // (executor.workers * REMOTE_BLOCK))
            block = smallest = max(1, math.ceil(total / (executor.workers * rounds)))
        elif executor.cluster is not None:   # towards the end, down to REMOTE_BLOCK splits only
            smallest = max(block // 8, REMOTE_BLOCK)
    count = len(templates)
    histograms = [[0] * (max_value + 1) for _ in templates]
    solve_block = BlockSolver(tuple(templates), tuple(unknown_seats),
                              tuple(templates[0].hands[seat] for seat in unknown_seats), max_value + 1, stop)

    done, solves, block_nodes = [0] * count, [0] * count, [0] * count
    pruned = False

    def tick() -> None:
        progress(sum(done), total * count)

    if work is None and executor.cluster is None and share_one_table(backends):
        # every split, in order, from one queue: the engines share one table
        work = reduce_by_symmetry(all_splits(unknown, sizes), templates, unknown, unknown_seats)
    if work is not None:
        blocks = cut_blocks(work, total, block, executor.workers, smallest)
    else:   # every split: a lane of consecutive ones per worker
        blocks = Lanes([cut_blocks(reduce_by_symmetry(itertools.islice(all_splits(unknown, sizes, first), last - first),
                                                      templates, unknown, unknown_seats),
                                   last - first, block, 1, smallest)
                        for first, last in itertools.pairwise(
                            [total * lane // executor.workers for lane in range(executor.workers + 1)])])
    run = executor.map(solve_block, blocks, ordered=False, stop=stop, tick=tick if progress else None)
    with run:
        for results in run:
            for i, (local, counted, solved, nodes) in enumerate(results):
                for value, number in enumerate(local):
                    histograms[i][value] += number
                done[i] += counted
                solves[i] += solved
                block_nodes[i] += nodes
            if not pruned and stop_when is not None and stop_when(histograms):
                pruned = True
                run.stop()
    if executor.cluster is None:
        # Here, the engines' own counts (a block cut short by Ctrl-C did work too), shared out among
        # the templates as the blocks' counts were; on a cluster, the blocks' counts.
        engine_nodes = sum(backend.nodes - before for backend, before in zip(backends, start_nodes, strict=True))
        counted_nodes = sum(block_nodes)
        if counted_nodes != engine_nodes:
            block_nodes[-1] += engine_nodes - counted_nodes
    if progress:
        progress(sum(done), total * count)
    seconds = time.perf_counter() - start
    return [Tally(histograms[i], done[i], solves[i], total, run.interrupted or done[i] < total, seconds,
                  block_nodes[i], enumeration=exact, pruned=pruned, interrupted=run.interrupted)
            for i in range(count)]

"""What one plan guarantees when a player cannot see every card.

:class:`OneStrategyGuarantee` is the misère's unknown-discard search, general in the hidden
player: the other players choose one card for every hand he may hold (they see every hand
but his), he plays knowing his hand; the value is the tricks one plan forces on him against
all his candidate hands. :func:`misere_guarantee` asks it for a misère defender's cards at
any point of the play (``pref advise``); :mod:`pyanalyzer.preferans.misere` asks it at the
first lead.
"""

from __future__ import annotations

from dataclasses import replace

from pyanalyzer.analysis.small_search import TrickSearch, distinct_cards
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position, iter_bits


class OneStrategyGuarantee(TrickSearch):
    """What one plan guarantees against every candidate hand of one hidden player: the tricks
    forced on him (the misère with an unseen discard: the defenders' one defence against
    every discard). max over the other players' cards (one card for all candidates: they see
    every hand but his), min over his cards *and* the candidate hands.

    A node carries (as its ``extra``) the set of candidate declarer hands still
    consistent with the play; a declarer card keeps the candidates that could
    play it. With one candidate left the engine gives the open-card value; with
    several, the open-card values bound the result from above (knowing the
    discard can only help the defenders), which prunes the search.
    """

    def __init__(self, base: Position, declarer: int, backend) -> None:
        super().__init__(TrickRules.of(base), len(base.hands))
        self.base = base
        self.declarer = declarer
        self.backend = backend
        self.open_values: dict[tuple, int] = {}

    def card_values(self, candidates: list[int]) -> dict[int, int]:
        """Each legal card of the player to move now (one of the planners) -> the tricks one plan
        forces after it against every hand of ``candidates``."""
        base = self.base
        hands = base.hands[:self.declarer] + (0,) + base.hands[self.declarer + 1:]
        seat = base.to_move
        tricks = max(bin(h).count("1") for h in candidates) + 1
        legal = self.rules.legal_moves(hands[seat], base.played)
        values = {}
        for card in iter_bits(legal):
            child = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
            trick = base.played + (card,)
            if len(trick) < self.seats:
                values[card] = self.search(child, base.leader, trick, frozenset(candidates), -1, tricks)
                continue
            winner = self.rules.trick_winner(base.leader, trick)
            gain = self.gain(winner)
            if self.finished(child, frozenset(candidates)):
                values[card] = gain
            else:
                values[card] = gain + self.search(child, winner, (), frozenset(candidates), -1, tricks)
        return values

    def one_defence(self, candidates: list[int]) -> int:
        """Tricks one defence forces against every hand of ``candidates``."""
        hands = self.base.hands[:self.declarer] + (0,) + self.base.hands[self.declarer + 1:]
        tricks = max(bin(h).count("1") for h in candidates)
        return self.value(hands, self.base.leader, self.base.played, frozenset(candidates), -1, tricks + 1)

    def _open_value(self, hands, leader, played, hand: int) -> int:
        key = (hands, leader, played, hand)
        if key not in self.open_values:
            full = hands[:self.declarer] + (hand,) + hands[self.declarer + 1:]
            self.open_values[key] = self.backend.solve(replace(self.base, hands=full, leader=leader, played=played))
        return self.open_values[key]

    def known(self, hands, leader, played, candidates):
        if len(candidates) == 1:
            return self._open_value(hands, leader, played, next(iter(candidates)))
        if not played and not any(hands) and not any(candidates):
            return 0
        return None

    def finished(self, hands, candidates):
        return not any(hands) and not any(candidates)

    def bounds(self, hands, leader, candidates):
        return 0, min(self._open_value(hands, leader, (), h) for h in candidates)

    def maximising(self, seat):
        return seat != self.declarer

    def gain(self, winner):
        return int(winner == self.declarer)

    def expand(self, hands, leader, played, candidates, seat):
        if seat == self.declarer:
            # The declarer picks a card, and in doing so the worst candidate hands for the defence.
            moves: dict[int, list[int]] = {}
            for hand in candidates:
                for card in iter_bits(self.rules.legal_moves(hand, played)):
                    moves.setdefault(card, []).append(hand & ~(1 << card))
            return [(card, hands, frozenset(rest)) for card, rest in sorted(moves.items())], None
        union = 0
        for hand in candidates:
            union |= hand
        legal = list(iter_bits(self.rules.legal_moves(hands[seat], played)))
        full = hands[:self.declarer] + (union,) + hands[self.declarer + 1:]
        return [(card, hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:], candidates)
                for card in distinct_cards(legal, full, played, self.base.suit_masks)], None


#: The misère guarantee is searched against at most this many candidate declarer hands
#: (the twelve cards less any two: 66).
GUARANTEE_CANDIDATES = 66


def misere_guarantee(layout, seat: str, view, backend) -> dict | None:
    """A misère defender's cards -> the tricks one defence forces after it against every hand
    the declarer may hold (his twelve cards less the unseen discard): the question of the
    unknown-discard analysis (:class:`OneStrategyGuarantee`), asked at this point of the play.
    None when it does not apply (not a misère defender, other hands unseen, too many hands)."""
    if not layout.contract.is_misere or seat == layout.declarer:
        return None
    if view.piles[:view.hand_piles] != (layout.declarer,):
        return None
    candidates = sorted({view.known[0] | split[0] for split in view.splits()})
    if len(candidates) > GUARANTEE_CANDIDATES:
        return None
    base = layout.position()
    hidden = layout.seats.index(layout.declarer)
    search = OneStrategyGuarantee(base, hidden, backend)
    deck = layout.rules.deck
    return {deck.from_index(card): value for card, value in search.card_values(candidates).items()}

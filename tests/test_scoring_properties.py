"""Property tests: every settlement sums to zero, whole results stay close to the exact one."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pyanalyzer.model.contract import Contract
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.scoring import Deal, Sheet, convention, settle

SEATS4 = ["W", "E", "S", "N"]


@st.composite
def sheets(draw):
    n = draw(st.integers(3, 4))
    seats = SEATS4[:n]
    mountains = {s: draw(st.integers(0, 300)) for s in seats}
    pools = draw(st.one_of(st.none(), st.fixed_dictionaries({s: st.integers(0, 60) for s in seats})))
    whists = {(a, b): draw(st.integers(0, 500)) for a in seats for b in seats if a != b}
    return seats, mountains, pools, whists


@settings(max_examples=300, deadline=None)
@given(sheets(), st.integers(1, 2), st.integers(10, 40), st.data())
def test_every_settlement_sums_to_zero(sheet, correction, target, data):
    seats, mountains, pools, whists = sheet
    drawn = data.draw(st.sampled_from(seats))
    result = settle(mountains, pools=pools, target=target, whists=whists, pool_correction=correction,
                    drawn=drawn)
    assert sum(result.exact.values()) == 0
    assert sum(result.method1.values()) == 0
    assert sum(result.method2.values()) == 0
    assert sum(result.mountain_whists.values()) == 0
    assert min(result.amnestied.values()) == 0
    for seat in seats:
        assert isinstance(result.method1[seat], int) and isinstance(result.method2[seat], int)
        # Moving one mountain point costs at most 10 whists against the exact result.
        assert abs(result.method1[seat] - result.exact[seat]) <= 10
        assert abs(result.method2[seat] - result.exact[seat]) <= 10


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=2, max_size=6), st.integers(0, 50))
def test_amnesty_and_a_common_shift_change_nothing(mountains, shift):
    seats = [str(k) for k in range(len(mountains))]
    base = settle(dict(zip(seats, mountains)))
    shifted = settle({s: m + shift for s, m in zip(seats, mountains)})
    assert base.exact == shifted.exact and base.method1 == shifted.method1 and base.method2 == shifted.method2


def _contract(text):
    return Contract.parse(text, PREFERANS_RULES)


@st.composite
def deals(draw, seats):
    active = draw(st.permutations(seats))[:3]
    kind = draw(st.sampled_from(["tricks", "tricks", "tricks", "misere", "allpass", "passed"]))
    split = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    tricks = dict(zip(active, (split[0], split[1] - split[0], 10 - split[1])))
    if kind == "allpass":
        return Deal(_contract("allpass"), None, tricks)
    declarer, d1, d2 = active
    if kind == "misere":
        return Deal(_contract("misere"), declarer, {declarer: draw(st.integers(0, 10))})
    level = draw(st.integers(8, 10))  # at or above every exit level
    suit = draw(st.sampled_from("scdhn"))
    if kind == "passed":
        return Deal(_contract(f"{level}{suit}"), declarer, {}, {d1: "pass", d2: "pass"})
    decisions = draw(st.sampled_from([("whist", "whist"), ("whist", "pass"), ("pass", "whist")]))
    closed = draw(st.booleans())
    return Deal(_contract(f"{level}{suit}"), declarer, tricks, dict(zip((d1, d2), decisions)), closed)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["sochi", "leningrad", "rostov"]), st.integers(3, 4), st.data())
def test_replayed_sheets_settle_to_zero(name, n, data):
    seats = SEATS4[:n]
    overrides = data.draw(st.lists(st.sampled_from([
        "allpass_progression=1-2-4", "lone_whister_credit=own", "help_order=lowest", "close_pool=no",
        "allpass_amnesty=yes", "consolation=whisters", "pool_target=10",
    ]), max_size=3))
    rules = convention(name, overrides)
    sheet = Sheet(seats, rules)
    for deal in data.draw(st.lists(deals(seats), max_size=25)):
        sheet.play(deal)
        if rules.close_pool:
            assert all(sheet.pool[s] <= rules.pool_target for s in seats)
    result = sheet.settlement(drawn=data.draw(st.sampled_from(seats)))
    assert sum(result.exact.values()) == 0
    assert sum(result.method1.values()) == 0 == sum(result.method2.values())
    assert all(isinstance(v, Fraction) for v in result.exact.values())

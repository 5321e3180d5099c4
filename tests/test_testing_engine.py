"""dpbounds.testing: the search finds planted faults of every class the issue names, and never calls a correct
float implementation unsound.

Every implementation here is written from the papers' formulas, independently of dpbounds' code: the correct ones
round up (a sound float implementation must), the faulty ones each carry one classic bug -- an overflowing power
read as 0, a series cut at an absolute tolerance, a calibration used outside its theorem's range (Dwork-Roth
Thm A.1 needs eps < 1), float sums of the budget, a rule that changes after many rounds, an extra round.  Searches
are short (a few seconds) and seeded, with a budget in examples: the examples hypothesis tries depend only on the
seed and the budget, so a fault found here is found on every machine (no timing is asserted).
"""

from __future__ import annotations

import math

import pytest

from dpbounds.testing import CheckResult, assert_sound, check_conversion, check_filter, check_odometer
from dpbounds.testing.declarations import Unsound

#: deterministic budgets (examples); the wall clock is only a cap, generous so that a loaded machine never reaches
#: it (a search it cuts short is 'incomplete', which these tests would report as a failure)
CONV = dict(seconds=1800, max_examples=300)
FILT = dict(seconds=1800, max_examples=120)
ODO = dict(seconds=1800, max_examples=60)


def up(x: float, rel: float = 1e-12) -> float:
    """x enlarged by a relative margin, then one float up: the sound end of a float computation."""
    return math.nextafter(x + abs(x) * rel, math.inf)


def add_up(s: float, e: float) -> float:
    """s + e rounded up (TwoSum: the exact error of the float addition, Knuth TAOCP vol. 2, 4.2.2)."""
    t = s + e
    if math.isinf(t):
        return t
    bb = t - s
    err = (s - (t - bb)) + (e - bb)
    return math.nextafter(t, math.inf) if err > 0 else t


# --------------------------------------------------------------------------- conversions: CKS20 Prop. 12

ALPHAS = [1 + 10 ** (k / 40) for k in range(-160, 241)]  # 1.0001 .. 1e6 (every alpha > 1 gives a valid eps)


def cks20_eps(rho: float, delta: float) -> float:
    """CKS20 Proposition 12 (arXiv:2004.00010v5) for rho-zCDP (tau = alpha rho), min over a grid, rounded up."""
    best = math.inf
    L = -math.log(delta)
    for a in ALPHAS:
        t1 = a * rho
        t2 = (L + (a - 1) * math.log1p(-1 / a) - math.log(a)) / (a - 1)
        best = min(best, t1 + t2 + 1e-12 * (abs(t1) + abs(t2)))
    return max(math.nextafter(best, math.inf), 0.0)


def cks20_delta(rho: float, eps_g: float) -> float:
    """CKS20 Prop. 12, delta form, in logs (no overflow), min over the grid, rounded up."""
    best = math.inf
    for a in ALPHAS:
        lt = (a - 1) * (a * rho - eps_g) + a * math.log1p(-1 / a) - math.log(a - 1)
        err = 1e-13 * (abs((a - 1) * a * rho) + abs((a - 1) * eps_g) + abs(a * math.log1p(-1 / a)) + 40)
        best = min(best, math.exp(lt + err) if lt + err < 709 else math.inf)
    return up(best, 1e-12)


def cks20_delta_overflow(rho: float, eps_g: float) -> float:
    """PLANTED: the power exp((alpha - 1) alpha rho) overflows at large orders, and the overflow is read as 0."""
    best = math.inf
    for a in ALPHAS:
        try:
            t = math.exp((a - 1) * a * rho) * math.exp(-(a - 1) * eps_g) * (1 - 1 / a) ** a / (a - 1)
        except OverflowError:
            t = 0.0
        best = min(best, t)
    return up(best)


def test_correct_float_cks20_is_never_unsound():
    r = check_conversion(cks20_eps, "conversions.cks20", inputs={"rho": (1e-8, 1e4), "delta": (1e-300, 0.5)},
                         **CONV)
    assert r.verdict in ("exact", "conservative"), r.summary()
    assert r.examples > 20 and r.witness is None


@pytest.mark.tier("properties")
def test_correct_float_cks20_delta_is_never_unsound():
    r = check_conversion(cks20_delta, "conversions.cks20.delta", inputs={"rho": (1e-6, 10.0), "eps_g": (0.0, 50.0)},
                         **CONV)
    assert r.verdict in ("exact", "conservative"), r.summary()


def test_overflowing_power_is_found():
    r = check_conversion(cks20_delta_overflow, "conversions.cks20.delta",
                         inputs={"rho": (1e-6, 10.0), "eps_g": (0.0, 50.0)}, **CONV)
    assert r.verdict == "unsound", r.summary()
    w = r.witness
    assert w is not None and r.peer_value is not None and r.enclosure is not None
    assert r.peer_value < r.enclosure.lower()  # the witness really is below the certified value
    assert "cks20_delta_overflow" in r.reproducer and "conversions.cks20.delta" in r.reproducer


# --------------------------------------------------------------------------- a series: KOV15 exact delta


def kov_terms(eps: float, k: int, eps_g: float):
    """The terms of KOV15 Thm 3.3's exact delta of k-fold eps-randomized response, each as a float, in logs."""
    lz = k * math.log1p(math.exp(eps)) if eps < 30 else k * (eps + math.log1p(math.exp(-eps)))
    for l in range(k + 1):
        x = eps_g + eps * (2 * l - k)  # term = C(k,l) e^{eps(k-l)} (1 - e^x) / (1+e^eps)^k, positive iff x < 0
        if x >= 0:
            break
        lc = math.lgamma(k + 1) - math.lgamma(l + 1) - math.lgamma(k - l + 1)
        yield math.exp(lc + eps * (k - l) - lz) * -math.expm1(x), abs(lc) + eps * k + lz


def kov_exact(eps: float, k: int, eps_g: float) -> float:
    total, scale = 0.0, 0.0
    for t, mag in kov_terms(eps, k, eps_g):
        total = add_up(total, t)
        scale = max(scale, mag)
    # every term's relative error is below (mag + 10) * 2^-50; subnormal terms lose at most 5e-324 each
    return math.nextafter(total * (1 + (scale + 10) * 2.0 ** -48) + (k + 1) * 5e-324, math.inf)


def kov_cut(eps: float, k: int, eps_g: float) -> float:
    """PLANTED: the series stops at the first term below an absolute tolerance of 1e-12."""
    total = 0.0
    for t, _ in kov_terms(eps, k, eps_g):
        if t < 1e-12:
            break
        total += t
    return up(total)


KOV = {"eps": (1e-3, 2.0), "k": (1, 120), "eps_g": (0.0, 20.0)}


@pytest.mark.tier("properties")
def test_correct_float_kov15_is_never_unsound():
    r = check_conversion(kov_exact, "conversions.kov15.exact", inputs=KOV, **CONV)
    assert r.verdict in ("exact", "conservative"), r.summary()


def test_series_cut_at_an_absolute_tolerance_is_found():
    r = check_conversion(kov_cut, "conversions.kov15.exact", inputs=KOV, **CONV)
    assert r.verdict == "unsound", r.summary()
    assert r.enclosure is not None and r.peer_value < r.enclosure.lower()


# --------------------------------------------------------------------------- a calibration outside its range


def gauss_eps_reference(rho, delta):
    """The Gaussian mechanism's exact epsilon(delta) at rho = 1/(2 sigma^2) (BW18 Thm 8): a certified callable."""
    from dpbounds.accounting.conversions import eps_of
    return eps_of(rho, delta, "gauss")


def classical_gauss_eps(rho: float, delta: float) -> float:
    """PLANTED: the classical calibration sigma = sqrt(2 ln(1.25/delta)) / eps (Dwork-Roth Thm A.1, eps < 1 only),
    solved for eps and used at every rho."""
    return up(math.sqrt(2 * math.log(1.25 / delta)) * math.sqrt(2 * rho))


def bs16_eps(rho: float, delta: float) -> float:
    """BS16 Prop. 1.3: rho + 2 sqrt(rho log(1/delta)), rounded up (valid at every rho)."""
    return up(rho + 2 * math.sqrt(rho * -math.log(delta)), 1e-13)


GAUSS = {"rho": (1e-6, 100.0), "delta": (1e-12, 0.1)}


def test_calibration_outside_its_range_is_found():
    r = check_conversion(classical_gauss_eps, gauss_eps_reference, inputs=GAUSS, **CONV)
    assert r.verdict == "unsound", r.summary()
    assert "gauss_eps_reference" in r.reference and r.enclosure is not None


@pytest.mark.tier("properties")
def test_valid_conversion_is_never_unsound_against_the_exact_curve():
    r = check_conversion(bs16_eps, gauss_eps_reference, inputs=GAUSS, **CONV)
    assert r.verdict in ("exact", "conservative"), r.summary()


@pytest.mark.tier("properties")
def test_lower_claims_are_mirrored():
    """claim='lower' (a budget: larger claims more privacy): a B* rounded down is sound, one rounded up by 1e-6
    relative is not.  (The first version of b_star_down computed sqrt(L + eps_g) - sqrt(L) directly: the search
    found it 7533 ulps above B* at eps_g = 0.001, delta_g = 0.01 -- the cancellation.)"""
    def b_star_down(eps_g, delta_g):  # BS16: (sqrt(L + eps_g) - sqrt(L))^2, without the cancellation
        L = -math.log(delta_g)
        return math.nextafter((eps_g / (math.sqrt(L + eps_g) + math.sqrt(L))) ** 2 * (1 - 1e-12), 0.0)

    def b_star_over(eps_g, delta_g):
        return b_star_down(eps_g, delta_g) * (1 + 1e-6)
    dom = {"eps_g": (1e-3, 10.0), "delta_g": (1e-12, 0.3)}
    good = check_conversion(b_star_down, "conversions.bs16.b_star", inputs=dom, claim="lower", **CONV)
    assert good.verdict in ("exact", "conservative"), good.summary()
    bad = check_conversion(b_star_over, "conversions.bs16.b_star", inputs=dom, claim="lower", **CONV)
    assert bad.verdict == "unsound", bad.summary()


def test_an_error_on_a_valid_input_is_reported_with_its_witness():
    def fussy(rho, delta):
        if delta < 1e-100:
            raise ValueError("delta too small")
        return bs16_eps(rho, delta)
    r = check_conversion(fussy, "conversions.cks20", inputs={"rho": (1e-8, 1e4), "delta": (1e-300, 0.5)},
                         **CONV)
    assert r.verdict == "error" and r.witness is not None and r.witness["delta"] < 1e-100
    assert "ValueError" in str(r.peer_value)


# --------------------------------------------------------------------------- filters: RRUV16 Thm 3.4


class UpFilter:
    """A correct float64 basic-composition filter: the running sum rounded up, CONT while it is <= the budget."""

    def __init__(self, eps_g: float = 1.0) -> None:
        self.budget, self.spent, self.halted = eps_g, 0.0, False

    def try_spend(self, eps: float) -> bool:
        if self.halted:
            return False
        t = add_up(self.spent, eps)
        if t > self.budget:
            self.halted = True
            return False
        self.spent = t
        return True


class FloatSumFilter(UpFilter):
    """PLANTED: the budget check on a float running sum (0.1 + 0.2 + ... rounds down past the budget)."""

    def try_spend(self, eps: float) -> bool:
        if self.halted or self.spent + eps > self.budget:
            self.halted = True
            return False
        self.spent += eps
        return True


class ChangesAfterManyRounds(UpFilter):
    """PLANTED: after 1000 rounds the remaining budget is cached and each round compared with it alone."""

    def __init__(self, eps_g: float = 1.0) -> None:
        super().__init__(eps_g)
        self.n, self.left = 0, None

    def try_spend(self, eps: float) -> bool:
        self.n += 1
        if self.n > 1000:
            if self.left is None:
                self.left = self.budget - self.spent
            return eps <= self.left
        return super().try_spend(eps)


class ExtraRound(UpFilter):
    """PLANTED: checks the budget before adding the round's cost (one round too many)."""

    def try_spend(self, eps: float) -> bool:
        if self.halted or self.spent > self.budget:
            self.halted = True
            return False
        self.spent = add_up(self.spent, eps)
        return True


@pytest.mark.parametrize("eps_g", [1.0, 0.75])
@pytest.mark.tier("properties")
def test_correct_float_filter_is_never_unsound(eps_g):
    r = check_filter(lambda: UpFilter(eps_g), "rruv16.thm3_4.filter", budget={"eps_g": repr(eps_g)},
                     **FILT)
    assert r.verdict in ("exact", "conservative"), r.summary()
    assert r.examples > 10


def test_float_sum_of_the_budget_is_found():
    r = check_filter(FloatSumFilter, "rruv16.thm3_4.filter", budget={"eps_g": "1"}, **FILT)
    assert r.verdict in ("unsound", "unsound-rounding"), r.summary()
    w = r.witness
    assert w is not None and r.peer_value == "CONT" and r.decision == "HALT"
    exact = sum(__import__("fractions").Fraction(c["eps"]) for c in w["stream"])
    assert exact > 1  # the reference halts for a reason: the exact sum of the float costs is over the budget


@pytest.mark.tier("slow")
def test_rule_that_changes_after_many_rounds_is_found():
    r = check_filter(ChangesAfterManyRounds, "rruv16.thm3_4.filter", budget={"eps_g": "1"}, **FILT)
    assert r.verdict == "unsound", r.summary()
    assert r.witness is not None and r.witness["round"] > 1000


def test_extra_round_is_found_and_shrunk():
    r = check_filter(ExtraRound, "rruv16.thm3_4.filter", budget={"eps_g": "1"}, **FILT)
    assert r.verdict == "unsound", r.summary()
    assert r.witness is not None and r.witness["round"] <= 3  # shrunk to a few rounds
    assert "ExtraRound" in r.reproducer


def test_filter_reproducer_runs():
    r = check_filter(ExtraRound, "rruv16.thm3_4.filter", budget={"eps_g": "1"}, **FILT)
    code = r.reproducer.replace(r.reproducer.splitlines()[2], "make = ExtraRound")
    exec(compile(code, "<reproducer>", "exec"), {"ExtraRound": ExtraRound})


# --------------------------------------------------------------------------- odometers


class UpOdometer:
    """A correct float64 basic-composition odometer (RRUV16 Thm 3.4's running sum), rounded up."""

    def __init__(self) -> None:
        self.s = 0.0

    def step(self, eps: float) -> float:
        self.s = add_up(self.s, eps)
        return self.s


class Float32Odometer(UpOdometer):
    """PLANTED: after 100 rounds the running value is reported in float32 (rounded to nearest)."""

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def step(self, eps: float) -> float:
        import struct
        self.n += 1
        s = super().step(eps)
        return struct.unpack("f", struct.pack("f", s))[0] if self.n > 100 else s


def test_correct_float_odometer_is_never_unsound():
    r = check_odometer(UpOdometer, "rruv16.thm3_4.odometer", params={}, **ODO)
    assert r.verdict in ("exact", "conservative"), r.summary()


def test_odometer_under_report_after_many_rounds_is_found():
    r = check_odometer(Float32Odometer, "rruv16.thm3_4.odometer", params={}, **ODO)
    assert r.verdict in ("unsound", "unsound-rounding"), r.summary()
    assert r.witness is not None and r.witness["round"] > 100


# --------------------------------------------------------------------------- determinism and assert_sound


def test_same_seed_same_findings():
    kw = dict(inputs={"rho": (1e-6, 10.0), "eps_g": (0.0, 50.0)}, seconds=1800, max_examples=60, seed=3)
    a = check_conversion(cks20_delta_overflow, "conversions.cks20.delta", **kw)
    b = check_conversion(cks20_delta_overflow, "conversions.cks20.delta", **kw)
    assert (a.verdict, a.witness, a.examples, a.margin) == (b.verdict, b.witness, b.examples, b.margin)


def test_assert_sound_fails_with_witness_and_reproducer():
    with pytest.raises(Unsound) as e:
        assert_sound(filter=ExtraRound, reference="rruv16.thm3_4.filter", budget={"eps_g": "1"}, **FILT)
    assert "witness" in str(e.value) and "reproducer" in str(e.value)
    ok = assert_sound(conversion=bs16_eps, reference="conversions.cks20",
                      inputs={"rho": (1e-8, 1e4), "delta": (1e-300, 0.5)}, max_examples=50)
    assert isinstance(ok, CheckResult) and ok.sound


def test_an_opaque_evaluator_reference_is_judged_coarse_first_then_narrowed():
    """composition.sgm.*: the oracle asks its certified evaluator for 1e-3 relative width first (it refuses 1e-24),
    narrower only while the peer's value lies inside.  q = 1, k = 10, sigma = 1 is sqrt(10)-GDP: eps(1e-5) =
    17.85658... (the Gaussian curve, tests/test_composition_sgm.py); its float interval is the closed form, two
    certified points about 2^-30 apart around it (dpbounds.evaluation.sgm_quick), which decides values outside."""
    from dpbounds.testing.oracle import Oracle
    o = Oracle("composition.sgm.eps", claim="upper")
    pt = {"q": 1.0, "sigma": 1.0, "k": 10, "delta": 1e-5}
    lo, hi = o.fast(pt)
    assert lo <= 17.856586830107613 <= hi and hi - lo <= 2 ** -28 * hi
    assert o.verdict(pt, 17.0).verdict == "unsound"
    assert o.verdict(pt, 18.0).verdict == "conservative"
    # 2e-5 above the truth: inside the first bracket (3.8e-5 wide), so the oracle narrows to 1e-5, which separates it
    enc = o.narrowed(pt, 17.8569)
    assert enc.rel_width() <= 1e-5 and enc.hi < 17.8569
    assert o.verdict(pt, 17.8569).verdict == "conservative"


# --------------------------------------------------------------------------- negative eps (Opacus' get_privacy_spent)

def cks20_rdp_eps_unclipped(alpha: float, R: float, delta: float) -> float:
    """Balle et al. 2020 (arXiv:1905.09982v2) Thm 21 as Opacus 1.6.0 writes it: NOT clipped at 0, rounded up."""
    t = R - (math.log(delta) + math.log(alpha)) / (alpha - 1) + math.log((alpha - 1) / alpha)
    return up(t, 1e-12)


#: where the raw expression is negative: R small, delta large (at alpha = 2, R = 0, delta = 1/2 it is -log 2,
#: the hockey-stick truth of two equal distributions: H_{1/2}(P || P) = 1 - 1/2)
NEG = {"alpha": (32.0, 64.0), "R": (0.0, 0.01), "delta": (0.05, 0.5)}  # the raw expression is < 0 here


def test_negative_eps_of_the_cited_formula_is_not_an_under_report():
    assert cks20_rdp_eps_unclipped(2.0, 0.0, 0.5) < 0
    r = check_conversion(cks20_rdp_eps_unclipped, "conversions.rdp.cks20", inputs=NEG, **CONV,
                         examples=[{"alpha": 2.0, "R": 0.0, "delta": 0.5}])
    assert r.verdict in ("exact", "conservative"), r.summary()
    assert r.examples > 20 and r.skipped == 0


def test_negative_eps_below_the_formula_is_found():
    def planted(alpha: float, R: float, delta: float) -> float:  # PLANTED: 1e-3 below the formula
        return cks20_rdp_eps_unclipped(alpha, R, delta) - 1e-3
    r = check_conversion(planted, "conversions.rdp.cks20", inputs=NEG, **CONV)
    assert r.verdict == "unsound", r.summary()
    assert r.peer_value < 0 and r.peer_value < r.enclosure.lower()


def test_negative_eps_against_a_reference_clipped_at_zero_is_never_a_verdict():
    # conversions.cks20 (rho-zCDP) is inf over alpha, clipped at 0, with no raw expression: at rho = 1e-8,
    # delta = 0.5 it is 0 and cannot judge a negative eps above log(1 - delta) = -0.69 (skipped: never a pass
    # either, the check judged nothing); at delta = 1e-5 it is > 0: -1 is unsound
    r = check_conversion(lambda rho, delta: -0.5, "conversions.cks20", inputs={"rho": [1e-8], "delta": [0.5]},
                         seconds=600, max_examples=5)
    assert r.verdict not in ("unsound", "unsound-rounding", "exact", "conservative"), r.summary()
    assert r.skipped >= 1
    # below log(1 - delta), any pair of distributions violates it: H_(e^eps) >= 1 - e^eps > delta
    r = check_conversion(lambda rho, delta: -1.0, "conversions.cks20", inputs={"rho": [1e-8], "delta": [0.5]},
                         seconds=600, max_examples=5)
    assert r.verdict == "unsound", r.summary()
    r = check_conversion(lambda rho, delta: -1.0, "conversions.cks20", inputs={"rho": [1e-8], "delta": [1e-5]},
                         seconds=600, max_examples=5)
    assert r.verdict == "unsound", r.summary()


def test_negative_eps_witness_reproducer_prints_the_reference_it_was_judged_against():
    def planted(alpha: float, R: float, delta: float) -> float:  # PLANTED: 1e-3 below the formula
        return cks20_rdp_eps_unclipped(alpha, R, delta) - 1e-3
    r = check_conversion(planted, "conversions.rdp.cks20", inputs={"alpha": [2.0], "R": [0.0], "delta": [0.5]},
                         seconds=600, max_examples=3)
    assert r.verdict == "unsound" and r.peer_value < 0
    import dpbounds
    enc = dpbounds.enclose("conversions.rdp.cks20", {"alpha": 2.0, "R": 0.0, "delta": 0.5}, what="extra.unclipped")
    assert enc.lower() < 0 and "what='extra.unclipped'" in r.reproducer
    assert float(enc.lo) == pytest.approx(-math.log(2), rel=1e-15)


def test_a_negative_delta_is_still_an_under_report_where_the_true_delta_is_zero():
    # mechanisms.laplace.delta is exactly 0 for eps_g >= 1/b; a negative delta claims the impossible (H_gamma >= 0):
    # unsound, not undecided (only an eps below a reference clipped at 0 is undecided)
    r = check_conversion(lambda b, eps_g: -1e-17, "mechanisms.laplace.delta", inputs={"b": [1.0], "eps_g": [2.0]},
                         seconds=600, max_examples=3)
    assert r.verdict == "unsound", r.summary()


def test_opaque_reference_reproducer_runs():
    """A witness against an opaque evaluator (the PLD bracket, which refuses enclose's default width) has a
    reproducer whose reference line runs and shows the value outside the certified enclosure."""
    import contextlib
    import dpbounds
    import io
    from fractions import Fraction

    def five_percent_low(q, sigma, k, delta):  # a planted fault: 5% under a certified lower end
        return float(dpbounds.enclose("composition.sgm.eps", {"q": q, "sigma": sigma, "k": k, "delta": delta},
                                      rel_tol=1e-3).lo) * 0.95

    r = check_conversion(five_percent_low, "composition.sgm.eps",
                         inputs={"q": [0.01], "sigma": [1.0], "k": [10], "delta": [1e-5]}, max_examples=1, seconds=300)
    assert r.verdict == "unsound", r.summary()
    line = next(x for x in r.reproducer.splitlines() if "dpbounds.enclose(" in x)
    assert "rel_tol=" in line
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile("import dpbounds\n" + line, "<reproducer>", "exec"), {})
    assert "exact value in [" in out.getvalue()
    lo = Fraction(out.getvalue().split("[")[1].split(",")[0])
    assert r.peer_value < lo


def test_the_seed_alone_decides_the_points_whatever_the_process_imported(tmp_path, monkeypatch):
    """Hypothesis also draws literal constants of the *local* modules loaded in the process; a search must draw
    the same points for the same seed before and after a local module full of in-domain constants is imported
    (isolated_generation)."""
    import importlib
    import math as _m

    from dpbounds.testing import check_conversion

    def run():
        seen = []

        def bs16(rho, delta):
            seen.append((rho, delta))
            return rho + 2 * _m.sqrt(rho * _m.log(1 / delta)) * (1 + 1e-12)
        check_conversion(bs16, "conversions.bs16", inputs={"rho": (0.01, 1.0), "delta": (1e-9, 0.1)}, seed=3,
                         max_examples=60, seconds=600)
        return seen

    before = run()
    (tmp_path / "dpb_local_constants.py").write_text(
        "CONSTANTS = [" + ", ".join(f"{0.011 + i * 0.0123456789:.10f}" for i in range(80)) + ", "
        + ", ".join(f"{10.0 ** -j * 3.3:.3e}" for j in range(2, 9)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("dpb_local_constants")
    assert run() == before

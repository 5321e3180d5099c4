"""Spec entries of RRUV16 (seed 000) and the Nikolov notes (seed 001): evaluable, hand-checked, domain-guarded.

The expected values are typed here from the seed text and computed with a private mpmath context, independently
of spec/ and reference/.
"""

from __future__ import annotations

import re

import mpmath
import pytest
import sympy as sp

from dpbounds import spec
from dpbounds.spec.core import SEEDS, Kind, sym

from .seeds import seed_text

MY_IDS = [i for i in spec.registry() if i.startswith(("rruv16.", "nikolov17."))]
REQUIRED = [
    "rruv16.lemma2_3.pointwise_to_dp", "rruv16.lemma2_3.dp_to_pointwise", "rruv16.thm2_9", "rruv16.thm2_10",
    "rruv16.lemma3_3.odometer.thm3_4", "rruv16.lemma3_3.odometer.lemma6_4", "rruv16.lemma3_3.odometer.thm6_5",
    "rruv16.thm4_1", "rruv16.thm4_2", "rruv16.thm4_4", "rruv16.thm4_5", "rruv16.lemma4_6", "rruv16.thm5_1",
    "rruv16.thm5_1.as_derived", "rruv16.thm6_1", "rruv16.lemma6_4", "rruv16.thm6_5", "rruv16.thm6_5.eq11",
    "rruv16.thm6_5.eq12", "rruv16.thm6_5.footnote7", "rruv16.thm6_5.granularity",
    "nikolov17.thm2.as_stated", "nikolov17.thm2.as_derived", "nikolov17.lemma6", "nikolov17.thm7",
]


def _ctx(dps: int = 50) -> mpmath.MPContext:
    ctx = mpmath.MPContext()
    ctx.dps = dps
    return ctx


M = _ctx()


def _val(entry_id: str, what: str = "expr", **values) -> sp.Expr:
    """The entry's expression (or lhs / extra.<name>) at exact rational values, evaluated to 40 digits."""
    e = spec.get(entry_id)
    ex = e.all_exprs()[what]
    subs = {sym(k): sp.Rational(str(v)) for k, v in values.items()}
    return ex.xreplace(subs).doit().evalf(40)


def _close(a, b, rel=1e-30) -> bool:
    a, b = M.mpf(str(a)), M.mpf(str(b))
    return abs(a - b) <= rel * max(abs(a), abs(b), M.mpf(1))


def _seed(name: str) -> str:
    return seed_text(name)  # skips when the seed texts are absent (fails under CI=true)


# ------------------------------------------------------------------------------------------ every entry


def test_required_ids_are_registered():
    reg = spec.registry()
    missing = [i for i in REQUIRED if i not in reg]
    assert not missing, missing


@pytest.mark.parametrize("entry_id", MY_IDS)
def test_entry_is_not_reconstructed_and_cites_its_seed(entry_id):
    e = spec.get(entry_id)
    assert not e.reconstructed
    assert e.source.seed == (SEEDS["nikolov17"] if entry_id.startswith("nikolov17") else SEEDS["rruv16"])
    assert e.notes.strip()


_LABEL = re.compile(r"(Theorem|Lemma) (\d+(?:\.\d+)?)")
#: the stripped seed 002 lost the heading and statement of Lemma 4.6 (only the sentence before it survives)
MISSING_IN_STRIPPED = {"Lemma 4.6"}


@pytest.mark.parametrize("entry_id", MY_IDS)
def test_cited_theorem_number_exists_in_the_seeds(entry_id):
    e = spec.get(entry_id)
    labels = _LABEL.findall(e.source.where)
    assert labels, e.source.where
    kind, num = labels[0]  # the source's own result (later labels cite other papers, e.g. 'Theorem 2.4 in [2]')
    label = f"{kind} {num}"
    pattern = rf"{kind} {re.escape(num)}(?![\d.]\d)"
    if entry_id.startswith("nikolov17"):
        checks = [(SEEDS["nikolov17"], True)]
    else:
        checks = [(SEEDS["rruv16"], True), (SEEDS["rruv16.stripped"], label not in MISSING_IN_STRIPPED)]
    for name, present in checks:
        text = _seed(name)
        if not text:
            pytest.skip("seed texts not available")
        assert bool(re.search(pattern + r"[ .(]", text)) == present, (entry_id, name, label)


def test_constants_in_the_spec_are_the_seed_constants():
    t = _seed(SEEDS["rruv16"])
    if not t:
        pytest.skip("seed text not available")
    for lit in ("28.04", "\\log(110e)", "0.74", "2.96\\sqrt{e}", "9\\sqrt{e}", "1+\\log(\\sqrt{3})",
                "\\log(4\\log_{2}(n)/\\delta_{g})", "\\log(2/\\delta_{g})", "x/3"):
        assert lit in t, lit
    from dpbounds.spec.rruv16 import C_THM5_1
    assert C_THM5_1 == sp.Rational(2804, 100)


# ------------------------------------------------------------------------------------------ hand checks: RRUV16


def test_thm2_10_matches_the_textual_formula():
    eps, k, dhat, delta = M.mpf("0.1"), 100, M.mpf("1e-6"), M.mpf("1e-7")
    want = eps * (M.exp(eps) - 1) * k + eps * M.sqrt(2 * k * M.log(1 / dhat))
    assert _close(_val("rruv16.thm2_10", eps="0.1", k=100, dhat="1e-6", delta="1e-7"), want)
    assert _close(_val("rruv16.thm2_10", "extra.delta", eps="0.1", k=100, dhat="1e-6", delta="1e-7"),
                  k * delta + dhat)
    assert abs(float(want) - 6.3089) < 1e-3  # 0.1*0.10517*100 + 0.1*sqrt(200*13.8155)


def test_thm2_9_is_the_sums():
    assert _close(_val("rruv16.thm2_9", S="2.5", D="0.001"), "2.5")
    assert _close(_val("rruv16.thm2_9", "extra.delta", S="2.5", D="0.001"), "0.001")


def test_lemma2_3_conversions():
    assert _close(_val("rruv16.lemma2_3.pointwise_to_dp", eps="0.3", delta="0.01"), "0.3")
    assert _close(_val("rruv16.lemma2_3.pointwise_to_dp", "extra.delta", eps="0.3", delta="0.01"), "0.01")
    assert _close(_val("rruv16.lemma2_3.dp_to_pointwise", eps="1", delta="0.01"), "2")
    assert _close(_val("rruv16.lemma2_3.dp_to_pointwise", "extra.delta", eps="1", delta="0.01"),
                  2 * M.mpf("0.01") / (M.e * 1))


def test_thm5_1_matches_eq6_and_the_proof_line_differs_by_the_mean_term():
    eg, dg = M.mpf(1), M.mpf("1e-6")
    epss = [M.mpf("0.1")] * 10
    A = sum(e * (M.exp(e) - 1) / 2 for e in epss)
    V = sum(e**2 for e in epss)
    x = eg**2 / (M.mpf("28.04") * M.log(1 / dg))
    root = M.sqrt(2 * (V + x) * (1 + M.log(V / x + 1) / 2) * M.log(1 / dg))
    As, Vs = M.nstr(A, 45), M.nstr(V, 45)
    assert _close(_val("rruv16.thm5_1", eps_g="1", delta_g="1e-6", A=As, V=Vs), A + root, rel=1e-35)
    assert _close(_val("rruv16.thm5_1.as_derived", eps_g="1", delta_g="1e-6", A=As, V=Vs), 2 * A + root, rel=1e-35)
    assert _close(_val("rruv16.thm5_1", "extra.x", eps_g="1", delta_g="1e-6"), x)


def test_thm4_bounds_match_the_text():
    # Theorem 4.1 with B^2 = V, Theorem 4.4 with U^2/4 = V: the same shape
    V, b, d = M.mpf("0.5"), M.mpf("0.01"), M.mpf("0.001")
    want = M.sqrt((V + b) * (2 + M.log(V / b + 1)) * M.log(1 / d))
    assert _close(_val("rruv16.thm4_1", beta="0.01", delta="0.001", V="0.5"), want)
    assert _close(_val("rruv16.thm4_4", x="0.01", delta="0.001", V="0.5"), want)
    assert _close(want, M.sqrt(2 * (V + b) * (1 + M.log(V / b + 1) / 2) * M.log(1 / d)))
    s, t = M.mpf(3), M.mpf(2)
    assert _close(_val("rruv16.thm4_2", s="3", t="2"), 2 * M.sqrt(M.e) * (1 + 2 * s * M.log(t)) * M.exp(-s**2 / 2))
    beta = M.mpf("0.001")
    p45 = 2 * M.sqrt(M.e) * (beta + 2 * M.log(t) * M.sqrt(M.mpf("0.74") * beta))
    assert _close(_val("rruv16.thm4_5", beta="0.001", t="2"), p45)
    # Theorem 4.5 is Theorem 4.2 at s = sqrt(2 log(1/beta)) loosened by s e^{-s^2/2} <= sqrt(0.74 beta)
    s45 = M.sqrt(2 * M.log(1 / beta))
    p42 = 2 * M.sqrt(M.e) * (1 + 2 * s45 * M.log(t)) * M.exp(-s45**2 / 2)
    assert p42 <= p45
    assert _close(_val("rruv16.thm4_5", "extra.threshold_over_sqrt_V", beta="0.001", t="2"), s45)


def test_lemma4_6_lhs_is_the_mean_loss_of_randomized_response():
    for e in ("0.01", "0.5", "1", "3"):
        ee = M.mpf(e)
        p = M.exp(ee) / (1 + M.exp(ee))
        mean = p * ee + (1 - p) * (-ee)
        assert _close(_val("rruv16.lemma4_6", "lhs", eps=e), mean)
        assert _close(_val("rruv16.lemma4_6", eps=e), ee * (M.exp(ee) - 1) / 2)
        assert mean <= ee * (M.exp(ee) - 1) / 2


def test_lemma6_4_and_its_lift():
    A, V, x, dg = M.mpf("0.3"), M.mpf("0.5"), M.mpf("0.01"), M.mpf("1e-6")
    want = A + M.sqrt(2 * (V + x) * (1 + M.log(V / x + 1) / 2) * M.log(2 / dg))
    assert _close(_val("rruv16.lemma6_4", x="0.01", delta_g="1e-6", A="0.3", V="0.5"), want)
    lifted = _val("rruv16.lemma3_3.odometer.lemma6_4", x="0.01", delta_g="1e-6", delta_dprime="1e-6", A2="0.3",
                  V2="0.5", LIFT="1e-7")
    assert _close(lifted, want)
    assert _val("rruv16.lemma3_3.odometer.lemma6_4", x="0.01", delta_g="1e-6", delta_dprime="1e-6", A2="0.3",
                V2="0.5", LIFT="2e-6") == sp.oo


def test_basic_odometer_lift_is_s2_or_infinite():
    assert _close(_val("rruv16.lemma3_3.odometer.thm3_4", delta_dprime="1e-6", S2="4", LIFT="1e-6"), 4)
    assert _val("rruv16.lemma3_3.odometer.thm3_4", delta_dprime="1e-6", S2="4", LIFT="1.1e-6") == sp.oo
    assert _val("rruv16.lemma3_3.odometer.thm3_4", delta_dprime="0", S2="4", LIFT="1e-30") == sp.oo


def _eq11(A, V, n, dg):
    return A + M.sqrt(2 * V * (M.log(110 * M.e) + 2 * M.log(M.log(n) / dg)))


def _eq12(A, V, n, dg, c=4):
    return A + M.sqrt(2 * (1 / M.mpf(n)**2 + V) * (1 + M.log(1 + M.mpf(n)**2 * V) / 2)
                      * M.log(c * M.log(n, 2) / dg))


@pytest.mark.parametrize("V", ["0.5", "1", "0.000001", "2", "0.0000001"])
def test_thm6_5_switches_between_eq11_and_eq12(V):
    n, dg, A = 1000, M.mpf("1e-6"), M.mpf("0.3")
    Vm = M.mpf(V)
    inside = M.mpf(1) / n**2 <= Vm <= 1
    want = _eq11(A, Vm, n, dg) if inside else _eq12(A, Vm, n, dg)
    got = _val("rruv16.thm6_5", n=n, delta_g="1e-6", A="0.3", V=V)
    assert _close(got, want), (V, inside)
    assert _close(_val("rruv16.thm6_5.eq11", n=n, delta_g="1e-6", A="0.3", V=V), _eq11(A, Vm, n, dg))
    assert _close(_val("rruv16.thm6_5.eq12", n=n, delta_g="1e-6", A="0.3", V=V), _eq12(A, Vm, n, dg))
    assert _close(_val("rruv16.thm6_5.eq12", "extra.as_derived", n=n, delta_g="1e-6", A="0.3", V=V),
                  _eq12(A, Vm, n, dg, c=2))


def test_thm6_5_proof_constants():
    n, dg = 1000, M.mpf("1e-6")
    L = M.log(n)
    beta = M.mpf("0.74") * L**2 * (M.sqrt(1 + dg / (M.mpf("2.96") * M.sqrt(M.e) * L**2)) - 1) ** 2
    beta_lb = M.mpf("0.74") * L**2 * (dg / (9 * M.sqrt(M.e) * L**2)) ** 2
    assert _close(_val("rruv16.thm6_5", "extra.beta", n=n, delta_g="1e-6"), beta)
    assert _close(_val("rruv16.thm6_5", "extra.beta_lower", n=n, delta_g="1e-6"), beta_lb)
    # beta solves delta_g/2 = 2 sqrt(e)(beta + 2 log(n) sqrt(0.74 beta)), and beta >= beta_lower
    assert _close(2 * M.sqrt(M.e) * (beta + 2 * L * M.sqrt(M.mpf("0.74") * beta)), dg / 2, rel=1e-25)
    assert _close(_val("rruv16.thm6_5", "extra.beta_equation_rhs", n=n, delta_g="1e-6"), dg / 2, rel=1e-25)
    assert beta >= beta_lb
    assert M.log(1 / beta_lb) <= M.log(110 * M.e) + 2 * M.log(L / dg)


def test_footnote7_is_larger_than_eq11_at_n_10_delta_0_3():
    n, dg, A, V = 10, M.mpf("0.3"), M.mpf(0), M.mpf("0.5")
    old = A + 2 * M.sqrt(V * (1 + M.log(M.sqrt(3))) * M.log(4 * M.log(n, 2) / dg))
    got = _val("rruv16.thm6_5.footnote7", n=n, delta_g="0.3", A="0", V="0.5")
    assert _close(got, old)
    assert old > _eq11(A, V, n, dg)


def test_granularity_at_gamma_one_over_n_squared_is_eq11_and_infinite_outside_the_range():
    n, dg, A = 1000, M.mpf("1e-6"), M.mpf("0.3")
    g = "0.000001"  # = 1/n^2
    assert _close(_val("rruv16.thm6_5.granularity", gamma=g, delta_g="1e-6", A="0.3", V="0.5"),
                  _eq11(A, M.mpf("0.5"), n, dg))
    # the text's replacement n^2 -> 1/gamma: log(n) -> log(1/gamma)/2
    gm = M.mpf("0.0001")
    want = A + M.sqrt(2 * M.mpf("0.5") * (M.log(110 * M.e) + 2 * M.log(M.log(1 / gm) / 2 / dg)))
    assert _close(_val("rruv16.thm6_5.granularity", gamma="0.0001", delta_g="1e-6", A="0.3", V="0.5"), want)
    assert _val("rruv16.thm6_5.granularity", gamma="0.0001", delta_g="1e-6", A="0.3", V="0.00001") == sp.oo
    assert _val("rruv16.thm6_5.granularity", gamma="0.0001", delta_g="1e-6", A="0.3", V="1.5") == sp.oo


def test_thm6_5_lift_uses_the_doubled_aggregates():
    n, dg, A2 = 1000, M.mpf("1e-6"), M.mpf("0.6")
    got = _val("rruv16.lemma3_3.odometer.thm6_5", n=n, delta_g="1e-6", delta_dprime="1e-6", A2="0.6", V2="0.8",
               LIFT="0")
    assert _close(got, _eq11(A2, M.mpf("0.8"), n, dg))
    got = _val("rruv16.lemma3_3.odometer.thm6_5", n=n, delta_g="1e-6", delta_dprime="1e-6", A2="0.6", V2="3",
               LIFT="0")
    assert _close(got, _eq12(A2, M.mpf(3), n, dg))
    assert _val("rruv16.lemma3_3.odometer.thm6_5", n=n, delta_g="1e-6", delta_dprime="1e-6", A2="0.6", V2="0.8",
                LIFT="0.001") == sp.oo


def test_thm6_1_leading_form():
    want = M.mpf("0.25") + M.sqrt(M.mpf("0.5") * M.log(M.log(1000) / M.mpf("1e-6")))
    assert _close(_val("rruv16.thm6_1", n=1000, delta_g="1e-6", KOV="0.25", V="0.5"), want)


def test_lift_filters_halt_on_the_delta_budget():
    e = spec.get("rruv16.lemma3_3.filter.thm3_4")
    at = {sym("eps_g"): 1, sym("delta_dprime"): sp.Rational(1, 10**6), sym("S2"): sp.Rational(1, 2)}
    assert e.halt.xreplace({**at, sym("LIFT"): sp.Rational(1, 10**7)}) == sp.false
    assert e.halt.xreplace({**at, sym("LIFT"): sp.Rational(2, 10**6)}) == sp.true


# ------------------------------------------------------------------------------------------ hand checks: Nikolov


def test_nikolov_thm2_stated_is_derived_over_eps_and_derived_is_rruv_thm2_10():
    e, k, d = M.mpf("0.1"), 100, M.mpf("1e-6")
    derived = k * e * (M.exp(e) - 1) + e * M.sqrt(2 * M.log(1 / d) * k)
    stated = M.sqrt(2 * k * M.log(1 / d)) + k * (M.exp(e) - 1)
    assert _close(_val("nikolov17.thm2.as_derived", eps="0.1", k=100, delta="1e-6"), derived)
    assert _close(_val("nikolov17.thm2.as_stated", eps="0.1", k=100, delta="1e-6"), stated)
    assert _close(stated * e, derived)
    assert _close(_val("rruv16.thm2_10", eps="0.1", k=100, dhat="1e-6", delta="0"), derived)
    assert _close(_val("nikolov17.thm1", eps="0.1", k=100), 10)


def test_nikolov_lemma6_lhs_is_the_kl_of_randomized_response():
    for e in ("0.1", "1", "2.5"):
        ee = M.mpf(e)
        p, q = M.exp(ee) / (1 + M.exp(ee)), 1 / (1 + M.exp(ee))
        kl = p * M.log(p / q) + q * M.log(q / p)
        assert _close(_val("nikolov17.lemma6", "lhs", eps=e), kl)
        assert _close(_val("nikolov17.lemma6", eps=e), ee * (M.exp(ee) - 1))
        assert kl * (M.exp(ee) + 1) - ee * (M.exp(ee) - 1) < M.mpf("1e-40")  # bound / KL = e^eps + 1


def test_nikolov_azuma_as_written_and_standard():
    k, t, a, b = 16, M.mpf(2), M.mpf(4), M.mpf("0.5")
    assert _close(_val("nikolov17.thm7", k=16, t=2, alpha=4, beta="0.5"), k * b + t * M.sqrt(k * a))
    assert _close(_val("nikolov17.thm7.as_stated", k=16, t=2, alpha=4, beta="0.5"), k * b + t * M.sqrt(k * a))
    assert _close(_val("nikolov17.thm7.standard", k=16, t=2, alpha=4, beta="0.5"), k * b + t * a * M.sqrt(k))
    assert _close(_val("nikolov17.thm7", "extra.probability", k=16, t=2, alpha=4, beta="0.5"), M.exp(-2))
    # the two agree exactly when alpha = 1
    assert _close(_val("nikolov17.thm7", k=16, t=2, alpha=1, beta="0.5"),
                  _val("nikolov17.thm7.standard", k=16, t=2, alpha=1, beta="0.5"))


# ------------------------------------------------------------------------------------------ domains

BAD = [
    ("rruv16.thm5_1", {"eps_g": "1", "delta_g": "0.5"}, "delta_g"),
    ("rruv16.thm5_1", {"eps_g": "0", "delta_g": "1e-6"}, "eps_g"),
    ("rruv16.thm5_1.as_derived", {"eps_g": "1", "delta_g": "0"}, "delta_g"),
    ("rruv16.thm2_10", {"eps": "0.1", "delta": "0", "k": "10", "dhat": "0"}, "dhat"),
    ("rruv16.thm2_10", {"eps": "0.1", "delta": "0", "k": "10", "dhat": "1"}, "dhat"),
    ("rruv16.thm2_10", {"eps": "0.1", "delta": "1", "k": "10", "dhat": "0.1"}, "delta"),
    ("rruv16.thm2_10", {"eps": "0.1", "delta": "0", "k": "0", "dhat": "0.1"}, "k"),
    ("rruv16.lemma2_3.dp_to_pointwise", {"eps": "0", "delta": "0.01"}, "eps"),
    ("rruv16.lemma2_3.pointwise_to_dp", {"eps": "-0.1", "delta": "0.01"}, "eps"),
    ("rruv16.thm4_1", {"beta": "0.1", "delta": "0.5"}, "delta"),
    ("rruv16.thm4_1", {"beta": "0", "delta": "0.1"}, "beta"),
    ("rruv16.thm4_2", {"s": "0.5", "t": "2"}, "s"),
    ("rruv16.thm4_2", {"s": "2", "t": "0.9"}, "t"),
    ("rruv16.thm4_4", {"x": "0", "delta": "0.1"}, "x"),
    ("rruv16.thm4_5", {"beta": "1", "t": "2"}, "beta"),
    ("rruv16.lemma4_6", {"eps": "-1"}, "eps"),
    ("rruv16.lemma6_4", {"x": "0", "delta_g": "1e-6"}, "x"),
    ("rruv16.lemma6_4", {"x": "0.1", "delta_g": "0.37"}, "delta_g"),
    ("rruv16.thm6_1", {"n": "2", "delta_g": "0.1"}, "n"),
    ("rruv16.thm6_5", {"n": "1", "delta_g": "1e-6"}, "n"),
    ("rruv16.thm6_5", {"n": "100", "delta_g": "0.4"}, "delta_g"),
    ("rruv16.thm6_5.eq11", {"n": "100", "delta_g": "0"}, "delta_g"),
    ("rruv16.thm6_5.footnote7", {"n": "1", "delta_g": "0.1"}, "n"),
    ("rruv16.thm6_5.granularity", {"gamma": "0.5", "delta_g": "0.1"}, "gamma"),
    ("rruv16.thm6_5.granularity", {"gamma": "0", "delta_g": "0.1"}, "gamma"),
    ("rruv16.lemma3_3.odometer.thm3_4", {"delta_dprime": "-1e-9"}, "delta_dprime"),
    ("rruv16.lemma3_3.odometer.thm6_5", {"n": "100", "delta_g": "1e-6", "delta_dprime": "-1"}, "delta_dprime"),
    ("rruv16.lemma3_3.filter.thm5_1", {"eps_g": "1", "delta_g": "1", "delta_dprime": "0"}, "delta_g"),
    ("nikolov17.thm2.as_stated", {"eps": "0.1", "k": "10", "delta": "1"}, "delta"),
    ("nikolov17.thm2.as_derived", {"eps": "0.1", "k": "0", "delta": "0.1"}, "k"),
    ("nikolov17.lemma6", {"eps": "-0.5"}, "eps"),
    ("nikolov17.thm7", {"k": "10", "t": "0", "alpha": "1", "beta": "0"}, "t"),
    ("nikolov17.thm7.standard", {"k": "10", "t": "1", "alpha": "0", "beta": "0"}, "alpha"),
]


@pytest.mark.parametrize("entry_id,values,param", BAD, ids=[f"{b[0]}:{b[2]}" for b in BAD])
def test_out_of_domain_values_raise_domain_error_naming_the_parameter(entry_id, values, param):
    with pytest.raises(spec.DomainError) as ei:
        spec.get(entry_id).check_values(values)
    assert ei.value.param == param
    assert entry_id in str(ei.value)


def test_lift_budget_zero_is_allowed_as_in_the_seed():
    # Lemma 3.3: "for every delta_g' >= 0"
    spec.get("rruv16.lemma3_3.odometer.thm3_4").check_values({"delta_dprime": "0"})
    spec.get("rruv16.lemma3_3.filter.thm5_1").check_values({"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "0"})


def test_pure_dp_entries_declare_pure_rounds_and_lifts_do_not():
    for i in MY_IDS:
        e = spec.get(i)
        pure = any(r == sp.Eq(sym("delta"), 0) for r in e.per_round_domain)
        if i.startswith(("rruv16.thm5_1", "rruv16.lemma6_4", "rruv16.thm6_5", "rruv16.thm3_4")):
            assert pure, i
        if i.startswith("rruv16.lemma3_3") or e.kind in (Kind.COMPOSITION, Kind.CONVERSION):
            assert not pure, i

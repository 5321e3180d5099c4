"""The peers' own expected values: numbers hard-coded in a peer's test suite, checked against the reference.

A wrong expected value in a peer's tests is a finding like any other: a test that pins an under-report makes
the under-report permanent.  Each record cites the repository, commit (or released wheel), file and line, and the
assertion; the audited value is the pinned number, judged as a claimed privacy parameter (smaller claims more
privacy), strictly like any peer value: a pinned number below the certified lower end is unsound however small
the gap, because it is what the peer's code returns (or what the test would accept).  For assertions with a
tolerance (``assertAlmostEqual(x, v, delta=t)``; ``places=7`` is t = 5e-8) the detail also says whether the
tolerance admits the true value, i.e. whether the test would pass a correct implementation.  Needs no peer
installed."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from dpbounds.audit.common import Comparison, PeerResult, error_comparison, judge_upper
from dpbounds.testing.declarations import Peer

PEER = Peer("peers' own tests", dist="-", python=False)

OPENDP = ("opendp/opendp@bc6e18b86fb5f8cbab5a79da1a6cedea6b181f24", "rust/src/combinators/measure_cast/zCDP_to_approxDP")
PIPELINE = ("OpenMined/PipelineDP@ec6e56edbf2ce8e2b2297df3e4992d91609d1d94", "tests/dp_computations_test.py")
DPACC = ("dp-accounting 0.6.0 (wheel)", "dp_accounting/rdp/rdp_privacy_accountant_test.py")


@dataclass(frozen=True)
class Pinned:
    peer: str
    where: str           # repository@commit or release
    path: str            # file:line
    assertion: str       # the assertion as written
    expected: float      # the pinned number
    tolerance: Fraction  # absolute tolerance the assertion allows (0 for exact equality)
    reference: str       # what the pinned number is compared with
    description: str
    inputs: dict[str, str]
    compute: Callable[[], tuple[Fraction, Fraction]]
    truth: tuple[str, str, Callable[[], tuple[Fraction, Fraction]]] | None = None  # (b) when it differs from (a)


def _eps(rho: Fraction, delta: Fraction, conv: str) -> Callable[[], tuple[Fraction, Fraction]]:
    def f() -> tuple[Fraction, Fraction]:
        from dpbounds.accounting.conversions import eps_of
        e = eps_of(rho, delta, conv)
        return e.lo, e.hi
    return f


def _delta(rho: Fraction, eps: Fraction, conv: str) -> Callable[[], tuple[Fraction, Fraction]]:
    def f() -> tuple[Fraction, Fraction]:
        from dpbounds.accounting.conversions import delta_of
        e = delta_of(rho, eps, conv)
        return e.lo, e.hi
    return f


def _cks20_at(rho: Fraction, delta: Fraction, alpha: Fraction) -> Callable[[], tuple[Fraction, Fraction]]:
    def f() -> tuple[Fraction, Fraction]:
        from dpbounds.audit.peers.dp_accounting import _cks20_at as at
        return at(rho, delta, alpha)
    return f


def _gauss_rho(sigma: float, s: float = 1.0) -> Fraction:
    return Fraction(s) ** 2 / (2 * Fraction(sigma) ** 2)


Q = Fraction
CKS = "conversions.cks20"
CKS_D = "conversions.cks20.delta"
GAUSS_D = "the exact delta(eps) of the Gaussian mechanism (BW18 Thm 8)"
PINNED: list[Pinned] = [
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/test.rs:27", "assert_eq!(cdp_epsilon(rho, 1e-3)?, 0.6880024554878086)",
           0.6880024554878086, Q(0), CKS, "CKS20 eps(delta) of rho = 1/32 (Gaussian, scale 4)",
           {"rho": "1/32", "delta": "1e-3"}, _eps(Q(1, 32), Q(1e-3), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/test.rs:28", "assert_eq!(profile.epsilon(1e-3)?, 0.6880024554878085)",
           0.6880024554878085, Q(0), CKS, "CKS20 eps(delta) of rho = 1/32 (Gaussian, scale 4)",
           {"rho": "1/32", "delta": "1e-3"}, _eps(Q(1, 32), Q(1e-3), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/test.rs:33", "assert_eq!(profile.delta(0.)?, 0.1508457845622862)",
           0.1508457845622862, Q(0), CKS_D, "CKS20 delta(eps) of rho = 1/32 at eps = 0",
           {"rho": "1/32", "eps": "0"}, _delta(Q(1, 32), Q(0), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/test.rs:34", "assert_eq!(profile.delta(0.6880024554878085)?, 1e-3)",
           1e-3, Q(0), CKS_D, "CKS20 delta(eps) of rho = 1/32",
           {"rho": "1/32", "eps": "0.6880024554878085"}, _delta(Q(1, 32), Q(0.6880024554878085), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/cdp_delta/test.rs:107",
           "assert_eq!(cdp_delta(0.05, 0.25)?, 8.17727531036956e-2)", 8.17727531036956e-2, Q(0), CKS_D,
           "CKS20 delta(eps)", {"rho": "0.05", "eps": "0.25"}, _delta(Q(0.05), Q(0.25), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/cdp_delta/test.rs:109",
           "assert_eq!(cdp_delta(5e-30, 1e-13)?, 2.619676329730346e-234)", 2.619676329730346e-234, Q(0), CKS_D,
           "CKS20 delta(eps), optimal alpha beyond 2^53", {"rho": "5e-30", "eps": "1e-13"},
           _delta(Q(5e-30), Q(1e-13), "cks20")),
    Pinned("opendp", *OPENDP[:1], f"{OPENDP[1]}/cdp_delta/test.rs:122", "assert_eq!(delta, 0.5588356393474351)  "
           "# delta = cdp_delta(0.5, 0.)", 0.5588356393474351, Q(0), CKS_D, "CKS20 delta(eps) at eps = 0",
           {"rho": "0.5", "eps": "0"}, _delta(Q(1, 2), Q(0), "cks20")),
    Pinned("pipeline_dp", *PIPELINE[:1], f"{PIPELINE[1]}:62",
           "assertEqual(114.375, compute_sigma(eps=0.5, delta=1e-10, l2_sensitivity=10))", 1e-10, Q(0),
           "conversions.gauss.delta", "the claimed delta 1e-10 at eps 0.5 for sigma = 114.375, sensitivity 10: "
           + GAUSS_D, {"sigma": "114.375", "l2_sensitivity": "10", "eps": "0.5"},
           _delta(_gauss_rho(114.375, 10.0), Q(1, 2), "gauss")),
    Pinned("pipeline_dp", *PIPELINE[:1], f"{PIPELINE[1]}:406",
           "assertAlmostEqual(gaussian_delta(5, 1.0), 1.75463e-8, delta=1e-12)", 1.75463e-8, Q(1, 10**12),
           "conversions.gauss.delta", GAUSS_D, {"sigma": "5", "eps": "1"}, _delta(_gauss_rho(5), Q(1), "gauss")),
    Pinned("pipeline_dp", *PIPELINE[:1], f"{PIPELINE[1]}:409",
           "assertAlmostEqual(gaussian_delta(3.42, 1.1), 1.00362244e-5, delta=1e-10)", 1.00362244e-5, Q(1, 10**10),
           "conversions.gauss.delta", GAUSS_D, {"sigma": "3.42", "eps": "1.1"},
           _delta(_gauss_rho(3.42), Q(1.1), "gauss")),
    Pinned("pipeline_dp", *PIPELINE[:1], f"{PIPELINE[1]}:414",
           "assertAlmostEqual(gaussian_epsilon(5, 1.75463e-8), 1.00000007214, delta=1e-10)", 1.00000007214,
           Q(1, 10**10), "conversions.gauss", "the exact minimum eps(delta) of the Gaussian mechanism (BW18)",
           {"sigma": "5", "delta": "1.75463e-8"}, _eps(_gauss_rho(5), Q(1.75463e-8), "gauss")),
    Pinned("pipeline_dp", *PIPELINE[:1], f"{PIPELINE[1]}:417",
           "assertAlmostEqual(gaussian_epsilon(3.42, 1.00362244e-5), 1.1000000002386, delta=1e-10)",
           1.1000000002386, Q(1, 10**10), "conversions.gauss",
           "the exact minimum eps(delta) of the Gaussian mechanism (BW18)", {"sigma": "3.42", "delta": "1.00362244e-5"},
           _eps(_gauss_rho(3.42), Q(1.00362244e-5), "gauss")),
    Pinned("dp_accounting", *DPACC[:1], f"{DPACC[1]}:543",
           "assertAlmostEqual(compute_epsilon(range(2, 33), [1.1] * 31, delta=1e-5)[0], 1.32783806176)  "
           "# optimal order 32", 1.32783806176, Q(5, 10**8), "conversions.cks20 at alpha = 32",
           "CKS20 Prop. 12 at order 32 for an RDP value 1.1 (what compute_epsilon computes)",
           {"rdp": "1.1 at every order 2..32", "delta": "1e-5", "order": "32"},
           _cks20_at(Q(1.1) / 32, Q(1e-5), Q(32))),
    Pinned("dp_accounting", *DPACC[:1], f"{DPACC[1]}:561",
           "assertAlmostEqual(compute_epsilon(orders, rdp of Gaussian sigma=4.530877117, delta=1e-6)[0], 1)  "
           "# 'noise multiplier is chosen to obtain exactly (1,1e-6)-DP'", 1.0, Q(5, 10**8), CKS,
           "the continuous CKS20 optimum for rho = 1/(2 sigma^2) (its 99,000-order grid approximates it)",
           {"sigma": "4.530877117", "delta": "1e-6"}, _eps(_gauss_rho(4.530877117), Q(1e-6), "cks20"),
           ("conversions.gauss", "the exact eps(delta) of the Gaussian mechanism (BW18)",
            _eps(_gauss_rho(4.530877117), Q(1e-6), "gauss"))),
]


def audit(quick: bool = False) -> PeerResult:
    res = PeerResult(PEER.name, version="pinned values", functions=sorted({f"{p.peer}: {p.path.split(':')[0]}"
                                                                       for p in PINNED}))
    res.notes.append("Numbers hard-coded in the peers' test suites (file:line at the cited commit or release), "
                     "judged against the certified reference widened by the tolerance each assertion allows.")
    for p in PINNED:
        fn = f"{p.peer} tests: {p.path}"
        inputs = {**p.inputs, "at": p.where, "assertion": p.assertion}
        repro = (f"# {p.where}: {p.path}\n# {p.assertion}\nimport dpbounds  # the reference: {p.reference}\n"
                 f"# pinned {p.expected!r}, tolerance {float(p.tolerance)!r}\n")
        try:
            lo, hi = p.compute()
            t_ref, t_desc, t_lo, t_hi = (p.reference, p.description, lo, hi) if p.truth is None else \
                (p.truth[0], p.truth[1], *p.truth[2]())
        except Exception as e:  # noqa: BLE001
            res.comparisons.append(error_comparison(PEER.name, fn, "pinned value", inputs, e, repro))
            continue
        lo, hi, t_lo, t_hi = (max(x, Fraction(0)) for x in (lo, hi, t_lo, t_hi))
        fa = judge_upper(p.expected, lo, hi, role="formula", reference=p.reference, description=p.description)
        tb = judge_upper(p.expected, t_lo, t_hi, role="truth", reference=t_ref, description=t_desc)
        if p.tolerance:
            admits = all(abs(Fraction(p.expected) - x) <= p.tolerance for x in (lo, hi))
            fa.detail += (f"; the assertion's tolerance {float(p.tolerance):g} "
                          + ("admits" if admits else "does NOT admit") + " the certified value")
        res.comparisons.append(Comparison(PEER.name, fn, "expected value pinned in the peer's tests", inputs,
                                          peer_value=p.expected, formula=fa, truth=tb, reproducer=repro))
    return res

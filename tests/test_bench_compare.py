"""The layout of `dpbounds bench`'s comparison rows (no timing is asserted: speed lives in the bench itself): where
a peer's value lies against dpbounds' enclosure, in the claim's direction; the ratio is the rates divided; the text
table prints every row; a malformed --python is refused."""

from __future__ import annotations

from fractions import Fraction

from dpbounds.audit import bench as B
from dpbounds.cli.commands.bench import comparison_table
from dpbounds.evaluation.enclosure import Enclosure

ENC = Enclosure(Fraction(1), Fraction(2), 53)


def test_peer_side_follows_the_claim_direction():
    up = lambda v: B._row("m", "p", "ours", "peer", 10.0, 5.0, ENC, v)["peer_side"]  # noqa: E731
    low = lambda v: B._row("m", "p", "ours", "peer", 10.0, 5.0, ENC, v, claim="lower")["peer_side"]  # noqa: E731
    assert up(1.5) == "inside" and up(2.5) == "above (conservative)" and up(0.5) == "below (under-reported)"
    assert low(0.5) == "below (conservative)" and low(2.5) == "above (under-reported)"
    assert up(None) == "n/a" and up(float("nan")) == "n/a"


def test_ratio_and_width_and_table():
    r = B._row("zCDP -> eps", "16 points", "eps_of", "dp_accounting compute_epsilon", 12.0, 4.0, ENC, 2.5)
    assert r["ratio"] == 3.0 and r["width"] == 0.5 and r["unit"] == "calls/s"
    none = B._row("x", "p", "ours", "peer", 12.0, None, ENC, None)
    assert none["ratio"] is None
    failed = {"bench": B.PEER_BENCH, "id": "k = 1e5", "rate": None, "note": "CertificationError: ..."}
    text = comparison_table([r, none, failed])
    assert "3.00" in text and "zCDP -> eps" in text and "k = 1e5" in text and "CertificationError" in text


def test_paired_rates_calls_both_sides():
    calls = {"a": 0, "b": 0}
    ra, rb = B._paired_rates(lambda: calls.__setitem__("a", calls["a"] + 1),
                             lambda: calls.__setitem__("b", calls["b"] + 1), 0.01, windows=2)
    assert calls["a"] > 1 and calls["b"] > 1 and ra > 0 and rb > 0
    assert B._paired_rates(lambda: None, None, 0.01, windows=2)[1] == 0.0


def test_malformed_python_option_is_refused(capsys):
    from dpbounds.cli import main
    assert main(["bench", "--only", "peers", "--python", "riskcal"]) == 2
    assert "--python" in capsys.readouterr().err


def test_equal_width_is_the_coarsest_interval_whose_value_lies_inside(monkeypatch):
    """dp_accounting's pessimistic value is >= the truth >= the enclosure's lower end, so a value inside the
    enclosure errs by at most its width: the ladder stops at the first interval whose value is inside, not at one
    merely within rel_tol of it (1.0004 is within 1e-3 of [1, 1.0003] but above it)."""
    values = {1e-4: 1.0009, 5e-5: 1.0004, 2e-5: 1.0002, 1e-5: 1.0001}
    monkeypatch.setattr(B, "_dpa_pld", lambda q, s, k, d, e, vdi=None: (lambda: values.get(vdi, 1.00005)))
    enc = Enclosure(Fraction(1), Fraction(10003, 10000), 53)
    vdi, v, _, reached = B._equal_width(0.1, 1.0, 10, 1e-5, None, enc, 1)
    assert (vdi, v, reached) == (2e-5, 1.0002, True)
    values.clear()
    monkeypatch.setattr(B, "_dpa_pld", lambda q, s, k, d, e, vdi=None: (lambda: 1.5))
    vdi, v, _, reached = B._equal_width(0.1, 1.0, 10, 1e-5, None, enc, 1)
    assert not reached and vdi == B.EQUAL_WIDTH_VDI[-1] and v == 1.5

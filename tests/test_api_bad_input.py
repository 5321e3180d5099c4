"""Bad input to the Python API: every bad input raises the documented
type -- DomainError (a ValueError) for a value outside a domain or beyond a size limit, TypeError for a wrong type --
with a message naming the parameter, and in bounded time (a hang would stop the suite, so the inputs that used to
hang are run in a subprocess with a timeout)."""

from __future__ import annotations

import decimal
import os
import stat
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from dpbounds.spec import DomainError
from dpbounds.spec.core import MAX_EXPONENT, MAX_SUM_TERMS, fraction_to_decimal_str, int_to_decimal_str, parse_exact
from dpbounds.evaluation.evaluate import enclose, evaluate, fast_interval, fast_upper

P = {"eps_g": "1", "delta_g": "1e-6"}
TIMEOUT = int(os.environ.get("DPBOUNDS_TEST_TIMEOUT", "120"))


def in_subprocess(code: str) -> str:
    """Run ``code`` in a fresh interpreter (so a hang is a failed test, not a stuck suite); return its stdout."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


# ---------------------------------------------------------------------------------------------- item 6: sizes
def test_huge_decimal_raises_domain_error_at_every_entry_point():
    out = in_subprocess("""
import decimal
from dpbounds.spec import DomainError
from dpbounds.evaluation.evaluate import evaluate, enclose
from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.conversions import b_star
huge = decimal.Decimal("1e999999999")
calls = [lambda: evaluate("rruv16.thm5_1", {"eps_g": huge, "delta_g": "1e-6"}, eps=["0.1"]),
         lambda: enclose("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=[huge]),
         lambda: make_filter("rruv16.thm3_4.filter", eps_g=huge),
         lambda: b_star(huge, "1e-6")]
for c in calls:
    try:
        c()
        print("accepted")
    except DomainError as e:
        print("DomainError", e.param)
""")
    assert out.split() == ["DomainError", "eps_g", "DomainError", "eps[0]", "DomainError", "eps_g", "DomainError",
                           "eps_g"]


@pytest.mark.parametrize("value", ["1e-99999", "1e99999", "1e" + "9" * 50, "-1e-1001", "0." + "0" * 1000 + "1",
                                   decimal.Decimal("1e999999999"), decimal.Decimal("-1e-5000"), 10 ** 2000,
                                   Fraction(1, 3 ** 4000)],
                         ids=["1e-99999", "1e99999", "50-digit-exponent", "-1e-1001", "1000-zeros", "Decimal-1e999999999",
                              "Decimal-1e-5000", "int-10**2000", "Fraction-3**-4000"])
def test_numbers_beyond_the_size_limits_are_domain_errors(value):
    with pytest.raises(DomainError) as ei:
        parse_exact("eps_g", value)
    assert ei.value.param == "eps_g"


@pytest.mark.parametrize("text,expected", [
    (f"1e-{MAX_EXPONENT}", Fraction(1, 10 ** MAX_EXPONENT)),
    (f"1e{MAX_EXPONENT}", Fraction(10 ** MAX_EXPONENT)),
    (f"9.5e-{MAX_EXPONENT - 1}", Fraction(95, 10 ** MAX_EXPONENT)),
    ("0.000125e3", Fraction(1, 8)),
    ("-12.5E+1", Fraction(-125)),
    ("1e-0000000000000000003", Fraction(1, 1000)),  # leading zeros of an exponent are not its size
])
def test_numbers_within_the_limits_are_exact(text, expected):
    assert parse_exact("x", text) == expected


def test_decimal_rendering_is_exact_for_long_terminating_fractions():
    for q in (Fraction(1, 10 ** 999), Fraction(123456789, 5 ** 700), Fraction(-7, 2 ** 900 * 5 ** 3), Fraction(3, 8),
              Fraction(-5, 2)):
        s = fraction_to_decimal_str(q)
        assert "/" not in s and Fraction(decimal.Decimal(s)) == q  # read back by an independent parser
        assert not s.endswith("0") or "." not in s


def test_int_rendering_has_no_digit_limit():
    n = 7 ** 20000  # ~16,900 digits, beyond Python's default 4300-digit int-to-str limit
    s = int_to_decimal_str(n)
    assert len(s) > 4300
    # compare with an independent base conversion: digits read back through Horner's rule in chunks
    back = 0
    for i in range(0, len(s), 1000):
        chunk = s[i:i + 1000]
        back = back * 10 ** len(chunk) + int(chunk)
    assert back == n


def test_kov15_sum_length_is_capped_with_a_clear_error():
    with pytest.raises(DomainError) as ei:
        evaluate("conversions.kov15.exact", {"k": 10 ** 9, "eps": "0.1", "eps_g": "1"})
    assert ei.value.param == "k" and str(MAX_SUM_TERMS) in str(ei.value)
    with pytest.raises(DomainError) as ei:
        fast_upper("conversions.kov15.exact", eps=0.1, k=np.array([3.0, 1e9]), eps_g=1.0)
    assert ei.value.param == "k"


def test_kov15_sum_within_the_cap_still_evaluates():
    # k = 2: delta = sum_l max(0, P_l - e^eps_g Q_l) computed by hand for eps = ln 2... use the exact RR formula:
    # outcomes l = 0..2 with P = C(2,l) e^{eps(2-l)} / (1+e^eps)^2, Q = C(2,l) e^{eps l} / (1+e^eps)^2
    import math
    eps, eps_g = 0.5, 0.25
    z = (1 + math.exp(eps)) ** 2
    want = sum(max(0.0, math.comb(2, l) * (math.exp(eps * (2 - l)) - math.exp(eps_g) * math.exp(eps * l)) / z)
               for l in range(3))
    r = evaluate("conversions.kov15.exact", {"k": 2, "eps": "0.5", "eps_g": "0.25"})
    assert abs(float(r.value) - want) <= 1e-12 * want


# ---------------------------------------------------------------------------------------------- item 8
def test_digits_5000_renders():
    r = evaluate("rruv16.thm5_1", P, eps=["0.1", "0.2"], digits=5000)
    assert len(r.value.replace(".", "")) == 5000
    lo, hi, v = (decimal.Decimal(x) for x in (*r.enclosure, r.value))  # (Fraction(str) has the int-str limit)
    assert lo < hi
    with decimal.localcontext() as ctx:  # the value is the enclosure rounded to 5000 digits: within one unit of them
        ctx.prec = 20000
        assert abs(v - lo) <= abs(lo) * decimal.Decimal("1e-4999") and abs(hi - v) <= abs(hi) * decimal.Decimal("1e-4999")


@pytest.mark.parametrize("entry,params,seqs", [
    ("rruv16.thm5_1", P, {"eps": ["0.1", "0.2"]}),
    ("rruv16.lemma6_4", {"x": "0.01", "delta_g": "1e-6"}, {"eps": ["0.1", "0.2"]}),
    ("rruv16.thm6_5", {"n": "1000", "delta_g": "1e-6"}, {"eps": ["0.1", "0.2"]}),
], ids=["thm5_1", "lemma6_4", "thm6_5"])
def test_digits_80_with_transcendental_aggregates_are_certified(entry, params, seqs):
    r80 = evaluate(entry, params, digits=80, **seqs)
    r30 = evaluate(entry, params, digits=30, **seqs)
    lo, hi = (Fraction(x) for x in r30.enclosure)
    assert lo <= Fraction(r80.value) <= hi  # the 80-digit value lies in the 30-digit enclosure
    lo80, hi80 = (Fraction(x) for x in r80.enclosure)
    assert hi80 - lo80 <= Fraction(1, 10 ** 78) * abs(hi80)


def test_infinite_aggregate_gives_inf_not_certification_error():
    r = evaluate("rruv16.thm5_1", {**P, "V": "inf", "A": "1"})
    assert r.infinite and r.upper == float("inf")


def test_what_halt_is_a_domain_error():
    with pytest.raises(DomainError) as ei:
        evaluate("rruv16.thm5_1", {**P, "V": "1", "A": "1"}, what="halt")
    assert ei.value.param == "what"
    with pytest.raises(DomainError):
        enclose("rruv16.thm5_1", {**P, "V": "1", "A": "1"}, what="halt")


def test_b_star_beyond_its_solvers_is_a_domain_error():
    from dpbounds.accounting.conversions import b_star
    for conv in ("bs16", "cks20", "gauss"):
        with pytest.raises(DomainError) as ei:
            b_star("1e400", "1e-6", conv)
        assert ei.value.param == "eps_g"


# ---------------------------------------------------------------------------------------------- item 11: types
def test_array_for_a_scalar_parameter_is_a_type_error():
    with pytest.raises(TypeError, match="eps_g"):
        evaluate("rruv16.thm5_1", {"eps_g": np.array([1.0, 2.0]), "delta_g": "1e-6"}, eps=["0.1"])


def test_longdouble_and_zero_d_arrays_are_taken_exactly():
    want = evaluate("rruv16.thm5_1", P, eps=["0.1"]).value
    for v in (np.longdouble(1), np.array(1.0), np.float32(1), np.int64(1), np.array(1)):
        assert evaluate("rruv16.thm5_1", {"eps_g": v, "delta_g": "1e-6"}, eps=["0.1"]).value == want
    assert parse_exact("x", np.longdouble(1) / 3) == Fraction(*(np.longdouble(1) / 3).as_integer_ratio())


def test_zero_d_array_as_a_sequence_is_a_domain_error():
    with pytest.raises(DomainError) as ei:
        evaluate("rruv16.thm5_1", P, eps=np.array(0.1))
    assert ei.value.param == "eps"


def test_empty_arrays_give_empty_results():
    e = np.array([])
    lo, hi = fast_interval("rruv16.thm5_1", eps_g=e, delta_g=e, V=e, A=e)
    assert lo.shape == (0,) and hi.shape == (0,)
    assert fast_upper("rruv16.thm5_1", eps_g=np.ones((0, 3)), delta_g=1e-6, V=1.0, A=1.0).shape == (0, 3)


@pytest.mark.parametrize("bad", [np.array([1 + 1j]), np.array(["2020-01-01"], dtype="datetime64[D]"),
                                 np.array([b"1"]), np.array([True]), b"1"],
                         ids=["complex", "datetime", "bytes-array", "bool-array", "bytes"])
def test_non_real_arrays_are_type_errors(bad):
    with pytest.raises(TypeError, match="eps_g"):
        fast_upper("rruv16.thm5_1", eps_g=bad, delta_g=1e-6, V=1.0, A=1.0)


def test_longdouble_arrays_are_enclosed_outward():
    x = np.array([np.longdouble(1) / 3], dtype=np.longdouble)
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("long double is double on this platform")
    lo, hi = fast_interval("rruv16.thm5_1", eps_g=1.0, delta_g=1e-6, V=x, A=0.5)
    # the float64 result of the rounded input must still bracket the exact value at the long double input
    enc = enclose("rruv16.thm5_1", {**P, "V": Fraction(*x[0].as_integer_ratio()), "A": "0.5"}, rel_tol=1e-20)
    assert lo[0] <= enc.lower() and enc.upper() <= hi[0]


@pytest.mark.parametrize("tol", [float("nan"), float("inf"), -1.0, 0, "1e-10"])
def test_bad_rel_tol_is_a_domain_error(tol):
    with pytest.raises(DomainError) as ei:
        enclose("rruv16.thm5_1", P, eps=["0.1"], rel_tol=tol)
    assert ei.value.param == "rel_tol"


@pytest.mark.parametrize("value", [b"1", 1j, [1.0], object()], ids=["bytes", "complex", "list", "object"])
def test_wrong_types_for_a_scalar_are_type_errors(value):
    with pytest.raises(TypeError, match="eps_g"):
        evaluate("rruv16.thm5_1", {"eps_g": value, "delta_g": "1e-6"}, eps=["0.1"])


# ---------------------------------------------------------------------------------------------- item 4 / 11: files
def test_save_path_that_is_a_directory_is_a_domain_error(tmp_path):
    from dpbounds.accounting.accountants import make_filter
    f = make_filter("rruv16.thm3_4.filter", eps_g="1", save_path=tmp_path)
    with pytest.raises(DomainError):
        f.try_spend("0.1")
    assert tmp_path.is_dir() and list(tmp_path.iterdir()) == []


def test_save_path_under_a_regular_file_is_a_domain_error(tmp_path):
    from dpbounds.accounting.accountants import make_filter
    (tmp_path / "file").write_text("x")
    with pytest.raises(DomainError):  # at once (its lock file cannot be created), or at the first save
        f = make_filter("rruv16.thm3_4.filter", eps_g="1", save_path=tmp_path / "file" / "state.json")
        f.try_spend("0.1")


def test_atomic_write_refuses_special_targets(tmp_path):
    from dpbounds.util.io import atomic_write_text
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "real").write_text("keep")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "real")
    for target in (fifo, link, tmp_path):
        with pytest.raises(DomainError, match="refusing to replace"):
            atomic_write_text(target, "new")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.path.islink(link)
    assert (tmp_path / "real").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link", "real"]  # no temp file left


def test_bounded_reader_refuses_fifo_without_blocking_and_caps_size(tmp_path):
    from dpbounds.util.io import read_text_bounded
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(DomainError, match="FIFO"):
        read_text_bounded(fifo, "state")  # no writer: a blocking open would wait forever
    big = tmp_path / "big"
    big.write_bytes(b"1" * 1001)
    with pytest.raises(DomainError, match="at most 1000 bytes"):
        read_text_bounded(big, "state", max_bytes=1000)
    assert read_text_bounded(big, "state", max_bytes=2000) == "1" * 1001
    with pytest.raises(DomainError, match="character device"):
        read_text_bounded("/dev/zero", "state")


def test_bounded_lines_refuse_a_line_without_end():
    import io

    from dpbounds.util.io import bounded_lines
    assert list(bounded_lines(io.StringIO("eps\n0.1\n"))) == ["eps\n", "0.1\n"]
    with pytest.raises(DomainError, match="line 2"):
        list(bounded_lines(io.StringIO("eps\n" + "1" * 200 + "\n"), max_chars=100))
    with pytest.raises(DomainError, match="NUL"):
        list(bounded_lines(io.StringIO("eps\n\0\0\n")))

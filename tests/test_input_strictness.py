"""Strict inputs and documented failures: a wrong type is a TypeError (never read as a number), a column the entry
does not use is refused, every public call fails with a documented exception, and a JSON stream is never cut."""

from __future__ import annotations

import datetime
import io
import itertools
import json
import warnings

import numpy as np
import pytest

import dpbounds
from dpbounds.cli import main

#: values of types that are not real numbers, each of which numpy (or Python) would silently read as one
NOT_NUMBERS = {"bytes": b"0.1", "bytearray": bytearray(b"0.1"), "memoryview": memoryview(b"0.1"),
               "datetime64": np.datetime64("2020-01-01"), "timedelta64": np.timedelta64(1, "D"),
               "bool": True, "np.bool_": np.bool_(True), "bytes-array": np.array([b"0.1"]),
               "datetime-array": np.array([np.datetime64("2020-01-01")]), "bool-array": np.array([True]),
               "str-array": np.array(["0.1"]), "list-of-bytes": [b"0.1"], "list-of-bools": [True],
               "complex": 1 + 0j}

CALLS = {
    "eps_upper(x, delta)": lambda x: dpbounds.eps_upper(x, 1e-6),
    "eps_upper(rho, x)": lambda x: dpbounds.eps_upper(0.1, x),
    "delta_upper(x, eps)": lambda x: dpbounds.delta_upper(x, 1.0),
    "b_star_lower(x, delta_g)": lambda x: dpbounds.b_star_lower(x, 1e-6),
    "eps_of(x, delta)": lambda x: dpbounds.eps_of(x, 1e-6),
    "delta_of(x, eps)": lambda x: dpbounds.delta_of(x, 1),
    "evaluate param": lambda x: dpbounds.evaluate("conversions.bs16", {"rho": x, "delta": "1e-6"}),
    "evaluate eps": lambda x: dpbounds.evaluate("rruv16.thm5_1", {"eps_g": 1, "delta_g": "1e-6"},
                                                eps=x if isinstance(x, (list, np.ndarray)) else [x]),
    "fast_upper": lambda x: dpbounds.fast_upper("conversions.bs16", rho=x, delta=1e-6),
    "make_filter": lambda x: dpbounds.make_filter("rruv16.thm5_1", eps_g=x, delta_g="1e-6"),
    "try_spend": lambda x: dpbounds.make_filter("rruv16.thm5_1", eps_g=1, delta_g="1e-6").try_spend(x),
    "try_spend_many": lambda x: dpbounds.make_filter("rruv16.thm5_1", eps_g=1, delta_g="1e-6").try_spend_many(
        eps=x if isinstance(x, (list, np.ndarray)) else [x]),
    "lift try_spend_many": lambda x: dpbounds.make_filter("kov15.lift", eps_g=1, delta_g="1e-6",
                                                          delta_dprime="1e-7").try_spend_many(
        eps=x if isinstance(x, (list, np.ndarray)) else [x]),
    "IndividualFilter.step": lambda x: dpbounds.IndividualFilter(1, 2, 1).step(
        x if isinstance(x, (list, np.ndarray)) else [x]),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_value_that_is_not_a_real_number_is_a_type_error(call):
    warnings.simplefilter("ignore")
    wrong = []
    for name, bad in NOT_NUMBERS.items():
        if name == "str-array" and call == "IndividualFilter.step":
            continue  # documented: decimal strings there are parsed exactly and rounded up
        try:
            CALLS[call](bad)
            wrong.append(f"{name}: returned")
        except TypeError:
            pass
        except Exception as e:  # noqa: BLE001 - a DomainError here read the value as a number first
            wrong.append(f"{name}: {type(e).__name__}: {str(e)[:80]}")
    assert not wrong, f"{call}: {wrong}"


def test_eps_upper_of_bytes_is_no_longer_a_number():
    with pytest.raises(TypeError):
        dpbounds.eps_upper(b"0.1", 1e-6)
    with pytest.raises(TypeError):
        dpbounds.delta_upper(np.datetime64("2020-01-01"), 1.0)


def test_load_golden_of_an_int_is_a_type_error_not_a_file_descriptor():
    for bad in (0, 1, 2, True, b"x.jsonl", 3.0):
        with pytest.raises(TypeError):
            dpbounds.load_golden(bad)


def test_select_and_multi_order_filter_take_wrong_types_with_documented_errors():
    ok = (TypeError, dpbounds.DomainError)
    values = [None, 1, 1.5, b"x", [], {}, (1,), object(), np.array([1.0, 2.0]), "nope", True]
    for kind, source in itertools.product(values, values):
        try:
            dpbounds.select(kind, source)
        except ok:
            pass
    for v in values:
        for call in (lambda: dpbounds.MultiOrderRenyiFilter(v),
                     lambda: dpbounds.MultiOrderRenyiFilter({2: 1}).try_spend(v)):
            try:
                call()
            except ok:
                pass


def test_every_public_function_fails_with_a_documented_exception():
    """Every callable of dpbounds.__all__ at one and two hostile arguments: it returns, or raises TypeError,
    DomainError, CertificationError (or GoldenInputError, a ValueError, from load_golden)."""
    from dpbounds.outputs.golden_load import GoldenInputError
    warnings.simplefilter("ignore")
    vals = [None, 1, -1, 1.5, float("nan"), float("inf"), "0.1", "", "x", b"0.1", True, [0.1], {"a": 1}, (1, 2),
            np.array([0.1, 0.2]), np.datetime64("2020-01-01"), object(), "rruv16.thm5_1", 1e308, "1e1000", []]
    ok = (TypeError, dpbounds.DomainError, dpbounds.CertificationError, GoldenInputError)
    skip = {"DomainError", "CertificationError", "RefutedConstantWarning", "Decision", "Kind", "SpecEntry",
            "Evaluation", "Enclosure", "BStar", "__version__"}
    bad = []
    for name in dpbounds.__all__:
        f = getattr(dpbounds, name)
        if name in skip or not callable(f):
            continue
        for k in (1, 2):
            for args in itertools.product(vals, repeat=k):
                try:
                    f(*args)
                except ok:
                    pass
                except Exception as e:  # noqa: BLE001 - the point of the test
                    bad.append(f"{name}{args!r:.60}: {type(e).__name__}: {str(e)[:80]}")
    assert not bad, bad[:10]


def test_evaluate_at_a_round_beyond_arb_is_a_certification_error_not_not_certified():
    with pytest.raises(dpbounds.CertificationError):
        dpbounds.evaluate("rruv16.thm5_1", {"eps_g": 1, "delta_g": "1e-6"}, eps=[1e308])


def test_an_infinite_aggregate_without_a_limit_rule_is_a_refusal_not_a_crash(capsys):
    rc = main(["eval", "howard.normal_mixture.one_sided", "--param", "gamma=1", "--param", "delta=0.05",
               "--param", "u=1", "--param", "V=inf"])
    err = capsys.readouterr().err
    assert rc in (0, 2) and "internal error" not in err, err


@pytest.mark.parametrize("flag,value", [("--rho", "100"), ("--delta", "0.01")])
def test_eval_refuses_a_column_the_entry_does_not_use(capsys, flag, value):
    entry = "rruv16.thm5_1" if flag == "--rho" else "fz21.thm3_1"
    params = ["--param", "eps_g=1", "--param", "delta_g=1e-6"] if flag == "--rho" else \
        ["--param", "alpha=2", "--param", "B=1"]
    seq = ["--eps", "0.1"] if flag == "--rho" else ["--rho", "0.1"]
    rc = main(["eval", entry, *params, *seq, flag, value])
    out, err = capsys.readouterr()
    assert rc == 2 and "CONT" not in out and err.count("\n") == 1, (out, err)


def test_an_aggregate_the_entry_does_not_use_is_refused():
    with pytest.raises(dpbounds.DomainError, match="unknown aggregate"):
        dpbounds.evaluate("conversions.bs16", {"rho": 1, "delta": "1e-6"}, aggregates={"V": 1})
    with pytest.raises(dpbounds.DomainError, match="unknown aggregate"):
        dpbounds.evaluate("rruv16.thm5_1", {"eps_g": 1, "delta_g": "1e-6"}, aggregates={"V": 1, "A": 1, "Q": 3})


def test_kov15_lift_filter_has_try_spend_many_with_try_spends_decisions():
    mk = lambda: dpbounds.make_filter("kov15.lift", eps_g=1, delta_g="1e-6", delta_dprime="1e-7")  # noqa: E731
    a, b = mk(), mk()
    eps = np.full(20, 0.1)
    k = a.try_spend_many(eps=eps)
    decisions = [b.try_spend(float(x)) for x in eps]
    assert k == sum(d is dpbounds.Decision.CONT for d in decisions) and a.rounds == b.rounds


@pytest.mark.parametrize("command", ["filter", "odometer"])
def test_json_output_stays_one_document_when_a_later_row_is_bad(monkeypatch, capsys, command):
    monkeypatch.setattr("sys.stdin", io.StringIO("eps\n0.001\n0.002\nnot-a-number\n0.003\n"))
    args = ["filter", "rruv16.thm5_1", "--budget", "eps_g=1", "--budget", "delta_g=1e-6"] if command == "filter" \
        else ["odometer", "rruv16.thm6_5", "--param", "n=2", "--param", "delta_g=1e-6"]
    rc = main(args + ["--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 2 and err.count("\n") == 1
    doc = json.loads(out)  # complete, parseable
    assert len(doc["rounds"]) == 2 and "row 3" in doc["error"]

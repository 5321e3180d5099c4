"""compare.largest_ok: the one galloping bisection behind every "rounds allowed" count of the report."""

from __future__ import annotations

from hypothesis import given, strategies as st

from dpbounds.outputs.compare import largest_ok


@given(st.integers(0, 5000), st.integers(0, 5000))
def test_largest_ok_is_the_brute_force_answer_within_the_cap(last, cap):
    calls = []

    def ok(k: int) -> bool:
        calls.append(k)
        return k <= last

    assert largest_ok(ok, cap) == min(last, cap)
    assert all(1 <= k <= cap for k in calls) and len(calls) <= 4 * (cap.bit_length() + 1)


def test_a_count_between_the_last_doubling_and_the_cap_is_not_reported_as_the_cap():
    # the galloping steps 1, 2, ..., 64 hold and 128 is beyond the cap 70: the answer is 66, not 70
    assert largest_ok(lambda k: k <= 66, 70) == 66

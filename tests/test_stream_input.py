"""CSV streams on stdin: bounded lines, csv errors as one-line exit-2 errors (issue 20 items 4 and 9)."""

from __future__ import annotations

import io

import pytest

from dpbounds.cli import main


@pytest.mark.parametrize("text", ["\0" * 200_000, "eps\n" + "1" * 200_000 + "\n"])
def test_unreadable_stream_is_a_clear_error(text, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    rc = main(["filter", "rruv16.thm3_4.filter", "--budget", "eps_g=1"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and err.startswith("dpbounds: error:"), err


def test_a_good_stream_still_runs(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("eps\n# a comment\n0.5\n0.6\n"))
    rc = main(["filter", "rruv16.thm3_4.filter", "--budget", "eps_g=1"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and [line.split("\t")[1] for line in out] == ["CONT", "HALT"]

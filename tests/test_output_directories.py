"""Output directories hold the user's files: ``audit --issue-drafts DIR`` and ``report --out DIR`` write only into a
new or empty directory or one they wrote before (a user's README.md is never replaced); enclose's tolerance is
bounded like evaluate's digits."""

from __future__ import annotations

from fractions import Fraction

import pytest

import dpbounds
from dpbounds.audit.drafts import check_drafts_target, write_issue_drafts
from dpbounds.outputs.report import TITLE, check_report_target

DOC = {"dpbounds_version": "0", "spec_version": "0", "findings": []}


def test_issue_drafts_refuse_a_folder_with_the_users_files(tmp_path):
    (tmp_path / "README.md").write_text("my notes\n")
    with pytest.raises(dpbounds.DomainError, match="--issue-drafts"):
        write_issue_drafts(DOC, tmp_path)  # was: README.md replaced by the index
    assert (tmp_path / "README.md").read_text() == "my notes\n"


def test_issue_drafts_rewrite_a_folder_they_wrote(tmp_path):
    d = tmp_path / "drafts"
    write_issue_drafts(DOC, d)
    write_issue_drafts(DOC, d)  # the second run replaces the first one's index
    check_drafts_target(d)
    (d / "mine.txt").write_text("x")
    with pytest.raises(dpbounds.DomainError):
        check_drafts_target(d)


def test_report_refuses_a_project_folder_and_accepts_its_own(tmp_path):
    (tmp_path / "README.md").write_text("# My project\n")
    with pytest.raises(dpbounds.DomainError, match="README.md is not one a report wrote"):
        check_report_target(tmp_path)
    (tmp_path / "README.md").write_text(f"# {TITLE}\n")
    check_report_target(tmp_path)
    (tmp_path / "thesis.tex").write_text("x")
    with pytest.raises(dpbounds.DomainError, match="thesis.tex"):
        check_report_target(tmp_path)
    check_report_target(tmp_path / "new")


def test_enclose_refuses_a_tolerance_beyond_the_digits_evaluate_gives():
    with pytest.raises(dpbounds.DomainError, match="rel_tol='about 1e-100000'"):
        dpbounds.enclose("conversions.cks20", {"rho": "0.5", "delta": "1e-6"}, rel_tol=Fraction(1, 10**100000))


@pytest.mark.parametrize("argv", [
    ["bstar", "--eps-g", "1", "--eps-g", "2", "--delta-g", "1e-6"],
    ["calibrate", "--eps", "1", "--eps", "2", "--delta", "1e-5", "--q", "0.01", "--k", "100"],
    ["eval", "conversions.bs16", "--param", "rho=0.1", "--param", "delta=1e-6", "--digits", "5", "--digits", "9"],
])
def test_a_single_valued_option_given_twice_is_refused(argv, capsys):
    from dpbounds.cli import main
    assert main(argv) == 2  # was: the last one taken silently (bstar, calibrate)
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "given once" in err, err

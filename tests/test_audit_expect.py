"""``dpbounds audit --witnesses FILE --expect-findings`` (issue 28, CI): a recorded finding that disappears without a
recorded reason fails the run, one with a reason passes, a new finding fails until recorded; and a declaration
whose reference id is missing is reported, not a crash."""

from __future__ import annotations

import contextlib
import io
import json

from dpbounds.cli import main

UNDER = "tests.fake_peers.one_ulp_under"


def _audit(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["audit", "--format", "json", *args])
    return rc, out.getvalue(), err.getvalue()


def _recorded(tmp_path):
    f = tmp_path / "witnesses.json"
    rc, _, err = _audit("--adapter", UNDER, "--witnesses", str(f), "--record-findings")
    data = json.loads(f.read_text())
    assert data["findings"] and all(x["reason"] is None for x in data["findings"]), err
    return f, data


def test_recorded_findings_still_found_pass(tmp_path):
    f, _ = _recorded(tmp_path)
    rc, _, err = _audit("--adapter", UNDER, "--witnesses", str(f), "--expect-findings")
    assert rc == 0, err   # the peer's under-reports are expected: only a change fails


def test_a_planted_disappearing_finding_fails(tmp_path):
    f, data = _recorded(tmp_path)
    gone = dict(data["findings"][0], inputs={"eps": "123.5", "delta": "1e-7"})  # a finding this run cannot see
    data["findings"].append(gone)
    f.write_text(json.dumps(data))
    rc, _, err = _audit("--adapter", UNDER, "--witnesses", str(f), "--expect-findings")
    assert rc == 1 and "finding disappeared" in err and "123.5" in err


def test_a_disappeared_finding_with_a_recorded_reason_passes(tmp_path):
    f, data = _recorded(tmp_path)
    gone = dict(data["findings"][0], inputs={"eps": "123.5", "delta": "1e-7"},
                reason="fixed in fake_one_ulp_under 2.0 (rounds up since)")
    data["findings"].append(gone)
    f.write_text(json.dumps(data))
    rc, _, err = _audit("--adapter", UNDER, "--witnesses", str(f), "--expect-findings")
    assert rc == 0, err


def test_a_new_finding_fails_until_recorded(tmp_path):
    f = tmp_path / "witnesses.json"
    f.write_text(json.dumps({"version": 1, "witnesses": {}, "findings": []}))
    rc, _, err = _audit("--adapter", UNDER, "--witnesses", str(f), "--expect-findings")
    assert rc == 1 and "new finding" in err


def test_a_correct_peer_with_no_findings_passes(tmp_path):
    f = tmp_path / "witnesses.json"
    f.write_text(json.dumps({"version": 1, "witnesses": {}, "findings": []}))
    rc, _, err = _audit("--adapter", "tests.fake_peers.faithful", "--witnesses", str(f), "--expect-findings")
    assert rc == 0, err


def test_expect_findings_needs_a_witness_file():
    rc, _, err = _audit("--adapter", UNDER, "--expect-findings")
    assert rc == 2 and "--witnesses" in err


def test_a_missing_reference_id_is_reported_not_a_crash():
    rc, out, _ = _audit("--adapter", "tests.fake_peers.missing_ref", "--fail-on", "never")
    (peer,) = json.loads(out)["peers"]
    assert peer["status"] != "error", peer
    assert any("reference mechanisms.no_such.id not available" in n for n in peer["notes"]), peer["notes"]
    assert peer["comparisons"]   # the declaration whose reference exists still runs


def test_the_committed_witness_file_names_known_peers_and_explains_each_disappearance():
    import pathlib

    from dpbounds.audit.expect import recorded_findings
    from dpbounds.audit.run import ADAPTERS
    path = pathlib.Path(__file__).resolve().parents[1] / "reference" / "audit" / "witnesses.json"
    fs = recorded_findings(str(path))
    assert len(fs) >= 40
    assert {f["peer"] for f in fs} <= set(ADAPTERS)
    from dpbounds.audit.expect import PRESENT
    assert all(f["verdict"] in PRESENT for f in fs)  # each a finding (a formula departure, a law violation too)
    # a recorded reason says why a finding no longer shows (a fixed peer, with its version, or a reference that
    # cannot decide it any more, with the numbers), in a sentence
    assert all(f["reason"] is None or (isinstance(f["reason"], str) and len(f["reason"]) > 40) for f in fs)


def test_every_committed_search_witness_names_a_declaration_the_audit_searches():
    # a renamed function, call or reference would make a committed witness silently stop being replayed
    import importlib
    import pathlib

    from dpbounds.audit.engine import effective_declarations, is_declarative, load_witnesses, witness_key
    from dpbounds.audit.run import ADAPTERS
    path = pathlib.Path(__file__).resolve().parents[1] / "reference" / "audit" / "witnesses.json"
    known = load_witnesses(str(path))
    assert known and all(isinstance(v, list) and v for v in known.values())
    keys = set()
    for module in ADAPTERS.values():
        mod = importlib.import_module(module)
        if is_declarative(mod):
            keys |= {witness_key(d) for d in effective_declarations(mod)[0] if d is not None}
    assert sorted(set(known) - keys) == []


def test_a_peer_raising_everywhere_is_not_judged_and_says_so(tmp_path):
    f = tmp_path / "witnesses.json"
    f.write_text(json.dumps({"version": 1, "witnesses": {}, "findings": []}))
    rc, _, err = _audit("--adapter", "tests.fake_peers.always_raises", "--fail-on", "never")
    assert rc == 2 and "not judged" in err and "fake_always_raises.eps_of" in err, err  # exit 2 says why


def test_a_recorded_error_finding_still_present_passes_expect_findings(tmp_path):
    f = tmp_path / "witnesses.json"
    rc, _, err = _audit("--adapter", "tests.fake_peers.always_raises", "--witnesses", str(f), "--record-findings")
    assert [x["verdict"] for x in json.loads(f.read_text())["findings"]] == ["error", "error"], err
    rc, _, err = _audit("--adapter", "tests.fake_peers.always_raises", "--witnesses", str(f), "--expect-findings")
    assert rc == 0, err  # the recorded finding (the peer raises) is still there: no change, nothing to do
    data = json.loads(f.read_text())
    data["findings"] = []
    f.write_text(json.dumps(data))
    rc, _, err = _audit("--adapter", "tests.fake_peers.always_raises", "--witnesses", str(f), "--expect-findings")
    assert rc == 1 and "new finding" in err, err


def _main(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = main(list(args))
    return rc, err.getvalue()


def test_the_report_says_what_the_exit_code_says_of_a_recorded_error_finding(tmp_path):
    # --expect-findings exits 0 when a peer still raises on every input and that error is a recorded finding: the
    # markdown (and JSON, HTML) says the same -- the recorded finding, still present -- not "not judged"
    f = tmp_path / "witnesses.json"
    _audit("--adapter", "tests.fake_peers.always_raises", "--witnesses", str(f), "--record-findings")
    for fmt in ("md", "json", "html"):
        out = tmp_path / f"audit.{fmt}"
        rc, err = _main("audit", "--adapter", "tests.fake_peers.always_raises", "--witnesses", str(f),
                        "--expect-findings", "--format", fmt, "--out", str(out))
        text = out.read_text()
        assert rc == 0 and "not judged" not in err, err
        if fmt == "md":
            assert "exit status 0 (--expect-findings" in text and "## Not judged" not in text
            recorded = text.split("## Recorded findings still present", 1)[1].split("\n## ", 1)[0]
            assert "fake_always_raises `fake_always_raises.eps_of`" in recorded and "still present" in recorded
            assert "VisibleDeprecationWarning" in recorded
        elif fmt == "json":
            doc = json.loads(text)
            assert doc["exit_status"] == 0 and doc["not_judged"] == []
            assert [x.split(":")[0] for x in doc["recorded_errors"]] == [
                "fake_always_raises `fake_always_raises.eps_of`"]
        else:
            assert "Recorded findings still present" in text and "Not judged" not in text
    # without the record the same run is not judged (exit 2), and the markdown says that
    out = tmp_path / "plain.md"
    rc, err = _main("audit", "--adapter", "tests.fake_peers.always_raises", "--fail-on", "never", "--out", str(out))
    text = out.read_text()
    assert rc == 2 and "exit status 2 (--fail-on never)" in text and "## Not judged" in text
    assert "Recorded findings still present" not in text

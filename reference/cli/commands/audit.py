"""`dpbounds audit`: run peer DP libraries against the reference and report, with witnesses, where a peer claims
more privacy than the mathematics gives."""

from __future__ import annotations

import argparse
import sys

from dpbounds.util.io import atomic_write_text, check_output_path

EPILOG = """\
verdicts (most severe first), each row judged against (a) the formula the peer implements or cites and (b) the
true guarantee where dpbounds can compute it (smaller epsilon/delta = more privacy claimed):
{verdicts}

findings are listed graded: privacy claim false first (by relative gap), then departures from the cited
formula, then rounding, then unproven decisions and peer errors.

exit status: 1 when a verdict reaches the --fail-on level; 2 for bad input, or when something could not be judged
(an adapter-error, an incomplete search, an adapter that did not run: never 0); 0 otherwise.

examples:
  dpbounds audit                                    # every installed peer, markdown on stdout
  dpbounds audit --peers opendp,dp_accounting --format json --out audit.json
  dpbounds audit --adapter mylib.dpbounds_adapter   # your own library (see dpbounds.audit.common) and every peer
  dpbounds audit --peers none --adapter mylib.dpbounds_adapter   # only your own adapter (found from the cwd too)
  dpbounds audit --fail-on never --format html --out audit.html
  dpbounds audit --peers smartnoise_sql --python smartnoise_sql=/opt/snsql/bin/python   # its own venv
  dpbounds audit --peers tmlt_core --python tmlt_core=/opt/tmlt/bin/python            # its own venv
  dpbounds audit --peers autodp --search 30 --witnesses witnesses.json   # search each function's domain
  dpbounds audit --peers autodp --search 30 --seeds 4 --jobs 2           # (function x seed) tasks, 2 processes
  dpbounds audit --peers opacus --python opacus=$DPBOUNDS_PEERS/opacus/bin/python   # a peer in its own venv
  dpbounds audit --quick --witnesses reference/audit/witnesses.json --expect-findings   # CI: findings stay found
  dpbounds audit --peers opacus --issue-drafts drafts/     # one markdown draft per finding, for the peer's tracker
"""


def add_parser(sub) -> None:
    from dpbounds.audit.run import ADAPTERS, DEFAULT_TIMEOUT, FAIL_ON
    from dpbounds.testing.verdicts import verdict_table
    p = sub.add_parser("audit", help="audit installed peer libraries against the reference",
                       description=__doc__, epilog=EPILOG.format(verdicts=verdict_table()),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--peers", metavar="P1,P2",
                   help=f"comma-separated subset of {', '.join(sorted(ADAPTERS))} (default: all; a peer that is "
                   "not installed is 'skipped' with the reason), or none: only the --adapter modules")
    p.add_argument("--adapter", action="append", metavar="MODULE",
                   help="also run an adapter module of your own (importable path, e.g. mylib.audit_adapter: it "
                   "defines PEER and audit(quick) -> PeerResult); repeatable")
    p.add_argument("--python", action="append", metavar="PEER=PATH",
                   help="run PEER's calls in the interpreter PATH of its own environment (for peers whose pins "
                   "conflict with the others, e.g. smartnoise_sql=/opt/snsql/bin/python or "
                   "tmlt_core=/opt/tmlt/bin/python); repeatable")
    p.add_argument("--format", choices=("md", "json", "html"), default="md",
                   help="md (default), json (numbers as numbers, exact ends as decimal strings) or html")
    p.add_argument("--fail-on", choices=tuple(FAIL_ON), default="unsound-rounding",
                   help="exit 1 when a verdict reaches this level: unsound (claims shown false), formula-departure, "
                   "unsound-rounding (the default: any under-report), unproven, undecided, error; never")
    p.add_argument("--timeout", type=float, metavar="SECONDS", default=DEFAULT_TIMEOUT,
                   help=f"seconds one peer's adapter (with its --python interpreter) may run (default "
                   f"{DEFAULT_TIMEOUT:g}); after it the peer is an 'error' row and every process it started is "
                   "killed")
    p.add_argument("--quick", action="store_true", help="fewer inputs per function (for CI smoke runs)")
    p.add_argument("--out", metavar="FILE", help="write to this file (atomically) instead of stdout")
    p.add_argument("--issue-drafts", metavar="DIR",
                   help="also write one markdown draft per finding into DIR (for the peer's issue tracker: versions, "
                   "input, values, the certified value with its source and width, the relative gap, and a "
                   "reproducer that imports only the peer), and DIR/README.md listing them")
    g = p.add_argument_group("search (declarative adapters, on the dpbounds.testing engine)")
    g.add_argument("--search", type=float, default=0.0, metavar="SECONDS",
                   help="also search each function's whole domain: per (function, seed) SECONDS x 40 examples (a "
                   "conversion), x 12 (DP-SGD against composition.sgm.*: its cheap certified bounds and cached "
                   "PLD brackets), x 1/4 (another opaque certified evaluator, e.g. tradeoff.zcdp) or x 1/2 streams (a "
                   "filter or odometer), at most a function's own declared rate, deterministic for a seed,"
                   " each task capped at SECONDS + 30 s of wall clock "
                   "(a peer call under --python at SECONDS / 4: a point not answered in time is skipped); "
                   "reports examples tried, seconds and the worst margin per function")
    g.add_argument("--seed", type=int, default=0, help="first search seed (default 0)")
    g.add_argument("--seeds", type=int, default=1, help="search tasks per function, seeds SEED, SEED+1, ...")
    g.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="run up to N peers at once (their tasks one at a time), or one peer's (function x seed) tasks "
                   "in N processes")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the tasks on this Dask scheduler (pip install 'dpbounds[dask]'); same results")
    g.add_argument("--witnesses", metavar="FILE",
                   help="keep found witnesses in FILE and replay them first next time (a found bug stays found)")
    g.add_argument("--expect-findings", action="store_true",
                   help="CI: exit 1 when a finding recorded in --witnesses FILE disappears without a recorded "
                        "reason (a peer fixed its bug: say so, with the version), or a new one appears")
    g.add_argument("--record-findings", action="store_true",
                   help="add this run's findings to --witnesses FILE (recorded ones and their reasons kept)")
    p.set_defaults(func=run)


def _peer_list(text: str) -> list[str]:
    """'opendp,autodp' -> ['opendp', 'autodp']; 'none' -> [] (only --adapter); DomainError naming the peers."""
    from dpbounds.audit.run import ADAPTERS, entry_point_adapters
    from dpbounds.spec import DomainError
    if text.strip().lower() == "none":
        return []
    parts = [p.strip() for p in text.split(",")]
    if any(p == "" for p in parts):
        known = sorted({**ADAPTERS, **entry_point_adapters()})
        raise DomainError("--peers", text, f"a comma-separated subset of {', '.join(known)}, or none (only the "
                          "--adapter modules)", "dpbounds audit")
    return parts


def run(args) -> int:
    from dpbounds.audit.run import audit_peers, exit_status, render_html, render_markdown, to_json
    if args.out is not None:
        check_output_path(args.out, "--out")  # before the (long) audit, not after it
    peers = _peer_list(args.peers) if args.peers is not None else None
    from dpbounds.cli.commands import parse_assignments
    pythons = parse_assignments(args.python, "--python") if args.python else None
    from dpbounds.audit.engine import SearchOptions
    from dpbounds.spec import DomainError
    if not (args.search >= 0 and args.search < float("inf")):
        raise DomainError("--search", args.search, "a number of seconds >= 0", "dpbounds audit")
    for name, v in (("--seeds", args.seeds), ("--jobs", args.jobs)):
        if v < 1:
            raise DomainError(name, v, "an integer >= 1", "dpbounds audit")
    if (args.expect_findings or args.record_findings) and args.witnesses is None:
        raise DomainError("--expect-findings", True, "a witness file: --witnesses FILE", "dpbounds audit")
    search = SearchOptions(args.search, args.seed, args.seeds, args.jobs, args.scheduler, args.witnesses)
    if args.witnesses is not None:
        check_output_path(args.witnesses, "--witnesses")
        from dpbounds.audit.engine import load_witnesses
        try:  # a file that cannot be read is bad input now, not an error row of every peer later
            load_witnesses(args.witnesses)
        except DomainError:
            raise
        except Exception as e:  # noqa: BLE001 - malformed JSON, undecodable bytes
            raise DomainError("--witnesses", args.witnesses, "a witness file written by dpbounds audit (JSON)",
                              "dpbounds audit", f"{type(e).__name__}: {str(e)[:120]}") from None
    if args.scheduler is not None:
        import importlib.util
        if importlib.util.find_spec("distributed") is None:
            raise DomainError("--scheduler", args.scheduler, "an installed dask.distributed "
                              "(pip install 'dpbounds[dask]')", "dpbounds audit")
    if args.issue_drafts is not None:
        from dpbounds.util.io import ensure_output_dir
        ensure_output_dir(args.issue_drafts, "--issue-drafts", create=False)
        from dpbounds.audit.drafts import check_drafts_target
        check_drafts_target(args.issue_drafts)  # before the audit runs: a user's folder is refused, not written
    results = audit_peers(peers, quick=args.quick, adapters=args.adapter, pythons=pythons, search=search,
                          timeout=args.timeout, jobs=args.jobs)
    if args.record_findings:
        from dpbounds.audit.expect import record_findings
        sys.stderr.write(f"recorded {record_findings(results, args.witnesses)} new findings in {args.witnesses}\n")
    expect: dict = {}
    problems: list[str] = []
    if args.expect_findings:
        # the recorded findings are expected: a change fails (1), or a gap in the judging (2); the report says the
        # same (a peer raising on every input where that error is recorded is the finding, still present)
        from dpbounds.audit.expect import check_expected, expected_errors
        from dpbounds.audit.run import not_judged
        problems = check_expected(results, args.witnesses)
        expected = expected_errors(args.witnesses)
        expect = {"expected": expected,
                  "status": 1 if problems else 2 if not_judged(results, expected) else 0}
    render = {"json": to_json, "md": render_markdown, "html": render_html}[args.format]
    text = render(results, args.fail_on, **expect)
    if args.out is not None:
        atomic_write_text(args.out, text, "--out")
        sys.stdout.write(f"wrote {args.out}\n")
    else:
        sys.stdout.write(text)
    if args.issue_drafts is not None:
        from dpbounds.audit.drafts import write_issue_drafts
        from dpbounds.audit.run import document
        paths = write_issue_drafts(document(results, args.fail_on, **expect), args.issue_drafts)
        sys.stderr.write(f"wrote {len(paths)} issue draft(s) in {args.issue_drafts}\n")
    if args.expect_findings:
        for line in problems:
            sys.stderr.write(line + "\n")
        if problems:
            return 1
        return 2 if _say_not_judged(results, expect["expected"]) else 0
    status = exit_status(results, args.fail_on)
    if status == 2:
        _say_not_judged(results)
    return status


def _say_not_judged(results, expected=frozenset()) -> int:
    """Exit 2 says why: each thing that could not be judged, one line on stderr; how many."""
    from dpbounds.audit.run import not_judged
    lines = not_judged(results, expected)
    for line in lines:
        sys.stderr.write(f"dpbounds audit: not judged: {line}\n")
    return len(lines)

"""The claim registry: every constant and derivation step of the sources, with a verdict.

A claim is a function that decides one statement from first principles and returns a :class:`Verdict`:

* ``proved``       -- decided symbolically (sympy identity / inequality with a proof certificate);
* ``verified``     -- decided by certified numerics (arb intervals) over the *whole* stated domain (branch and
                      bound; unbounded parts handled by an asymptotic argument or an explicit, reported truncation);
* ``refuted``      -- a counterexample with exact values;
* ``erratum``      -- the statement and its own proof (or another statement of the same source) disagree;
* ``inconclusive`` -- the check could not decide (the evidence says why).  Sampling alone is never a verdict.
"""

from __future__ import annotations

import dataclasses
import traceback
from dataclasses import dataclass, field
from typing import Callable

from .quotes import Quote, quote

VERDICTS = ("proved", "verified", "refuted", "erratum", "inconclusive")


@dataclass(frozen=True)
class Verdict:
    verdict: str
    evidence: str
    method: str = ""  # "sympy", "arb branch-and-bound", "exact rational", ...

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")


@dataclass(frozen=True)
class Claim:
    id: str                 # e.g. "rruv16.thm6_5.beta_solves"
    spec_id: str            # the spec entry it is about (e.g. "rruv16.thm6_5"), "" if none
    claim: str              # the statement, in words and formulas
    source: str             # paper + location + seed file
    method: str             # how it is decided
    check: Callable[[], Verdict]
    quotes: tuple[Quote, ...] = ()  # the exact quotations the claim rests on (proofs_check/quotes.py)
    unquoted: str = ""      # why a claim has no quotation (its source is not among the seed texts)


@dataclass(frozen=True)
class ClaimResult:
    id: str
    spec_id: str
    claim: str
    source: str
    method: str
    verdict: str
    evidence: str
    crashed: bool = False
    quotes: tuple[Quote, ...] = ()
    unquoted: str = ""

    def as_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("crashed", "quotes")}
        d["quotes"] = [q.record() for q in self.quotes]
        return d


_CLAIMS: dict[str, Claim] = {}


def claim(id: str, *, spec_id: str, statement: str, source: str, method: str, quotes: tuple[str, ...] = (),
          unquoted: str = ""):
    """Decorator registering a check function as a claim.

    ``quotes`` are keys of :data:`dpbounds.proofs_check.quotes.QUOTES`: the statement and proof lines the claim rests
    on.  A claim without quotes must say why in ``unquoted`` (its source is not among the seed texts).
    """
    if not quotes and not unquoted:
        raise ValueError(f"claim {id!r}: give its quotations (quotes=...) or say why there are none (unquoted=...)")

    def deco(fn: Callable[[], Verdict]) -> Callable[[], Verdict]:
        if id in _CLAIMS:
            raise ValueError(f"duplicate claim id {id!r}")
        _CLAIMS[id] = Claim(id=id, spec_id=spec_id, claim=statement, source=source, method=method, check=fn,
                            quotes=tuple(quote(k) for k in quotes), unquoted=unquoted)
        return fn

    return deco


def _load_all() -> None:
    import importlib
    import pkgutil

    from . import claims as pkg
    for mod in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{mod.name}")


def all_claims() -> dict[str, Claim]:
    _load_all()
    return dict(sorted(_CLAIMS.items()))


def run_claim(c: Claim) -> ClaimResult:
    try:
        v = c.check()
        if not isinstance(v, Verdict):
            raise TypeError(f"check returned {type(v).__name__}, not Verdict")
        return ClaimResult(c.id, c.spec_id, c.claim, c.source, v.method or c.method, v.verdict, v.evidence,
                           quotes=c.quotes, unquoted=c.unquoted)
    except Exception:  # a crashing check is reported, and makes check-proofs exit 1
        return ClaimResult(c.id, c.spec_id, c.claim, c.source, c.method, "inconclusive",
                           "CHECK CRASHED:\n" + traceback.format_exc(limit=5), crashed=True, quotes=c.quotes,
                           unquoted=c.unquoted)


def run_all(ids: list[str] | None = None) -> list[ClaimResult]:
    claims = all_claims()
    chosen = [claims[i] for i in ids] if ids else list(claims.values())
    return [run_claim(c) for c in chosen]

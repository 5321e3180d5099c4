"""The `dpbounds` command line.  Each subcommand lives in ``reference/cli/commands/<name>.py`` (module ``dpbounds.cli.commands.<name>``)."""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Callable

from dpbounds.spec import DomainError, RefutedConstantWarning

from dpbounds.cli.commands import COMMANDS


class _Once(argparse._StoreAction):
    """A single-valued option given twice is refused (``bstar --eps-g 1 --eps-g 2`` took the last one silently);
    the repeatable ones (``--param``, ``--budget``, ``--adapter``, ``--python``) are ``append`` actions."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in seen:
            parser.error(f"{option_string}={values!r} is outside the allowed domain: given once (it was also given "
                         f"as {seen[self.dest]!r}) [command line] (repeated option)")
        seen[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)

    def error(self, message: str):  # one line, exit 2, no traceback
        self.exit(2, f"dpbounds: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dpbounds", description="Reference bounds for fully adaptive composition in differential "
                "privacy: filters, odometers, conversions, proof checks, golden vectors and audits.")
    from dpbounds import __version__
    p.add_argument("--version", action="version", version=f"dpbounds {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"dpbounds.cli.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"dpbounds.cli.commands.{name}":
                continue  # a subcommand not built yet
            raise
        mod.add_parser(sub)
    return p


def _warn_line_printer() -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints a dpbounds warning as one stderr line (no source location), each
    message once per command (its own record: the interpreter's 'once' registry is not reliable across the
    evaluators' call paths); other warnings as Python prints them."""
    seen: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if issubclass(category, RefutedConstantWarning):
            text = str(message)
            if text not in seen:
                seen.add(text)
                sys.stderr.write(f"dpbounds: warning: {text}\n")
        else:
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))
    return show


def main(argv: list[str] | None = None) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("always", RefutedConstantWarning)  # deduplicated by the printer
        warnings.showwarning = _warn_line_printer()
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        vars(args).pop("_given_once", None)  # _Once's record of the options seen
        return int(args.func(args) or 0)
    except DomainError as e:
        sys.stderr.write(f"dpbounds: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("dpbounds: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else 2
    except MemoryError:  # a resource limit, not a bug: the input needs more memory than this process may use
        sys.stderr.write("dpbounds: error: out of memory: these inputs need more memory than this process may use "
                         "(ask fewer --digits, fewer rounds or smaller values)\n")
        return 2
    except ArithmeticError as e:
        from dpbounds.evaluation.enclosure import CertificationError
        from dpbounds.evaluation.interp import NotCertified
        if isinstance(e, (CertificationError, NotCertified)):  # the answer is withheld, not a bug: exit 2, one line
            sys.stderr.write(f"dpbounds: error: cannot certify an answer here: {_one_line(e)}\n")
            return 2
        sys.stderr.write(f"dpbounds: internal error: {type(e).__name__}: {_one_line(e)}\n")
        return 1
    except Exception as e:  # an internal failure: one line, exit 1 (tests treat this as a bug)
        sys.stderr.write(f"dpbounds: internal error: {type(e).__name__}: {e}\n")
        return 1


def _one_line(e: BaseException, limit: int = 400) -> str:
    s = " ".join(str(e).split())
    return s if len(s) <= limit else s[:limit - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())

"""``python -m cenmcc.simulation``: an agreement study of any measures on any generator.

Two commands, with the same options:

- ``simulate`` draws the matrices, computes the measures and writes the summary, tables and
  figures (:meth:`cenmcc.simulation.Result.save`) into ``<out>/<name>``;
- ``validate`` reruns the same simulation over independent seeds and writes, for every
  statistic with a standard error, the spread of its value over the seeds against the error
  the runs claimed (:func:`cenmcc.simulation.validation.validate`), into
  ``<out>/<name>-validation``; it prints one verdict a statistic and exits with status 1 when
  the ratio of some statistic is outside the band it states.

The generator is ``papers`` (the random matrices of Jurman et al.), ``dirichlet`` (a classifier
with Dirichlet-distributed error rates on imbalanced classes) or a function of your own,
``module:function``, imported from the current directory (it runs in the workers, which get
it by value on a dask cluster). ``--param key=value`` sets a generator's setting
(``--param k_range=3,50 --param rho_scope=row``); with your own function, it calls the
function with them to make the generator. ``--measure module:object`` (repeatable) adds a
:class:`cenmcc.Measure` of your own to the ``--measures`` named, imported and sent likewise.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import sys
import sysconfig
import traceback
from pathlib import Path

import cenmcc
from cenmcc.simulation import resources, validation
from cenmcc.simulation.engine import run
from cenmcc.simulation.generators import DirichletClassifier
from cenmcc.simulation.papers import PaperGenerator
from cenmcc.simulation.plan import Simulation
from cenmcc.simulation.result import output_files
from cenmcc.simulation.studies import KRatio
from cenmcc.simulation.validation import check_validation

from ..runtime.files import write_json
from ..runtime.signals import run_command_line
from ..runtime.staging import staged_directory
from .arguments import (
    HelpFormatter,
    add_option_groups,
    check_destination,
    check_parallel_arguments,
    folder_name,
    parallel_options,
    positive_int,
    run_into,
)

PROG = "python -m cenmcc.simulation"

EPILOG = """Outputs go to DIR/NAME (default: runs/GENERATOR), replaced only once the new run has
written all of its own, and only if a run wrote the old ones; files you add to DIR/NAME are
kept, carried over into each new run. Ctrl-C or SIGTERM stops a run
within about a second (exit status 130 or 143) and leaves them as they were."""

#: The generators known by name.
GENERATORS = {"papers": PaperGenerator, "dirichlet": DirichletClassifier}
#: The studies known by name.
STUDIES = {"k_ratio": KRatio}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__.split("\n\n", 1)[1],
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in (
        ("simulate", "run a simulation and write its summary, tables and figures"),
        (
            "validate",
            "rerun a simulation over independent seeds and compare each statistic's spread "
            "with the standard error the runs claimed",
        ),
    ):
        command = sub.add_parser(
            name,
            help=text,
            description=text[0].upper() + text[1:] + ".",
            epilog=EPILOG,
            formatter_class=HelpFormatter,
        )
        add_arguments(command, validate=name == "validate")
        command.set_defaults(parser=command)
    return parser


def add_arguments(parser: argparse.ArgumentParser, *, validate: bool = False) -> None:
    parser.add_argument(
        "--generator",
        default="papers",
        metavar="NAME",
        help="papers, dirichlet, or module:function of your own (default: papers)",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        type=_param,
        metavar="KEY=VALUE",
        help="a setting of the generator, as a Python literal (repeat for several)",
    )
    parser.add_argument(
        "--measures",
        type=_measures,
        default=("cen", "mcc"),
        metavar="NAMES",
        help="comma-separated measures, or all (default: cen,mcc); from "
        + ", ".join(cenmcc.MEASURES),
    )
    parser.add_argument(
        "--measure",
        action="append",
        default=[],
        metavar="MODULE:OBJECT",
        help="a cenmcc.Measure of your own, imported from the current directory, beside "
        "--measures (repeat for several)",
    )
    parser.add_argument(
        "--study",
        action="append",
        default=[],
        choices=sorted(STUDIES),
        help="add a study: k_ratio is the papers' tMCC against k·CEN (repeat for several)",
    )
    parser.add_argument("--n", type=positive_int, default=1_000_000, help="number of matrices")
    parser.add_argument(
        "--chunk-size", type=positive_int, default=10_000, help="matrices per chunk (task)"
    )
    parser.add_argument(
        "--resamples", type=positive_int, default=999, help="bootstrap resamples of k_ratio"
    )
    parser.add_argument(
        "--name",
        type=folder_name,
        default=None,
        help="output folder name inside --out: one name, no '/', not starting with '.' "
        "(default: the generator)",
    )
    if validate:
        parser.add_argument(
            "--seeds",
            type=positive_int,
            default=20,
            help="independent reruns, at least 2 (default: 20); --n must be at least twice "
            "--chunk-size",
        )
    else:
        parser.add_argument("--no-figures", action="store_true", help="summary and tables only")
    add_option_groups(parser, ("seed", "parallel", "output"), out="runs/")


def _param(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value  # a plain string (rho_scope=row)


def _measures(text: str) -> tuple[str, ...]:
    names = tuple(cenmcc.MEASURES) if text == "all" else tuple(n.strip() for n in text.split(","))
    unknown = [n for n in names if n not in cenmcc.MEASURES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown measures {unknown}; choose from {list(cenmcc.MEASURES)} or all"
        )
    return names


class OptionError(ValueError):
    """A setting that cannot be used, with the ``option`` of the command line that gave it."""

    def __init__(self, option: str, message: str):
        super().__init__(message)
        self.option = option


def generator_of(name: str, params: dict):
    """The generator ``name`` (known, or ``module:function``) made with ``params``.

    Raises
    ------
    OptionError
        Naming ``--generator`` (an unknown name, a module that cannot be imported) or
        ``--param`` (a key the generator does not take, with those it takes; a value it
        refuses; an exception of a user's factory, with its type and where it was raised).
    """
    if name in GENERATORS:
        made = GENERATORS[name]
    elif ":" not in name:
        raise OptionError(
            "--generator",
            f"unknown generator {name!r}: use {', '.join(GENERATORS)} or module:function",
        )
    else:
        made = imported("--generator", name)
        if not params:
            return made
    _check_keys(name, made, params)
    try:
        return made(**params)
    except Exception as err:  # a user's factory may raise anything
        settings = ", ".join(f"{k}={v!r}" for k, v in params.items())
        if name in GENERATORS and isinstance(err, ValueError | TypeError):
            raise OptionError("--param", f"{name}: {err}") from None  # its own message
        raise OptionError("--param", f"{name}({settings}) raised {user_error(err)}") from None


def _check_keys(name: str, factory, params: dict) -> None:
    """Refuse the ``params`` keys that ``factory`` does not take, listing those it does."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or C callable: its call says
        return
    taken = signature.parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in taken):
        return
    valid = [p.name for p in taken if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    unknown = [key for key in params if key not in valid]
    if unknown:
        raise OptionError(
            "--param",
            f"{name} takes no {', '.join(map(repr, unknown))}; valid keys: "
            + (", ".join(valid) or "none"),
        )


def user_error(err: BaseException) -> str:
    """``Type: message (at file:line)`` of an exception raised in a user's code: the innermost
    frame of its traceback outside cenmcc, Python's library and the installed packages (the
    innermost frame if none is; the file and line of a syntax error)."""
    text = f"{type(err).__name__}: {err}"
    if isinstance(err, SyntaxError) and err.filename:
        return f"{type(err).__name__}: {err.msg} (at {err.filename}:{err.lineno})"
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return text
    theirs = [f for f in frames if _users_file(f.filename)]
    where = (theirs or frames)[-1]
    return f"{text} (at {where.filename}:{where.lineno}, in {where.name})"


def _users_file(filename: str) -> bool:
    """Whether ``filename`` is a user's: not frozen, not cenmcc's, not Python's library and
    not an installed package's."""
    if filename.startswith("<"):
        return False
    path = Path(filename).resolve()
    paths = sysconfig.get_paths()
    ours = [Path(cenmcc.__file__).parent, *(paths[k] for k in ("stdlib", "purelib", "platlib"))]
    return not any(path.is_relative_to(Path(p).resolve()) for p in ours)


def imported(option: str, name: str):
    """The object ``module:attribute`` of ``name``, imported from the current directory (as
    ``python -m`` and a script would have it); an :class:`OptionError` naming ``option`` if
    it cannot be, with the type of any exception the module raised and where."""
    module_name, sep, attribute = name.partition(":")
    if not sep or not module_name or not attribute:
        raise OptionError(option, f"{name!r} is not module:object")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # a user's module may raise anything
        missing = isinstance(err, ModuleNotFoundError) and f"{module_name}.".startswith(
            f"{err.name}."
        )  # the module itself (or its package), not one it imports
        if missing:
            raise OptionError(option, f"cannot load {name!r}: {err}") from None
        raise OptionError(option, f"importing {module_name} raised {user_error(err)}") from None
    try:
        return getattr(module, attribute)
    except AttributeError as err:
        raise OptionError(option, f"cannot load {name!r}: {err}") from None


def measure_of(name: str) -> cenmcc.Measure:
    """The :class:`cenmcc.Measure` ``module:object`` of ``--measure``."""
    found = imported("--measure", name)
    if not isinstance(found, cenmcc.Measure):
        raise OptionError(
            "--measure",
            f"{name}: got {type(found).__name__}, expected a cenmcc.Measure "
            "(wrap your function as cenmcc.Measure(name, function, greater_is_better=...))",
        )
    return found


def simulation_of(args: argparse.Namespace) -> Simulation:
    """The simulation the command line describes (every setting checked)."""
    studies = tuple(
        STUDIES[s](n_resamples=args.resamples) if s == "k_ratio" else STUDIES[s]()
        for s in dict.fromkeys(args.study)
    )
    return Simulation(
        generator_of(args.generator, dict(args.param)),
        args.n,
        measures=(*args.measures, *map(measure_of, args.measure)),
        studies=studies,
        seed=args.seed,
        chunk_size=args.chunk_size,
    )


#: The option of each setting a refusal may name (:attr:`resources.ResourceError.setting`).
OPTIONS = {"n_matrices": "--n", "chunk_size": "--chunk-size", "n_resamples": "--resamples"}


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Simulation:
    """Every check of the settings before any work (:func:`run` checks the machine's memory and
    disk first)."""
    check_parallel_arguments(parser, args)
    try:
        sim = simulation_of(args)
    except OptionError as err:
        parser.error(f"argument {err.option}: {err}")
    except (ValueError, TypeError) as err:  # the simulation's own checks of them together
        parser.error(f"argument --generator/--param/--measures/--measure: {err}")
    if args.command == "validate":
        try:
            check_validation(sim, args.seeds)
        except ValueError as err:
            option = "--seeds" if args.seeds < 2 else "--n"
            parser.error(f"argument {option}: {err}")
    return sim


def destination(args: argparse.Namespace) -> Path:
    name = args.name or args.generator.replace(":", "-").replace(".", "-")
    suffix = "-validation" if args.command == "validate" else ""
    return (args.out if args.out is not None else Path("runs")) / f"{name}{suffix}"


def execute(
    args: argparse.Namespace, sim: Simulation, target: Path, call: str | None = None
) -> int:
    """Run the checked command into ``target``; 0, or 1 after one line saying why it failed
    (for ``validate``, also when some statistic's claimed SE is not honest: its outputs are
    written, and the last line names those statistics).

    SIGINT and SIGTERM propagate as :class:`~cenmcc.runtime.signals.Interrupted`, naming
    ``target``, which they leave as it was.
    """
    parallel = parallel_options(args)
    failed: list[str] = []

    def simulate():
        result = run(sim, **parallel)
        result.save(target, figures=not args.no_figures, call=call)
        print(_report(result))

    def validate():
        report_ = validation.validate(sim, args.seeds, **parallel)
        with staged_directory(target) as stage:
            write_json(stage / "validation.json", report_)
        print("\n".join(validation.verdict_lines(report_)))
        failed.extend(report_["failed"])

    status = run_into(args.command, target, simulate if args.command == "simulate" else validate)
    if failed:
        print(
            f"validate: {len(failed)} statistics with standard errors that are not honest "
            f"(ratio outside its band): {', '.join(failed)}",
            file=sys.stderr,
        )
        return 1
    return status


def main(argv: list[str] | None = None) -> int:
    """The command line: parse and check ``argv`` before any work, then run it; its status."""
    return run_command_line(PROG, _parse_and_run, argv)


def _parse_and_run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        sim = check_arguments(args.parser, args)
        target = destination(args)
        simulated = args.command == "simulate"  # all it may write, checked now, not after
        writes = output_files(sim, figures=not args.no_figures) if simulated else ()
        check_destination(args.parser, target, writes)
        return execute(args, sim, target, " ".join([PROG, *argv]))
    except resources.ResourceError as err:  # raised by `run` before any work
        args.parser.error(f"argument {OPTIONS.get(err.setting, '--n')}: {err}")


def _report(result) -> str:
    """A few lines: each pair's agreement, overall and within one K."""
    lines = []
    for f, g in result.pair_names():
        p = result.pair(f, g)
        lines.append(
            f"{f} vs {g}: r = {p['pearson']:.4f}, tau_b = {p['kendall_tau_b']:.4f}, "
            f"consistency = {p['consistency']:.4f} ± {p['consistency_se']:.1g} (within one K: "
            f"{p['within_k']['consistency']:.4f} ± {p['within_k']['consistency_se']:.1g})"
        )
    return "\n".join(lines)

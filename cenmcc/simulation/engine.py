"""A run: chunks measured in workers, merged, then summarized.

:func:`run` measures and reduces the batches of chunks of a
:class:`~cenmcc.simulation.plan.Simulation` in workers (:mod:`~cenmcc.simulation.chunks`) and
merges their states along a tree fixed by their number, so the bits never depend on the
workers, backend or scheduler. Per matrix only K and each measure's value are kept, on disk
(:class:`~cenmcc.simulation.pairs.ColumnStore`), for the exact pair counts.

Standard errors (:data:`STANDARD_ERRORS`): a smooth function of means is jackknifed over
:data:`~cenmcc.simulation.plan.JACKKNIFE_GROUPS` groups of whole chunks
(:func:`~cenmcc.simulation.jackknife.jackknife`); a statistic of pair counts from its spread
over replicate chunks (Schmeiser 1982), or, within K in a run of few chunks, from the
U-statistic variance (Hoeffding 1948; :data:`WITHIN_K_ERRORS`).
"""

from __future__ import annotations

import os
import time
import warnings

import numpy as np

import cenmcc
from cenmcc.ties import VALUE_BOUNDS

from . import agreement
from .chunks import measure_batch, merger, study_call
from .jackknife import jackknife
from .measures import undefined_rule
from .pairs import GROUP, ColumnStore, TieRule, count_pairs
from .parallel import CpuMeter, iter_tasks
from .plan import JACKKNIFE_GROUPS, TIE_RULES, Simulation
from .result import Result
from .streaming import OrderedReducer

#: How each kind of standard error is obtained (written into every summary).
STANDARD_ERRORS = {
    "jackknife": (
        "delete-a-group jackknife over groups of whole chunks (each chunk an independent "
        "replicate from its own seed): the statistic recomputed on the run with each group left "
        "out, SE = sqrt((G - 1)/G * sum (theta_(g) - mean)^2); Quenouille (1956), Tukey (1958), "
        "Kott (2001). For means, SDs, correlations and mean ratios, k refitted included"
    ),
    "replicates": (
        "batch means over replicate chunks: the statistic counted in each of the first "
        "replicate chunks (independent, chunk_size matrices each), SD over them times "
        "sqrt(chunk_size / n); Schmeiser (1982). For the statistics of exact pair counts "
        "(consistency, discriminancy, Kendall's tau_b), U-statistics whose SD falls as 1/sqrt(n)"
    ),
}

#: How the within-K pair statistics' SEs are obtained in a run of fewer whole chunks than
#: :attr:`Simulation.replicates`, whose replicates are strided parts of its chunks (written into
#: its summary as ``standard_errors["within_k"]``;
#: :func:`~cenmcc.simulation.within_k.within_k_errors`).
WITHIN_K_ERRORS = (
    "U-statistic variance from each matrix's within-K pair counts in the replicates (the "
    "strided parts of the run's few chunks): the statistic's delta-method kernel h over pairs "
    "of matrices of equal K, Var = 4 sigma_1^2 / n with sigma_1^2 = E[h(X1,X2) h(X1,X3)] "
    "estimated without bias over distinct triples; Hoeffding (1948). For the within-K "
    "consistency, discriminancy and Kendall's tau_b, whose spread over small parts carries a "
    "second-order term that overstates the run's SE"
)


def run(
    sim: Simulation,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> Result:
    """Run a simulation: draw, measure and reduce every chunk in parallel, then summarize.

    Parameters
    ----------
    sim : Simulation
    jobs, backend, scheduler, quiet
        As in :func:`cenmcc.simulation.parallel.iter_tasks`; none of them changes the result.
        ``quiet`` turns off the progress bar (drawn on a terminal only).

    Returns
    -------
    Result

    Warns
    -----
    cenmcc.UndefinedMetricWarning
        Once per measure that was 0/0 for some matrices, with their number (in this process;
        the workers never print).

    Raises
    ------
    cenmcc.simulation.resources.ResourceError
        Before any work, if the run would not fit this machine: too many chunks, its values
        beyond the temporary directory's free space, or its memory estimate beyond the memory
        available (:meth:`Simulation.require_resources`).
    cenmcc.simulation.parallel.ParallelError
        If a chunk fails (the message names it: a bad generator output, a measure returning
        bad values, a study failing) or a worker dies.
    """
    sim.require_resources(jobs=jobs, scheduler=scheduler)
    meter = CpuMeter()
    parallel = {
        "jobs": jobs,
        "backend": backend,
        "scheduler": scheduler,
        "quiet": quiet,
        "meter": meter,
    }
    start, cpu = time.perf_counter(), time.process_time()
    tasks = sim.batches()
    groups = _jackknife_groups(len(tasks))
    merge = merger(sim)
    reducers = [OrderedReducer(len(members), merge) for members in groups]
    where = {j: (g, i) for g, members in enumerate(groups) for i, j in enumerate(members)}
    starts = np.cumsum([0, *(t.size for t in tasks)])
    processes: set = set()
    warned: dict[str, int] = {}
    inexact: dict[str, str] = {}
    store = ColumnStore(sim.n_matrices)
    try:
        by_value = [sim.generator, *(m.function for m in sim.resolved_measures), *sim.studies]
        for index, result in iter_tasks(
            measure_batch,
            tasks,
            desc="chunks",
            unit="matrices",
            sizes=[t.size for t in tasks],
            by_value=by_value,
            **parallel,
        ):
            store.write(int(starts[index]), result.columns)
            g, i = where[index]
            reducers[g].add(i, result.states)
            processes.add(result.process)
            for message in result.warned:
                warned[message] = warned.get(message, 0) + 1
            inexact = result.inexact | inexact
        chunk_seconds = time.perf_counter() - start
        context = _Context(sim, store, parallel, inexact)
        summary, states = _summarize(sim, [r.result() for r in reducers], context)
        table = None
        if sim.keep_table:  # K and the measures (not the values studies derived from them)
            names = [GROUP, *(m.name for m in sim.resolved_measures)]
            table = {name: np.array(store.read(name)) for name in names}
    finally:
        store.close()
    _warn(sim, summary, warned)
    main_cpu = time.process_time() - cpu
    in_process = {pid for _, pid in processes} == {os.getpid()} or backend == "threading"
    serial = main_cpu - meter.seconds if in_process else main_cpu
    timing = {
        "computation_seconds": time.perf_counter() - start,
        "chunk_seconds": chunk_seconds,
        "main_process_cpu_seconds": main_cpu,
        "task_cpu_seconds": meter.seconds,
        # The CPU the main process spent besides the tasks, over all the run's CPU.
        "serial_fraction": serial / (serial + meter.seconds) if serial + meter.seconds else 0.0,
        "jobs": jobs,
        "backend": backend,
    }
    return Result(sim, summary, states, table, tuple(sorted(processes)), timing)


def _jackknife_groups(n_tasks: int) -> list[list[int]]:
    """Task indices in :data:`JACKKNIFE_GROUPS` groups of consecutive tasks (fewer if fewer)."""
    g = min(n_tasks, JACKKNIFE_GROUPS)
    members: list[list[int]] = [[] for _ in range(g)]
    for j in range(n_tasks):
        members[j * g // n_tasks].append(j)
    return members


class _Context:
    """What a study's summary can ask of the finished run (:class:`studies.RunContext`).

    ``inexact``: the measures planned ``"exact"`` that take the tolerance rule, and why.
    """

    def __init__(self, sim: Simulation, store: ColumnStore, parallel: dict, inexact: dict):
        self.simulation, self._store, self._parallel = sim, store, parallel
        self.inexact = inexact
        self.rules = {
            name: "tolerance" if name in inexact else rule
            for name, rule in sim.planned_ties.items()
        }
        self._ties = {name: self._tie_rule(rule, name) for name, rule in self.rules.items()}

    def _tie_rule(self, rule: str, name: str | None = None) -> TieRule:
        if rule == "exact":
            return TieRule(bound=VALUE_BOUNDS[name])
        return TieRule(rtol=self.simulation.tie_rtol if rule == "tolerance" else 0.0)

    def column(self, name: str, rows: slice | None = None) -> np.ndarray:
        return self._store.read(name, rows)

    def count_pairs(self, columns: dict, pairs: list) -> dict:
        """Pair counts of the columns a study derives, tied by the run's rule for other
        measures (within the tolerance, but with ``ties="float"``)."""
        taken = sorted({GROUP, *(m.name for m in self.simulation.resolved_measures)} & {*columns})
        if taken:
            raise ValueError(
                f"a study's columns {taken} would overwrite the run's columns of the same names "
                "(K and the measures): name them otherwise, and list them in the study's "
                "added_columns so that a clash is refused before the run"
            )
        for name, values in columns.items():
            self._store.add(name, values)
        rule = self._tie_rule("float" if self.simulation.ties == "float" else "tolerance")
        ties = {**dict.fromkeys(columns, rule), **self._ties}
        counted = count_pairs(self._store, pairs, by_group=False, ties=ties, **self._parallel)
        return {pair: c.overall for pair, c in counted.items()}

    def count_measure_pairs(self) -> dict:
        omit = [m.name for m in self.simulation.resolved_measures if m.omits]
        return count_pairs(
            self._store,
            self.simulation.resolved_pairs,
            ties=self._ties,
            omit=omit,
            **self._parallel,
        )

    def ties_summary(self) -> dict:
        """The rule each measure's ties were decided by, for the summary."""
        sim = self.simulation
        return {
            "rule": sim.ties,
            "rtol": sim.tie_rtol,
            "measures": self.rules,
            "study_columns": "float" if sim.ties == "float" else "tolerance",
            "not_exact": dict(self.inexact),
            "undecided": {
                name: self._store.undecided.get(name, 0)
                for name, rule in self.rules.items()
                if rule == "exact"
            },
            "rules": {rule: TIE_RULES[rule] for rule in dict.fromkeys(self.rules.values())},
        }


def _summarize(sim: Simulation, groups: list[tuple], context: _Context) -> tuple[dict, tuple]:
    """The summary of a run from the merged states of its jackknife groups."""

    def statistics(s: tuple) -> dict:
        """Every jackknifed statistic: the agreement's and each study's."""
        return {
            "agreement": agreement.statistics(sim, s[0]),
            "studies": {
                study.name: study.statistics(s[i], context)
                for i, study in enumerate(sim.studies, start=1)
            },
        }

    total, jackknifed = jackknife(statistics, groups, merger(sim))
    subgroups = total[0].subgroup_states()
    if subgroups:  # too few tasks: the moments' jackknife over strided parts of every chunk
        _, jackknifed["agreement"] = jackknife(
            lambda state: agreement.statistics(sim, state), subgroups, agreement.State.merge
        )
    summary: dict = {
        "n_matrices": sim.n_matrices,
        "seed": sim.seed,
        "chunk_size": sim.chunk_size,
        "n_chunks": sim.n_chunks,
        "orientation": (
            "pair statistics compare the measures oriented so that higher is better (lower-is-"
            "better measures negated): positive correlations, a tau_b above 0 or a consistency "
            "above 1/2 mean the measures agree on which matrices are better"
        ),
    }
    counted = context.count_measure_pairs()
    summary["ties"] = {}  # once the studies have counted theirs too
    summary |= _nested_merge(jackknifed["agreement"], agreement.summarize(sim, total[0], counted))
    summary["studies"] = {
        study.name: {
            **jackknifed.get("studies", {}).get(study.name, {}),
            **study_call(study, "summarize", total[i], context),
        }
        for i, study in enumerate(sim.studies, start=1)
    }
    summary["ties"] = context.ties_summary()
    summary["standard_errors"] = {
        **STANDARD_ERRORS,
        "jackknife_groups": len(groups),
        "moment_jackknife_groups": len(subgroups) or len(groups),
        "replicates": len(total[0].replicates),
        "replicate_size": sim.chunk_size // agreement.replicate_splits(sim),
        "not_honest": _dishonest(sim, len(groups), len(subgroups), len(total[0].replicates)),
    }
    if agreement.replicate_splits(sim) > 1:
        summary["standard_errors"]["within_k"] = WITHIN_K_ERRORS
    return _plain(summary), total


def _dishonest(sim: Simulation, groups: int, subgroups: int, replicates: int) -> dict:
    """The standard errors of the run that cannot be honest, each with the reason."""
    out = {}
    few = agreement.MIN_JACKKNIFE_GROUPS
    if max(groups, subgroups) < few:
        out["moments"] = (
            f"{max(groups, subgroups)} jackknife groups (fewer than {few}): a run of "
            f"{sim.n_matrices:,} matrices in chunks of {sim.chunk_size:,}"
        )
    if sim.studies and groups < few:
        out["studies"] = (
            f"the studies' statistics are jackknifed over {groups} groups of whole tasks "
            f"(fewer than {few}): use a chunk size of at most {sim.n_matrices // few:,}"
        )
    if replicates < few:
        out["pairs"] = (
            f"{replicates} replicates of the pair statistics (fewer than {few}): use more "
            f"matrices, a smaller chunk size, or more replicates (now {sim.replicates})"
        )
    return out


def _nested_merge(a: dict, b: dict) -> dict:
    """``a`` and ``b`` merged key by key, recursively (b's leaves win)."""
    out = dict(a)
    for key, value in b.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _nested_merge(out[key], value)
        else:
            out[key] = value
    return out


def _plain(tree):
    """Keys as strings in order, NumPy scalars as Python numbers (a JSON-able summary)."""
    if isinstance(tree, dict):
        return {str(k): _plain(v) for k, v in tree.items()}
    if isinstance(tree, list | tuple):
        return [_plain(v) for v in tree]
    if isinstance(tree, np.generic):
        return tree.item()
    return tree


def _warn(sim: Simulation, summary: dict, warned: dict[str, int]) -> None:
    """One warning per measure that was 0/0 somewhere, and per message of a user's measure."""
    for m in sim.resolved_measures:
        count = summary["measures"][m.name]["undefined"]
        if count:
            warnings.warn(
                f"{m.label} was undefined (0/0) for {count:,} of {sim.n_matrices:,} matrices, "
                f"{undefined_rule(m)}; the summary counts them per K "
                f"(measures.{m.name}.by_k)",
                cenmcc.UndefinedMetricWarning,
                stacklevel=3,
            )
    dishonest = summary["standard_errors"]["not_honest"]
    if dishonest:
        warnings.warn(
            "standard errors that are not honest (summary standard_errors.not_honest): "
            + "; ".join(f"{what}: {why}" for what, why in dishonest.items()),
            UserWarning,
            stacklevel=3,
        )
    undecided = {n: c for n, c in summary["ties"]["undecided"].items() if c}
    if undecided:
        warnings.warn(
            "ties: neighbouring values closer than the proven bound of their exact floats, "
            f"whose order is not certain: {undecided} (summary ties.undecided)",
            UserWarning,
            stacklevel=3,
        )
    for message, chunks in warned.items():
        warnings.warn(f"{message} (in {chunks} chunk(s))", UserWarning, stacklevel=3)

"""Smoke test of the installed wheel: run by .ci/run with a fresh environment's python, from a
directory outside the checkout, after ``pip install "cenmcc-*.whl[simulation]"`` and nothing else.

It checks that ``cenmcc`` is the installed copy, imports every module of it and every public name
of ``cenmcc`` and ``cenmcc.simulation``, and runs a metric, an interval, an audit and a small
simulation. Each value is checked against something computed here, so a wheel whose modules load
but compute wrongly fails too. It prints one line per step.
"""

import importlib
import pkgutil
import sysconfig
from pathlib import Path

import numpy as np

import cenmcc
import cenmcc.simulation

CHECKOUT = Path(__file__).resolve().parent.parent
INSTALLED = Path(sysconfig.get_paths()["purelib"]).resolve()

where = Path(cenmcc.__file__).resolve()
assert where.is_relative_to(INSTALLED), f"cenmcc imported from {where}, not from {INSTALLED}"
assert not where.is_relative_to(CHECKOUT), f"cenmcc imported from the checkout: {where}"
print(f"cenmcc {cenmcc.__version__} from {where.parent}")

#: What the extras beyond ``simulation`` add (pyproject.toml), which a module may need to import.
OTHER_EXTRAS = {"matplotlib", "pandas", "dask", "distributed", "sympy"}

# Every module, so that a package left out of the wheel fails here even if no public name needs
# it; __main__ modules are commands, run rather than imported.
modules = [
    info.name
    for info in pkgutil.walk_packages(cenmcc.__path__, "cenmcc.")
    if not info.name.endswith(".__main__")
]
needs_extra = []
for name in modules:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name.partition(".")[0] not in OTHER_EXTRAS:
            raise
        needs_extra.append(f"{name} ({error.name})")
public = [(cenmcc, name) for name in cenmcc.__all__]
public += [(cenmcc.simulation, name) for name in cenmcc.simulation.__all__]
for module, name in public:
    assert getattr(module, name) is not None, f"{module.__name__}.{name}"
print(f"imported {len(modules) - len(needs_extra)} modules and {len(public)} public names")
print(f"not imported, needing another extra: {', '.join(needs_extra) or 'none'}")

# A metric: the binary MCC written out, (tp·tn − fp·fn) / sqrt of the four marginals' product.
C = np.array([[40, 5], [4, 51]])
(tp, fn), (fp, tn) = C
expected = (tp * tn - fp * fn) / np.sqrt((tp + fn) * (tn + fp) * (tp + fp) * (tn + fn))
assert abs(cenmcc.mcc(C) - expected) < 1e-15, (cenmcc.mcc(C), expected)
print(f"mcc {float(cenmcc.mcc(C)):.6f} (written out {expected:.6f})")

# An interval: Wilson's for the accuracy, and a bootstrap that brackets its statistic.
accuracy = (tp + tn) / C.sum()
wilson = cenmcc.confidence_interval(C, "accuracy", method="wilson").confidence_interval
assert wilson.low < accuracy < wilson.high, (wilson, accuracy)
boot = cenmcc.confidence_interval(C, "mcc", n_resamples=999, random_state=0)
low, high = boot.confidence_interval
assert low < boot.statistic < high, boot
assert 0 < boot.standard_error < 1, boot
print(
    f"accuracy wilson ({wilson.low:.3f}, {wilson.high:.3f}), mcc bootstrap ({low:.3f}, {high:.3f})"
)

# An audit: accuracy is symmetric in its classes and has no constant baseline.
report = cenmcc.properties.audit(
    "accuracy", 2, ["symmetry", "constant_baseline"], n_items=6, n_random=1000
)
assert report["symmetry"].holds is True, report
assert report["constant_baseline"].holds is False, report
print("audit of accuracy: symmetry holds, constant_baseline fails")


# A small simulation in this process, in chunks small enough for honest standard errors: every
# matrix is counted and defined, and the MCC and accuracy order most pairs alike.
def draw(rng, size):
    return rng.integers(0, 20, size=(size, 3, 3))


n = 400
simulation = cenmcc.simulation.Simulation(
    draw, n, measures=("mcc", "accuracy"), seed=1, chunk_size=10
)
result = cenmcc.simulation.run(simulation, jobs=1, quiet=True)
assert result.summary["n_matrices"] == n, result.summary
assert all(m["n"] == n and m["undefined"] == 0 for m in result.summary["measures"].values())
consistency = result.pair("mcc", "accuracy")["consistency"]
assert 0.5 < consistency <= 1, consistency
print(f"simulation of {n} matrices: consistency of mcc and accuracy {consistency:.3f}")
print("smoke test passed")

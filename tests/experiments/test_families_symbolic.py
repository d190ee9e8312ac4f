"""The sympy proof machinery of experiments.families_symbolic: sound, and proving what it says.

The proofs themselves run in ``tests/experiments/test_families_experiment.py`` (through the
CLI); here the primitives are shown not to prove false identities, and the sympy
transcriptions of the printed formulas are shown to be the ones :mod:`cenmcc.families`
implements.
"""

import numpy as np
import pytest
import sympy as sp

import cenmcc
from cenmcc import families as fam
from experiments import families_symbolic as fs
from experiments import misprints

A, T, F = fs.A, fs.T, fs.F


def test_definitions_match_cenmcc_on_numbers():
    C = sp.Matrix([[3, 1, 0], [2, 5, 1], [0, 4, 2]])
    assert float(fs.cen_definition(C)) == pytest.approx(
        float(cenmcc.cen(np.array(C.tolist(), dtype=int)))
    )
    assert float(fs.mcc_definition(C)) == pytest.approx(
        float(cenmcc.mcc(np.array(C.tolist(), dtype=int)))
    )


def test_vanishes_proves_true_identities():
    assert fs.vanishes(sp.log(2 * A + 10) - sp.log(2) - sp.log(A + 5))
    assert fs.vanishes(sp.log(6) - sp.log(2) - sp.log(3))
    assert fs.equal(sp.log(A**2, 4), sp.log(A, 2), 3)  # base 2N - 2 = 4


@pytest.mark.parametrize(
    "expr",
    [
        sp.log(A + 1) - sp.log(A),
        sp.log(3) - sp.log(2),
        A * sp.log(A) - sp.log(A),
        1 / (A + 1) - 1 / A,
    ],
)
def test_vanishes_does_not_prove_false_identities(expr):
    assert not fs.vanishes(expr)


def test_log_of_a_possibly_negative_argument_is_refused():
    # Splitting log(x y) = log x + log y is only done for factors known to be positive.
    with pytest.raises(ValueError, match="not known to be positive"):
        fs.vanishes(sp.log(A - 1))


def test_equal_rejects_the_wrong_printed_forms():
    N = sp.Integer(4)
    mcc = fs.mcc_definition(fs.z_a(4))
    assert fs.equal(mcc, fs.CLOSED_FORMS["zA-mcc-journal"](N, A))
    assert not fs.equal(mcc, fs.CLOSED_FORMS["zA-mcc-preprint"](N, A))
    cen = fs.cen_definition(fs.z_a(4))
    assert fs.equal(cen, fs.CLOSED_FORMS["zA-cen"](N, A), 4)
    assert not fs.equal(cen, fs.CLOSED_FORMS["zA-cen"](N, A) + 1 / (A + 3), 4)
    assert not fs.equal(cen, fs.CLOSED_FORMS["zA-cen"](N, A + 1), 4)


# Every sympy form against the NumPy function it stands for (cenmcc.families, or
# experiments.misprints for the preprint's forms that do not hold).
TRANSCRIPTIONS = {
    "zA-acc": (fam.acc_z_a, ("N", "A")),
    "zA-mcc-preprint": (misprints.mcc_z_a_preprint, ("N", "A")),
    "zA-mcc-journal": (fam.mcc_z_a_journal, ("N", "A")),
    "zA-mcc-limit-preprint": (misprints.mcc_z_a_limit_preprint, ("N",)),
    "zA-mcc-limit-journal": (fam.mcc_z_a_limit_journal, ("N",)),
    "zA-cen": (fam.cen_z_a, ("N", "A")),
    "dice-cen": (fam.cen_dice, ("N", "A")),
    "dice-cen-limit-preprint": (misprints.cen_dice_limit_preprint, ("N",)),
    "dice-cen-limit-journal": (fam.cen_dice_limit_journal, ("N",)),
    "const-cen": (fam.cen_constant, ("N",)),
    "b-mcc": (fam.mcc_b, ("N", "T", "F")),
    "b-cen": (fam.cen_b, ("N", "T", "F")),
    "b-identity": (fam.cen_b_from_mcc, ("N", "T", "F", "mcc")),
    "binary-mcc": (fam.mcc_binary, ("TP", "FN", "FP", "TN")),
    "binary-cen": (fam.cen_binary, ("TP", "FN", "FP", "TN")),
    "binary-sym-cen": (fam.cen_binary_symmetric, ("T", "F")),
}


def test_every_transcription_is_covered():
    assert set(TRANSCRIPTIONS) == set(fs.CLOSED_FORMS)


@pytest.mark.parametrize("formula_id", sorted(TRANSCRIPTIONS))
def test_sympy_transcriptions_are_the_implemented_formulas(formula_id):
    function, names = TRANSCRIPTIONS[formula_id]
    rng = np.random.default_rng(len(formula_id))
    for _ in range(5):
        values = {
            "N": int(rng.integers(3, 12)),
            "A": float(rng.uniform(1, 50)),
            "T": float(rng.uniform(0, 20)),
            "F": float(rng.uniform(0.5, 20)),
            "mcc": float(rng.uniform(-0.5, 1)),
            **{k: float(rng.uniform(0.5, 20)) for k in ("TP", "FN", "FP", "TN")},
        }
        args = [values[n] for n in names]
        exact = fs.CLOSED_FORMS[formula_id](
            *[
                sp.Integer(a) if n == "N" else sp.Float(a, 30)
                for n, a in zip(names, args, strict=True)
            ]
        )
        assert float(function(*args)) == pytest.approx(float(exact), rel=1e-12)


def test_a_per_n_proof_extends_beyond_the_default_ns():
    results = fs.prove(["zA-cen", "dice-cen", "zA-mcc-journal"], Ns=(7,))
    assert all(r.proven for r in results.values())
    assert "N = 7" in results["zA-cen"].how


def test_the_z_a_and_dice_forms_are_written_once():
    """The symbolic proofs evaluate the very expressions the NumPy functions evaluate."""
    assert fs.CLOSED_FORMS["zA-acc"] is fam.acc_z_a_expression
    assert fs.CLOSED_FORMS["zA-mcc-journal"] is fam.mcc_z_a_expression
    assert fs.CLOSED_FORMS["zA-mcc-limit-journal"] is fam.mcc_z_a_limit_expression
    assert fs.CLOSED_FORMS["zA-mcc-preprint"] is misprints.mcc_z_a_preprint
    N, A = sp.Integer(5), sp.Symbol("A", positive=True)
    cens = {"zA-cen": fam.cen_z_a_expression, "dice-cen": fam.cen_dice_expression}
    for name, expression in cens.items():
        assert fs.CLOSED_FORMS[name](N, A) == expression(N, A, sp.log)
    assert fs.CLOSED_FORMS["dice-cen-limit-journal"](N) == fam.cen_dice_limit_expression(N, sp.log)

"""Closed-form families of confusion matrices and every closed form the papers print for them.

Two sources print these formulas, and they do not always agree:

- *preprint*: Jurman G., Furlanello C. (2010). A unifying view for performance measures in
  multi-class prediction. arXiv:1008.2908, Sec. 2 and Sec. 2.1 (clean text);
- *journal*: Jurman G., Riccadonna S., Furlanello C. (2012). A comparison of MCC and CEN error
  measures in multi-class prediction. PLoS ONE 7(8): e41882, Methods, subsections
  "Relationships between CEN and MCC", "Comparison on the Z_A family", "The dice rolling case"
  and "The binary case" (text extracted from the PDF).

Where both print the same formula there is one function, named for the quantity and the family
(``cen_z_a``); where they differ, the function is the form that holds, suffixed ``_journal``
(``mcc_z_a_journal``). The library holds no formula that does not hold: the preprint's
misprinted forms (the MCC of ``Z_A`` and its limit, the limit of the dice CEN, the first line
of Eq. (3)) are transcribed in :mod:`experiments.misprints`, which the families experiment and
``paper_checks`` compare with these.

The closed forms of the ``Z_A`` and dice families are each written once, as an expression of
numbers, NumPy arrays or sympy symbols (``*_expression``, no validation), which the validated
NumPy function evaluates and :mod:`experiments.families_symbolic` proves from the definitions.

Reading of the journal's extracted formulas: the PDF extraction prints ``~`` for ``=``, ``{`` for
``-``, ``z`` for ``+``, ``w`` for ``>``, ``v`` for ``<``, ``§`` for ``≥``, ``??`` for ``→ ∞``,
``=`` for ``≠`` (as in ``k=j`` under the sum of Eq. (1)), breaks fractions over lines and writes
``log2N{2`` for ``log_{2N-2}``. Each function's docstring gives the garbled text and the
reading taken.

All constructors return integer stacks (``int64``) for integer parameters and ``float64`` stacks
otherwise, of shape ``(..., N, N)`` where ``...`` is the broadcast shape of the parameters, with
rows = true class as everywhere in cenmcc. All closed forms are vectorized over their parameters
(``N`` included) and return ``float64``.

The modules: :mod:`.matrices` (the constructors), :mod:`.z_a_forms`, :mod:`.dice_forms`,
:mod:`.b_forms` (with the constant matrix) and :mod:`.binary_forms` (the closed forms of each
family), :mod:`.eq3` (Eq. (3)'s first line), and :mod:`._parameters` (the checks they share).
"""

from ..entropy import BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX
from .b_forms import cen_b, cen_b_from_mcc, cen_constant, mcc_b
from .binary_forms import cen_binary, cen_binary_symmetric, mcc_binary
from .dice_forms import (
    cen_dice,
    cen_dice_expression,
    cen_dice_limit_expression,
    cen_dice_limit_journal,
)
from .eq3 import eq3_first_line_journal
from .matrices import (
    b_matrix,
    binary,
    complete_misclassification,
    constant,
    dice,
    single_column,
    swapped_pair,
    z_a,
)
from .z_a_forms import (
    acc_z_a,
    acc_z_a_expression,
    cen_z_a,
    cen_z_a_expression,
    mcc_z_a_expression,
    mcc_z_a_journal,
    mcc_z_a_limit_expression,
    mcc_z_a_limit_journal,
)

__all__ = [
    "BINARY_SYMMETRIC_CEN_ARGMAX",
    "BINARY_SYMMETRIC_CEN_MAX",
    "acc_z_a",
    "acc_z_a_expression",
    "b_matrix",
    "binary",
    "cen_b",
    "cen_b_from_mcc",
    "cen_binary",
    "cen_binary_symmetric",
    "cen_constant",
    "cen_dice",
    "cen_dice_expression",
    "cen_dice_limit_expression",
    "cen_dice_limit_journal",
    "cen_z_a",
    "cen_z_a_expression",
    "complete_misclassification",
    "constant",
    "dice",
    "eq3_first_line_journal",
    "mcc_b",
    "mcc_binary",
    "mcc_z_a_expression",
    "mcc_z_a_journal",
    "mcc_z_a_limit_expression",
    "mcc_z_a_limit_journal",
    "single_column",
    "swapped_pair",
    "z_a",
]

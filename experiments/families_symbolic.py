"""Symbolic proofs (sympy) of the closed forms of :mod:`cenmcc.families`, from the definitions.

For each family the confusion matrix is built here as a sympy matrix with symbolic entries (``A``,
``T``, ``F``, ``TP`` ... ``TN``), and its CEN and MCC are computed here from the papers'
definitions, written out again in sympy: Eq. (1) (CEN, with ``h(0) = 0``) and Eq. (2) (the
triple-sum MCC) of Jurman, Riccadonna & Furlanello (2012); no metric comes from cenmcc's code.
The closed forms of the Z_A and dice families are the expressions that :mod:`cenmcc.families`
(and :mod:`experiments.misprints`, for the preprint's) evaluates in NumPy, here evaluated on
symbols, so the proof is of the code itself; the others are transcribed here in sympy (the
tests check the two transcriptions agree numerically). Each is compared with the
definitions for ``N = 3 .. 6`` (``2 .. 6`` where ``N = 2`` belongs to the claim).

What counts as a proof here:

- a rational identity (ACC, MCC): the difference cancels to 0 (``sympy.cancel``);
- an identity with logarithms (CEN): after multiplying by ``ln(2N - 2)``, every logarithm is
  rewritten as a sum of logarithms of irreducible positive factors (integers split into primes;
  every argument is checked positive under the symbols' assumptions), and the difference, grouped
  by monomials in these logarithms, must have every coefficient cancel to 0. This is a sufficient
  condition for the difference to vanish identically; it assumes nothing about independence of
  logarithms, so it can fail to prove a true identity but cannot prove a false one (sympy's own
  ``cancel``/``expand`` combine logarithms only where the symbols' assumptions make it valid);
- a limit: ``sympy.limit``, then the same zero test on ``limit - claimed``;
- a monotonicity: the derivative, factored, has a sign that sympy's assumptions decide;
- a disproof: an exact counterexample (rational numbers or exact symbolic constants).

Everything else is checked numerically only (:mod:`experiments.families`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sympy as sp

from cenmcc import families as fam

from . import misprints

#: The numbers of classes of the symbolic proofs.
SYMBOLIC_N = (3, 4, 5, 6)

A = sp.Symbol("A", positive=True)
T = sp.Symbol("T", nonnegative=True)
F = sp.Symbol("F", positive=True)
G = sp.Symbol("G", positive=True)
TP, FN, FP, TN = sp.symbols("TP FN FP TN", positive=True)
Nsym = sp.Symbol("N", positive=True)


@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of the symbolic step for one formula id."""

    id: str
    proven: bool  # the printed statement is proven (False also for a proven disproof)
    disproven: bool  # an exact counterexample was found
    how: str  # what was proven or the exact counterexample, for the report
    seconds: float


# --------------------------------------------------------------------------------------------
# The definitions, written out in sympy
# --------------------------------------------------------------------------------------------


def cen_definition(C: sp.Matrix) -> sp.Expr:
    """CEN by Eq. (1): ``sum_j P_j sum_{k != j} h(P^j_jk) + h(P^j_kj)``, base ``2(N-1)``."""
    N = C.shape[0]
    base = 2 * (N - 1)
    total = sum(C)
    value = sp.Integer(0)
    for j in range(N):
        d = sum(C[j, k] + C[k, j] for k in range(N))
        if d == 0:
            continue
        entropy = sp.Integer(0)
        for k in range(N):
            if k == j:
                continue
            for x in (C[j, k], C[k, j]):
                if x != 0:  # h(0) = 0
                    entropy -= x / d * sp.log(x / d, base)
        value += d / (2 * total) * entropy
    return value


def mcc_definition_parts(C: sp.Matrix) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Numerator and the two radicands of Eq. (2), the triple-sum MCC, literally.

    The index ``l`` of Eq. (2) is called ``q`` here.
    """
    N = C.shape[0]
    r = range(N)
    num = sum(C[k, k] * C[m, q] - C[q, k] * C[k, m] for k in r for q in r for m in r)
    den_pred = sum(
        sum(C[q, k] for q in r) * sum(C[g, f] for f in r if f != k for g in r) for k in r
    )
    den_true = sum(
        sum(C[k, q] for q in r) * sum(C[f, g] for f in r if f != k for g in r) for k in r
    )
    return sp.expand(num), sp.expand(den_pred), sp.expand(den_true)


def mcc_definition(C: sp.Matrix) -> sp.Expr:
    """MCC by Eq. (2); ``sqrt(a) sqrt(b) = sqrt(ab)`` for the non-negative radicands."""
    num, den_pred, den_true = mcc_definition_parts(C)
    return num / sp.sqrt(sp.factor(den_pred * den_true))


def acc_definition(C: sp.Matrix) -> sp.Expr:
    """Accuracy: trace over total."""
    return C.trace() / sum(C)


# --------------------------------------------------------------------------------------------
# The families, built here
# --------------------------------------------------------------------------------------------


def z_a(N: int) -> sp.Matrix:
    """Ones, with ``A`` at row N, column 1."""
    C = sp.ones(N, N)
    C[N - 1, 0] = A
    return C


def dice(N: int) -> sp.Matrix:
    """Ones, with the last row all ``A``."""
    C = sp.ones(N, N)
    C[N - 1, :] = A * sp.ones(1, N)
    return C


def b_matrix(N: int, t=T, f=F) -> sp.Matrix:
    """``t`` on the diagonal, ``f`` elsewhere."""
    return sp.Matrix(N, N, lambda i, j: t if i == j else f)


def binary(tp=TP, fn=FN, fp=FP, tn=TN) -> sp.Matrix:
    """``[[TP, FN], [FP, TN]]``."""
    return sp.Matrix([[tp, fn], [fp, tn]])


def single_column(N: int, f=F) -> sp.Matrix:
    """All samples (``f`` per class) predicted as class 1."""
    return sp.Matrix(N, N, lambda i, j: f if j == 0 else 0)


def swapped_pair(N: int) -> sp.Matrix:
    """Zeros but ``C_12 = F`` and ``C_21 = G``."""
    C = sp.zeros(N, N)
    C[0, 1], C[1, 0] = F, G
    return C


# --------------------------------------------------------------------------------------------
# The printed closed forms: those of the Z_A and dice families are the very expressions of
# cenmcc.families (and experiments.misprints) evaluated on symbols; the others transcribed in sympy
# --------------------------------------------------------------------------------------------


def _log(x, N):
    return sp.log(x, 2 * N - 2)


#: formula id -> (parameters, closed form as a function of N and the parameters).
CLOSED_FORMS: dict[str, Callable] = {
    "zA-acc": fam.acc_z_a_expression,
    "zA-mcc-preprint": misprints.mcc_z_a_preprint,
    "zA-mcc-journal": fam.mcc_z_a_expression,
    "zA-mcc-limit-preprint": misprints.mcc_z_a_limit_preprint,
    "zA-mcc-limit-journal": fam.mcc_z_a_limit_expression,
    "zA-cen": lambda N, A: fam.cen_z_a_expression(N, A, sp.log),
    "dice-cen": lambda N, A: fam.cen_dice_expression(N, A, sp.log),
    "dice-cen-limit-preprint": lambda N: misprints.cen_dice_limit_preprint(N, sp.log),
    "dice-cen-limit-journal": lambda N: fam.cen_dice_limit_expression(N, sp.log),
    "const-cen": lambda N: (1 - sp.Integer(1) / N) * _log(2 * N, N),
    "b-mcc": lambda N, T, F: (T**2 + (N - 2) * T * F - (N - 1) * F**2) / (T + (N - 1) * F) ** 2,
    "b-cen": lambda N, T, F: (N - 1) * F / (T + (N - 1) * F) * _log(2 * (T + (N - 1) * F) / F, N),
    "b-identity": lambda N, T, F, mcc: (
        (1 - mcc) * (1 + _log((T + (N - 1) * F) / ((N - 1) * F), N)) * (1 - sp.Integer(1) / N)
    ),
    "binary-mcc": lambda TP, FN, FP, TN: (
        (TP * TN - FP * FN) / sp.sqrt((TP + FP) * (TP + FN) * (TN + FP) * (TN + FN))
    ),
    "binary-cen": lambda TP, FN, FP, TN: (
        (FN + FP) * sp.log((TP + TN + FP + FN) ** 2 - (TP - TN) ** 2, 2) / (2 * (TP + TN + FP + FN))
        - (FN * sp.log(FN, 2) + FP * sp.log(FP, 2)) / (TP + TN + FP + FN)
    ),
    "binary-sym-cen": lambda T, F: F / (T + F) * sp.log(2 * (T + F) / F, 2),
}


# --------------------------------------------------------------------------------------------
# Proof primitives
# --------------------------------------------------------------------------------------------


def _split_log(arg: sp.Expr) -> sp.Expr:
    """``log(arg)`` as a sum of logs of irreducible factors; every factor must be positive."""
    expanded = sp.expand_log(sp.log(sp.factor(arg)), force=True, factor=True)
    for atom in expanded.atoms(sp.log):
        if atom.args[0].is_positive is not True:
            raise ValueError(f"cannot prove: log of {atom.args[0]}, not known to be positive")
    return expanded


def vanishes(expr: sp.Expr, base: int | None = None) -> bool:
    """True if ``expr`` (rational functions and logarithms) is proven identically zero.

    With ``base``, ``expr`` is a CEN-type expression whose logarithms are to that base: it is
    multiplied by ``ln(base)`` first (with ``ln(base)`` held as a symbol, so that the product
    cancels exactly). The numerator of the result over a common denominator is then expanded in
    logarithms of irreducible factors and every coefficient must vanish.
    """
    if base is not None:
        L = sp.Dummy("L", positive=True)
        expr = expr.subs(sp.log(base), L) * L
    numerator, _ = sp.fraction(sp.cancel(sp.together(expr)))
    if base is not None:
        numerator = numerator.subs(L, sp.log(base))
    numerator = sp.expand(sp.expand(numerator).replace(sp.log, _split_log))
    logs = tuple(numerator.atoms(sp.log))
    groups: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(numerator):
        coefficient, monomial = term.as_independent(*logs, as_Add=False) if logs else (term, 1)
        groups[monomial] = groups.get(monomial, 0) + coefficient
    return all(sp.expand(c) == 0 for c in groups.values())


def equal(lhs: sp.Expr, rhs: sp.Expr, N: int | None = None) -> bool:
    """``lhs == rhs`` proven; with ``N``, both sides are CEN-type with logs to base ``2N - 2``."""
    return vanishes(lhs - rhs, None if N is None else 2 * int(N) - 2)


def limit_equals(expr: sp.Expr, var: sp.Symbol, claimed: sp.Expr, N: int | None = None) -> bool:
    """``lim_{var -> ∞} expr == claimed``, with sympy.limit then the zero test."""
    return equal(sp.limit(expr, var, sp.oo), claimed, N)


def _sign_of_derivative(expr: sp.Expr, var: sp.Symbol) -> bool | None:
    """True if d expr / d var < 0, False if > 0, None if sympy cannot decide."""
    derivative = sp.factor(sp.cancel(sp.diff(expr, var)))
    if derivative.is_negative:
        return True
    if derivative.is_positive:
        return False
    return None


# --------------------------------------------------------------------------------------------
# The proofs, one function per formula id
# --------------------------------------------------------------------------------------------


def _over_n(Ns: Iterable[int], check: Callable[[sp.Integer], bool]) -> bool:
    """``check(N)`` for every N, passed as a sympy Integer so that ``1/N`` stays exact."""
    return all(check(sp.Integer(N)) for N in Ns)


def _identity_text(ok: bool, where: str) -> str:
    return f"identity proven for {where}" if ok else f"identity NOT proven for {where}"


def _ns_text(Ns: Iterable[int]) -> str:
    Ns = list(Ns)
    return f"N = {Ns[0]}..{Ns[-1]}" if len(Ns) > 1 else f"N = {Ns[0]}"


def _proofs(Ns: tuple[int, ...]) -> dict[str, Callable[[], tuple[bool, bool, str]]]:
    """formula id -> a thunk returning ``(proven, disproven, how)``."""
    cf = CLOSED_FORMS
    n_text = _ns_text(Ns)
    n2_text = _ns_text((2, *Ns))

    def identity(build, closed, metric, ns=Ns, text=n_text, params="A", is_cen=False):
        def run():
            ok = _over_n(ns, lambda N: equal(metric(build(N)), closed(N), N if is_cen else None))
            return ok, False, _identity_text(ok, f"{text}, symbolic {params}")

        return run

    def z_cen(N):
        return cen_definition(z_a(N))

    def z_mcc(N):
        return mcc_definition(z_a(N))

    def d_cen(N):
        return cen_definition(dice(N))

    def decreasing(fn, what):
        def run():
            ok = _over_n(Ns, lambda N: _sign_of_derivative(fn(N), A) is True)
            return ok, False, f"d/dA {what} < 0 proven for {n_text}" if ok else "not proven"

        return run

    def limit(fn, claimed, text, is_cen=False):
        def run():
            ok = _over_n(Ns, lambda N: limit_equals(fn(N), A, claimed(N), N if is_cen else None))
            return ok, False, f"sympy.limit {text} for {n_text}" if ok else "not proven"

        return run

    def zA_mcc_preprint():
        N = sp.Integer(3)
        true, printed = z_mcc(N).subs(A, 2), cf["zA-mcc-preprint"](N, sp.Integer(2))
        return False, true != printed, f"N = 3, A = 2: MCC = {true} exactly, printed {printed}"

    def zA_mcc_limit_preprint():
        N = sp.Integer(3)
        true = sp.limit(z_mcc(N), A, sp.oo)
        printed = cf["zA-mcc-limit-preprint"](N)
        return (
            False,
            true != printed,
            f"N = 3: limit of MCC(Z_A) = {true} exactly, printed {printed}",
        )

    def dice_limit_preprint():
        N = sp.Integer(3)
        true = sp.limit(d_cen(N), A, sp.oo)
        printed = cf["dice-cen-limit-preprint"](N)
        disproven = equal(true, sp.Rational(1, 3), N) and (printed - 1).is_positive is True
        return False, disproven, "N = 3: limit = 1/3 exactly, printed 1 + log_4(3)/3 > 1"

    def dice_limit_asymptote():
        limit_value = sp.limit(cf["dice-cen-limit-journal"](Nsym), Nsym, sp.oo)
        ok = limit_value == sp.Rational(1, 2)
        return ok, False, "sympy.limit of (N-1)/(2N) log_{2N-2}(N+1) as N -> oo is 1/2, symbolic N"

    def dice_mcc_zero():
        def check(N):
            num, dp, dt = mcc_definition_parts(dice(N))
            return sp.cancel(num) == 0 and sp.factor(dp * dt).is_positive is True

        ok = _over_n(Ns, check)
        return ok, False, f"Eq. (2) numerator = 0 and denominator > 0 for every A, {n_text}"

    def const_mcc_zero():
        def check(N):
            num, dp, dt = mcc_definition_parts(b_matrix(N, F, F))
            return sp.cancel(num) == 0 and sp.factor(dp * dt).is_positive is True

        ok = _over_n((2, *Ns), check)
        return ok, False, f"Eq. (2) numerator = 0, denominator > 0, symbolic F, {n2_text}"

    def pair_mcc():
        ok = _over_n((2, *Ns), lambda N: equal(mcc_definition(swapped_pair(N)), sp.Integer(-1)))
        return ok, False, f"MCC = -1 proven for {n2_text}, symbolic F, G (C_12 = F, C_21 = G)"

    def onecol_mcc():
        def check(N):
            num, dp, dt = mcc_definition_parts(single_column(N))
            return num == 0 and dp == 0 and dt.is_positive is True

        ok = _over_n((2, *Ns), check)
        return (
            ok,
            False,
            f"Eq. (2) is 0/0 for {n2_text}, symbolic F: its numerator and cov(X, X) vanish "
            "identically; MCC = 0 is the papers' convention for 0/0, not a value",
        )

    def eq3_journal():
        s, o, m = sp.symbols("s o m", positive=True)
        n = Nsym
        line1 = (1 - m) * (1 + sp.log(s / o, 2 * n - 2)) * (1 - 1 / n)
        line2 = (1 - m) * (1 - sp.log(o / s, 2 * n - 2)) * (1 - 1 / n)
        ok = vanishes(sp.expand_log((line1 - line2) * sp.log(2 * n - 2), force=True))
        return (
            ok,
            False,
            "line 1 = line 2 for symbolic N, s = sum C_ij, o = sum_{i != j} C_ij > 0, MCC "
            "(since 1 - ACC = o/s)",
        )

    def eq3_preprint():
        N = 3
        C = b_matrix(N, 1, 1)  # the constant 3 x 3 matrix: s = 9, 6 samples misclassified
        mcc, s, o = mcc_definition(C), sum(C), 6
        line1 = (1 - mcc) * (1 + sp.log(s / sp.Integer(N), 2 * N - 2)) * (1 - sp.Rational(1, N))
        line2 = (1 - mcc) * (1 - sp.log(o / s, 2 * N - 2)) * (1 - sp.Rational(1, N))
        disproven = equal(line1 - line2, sp.Rational(1, 3), N)
        return False, disproven, "constant 3 x 3 matrix: line 1 - line 2 = 1/3 exactly"

    def b_identity():
        def check(N):
            C = b_matrix(N)
            return equal(cen_definition(C), cf["b-identity"](N, T, F, mcc_definition(C)), N)

        ok = _over_n((2, *Ns), check)
        return ok, False, _identity_text(ok, f"{n2_text}, symbolic T >= 0, F > 0")

    def binary_identity(name, metric, is_cen):
        def run():
            closed = cf[name](TP, FN, FP, TN)
            ok = equal(metric(binary()), closed, 2 if is_cen else None)
            return ok, False, _identity_text(ok, "symbolic TP, FN, FP, TN > 0")

        return run

    def binary_sym_cen():
        ok = equal(cen_definition(binary(T, F, F, T)), cf["binary-sym-cen"](T, F), 2)
        return ok, False, _identity_text(ok, "symbolic T >= 0, F > 0")

    y = sp.Symbol("y", positive=True)  # y = 1 + T/F

    def binary_gt1():
        phi = sp.log(2 * y, 2) - y  # CEN > 1  <=>  phi(y) > 0, with CEN = log2(2y)/y
        concave = sp.diff(phi, y, 2).is_negative is True
        roots = phi.subs(y, 1) == 0 and sp.simplify(phi.subs(y, 2)) == 0
        ok = concave and roots
        return (
            ok,
            False,
            "CEN = log2(2y)/y with y = 1 + T/F; phi(y) = log2(2y) - y is strictly concave "
            "(phi'' = -1/(y^2 ln 2)) with roots y = 1, 2: CEN > 1 iff 0 < T < F, = 1 at T = 0, F",
        )

    def binary_max_at_t0():
        at_t0 = sp.simplify(cf["binary-sym-cen"](sp.Integer(0), sp.Integer(2)))
        at_t1 = cf["binary-sym-cen"](sp.Integer(1), sp.Integer(2))
        disproven = at_t0 == 1 and (at_t1 - at_t0).is_positive is True
        return (
            False,
            disproven,
            f"CEN(T=0) = {at_t0} exactly < CEN(T=1, F=2) = {sp.simplify(at_t1)}",
        )

    def binary_max():
        g = sp.log(2 * y, 2) / y
        critical = sp.solve(sp.diff(g, y), y)
        ok = (
            critical == [sp.E / 2]
            and sp.diff(g, y, 2).subs(y, sp.E / 2).is_negative is True
            and sp.simplify(g.subs(y, sp.E / 2) - 2 / (sp.E * sp.log(2))) == 0
        )
        return (
            ok,
            False,
            "unique critical point of log2(2y)/y at y = e/2 (T/F = e/2 - 1), a maximum, "
            "value 2/(e ln 2)",
        )

    return {
        "zA-acc": identity(z_a, lambda N: cf["zA-acc"](N, A), acc_definition),
        "zA-acc-decreasing": decreasing(lambda N: acc_definition(z_a(N)), "ACC(Z_A)"),
        "zA-acc-limit": limit(
            lambda N: acc_definition(z_a(N)), lambda N: sp.Integer(0), "ACC(Z_A) -> 0"
        ),
        "zA-mcc-preprint": zA_mcc_preprint,
        "zA-mcc-journal": identity(z_a, lambda N: cf["zA-mcc-journal"](N, A), mcc_definition),
        "zA-mcc-decreasing": decreasing(z_mcc, "MCC(Z_A)"),
        "zA-mcc-limit-preprint": zA_mcc_limit_preprint,
        "zA-mcc-limit-journal": limit(z_mcc, cf["zA-mcc-limit-journal"], "MCC(Z_A) -> -1/(2(N-1))"),
        "zA-cen": identity(z_a, lambda N: cf["zA-cen"](N, A), cen_definition, is_cen=True),
        "zA-cen-limit": limit(z_cen, lambda N: sp.Integer(0), "CEN(Z_A) -> 0", is_cen=True),
        "dice-cen": identity(dice, lambda N: cf["dice-cen"](N, A), cen_definition, is_cen=True),
        "dice-cen-limit-preprint": dice_limit_preprint,
        "dice-cen-limit-journal": limit(
            d_cen, cf["dice-cen-limit-journal"], "CEN(dice) -> (N-1)/(2N) log(N+1)", is_cen=True
        ),
        "dice-limit-asymptote": dice_limit_asymptote,
        "dice-mcc-zero": dice_mcc_zero,
        "const-mcc-zero": const_mcc_zero,
        "const-cen": identity(
            lambda N: b_matrix(N, F, F),
            cf["const-cen"],
            cen_definition,
            ns=(2, *Ns),
            text=n2_text,
            params="F",
            is_cen=True,
        ),
        "misclass-cen-one": identity(
            lambda N: b_matrix(N, 0, F),
            lambda N: sp.Integer(1),
            cen_definition,
            ns=(2, *Ns),
            text=n2_text,
            params="F",
            is_cen=True,
        ),
        "pair-mcc-minus-one": pair_mcc,
        "onecol-mcc-zero": onecol_mcc,
        "onecol-cen-uniform": identity(
            single_column,
            cf["dice-cen-limit-journal"],
            cen_definition,
            ns=(2, *Ns),
            text=n2_text,
            params="F",
            is_cen=True,
        ),
        "b-mcc": identity(
            b_matrix,
            lambda N: cf["b-mcc"](N, T, F),
            mcc_definition,
            ns=(2, *Ns),
            text=n2_text,
            params="T >= 0, F > 0",
        ),
        "b-cen": identity(
            b_matrix,
            lambda N: cf["b-cen"](N, T, F),
            cen_definition,
            ns=(2, *Ns),
            text=n2_text,
            params="T >= 0, F > 0",
            is_cen=True,
        ),
        "b-identity": b_identity,
        "eq3-line1-preprint": eq3_preprint,
        "eq3-line1-journal": eq3_journal,
        "binary-mcc": binary_identity("binary-mcc", mcc_definition, is_cen=False),
        "binary-cen": binary_identity("binary-cen", cen_definition, is_cen=True),
        "binary-sym-cen": binary_sym_cen,
        "binary-sym-cen-gt1": binary_gt1,
        "binary-sym-cen-max-at-t0": binary_max_at_t0,
        "binary-sym-cen-max": binary_max,
    }


def prove(ids: Iterable[str] | None = None, Ns: tuple[int, ...] = SYMBOLIC_N) -> dict:
    """Run the symbolic proofs; returns formula id -> :class:`SymbolicResult`.

    Parameters
    ----------
    ids : iterable of str, optional
        Formula ids to prove (default: all that have a symbolic proof).
    Ns : tuple of int
        Numbers of classes of the per-N proofs.
    """
    proofs = _proofs(tuple(Ns))
    results = {}
    for formula_id in proofs if ids is None else ids:
        start = time.perf_counter()
        proven, disproven, how = proofs[formula_id]()
        results[formula_id] = SymbolicResult(
            formula_id, bool(proven), bool(disproven), how, time.perf_counter() - start
        )
    return results

"""Which properties each named measure has: the audit of :mod:`cenmcc.properties` as a table.

Every measure of :data:`cenmcc.MEASURES` is audited for K = 2 and K = 3 (``--classes``), on
every matrix (``all``) and on the matrices in which every class is true and predicted
(``present``, the domain of Gösgens et al. 2021). The table has one row per measure, K, domain
and property, with the verdict, the counterexample found, whether it is the smallest (False
where the random search found it) and how it was decided (with the matrices left out);
``properties.md`` shows ✓ (holds), ✗ (fails) and – (no meaning) per measure and property, what
is left out, then the counterexamples, those of the random search marked as such.

The modules: :mod:`.settings`, :mod:`.compute` (the audit of every measure), :mod:`.plots` (the
measure × property table) and :mod:`.command` (``python -m experiments properties``).
"""

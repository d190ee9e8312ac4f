"""Which properties each named measure has: the audit of :mod:`cenmcc.properties` as a table.

Every measure of :data:`cenmcc.MEASURES` is audited for K = 2 and K = 3 (``--classes``), on
every matrix (``all``) and on the matrices in which every class is true and predicted
(``present``, the domain of Gösgens et al. 2021). The table has one row per measure, K, domain
and property, with the verdict, the smallest counterexample found and how it was decided;
``properties.md`` shows ✓ (holds), ✗ (fails) and – (no meaning) per measure and property, then
the counterexamples.

The modules: :mod:`.settings`, :mod:`.compute` (the audit of every measure), :mod:`.plots` (the
measure × property table) and :mod:`.command` (``python -m experiments properties``).
"""

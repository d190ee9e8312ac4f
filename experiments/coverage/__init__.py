"""Coverage of the confidence intervals of :func:`cenmcc.confidence_interval`, measured.

For each population of the grid (K classes; balanced classes or strongly imbalanced ones, the
largest class 20 times the smallest; a good classifier, recall 0.9 in every class, or a poor
one, recall 0.6, its errors spread evenly over the other classes), draw many test sets of n
items (multinomial draws of the expected confusion matrix ``P``), compute a 95% interval of
each measure by each method, and count the intervals that contain the population's value, the
measure of ``P`` itself. A cell covers well if that share is near 0.95; one below 0.93 is
flagged. An undefined interval counts as a miss: the macro MCC's is undefined on a test set
where a class is never predicted (or never true), whose one-vs-rest MCC is 0/0 (filled by
convention, with no sampling distribution), so in the grid's smallest imbalanced cells (K = 10,
n = 50: about 1,650 of 2,000 such test sets) its coverage measures how often a class goes
unpredicted, not the intervals. An end within
:data:`.settings.TIE` (1e-9) of the population's value contains it: a bootstrap end on the
lattice ``c / n`` equals a population value that float sums put 1e-16 off.

The eight measures: the MCC, CEN, Cohen's kappa, the accuracy, the balanced accuracy, the macro
F1, and the macro and micro MCC (:func:`cenmcc.macro_mcc`, :func:`cenmcc.micro_mcc`). Each has
BCa, percentile and Wald intervals; the four in [-1, 1] (the MCCs and kappa) Fisher's z; the
accuracy and the micro MCC Wilson's too (the micro MCC is ``(K acc - 1) / (K - 1)``), kappa
Fleiss, Cohen & Everitt's. The population's macro MCC is the mean of its classes' one-vs-rest
MCCs (the macro MCC of ``P``); in a balanced population of this grid it equals the MCC and the
micro MCC.

Besides the grid, the published designs (:data:`.settings.DESIGNS`: Itaya et al. 2024's binary
MCC, TP = TN = 0.45, FP = FN = 0.05, n = 50 to 10,000; Tamura et al. 2025's three classes, n =
50 to 800) are rerun with every method: their own coverage tables are not available to us, so
only ours are reported. The paired scenarios (:func:`.settings.paired_scenarios`: two
classifiers on the same items, null ones with equal MCCs, by equal confusion probabilities or
by different structures, and ones 0.05 of MCC apart or more, balanced and imbalanced, and
Tamura et al.'s paired macro-MCC design) give each paired method's coverage of the difference
and its rejection rate at 0.05: the type-I error under the null, the power elsewhere.

Every run writes the table ``method="auto"`` reads, ``cenmcc/intervals/_coverage_table.py``
(:func:`.compute.coverage_module`), and ``coverage.md`` says where the default holds.

The bootstrap methods use B = 999 resamples here (the library's default is 9,999): coverage
depends little on B, the cost linearly. ``--full`` runs 1,000 test sets a cell (the binomial
SE of a coverage near 0.95 is 0.007) and 400 a paired cell (0.011), K = 2, 3, 5, 10 and n = 50,
200, 1,000, 5,000; ``--jobs`` spreads the cells over processes. The default grid is reduced
(K = 2, 3; 500 and 100 test sets).

``--speed`` instead times BCa intervals of eight measures (:data:`.settings.SPEED_MEASURES`,
not the grid's eight) of one 10-class matrix of 10,000 items with 10,000 resamples on one core,
against resampling the labels and calling scikit-learn's ``matthews_corrcoef`` per resample (on
fewer resamples, scaled).

The modules: :mod:`.settings` (the grid and its populations), :mod:`.compute` (the run and the
speed comparison), :mod:`.plots` (the table and the figure) and :mod:`.command`
(``python -m experiments coverage``).
"""

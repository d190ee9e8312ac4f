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
BCa, percentile and Wald intervals; the accuracy and the micro MCC Wilson's too (the micro MCC
is ``(K acc - 1) / (K - 1)``), kappa Fleiss, Cohen & Everitt's. The population's macro MCC is
the mean of its classes' one-vs-rest MCCs (the macro MCC of ``P``); in a balanced population
of this grid it equals the MCC and the micro MCC.

The bootstrap methods use B = 999 resamples here (the library's default is 9,999): coverage
depends little on B, the cost linearly. The default grid is reduced (277 s measured on one core
of a shared machine with six measures; 152 to 244 s with eight and ``--jobs 2`` on two shared
cores); ``--full`` runs the issue's grid (K = 2, 3, 5, 10; n = 50, 200, 1,000, 5,000), about
half an hour on one core (the two new measures add 3 to 14% per cell, measured), the committed
table with ``--jobs 16`` (``--jobs`` spreads the cells over processes).

``--speed`` instead times BCa intervals of eight measures (:data:`.settings.SPEED_MEASURES`,
not the grid's eight) of one 10-class matrix of 10,000 items with 10,000 resamples on one core,
against resampling the labels and calling scikit-learn's ``matthews_corrcoef`` per resample (on
fewer resamples, scaled).

The modules: :mod:`.settings` (the grid and its populations), :mod:`.compute` (the run and the
speed comparison), :mod:`.plots` (the table and the figure) and :mod:`.command`
(``python -m experiments coverage``).
"""

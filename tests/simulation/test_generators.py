"""The generators draw exactly the distributions they state (exact counts and chi-square)."""

import numpy as np
import pytest
from scipy import stats

from cenmcc.simulation.generators import DirichletClassifier, lemire, uniform_integers
from cenmcc.simulation.papers import PaperGenerator, draw_parameters

#: A chi-square test fails below this p-value: a fixed seed, so a failure is a real bias.
ALPHA = 1e-4


def test_lemires_mapping_keeps_exactly_as_many_words_for_every_value():
    """Over every 8-bit word, for every span 1..256, the accepted words map to each value the
    same number of times, and exactly the remainder is rejected (one test: the spans are one
    property of one 20-line function, not 256 cases)."""
    words = np.arange(256, dtype=np.uint32)
    for span in range(1, 257):
        values, rejected = lemire(words, np.uint64(span), 8)
        kept = np.ones(256, dtype=bool)
        kept[rejected] = False
        counts = np.bincount(values[kept].astype(np.int64), minlength=span)
        assert counts.min() == counts.max() == 256 // span, span
        assert rejected.size == 256 % span, span  # exactly the remainder is drawn again
        per_word = lemire(words, np.full(256, span, dtype=np.uint64), 8)  # a span per word
        np.testing.assert_array_equal(per_word[0], values, err_msg=f"span {span}")
        np.testing.assert_array_equal(per_word[1], rejected, err_msg=f"span {span}")


def test_uniform_integers_are_uniform_in_each_cells_own_range():
    rng = np.random.default_rng(1)
    span = np.array([1, 2, 3, 7, 10])[:, None]  # one range per row, broadcast over 40,000 cells
    values = uniform_integers(rng, 5, span, shape=(5, 40_000))
    assert values.dtype == np.int64
    for s, row in zip(span.ravel(), values, strict=True):
        counts = np.bincount(row - 5, minlength=s)
        assert counts.size == s  # nothing outside [5, 5 + s)
        if s > 1:
            assert stats.chisquare(counts).pvalue > ALPHA


def test_words_that_would_bias_the_result_are_drawn_again():
    """A span of 3·2³⁰ maps two words to every third value and rejects a quarter of the words:
    without the redraws, values divisible by 3 would be twice as likely as the others."""
    rng = np.random.default_rng(2)
    span = 3 * 2**30
    values = uniform_integers(rng, 0, span, shape=(60_000,))
    assert values.min() >= 0
    assert values.max() < span
    assert stats.chisquare(np.bincount(values % 3, minlength=3)).pvalue > ALPHA
    with pytest.raises(ValueError, match="span must be in 1"):
        uniform_integers(rng, 0, 0, shape=(3,))


def test_the_papers_generator_draws_the_printed_joint_law():
    """K uniform; diagonal cells uniform on their range; each off-diagonal cell uniform on
    [min, ⌊scale·ρ⌋] given its matrix's ρ, and independent of the others."""
    g = PaperGenerator(k_range=(3, 4), diagonal_range=(1, 3), rho_range=(0.002, 0.0059))
    size = 30_000
    K, rho = draw_parameters(g, size, np.random.default_rng(3))
    stacks = list(g(np.random.default_rng(3), size))
    assert stats.chisquare(np.bincount(K)[3:]).pvalue > ALPHA
    assert stats.kstest(rho, stats.uniform(0.002, 0.0059 - 0.002).cdf).pvalue > ALPHA
    for k, stack in zip((3, 4), stacks, strict=True):
        bound = np.floor(1000 * rho[k == K]).astype(int)  # 2 .. 5
        assert stack.shape == (bound.size, k, k)
        diagonal = np.einsum("...ii->...i", stack).ravel()
        assert stats.chisquare(np.bincount(diagonal)[1:]).pvalue > ALPHA
        off = stack[:, ~np.eye(k, dtype=bool)]
        for b in np.unique(bound):
            cells = off[bound == b]
            assert cells.min() >= 1
            assert cells.max() <= b
            assert stats.chisquare(np.bincount(cells.ravel())[1:]).pvalue > ALPHA
            # two cells of one matrix: independent (a contingency table's chi-square)
            table = np.zeros((b, b))
            np.add.at(table, (cells[:, 0] - 1, cells[:, 1] - 1), 1)
            assert stats.chi2_contingency(table).pvalue > ALPHA


def test_the_dirichlet_classifier_draws_its_stated_matrices():
    g = DirichletClassifier(k_range=(3, 5), n_samples=200, class_concentration=0.3)
    stacks = list(g(np.random.default_rng(4), 3000))
    assert [s.shape[1] for s in stacks] == [3, 4, 5]
    assert sum(len(s) for s in stacks) == 3000
    for s in stacks:
        assert np.all(s.sum(axis=(1, 2)) == 200)
        share_right = np.trace(s, axis1=1, axis2=2).sum() / s.sum()
        K = s.shape[1]
        assert share_right == pytest.approx(9 / (9 + K - 1), abs=0.02)  # the Dirichlet mean
    with pytest.raises(ValueError, match="class_concentration must be positive"):
        DirichletClassifier(class_concentration=0)

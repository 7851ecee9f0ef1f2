"""Text similarity for aligning editions: TF-IDF over character n-grams inside words.

`text_similarity(a, b)` scores every pair of texts 0-100: the cosine of their
TF-IDF vectors over the character n-grams (3 to 5 characters) inside words.
Character n-grams survive the older book's OCR damage (a fused "readypped" still
shares most of its n-grams with "ready untapped"); IDF weighting keeps the words
every rule uses ("minion", "action") from making unrelated paragraphs look alike.

The weighting is scikit-learn's TfidfVectorizer(analyzer="char_wb",
ngram_range=(3, 5), sublinear_tf=True, dtype=float32) fitted on the texts of both
sides: tf 1 + ln(count), idf ln((1 + texts) / (1 + texts holding the n-gram)) + 1,
rows of unit length. A test holds the figures equal to scikit-learn's on the
corpus (tests/test_concordance.py); docs/compare.md says why judge computes them
itself.
"""
from __future__ import annotations

from itertools import chain
from typing import Sequence, Union

import numpy as np


class CharNgrams:
    """The character n-grams inside words (3 to 5 characters, each word padded with a
    space on either side) of texts, numbered in one vocabulary shared by every text
    counted with it, so that a book is cut once for all its alignments.

    This is scikit-learn's `char_wb` analyser (lower-cased, split on whitespace, a
    word no longer than n counted once whole), cut a word at a time: the rulebooks use
    a few thousand distinct words, so each word's n-grams are cut once."""

    SIZES = (3, 5)

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}  # n-gram -> id
        self._words: dict[str, int] = {}  # word -> row of _grams
        self._grams: list[list[int]] = []  # each word's n-grams, by id
        self._word_matrix = None  # words x n-grams: _grams as a sparse matrix
        self._ranks = np.zeros(0, dtype=np.int64)

    def counts(self, texts: list[str]) -> NgramCounts:
        """The n-gram counts of `texts`: their word counts times each word's n-grams."""
        import scipy.sparse

        lengths, words = [], []
        for text in texts:
            split = text.lower().split()
            lengths.append(len(split))
            for word in split:
                row = self._words.get(word)
                if row is None:
                    row = self._words[word] = len(self._grams)
                    self._grams.append(self._cut(word))
                words.append(row)
        if self._word_matrix is None or self._word_matrix.shape != (len(self._grams), len(self.vocabulary)):
            sizes = [len(ids) for ids in self._grams]
            self._word_matrix = scipy.sparse.csr_array(
                (np.ones(sum(sizes), dtype=np.float32),
                 (np.repeat(np.arange(len(sizes)), sizes), np.fromiter(chain.from_iterable(self._grams), np.int64))),
                shape=(len(self._grams), len(self.vocabulary)))
        per_text = scipy.sparse.csr_array(
            (np.ones(len(words), dtype=np.float32), (np.repeat(np.arange(len(texts)), lengths), words)),
            shape=(len(texts), len(self._grams)))
        return NgramCounts(self, per_text @ self._word_matrix)

    def _cut(self, word: str) -> list[int]:
        padded = f" {word} "
        vocabulary, ids = self.vocabulary, []
        low, high = self.SIZES
        # n-grams longer than the padded word would only repeat it: it counts once, whole
        for n in range(low, min(high, len(padded)) + 1):
            for start in range(len(padded) - n + 1):
                gram = padded[start:start + n]
                known = vocabulary.get(gram)
                if known is None:
                    known = vocabulary[gram] = len(vocabulary)
                ids.append(known)
        return ids

    def ranks(self) -> np.ndarray:
        """Each n-gram's place in alphabetical order, by id. Columns in this order make
        the sums of the cosines run in scikit-learn's order, hence its very figures."""
        if len(self._ranks) != len(self.vocabulary):
            self._ranks = np.empty(len(self.vocabulary), dtype=np.int64)
            self._ranks[np.argsort(np.array(list(self.vocabulary)))] = np.arange(len(self.vocabulary))
        return self._ranks


class NgramCounts:
    """The n-gram counts of some texts: a texts x n-grams CSR matrix (float32, columns
    by n-gram id, as wide as the vocabulary was when they were counted)."""

    def __init__(self, ngrams: CharNgrams, matrix):
        self.ngrams = ngrams
        self.matrix = matrix
        self._alphabetical = None

    @property
    def texts(self) -> int:
        return self.matrix.shape[0]

    def alphabetical(self):
        """The counts with their columns in alphabetical order, over the whole vocabulary
        (kept until the vocabulary grows: a book is compared with several others)."""
        ranks = self.ngrams.ranks()
        if self._alphabetical is None or self._alphabetical.shape[1] != len(ranks):
            m = self.matrix.copy()
            m.indices = ranks[m.indices].astype(m.indices.dtype)
            m.resize((self.texts, len(ranks)))
            m.has_sorted_indices = False
            m.sort_indices()
            self._alphabetical = m
        return self._alphabetical


def _tfidf(counts, idf: np.ndarray):
    """Counts (CSR, float32) weighted (1 + ln(count)) x idf, each row scaled to unit length."""
    m = counts.copy()
    m.data = (np.log(m.data) + np.float32(1)) * idf[m.indices]
    per_row = np.diff(m.indptr)
    # Lengths summed in float64, as scikit-learn does: the same figures to the last digit.
    lengths = np.sqrt(np.bincount(np.repeat(np.arange(m.shape[0]), per_row),
                                  weights=(m.data * m.data).astype(np.float64), minlength=m.shape[0]))
    lengths[lengths == 0] = 1  # a text without n-grams stays a zero row
    m.data = (m.data / np.repeat(lengths, per_row)).astype(np.float32)
    return m


def text_similarity(a: Union[list[str], NgramCounts], b: Union[list[str], NgramCounts]) -> np.ndarray:
    """Similarity 0-100 of every text of `a` with every text of `b` (a len(a) x len(b)
    float32 matrix): the cosine of their TF-IDF vectors (see the module docstring),
    the IDF counted over the texts of both sides.

    `a` and `b` are texts, or their counts by one `CharNgrams` (texts counted by two
    are a ValueError: their n-gram numbers differ)."""
    a, b = _counted(a, b)
    return block_similarity(a, b, [(range(a.texts), range(b.texts))])[0]


def block_similarity(a: NgramCounts, b: NgramCounts,
                     blocks: list[tuple[Sequence[int], Sequence[int]]]) -> list[np.ndarray]:
    """For each (rows, columns) of `blocks`, `text_similarity(a, b)[rows][:, columns]`,
    the very figures (the IDF still counted over every text of both sides), without
    working out the pairs no block asks for."""
    a, b = _counted(a, b)
    if not a.texts or not b.texts or not a.matrix.nnz or not b.matrix.nnz:
        return [np.zeros((len(rows), len(columns)), dtype=np.float32) for rows, columns in blocks]
    x, y = a.alphabetical(), b.alphabetical()
    width = x.shape[1]
    # Each row holds an n-gram once: the texts holding it are its column's entries.
    holding = np.bincount(x.indices, minlength=width) + np.bincount(y.indices, minlength=width)
    idf = np.log(np.float32(a.texts + b.texts + 1) / (holding + 1).astype(np.float32)) + 1
    x, y = _tfidf(x, idf), _tfidf(y, idf)
    whole = lambda part, size: len(part) == size and list(part) == list(range(size))  # noqa: E731
    out = []
    for rows, columns in blocks:
        # (each figure is a sum over its row's n-grams in their order: the same whichever rows
        # and columns are taken with it)
        left = x if whole(rows, a.texts) else x[np.asarray(rows, dtype=np.int64)]
        right = y if whole(columns, b.texts) else y[np.asarray(columns, dtype=np.int64)]
        out.append(((left @ right.T).toarray() * 100).astype(np.float32))
    return out


def _counted(a: Union[list[str], NgramCounts], b: Union[list[str], NgramCounts]) -> tuple[NgramCounts, NgramCounts]:
    if not isinstance(a, NgramCounts) or not isinstance(b, NgramCounts):
        ngrams = a.ngrams if isinstance(a, NgramCounts) else b.ngrams if isinstance(b, NgramCounts) else CharNgrams()
        a = a if isinstance(a, NgramCounts) else ngrams.counts(a)
        b = b if isinstance(b, NgramCounts) else ngrams.counts(b)
    if a.ngrams is not b.ngrams:
        raise ValueError("texts counted with different n-gram vocabularies cannot be compared")
    return a, b

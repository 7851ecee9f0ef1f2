/* judge.search._speedups: compiled twins of two pure functions a search results page
 * runs many times over: a snippet's runs of text (snippet_runs) and a phrase's walk
 * over word positions (phrase_documents).
 *
 * Each gives exactly what its Python reference gives (named in the comment above
 * it); tests/test_speedups.py holds each pair equal on the whole corpus. judge runs
 * the references where this module was not built or JUDGE_PURE_PYTHON=1
 * (judge/search/twins.py), so the module is an optimisation only; what each saves
 * is measured by bench/twins.py (docs/performance.md).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_ssize_t start, end;
} Span;

typedef struct {
    Span *items;
    Py_ssize_t len, cap;
} Spans;

static int
spans_push(Spans *spans, Py_ssize_t start, Py_ssize_t end)
{
    if (spans->len == spans->cap) {
        Py_ssize_t cap = spans->cap ? spans->cap * 2 : 32;
        Span *items = PyMem_Realloc(spans->items, (size_t)cap * sizeof(Span));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        spans->items = items;
        spans->cap = cap;
    }
    spans->items[spans->len].start = start;
    spans->items[spans->len].end = end;
    spans->len++;
    return 0;
}

/* Read a (start, end, ...) tuple's first two items as offsets into a text. */
static int
read_span(PyObject *item, Py_ssize_t *start, Py_ssize_t *end)
{
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) < 2) {
        PyErr_Format(PyExc_TypeError, "a span is a (start, end) tuple, not %.100R", item);
        return -1;
    }
    *start = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0));
    if (*start == -1 && PyErr_Occurred())
        return -1;
    *end = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 1));
    if (*end == -1 && PyErr_Occurred())
        return -1;
    if (*start < 0 || *end < *start) {
        PyErr_Format(PyExc_ValueError, "not a span of a text: %.100R", item);
        return -1;
    }
    return 0;
}

/* Every span that `table` (a dict: key -> list of (start, end)) gives the keys of `keys`. */
static int
add_spans_of(Spans *spans, PyObject *table, PyObject *keys)
{
    PyObject *iterator = PyObject_GetIter(keys);
    if (iterator == NULL)
        return -1;
    PyObject *key;
    while ((key = PyIter_Next(iterator)) != NULL) {
        PyObject *found = PyDict_GetItemWithError(table, key); /* borrowed */
        Py_DECREF(key);
        if (found == NULL) {
            if (PyErr_Occurred())
                goto fail;
            continue;
        }
        PyObject *items = PySequence_Fast(found, "a table's value is a list of spans");
        if (items == NULL)
            goto fail;
        Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
        PyObject **item = PySequence_Fast_ITEMS(items);
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_ssize_t start, end;
            if (read_span(item[i], &start, &end) < 0 || spans_push(spans, start, end) < 0) {
                Py_DECREF(items);
                goto fail;
            }
        }
        Py_DECREF(items);
    }
    Py_DECREF(iterator);
    return PyErr_Occurred() ? -1 : 0;
fail:
    Py_DECREF(iterator);
    return -1;
}

/* The spans of `words` ((start, end, word) tuples) whose word starts with one of `prefixes`. */
static int
add_prefixed(Spans *spans, PyObject *words, PyObject *prefixes)
{
    Py_ssize_t count = PyTuple_GET_SIZE(words), prefix_count = PyTuple_GET_SIZE(prefixes);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(words, i);
        Py_ssize_t start, end;
        if (read_span(item, &start, &end) < 0)
            return -1;
        if (PyTuple_GET_SIZE(item) < 3 || !PyUnicode_Check(PyTuple_GET_ITEM(item, 2))) {
            PyErr_Format(PyExc_TypeError, "a word is a (start, end, word) tuple, not %.100R", item);
            return -1;
        }
        PyObject *word = PyTuple_GET_ITEM(item, 2);
        for (Py_ssize_t p = 0; p < prefix_count; p++) {
            PyObject *prefix = PyTuple_GET_ITEM(prefixes, p);
            if (!PyUnicode_Check(prefix)) {
                PyErr_Format(PyExc_TypeError, "a prefix is a str, not %.100R", prefix);
                return -1;
            }
            Py_ssize_t match = PyUnicode_Tailmatch(word, prefix, 0, PY_SSIZE_T_MAX, -1);
            if (match < 0)
                return -1;
            if (match) {
                if (spans_push(spans, start, end) < 0)
                    return -1;
                break;
            }
        }
    }
    return 0;
}

static int
compare_spans(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* bisect.bisect_right over the spans' ends: how many end at or before `value`. */
static Py_ssize_t
ends_at_or_before(const Span *spans, Py_ssize_t count, Py_ssize_t value)
{
    Py_ssize_t low = 0, high = count;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (value < spans[middle].end)
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

/* bisect.bisect_left over the spans' starts: how many start before `value`. */
static Py_ssize_t
starts_before(const Span *spans, Py_ssize_t count, Py_ssize_t value)
{
    Py_ssize_t low = 0, high = count;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (spans[middle].start < value)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* Append the run (piece, marked) to `runs`; steals the reference to `piece`. */
static int
append_run(PyObject *runs, PyObject *piece, int marked)
{
    if (piece == NULL)
        return -1;
    PyObject *run = PyTuple_Pack(2, piece, marked ? Py_True : Py_False);
    Py_DECREF(piece);
    if (run == NULL)
        return -1;
    int failed = PyList_Append(runs, run);
    Py_DECREF(run);
    return failed;
}

/* text[start:end], after `lead` (a str, or NULL for none). */
static PyObject *
slice_after(PyObject *lead, PyObject *text, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *piece = PyUnicode_Substring(text, start, end);
    if (piece == NULL || lead == NULL)
        return piece;
    PyObject *joined = PyUnicode_Concat(lead, piece);
    Py_DECREF(piece);
    return joined;
}

/* The counterpart of judge.search.snippets._runs_reference: a passage of `text` of
 * about `size` characters around the most marked words, as a tuple of runs
 * (text, marked), none empty, "… " and " …" where the passage was cut. The marked
 * words: the spans `by_stem` gives the keys of `stems`, those `by_word` gives the
 * keys of `plain`, and the words (of `words`) starting with one of `prefixes`. */
static PyObject *
snippet_runs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError,
                     "snippet_runs(text, by_stem, by_word, words, stems, plain, prefixes, size) "
                     "takes 8 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *text = args[0], *by_stem = args[1], *by_word = args[2], *words = args[3];
    PyObject *stems = args[4], *plain = args[5], *prefixes = args[6];
    if (!PyUnicode_Check(text) || !PyDict_Check(by_stem) || !PyDict_Check(by_word) || !PyTuple_Check(words)
        || !PyTuple_Check(prefixes)) {
        PyErr_SetString(PyExc_TypeError,
                        "snippet_runs: text is a str, by_stem and by_word dicts, words and prefixes tuples");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[7]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "snippet_runs: a passage's size is 0 or more characters");
        return NULL;
    }

    Spans marked = {NULL, 0, 0};
    PyObject *runs = NULL, *out = NULL, *lead = NULL;
    if (add_spans_of(&marked, by_stem, stems) < 0 || add_spans_of(&marked, by_word, plain) < 0)
        goto done;
    if (PyTuple_GET_SIZE(prefixes) && add_prefixed(&marked, words, prefixes) < 0)
        goto done;
    /* A word marked twice (by its stem and by its spelling) is one span, as in a set. */
    if (marked.len > 1) {
        qsort(marked.items, (size_t)marked.len, sizeof(Span), compare_spans);
        Py_ssize_t kept = 1;
        for (Py_ssize_t i = 1; i < marked.len; i++) {
            if (marked.items[i].start != marked.items[kept - 1].start
                || marked.items[i].end != marked.items[kept - 1].end)
                marked.items[kept++] = marked.items[i];
        }
        marked.len = kept;
    }

    Py_ssize_t length = PyUnicode_GET_LENGTH(text), start = 0, end = length;
    if (length > size) {
        Py_ssize_t best_start = 0, best_count = -1;
        /* Word spans never overlap, so their ends sort as their starts do. */
        for (Py_ssize_t i = 0; i < (marked.len ? marked.len : 1); i++) {
            Py_ssize_t first = marked.len ? marked.items[i].start : 0;
            Py_ssize_t window_start = first - size / 5 > 0 ? first - size / 5 : 0;
            Py_ssize_t count = ends_at_or_before(marked.items, marked.len, window_start + size)
                               - starts_before(marked.items, marked.len, window_start);
            if (count < 0)
                count = 0;
            if (count > best_count) {
                best_start = window_start;
                best_count = count;
            }
        }
        start = best_start;
        if (start > 0) { /* begin on a word */
            Py_ssize_t space = PyUnicode_FindChar(text, ' ', start, length, 1);
            if (space == -2)
                goto done;
            if (0 <= space && space < start + 20)
                start = space + 1;
        }
        end = start + size < length ? start + size : length;
        if (end < length) {
            Py_ssize_t space = PyUnicode_FindChar(text, ' ', start, end, -1);
            if (space == -2)
                goto done;
            if (space > start + size / 2)
                end = space;
        }
    }

    runs = PyList_New(0);
    if (runs == NULL)
        goto done;
    if (start > 0 && (lead = PyUnicode_FromString("\xe2\x80\xa6 ")) == NULL)
        goto done;
    Py_ssize_t at = start;
    for (Py_ssize_t i = 0; i < marked.len; i++) {
        Span span = marked.items[i];
        if (span.start < start || span.end > end)
            continue;
        if (lead != NULL || at < span.start) {
            if (append_run(runs, slice_after(lead, text, at, span.start), 0) < 0)
                goto done;
            Py_CLEAR(lead);
        }
        if (append_run(runs, PyUnicode_Substring(text, span.start, span.end), 1) < 0)
            goto done;
        at = span.end;
    }
    PyObject *tail = slice_after(lead, text, at, end);
    if (tail != NULL && end < length) {
        PyObject *ellipsis = PyUnicode_FromString(" \xe2\x80\xa6");
        PyObject *joined = ellipsis == NULL ? NULL : PyUnicode_Concat(tail, ellipsis);
        Py_XDECREF(ellipsis);
        Py_DECREF(tail);
        tail = joined;
    }
    if (tail == NULL)
        goto done;
    if (PyUnicode_GET_LENGTH(tail) == 0)
        Py_DECREF(tail);
    else if (append_run(runs, tail, 0) < 0)
        goto done;
    out = PyList_AsTuple(runs);
done:
    Py_XDECREF(runs);
    Py_XDECREF(lead);
    PyMem_Free(marked.items);
    return out;
}

/* A view of a 1-D array of 64-bit integers (a numpy int64 array, or any buffer of them). */
static int
get_int64_buffer(PyObject *object, Py_buffer *view)
{
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@')
        format++;
    if (view->ndim != 1 || view->itemsize != 8 || (strcmp(format, "l") && strcmp(format, "q"))) {
        PyErr_Format(PyExc_TypeError, "phrase_documents: positions are 1-D arrays of int64, not %.100R", object);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Whether the sorted `values` hold `wanted`. */
static int
holds(const int64_t *values, Py_ssize_t count, int64_t wanted)
{
    Py_ssize_t low = 0, high = count;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (values[middle] < wanted)
            low = middle + 1;
        else
            high = middle;
    }
    return low < count && values[low] == wanted;
}

static int
compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repeats; returns the count kept. */
static Py_ssize_t
sort_unique(int64_t *values, Py_ssize_t count)
{
    if (count < 2)
        return count;
    qsort(values, (size_t)count, sizeof(int64_t), compare_int64);
    Py_ssize_t kept = 1;
    for (Py_ssize_t i = 1; i < count; i++) {
        if (values[i] != values[kept - 1])
            values[kept++] = values[i];
    }
    return kept;
}

/* The counterpart of judge.search.postings._phrase_documents_reference: the
 * documents in which the words whose position keys (docnum << position_bits |
 * position, sorted) are `keys` follow each other, each within `slop` positions
 * after the span of the words before it; sorted, as a list. */
static PyObject *
phrase_documents(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "phrase_documents(keys, slop, position_bits) takes 3 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Py_ssize_t slop = PyLong_AsSsize_t(args[1]), bits = PyLong_AsSsize_t(args[2]);
    if ((slop == -1 || bits == -1) && PyErr_Occurred())
        return NULL;
    if (slop < 1)
        slop = 1;
    if (bits < 1 || bits > 40) {
        PyErr_SetString(PyExc_ValueError, "phrase_documents: position_bits is 1 to 40");
        return NULL;
    }
    PyObject *words = PySequence_Fast(args[0], "phrase_documents: keys is a sequence of arrays");
    if (words == NULL)
        return NULL;
    Py_ssize_t word_count = PySequence_Fast_GET_SIZE(words);
    if (word_count == 0) {
        Py_DECREF(words);
        PyErr_SetString(PyExc_ValueError, "phrase_documents: a phrase has a word at least");
        return NULL;
    }
    const int64_t mask = ((int64_t)1 << bits) - 1;
    int64_t *starts = NULL, *ends = NULL, *next_starts = NULL, *next_ends = NULL, *spans = NULL;
    PyObject *out = NULL;
    Py_buffer first;
    if (get_int64_buffer(PySequence_Fast_GET_ITEM(words, 0), &first) < 0)
        goto done;
    Py_ssize_t count = first.len / 8;
    starts = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(int64_t));
    ends = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(int64_t));
    if (starts == NULL || ends == NULL) {
        PyBuffer_Release(&first);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(starts, first.buf, (size_t)count * sizeof(int64_t));
    memcpy(ends, first.buf, (size_t)count * sizeof(int64_t));
    PyBuffer_Release(&first);

    for (Py_ssize_t w = 1; w < word_count && count; w++) {
        Py_buffer following;
        if (get_int64_buffer(PySequence_Fast_GET_ITEM(words, w), &following) < 0)
            goto done;
        const int64_t *positions = following.buf;
        Py_ssize_t position_count = following.len / 8, found = 0;
        next_starts = PyMem_Malloc((size_t)(count * slop) * sizeof(int64_t));
        next_ends = PyMem_Malloc((size_t)(count * slop) * sizeof(int64_t));
        if (next_starts == NULL || next_ends == NULL) {
            PyBuffer_Release(&following);
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            for (Py_ssize_t distance = 1; distance <= slop; distance++) {
                int64_t wanted = ends[i] + distance;
                if (holds(positions, position_count, wanted)) {
                    next_starts[found] = starts[i];
                    next_ends[found++] = wanted;
                }
            }
        }
        PyBuffer_Release(&following);
        PyMem_Free(starts);
        PyMem_Free(ends);
        starts = next_starts;
        ends = next_ends;
        next_starts = next_ends = NULL;
        count = found;
        if (count > 1) { /* the same span reached at several distances counts once */
            spans = PyMem_Malloc((size_t)count * sizeof(int64_t));
            if (spans == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            for (Py_ssize_t i = 0; i < count; i++)
                spans[i] = (int64_t)(((uint64_t)ends[i] << bits) | (uint64_t)(starts[i] & mask));
            count = sort_unique(spans, count);
            for (Py_ssize_t i = 0; i < count; i++) {
                ends[i] = spans[i] >> bits;
                starts[i] = (int64_t)(((uint64_t)(ends[i] >> bits) << bits) | (uint64_t)(spans[i] & mask));
            }
            PyMem_Free(spans);
            spans = NULL;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++)
        starts[i] >>= bits;
    count = sort_unique(starts, count);
    out = PyList_New(count);
    if (out == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *document = PyLong_FromLongLong(starts[i]);
        if (document == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, document);
    }
done:
    Py_DECREF(words);
    PyMem_Free(starts);
    PyMem_Free(ends);
    PyMem_Free(next_starts);
    PyMem_Free(next_ends);
    PyMem_Free(spans);
    return out;
}

static PyMethodDef speedups_methods[] = {
    {"snippet_runs", (PyCFunction)(void (*)(void))snippet_runs, METH_FASTCALL,
     "snippet_runs(text, by_stem, by_word, words, stems, plain, prefixes, size) -> tuple[tuple[str, bool], ...]\n\n"
     "judge.search.snippets._runs_reference, compiled."},
    {"phrase_documents", (PyCFunction)(void (*)(void))phrase_documents, METH_FASTCALL,
     "phrase_documents(keys, slop, position_bits) -> list[int]\n\n"
     "judge.search.postings._phrase_documents_reference, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "judge.search._speedups",
    "Compiled twins of judge's hottest pure functions (each held equal to its Python reference by the tests).",
    -1, speedups_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&speedups_module);
}

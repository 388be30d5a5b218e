/* What the compiled searches (_cardsets.c, _canfield.c, _freecell.c) share: growable arrays, the seen set
 * of whole fixed-size keys, and the budget of engine.solvers.Counter (nodes, CPU clock).
 *
 * Define SEEN_WORDS (the 64-bit words of a key) before including this file to get the seen
 * set; the last word's bit 63 marks a used slot, so keys must never set it. Without it (keys
 * of varying length: _canfield.c) the file brings only the arrays and the clock. Everything
 * is static: each module gets its own copy, sized for its keys. */

#ifndef TAVOLO_SEARCH_H
#define TAVOLO_SEARCH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ----- growable arrays ------------------------------------------------------------------- */
typedef struct {
    void *data;
    size_t len, cap, item;
} Stack;

static int stack_init(Stack *s, size_t item, size_t cap) {
    s->item = item;
    s->len = 0;
    s->cap = cap;
    s->data = malloc(item * cap);
    return s->data != NULL;
}

/* room for `more` items past len; 0 when memory runs out */
static int stack_reserve(Stack *s, size_t more) {
    if (s->len + more <= s->cap) return 1;
    size_t cap = s->cap * 2;
    while (cap < s->len + more) cap *= 2;
    void *data = realloc(s->data, s->item * cap);
    if (data == NULL) return 0;
    s->data = data;
    s->cap = cap;
    return 1;
}

#define AT(stack, type, index) (((type *)(stack).data)[index])

/* ----- big tables ------------------------------------------------------------------------ */
/* A big table is asked for in huge pages where the system offers them (Linux, madvise): its
 * lookups are random, and with 4 KiB pages most of them also miss the TLB (10-17 % more
 * positions per second for the Klondike search at 12 million positions). Zeroed when `zero`;
 * free() releases it. */
#define HUGE_PAGE ((size_t)2 << 20)

static void *huge_alloc(size_t bytes, int zero) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) {
        void *memory = NULL;
        if (posix_memalign(&memory, HUGE_PAGE, bytes) == 0) {
            madvise(memory, bytes, MADV_HUGEPAGE); /* only advice: fine if refused */
            if (zero) memset(memory, 0, bytes);
            return memory;
        }
    }
#endif
    return zero ? calloc(bytes, 1) : malloc(bytes);
}

#ifdef SEEN_WORDS
/* ----- the seen set ---------------------------------------------------------------------- */
typedef struct {
    uint64_t w[SEEN_WORDS];
} Key;

typedef struct {
    Key *slot;
    size_t mask, count;
} Seen;

#define SEEN_USED (1ULL << 63)

static uint64_t key_hash(const Key *key) {
    uint64_t x = 0x243F6A8885A308D3ULL;
    for (int j = 0; j < SEEN_WORDS; j++) x = (x ^ key->w[j]) * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

static int key_equal(const Key *a, const Key *b) {
    for (int j = 0; j < SEEN_WORDS; j++)
        if (a->w[j] != b->w[j]) return 0;
    return 1;
}

static int seen_init(Seen *seen, size_t slots) {
    seen->slot = huge_alloc(slots * sizeof(Key), 1);
    seen->mask = slots - 1;
    seen->count = 0;
    return seen->slot != NULL;
}

static void seen_free(Seen *seen) {
    free(seen->slot);
    seen->slot = NULL;
}

static void seen_put(Seen *seen, const Key *key) {
    size_t i = (size_t)key_hash(key) & seen->mask;
    while (seen->slot[i].w[SEEN_WORDS - 1]) i = (i + 1) & seen->mask;
    seen->slot[i] = *key;
}

/* Adds the key; 1 when it was new, 0 when seen before, -1 when memory ran out. A key's words
 * sit side by side and the table is kept at most 5/8 full: with millions of keys nearly every
 * probe is a cache miss, and this keeps a lookup to about one. */
static int seen_add(Seen *seen, const Key *key_in) {
    Key key = *key_in;
    key.w[SEEN_WORDS - 1] |= SEEN_USED;
    size_t i = (size_t)key_hash(&key) & seen->mask;
    while (seen->slot[i].w[SEEN_WORDS - 1]) {
        if (key_equal(&seen->slot[i], &key)) return 0;
        i = (i + 1) & seen->mask;
    }
    if ((seen->count + 1) * 8 > (seen->mask + 1) * 5) {
        Seen bigger;
        if (!seen_init(&bigger, (seen->mask + 1) * 2)) {
            seen_free(&bigger);
            return -1;
        }
        for (size_t j = 0; j <= seen->mask; j++)
            if (seen->slot[j].w[SEEN_WORDS - 1]) seen_put(&bigger, &seen->slot[j]);
        bigger.count = seen->count;
        seen_free(seen);
        *seen = bigger;
        seen_put(seen, &key);
    } else {
        seen->slot[i] = key;
    }
    seen->count++;
    return 1;
}

#endif /* SEEN_WORDS */

/* ----- the budget (engine.solvers.Counter: nodes, process CPU seconds) ------------------- */
static double cpu_seconds(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0.0;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    long long nodes, limit; /* limit < 0: none */
    int has_deadline;
    double deadline;
} Budget;

/* Counter.limit (None or an int), Counter.deadline (None or CPU seconds) and Counter.nodes as
 * a search function gets them; 0 with a Python exception set. Needs Python.h included. */
static int budget_read(Budget *b, PyObject *limit, PyObject *deadline, unsigned long long nodes) {
    b->nodes = (long long)nodes;
    b->limit = -1;
    b->has_deadline = 0;
    if (limit != Py_None) {
        b->limit = PyLong_AsLongLong(limit);
        if (b->limit == -1 && PyErr_Occurred()) return 0;
        if (b->limit < 0) b->limit = 0; /* a negative limit: every node is over it */
    }
    if (deadline != Py_None) {
        b->has_deadline = 1;
        b->deadline = PyFloat_AsDouble(deadline);
        if (b->deadline == -1.0 && PyErr_Occurred()) return 0;
    }
    return 1;
}

/* Counter.tick: counts a node; 0 when the budget is spent (the clock read every 256 nodes) */
static int budget_tick(Budget *b) {
    b->nodes++;
    if (b->limit >= 0 && b->nodes > b->limit) return 0;
    if (b->has_deadline && !(b->nodes & 255) && cpu_seconds() > b->deadline) return 0;
    return 1;
}

#endif

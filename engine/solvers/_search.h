/* What the compiled searches (_cardsets.c, _canfield.c, _freecell.c) share: their big tables,
 * growable arrays, the seen set of whole fixed-size keys, and the budget of
 * engine.solvers.Counter (nodes, CPU clock).
 *
 * Define SEEN_WORDS (the 64-bit words of a key) before including this file to get the seen
 * set; the last word's bit 63 marks a used slot, so keys must never set it. With SEEN_OF_NODES
 * defined too the file brings the keys' hash and equality but not the set (_freecell.c keeps
 * its own, of the keys' nodes). Without SEEN_WORDS (keys of varying length: _canfield.c) the
 * file brings only the tables, the arrays and the clock. Everything is static: each module
 * gets its own copy, sized for its keys. */

#ifndef TAVOLO_SEARCH_H
#define TAVOLO_SEARCH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ----- big tables ------------------------------------------------------------------------ */
/* A search's big tables (its seen set, its arrays once they have grown) are mapped from the
 * system for that search alone and unmapped as soon as it ends, before its answer goes back to
 * Python: the memory is the system's again at once. Left to malloc, they came from the C
 * allocator's arenas once glibc had raised its mmap threshold after a first big free, and a
 * search of a million positions left tens of MB resident there while the next searches ran.
 * A table of 2 MiB or more is also asked for in huge pages where the system offers them
 * (madvise): its lookups are random, and with 4 KiB pages most of them also miss the TLB (10-17 %
 * more positions per second for the Klondike search at 12 million positions). A fresh mapping
 * reads as zeros and its pages cost nothing until touched. */
#define HUGE_PAGE ((size_t)2 << 20)
/* the size from which a table is mapped. Smaller ones come from malloc: most searches are short,
 * and mapping their few small tables anew each time made Canfield's 12 % slower (page faults);
 * what the allocator keeps of those is a few MB. */
#define BIG_TABLE ((size_t)4 << 20)

/* The bytes of tables held now (their sizes: pages never touched count too) and the most held
 * at once since the module last reset it, over every search of the module on any thread
 * (atomic where the compiler offers it). A search's memory is mostly its tables:
 * engine.solvers.freecell.table_bytes reads these. */
static size_t tables_held, tables_peak;

static void tables_add(size_t bytes) {
#if defined(__GNUC__)
    const size_t held = __atomic_add_fetch(&tables_held, bytes, __ATOMIC_RELAXED);
    size_t peak = __atomic_load_n(&tables_peak, __ATOMIC_RELAXED);
    while (held > peak && !__atomic_compare_exchange_n(&tables_peak, &peak, held, 1,
                                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
#else
    tables_held += bytes;
    if (tables_held > tables_peak) tables_peak = tables_held;
#endif
}

static void tables_sub(size_t bytes) {
#if defined(__GNUC__)
    __atomic_sub_fetch(&tables_held, bytes, __ATOMIC_RELAXED);
#else
    tables_held -= bytes;
#endif
}

#if defined(__linux__) && defined(MAP_ANONYMOUS)
#define TABLES_MAPPED 1

static size_t page_round(size_t bytes) {
    const size_t page = 4096;
    return (bytes + page - 1) & ~(page - 1);
}

static void *map_table(size_t bytes) {
    bytes = page_round(bytes);
    const size_t extra = bytes >= HUGE_PAGE ? HUGE_PAGE : 0; /* room to align to a huge page */
    uint8_t *raw = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
    if (raw == MAP_FAILED) return NULL;
    if (!extra) return raw;
    uint8_t *aligned = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (aligned > raw) munmap(raw, (size_t)(aligned - raw));
    if (raw + extra > aligned) munmap(aligned + bytes, (size_t)(raw + extra - aligned));
#ifdef MADV_HUGEPAGE
    madvise(aligned, bytes, MADV_HUGEPAGE); /* only advice: fine if refused */
#endif
    return aligned;
}
#else
#define TABLES_MAPPED 0
#endif

/* a table of `bytes`, zeroed when `zero` (a mapped one always is); NULL when memory runs
 * out. table_free gives it back. */
static void *table_alloc(size_t bytes, int zero) {
    void *table;
#if TABLES_MAPPED
    if (bytes >= BIG_TABLE)
        table = map_table(bytes);
    else
#endif
        table = zero ? calloc(bytes, 1) : malloc(bytes);
    if (table != NULL) tables_add(bytes);
    return table;
}

/* gives back a table of table_alloc or table_resize (`bytes`: its size then); NULL is fine */
static void table_free(void *table, size_t bytes) {
    if (table == NULL) return;
    tables_sub(bytes);
#if TABLES_MAPPED
    if (bytes >= BIG_TABLE) {
        munmap(table, page_round(bytes));
        return;
    }
#endif
    (void)bytes;
    free(table);
}

/* the table with room for `bytes` (more than `old_bytes`, its size), its contents kept; NULL
 * when memory runs out (the old table then stays as it was) */
static void *table_resize(void *table, size_t old_bytes, size_t bytes) {
    void *bigger;
#if TABLES_MAPPED
    if (old_bytes >= BIG_TABLE) {
        bigger = mremap(table, page_round(old_bytes), page_round(bytes), MREMAP_MAYMOVE);
        if (bigger == MAP_FAILED) bigger = NULL;
    } else if (bytes >= BIG_TABLE) {
        bigger = map_table(bytes);
        if (bigger != NULL) {
            memcpy(bigger, table, old_bytes);
            free(table);
        }
    } else
#endif
        bigger = realloc(table, bytes);
    if (bigger != NULL) tables_add(bytes - old_bytes);
    return bigger;
}

/* ----- growable arrays ------------------------------------------------------------------- */
typedef struct {
    void *data;
    size_t len, cap, item;
} Stack;

static int stack_init(Stack *s, size_t item, size_t cap) {
    s->item = item;
    s->len = 0;
    s->cap = cap;
    s->data = table_alloc(item * cap, 0);
    return s->data != NULL;
}

/* room for `more` items past len; 0 when memory runs out */
static int stack_reserve(Stack *s, size_t more) {
    if (s->len + more <= s->cap) return 1;
    size_t cap = s->cap * 2;
    while (cap < s->len + more) cap *= 2;
    void *data = table_resize(s->data, s->item * s->cap, s->item * cap);
    if (data == NULL) return 0;
    s->data = data;
    s->cap = cap;
    return 1;
}

static void stack_free(Stack *s) {
    table_free(s->data, s->item * s->cap);
    s->data = NULL;
}

#define AT(stack, type, index) (((type *)(stack).data)[index])

#ifdef SEEN_WORDS
/* ----- the seen set ---------------------------------------------------------------------- */
typedef struct {
    uint64_t w[SEEN_WORDS];
} Key;

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

#ifndef SEEN_OF_NODES
typedef struct {
    Key *slot;
    size_t mask, count;
} Seen;

#define SEEN_USED (1ULL << 63)

static int seen_init(Seen *seen, size_t slots) {
    seen->slot = table_alloc(slots * sizeof(Key), 1);
    seen->mask = slots - 1;
    seen->count = 0;
    return seen->slot != NULL;
}

static void seen_free(Seen *seen) {
    table_free(seen->slot, (seen->mask + 1) * sizeof(Key));
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

#endif /* SEEN_OF_NODES */
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

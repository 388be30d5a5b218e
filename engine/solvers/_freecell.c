/* The FreeCell search (engine/solvers/freecell.py, _Search.best_first) in C: the same moves in
 * the same order, the same automatic moves home, the same estimate, keys and node counting,
 * so that for the same budget it answers exactly as the Python code does, line and node count
 * included, only faster. The Python module documents the search; the comments here only say
 * where the C code keeps the Python semantics.
 *
 * search(columns, cells, homes, limit, deadline, nodes, weights[, avoid])
 *   columns   eight bytes objects, bottom first (cards suit * 13 + rank - 1, suits "dhcs")
 *   cells     four bytes, 255 for an empty cell
 *   homes     four foundation heights
 *   limit     node limit (None: none); deadline: Counter.deadline (None: none), process CPU
 *             seconds; nodes: nodes counted so far
 *   avoid     positions the line may not pass through, each (columns, cells, homes) as
 *             above: their keys are seen before the search starts (Python's seen.update)
 * returns (status, line, nodes): status 1 won, 0 lost, -1 out of budget; line the winning
 * steps (kind, source, target, count), kinds 0 "eh", 1 "ch", 2 "cc", 3 "ec", 4 "cx".
 *
 * Keys are fixed-size (_search.h's Key): the sorted cells, then the columns in sorted order
 * each closed by a marker, at most 4 + 52 + 8 = 64 bytes, every byte below 0x80. The seen set
 * holds each key's node rather than the key (see "the seen set"). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define SEEN_WORDS 8
#define SEEN_OF_NODES /* the seen set below keeps nodes, not keys */
#include "_search.h"

#define COLUMNS 8
#define CELLS 4
#define CARDS 52
#define KING 12 /* rank - 1 */
#define NONE 255
#define MAX_COLUMN 64
#define END_OF_COLUMN 0x7E
#define EMPTY_CELL 0x7F

/* the estimate's weights: freecell.PER_CARD_OUT, PER_CARD_ON_NEEDED, PER_EMPTY_COLUMN,
 * PER_CELL_USED (passed in by the Python module, so they live in one place) */
static int per_card_out, per_card_on_needed, per_empty_column, per_cell_used;

enum { LOST = 0, WON = 1, OUT = -1, FAILED = -2 };
enum { EH = 0, CH = 1, CC = 2, EC = 3, CX = 4 };

/* a position as it is stored: the columns' cards side by side */
typedef struct {
    uint8_t cards[CARDS];
    uint8_t len[COLUMNS];
    uint8_t cells[CELLS];
    uint8_t homes[4];
} Packed;

/* a position being worked on */
typedef struct {
    uint8_t col[COLUMNS][MAX_COLUMN];
    int len[COLUMNS];
    int cells[CELLS];
    int homes[4];
} Pos;

typedef struct {
    int32_t parent;
    uint8_t kind, src, dst, count;
} Parent;

typedef struct {
    int32_t estimate, node;
} Entry;

static void pack(const Pos *p, Packed *out) {
    int at = 0;
    for (int i = 0; i < COLUMNS; i++) {
        memcpy(out->cards + at, p->col[i], (size_t)p->len[i]);
        at += p->len[i];
        out->len[i] = (uint8_t)p->len[i];
    }
    for (int i = 0; i < CELLS; i++) out->cells[i] = (uint8_t)p->cells[i];
    for (int i = 0; i < 4; i++) out->homes[i] = (uint8_t)p->homes[i];
}

static void unpack(const Packed *in, Pos *p) {
    int at = 0;
    for (int i = 0; i < COLUMNS; i++) {
        p->len[i] = in->len[i];
        memcpy(p->col[i], in->cards + at, in->len[i]);
        at += in->len[i];
    }
    for (int i = 0; i < CELLS; i++) p->cells[i] = in->cells[i];
    for (int i = 0; i < 4; i++) p->homes[i] = in->homes[i];
}

static int column_less(const Pos *p, int a, int b) {
    int n = p->len[a] < p->len[b] ? p->len[a] : p->len[b];
    int c = memcmp(p->col[a], p->col[b], (size_t)n);
    if (c != 0) return c < 0;
    return p->len[a] < p->len[b];
}

/* _Search.key: columns sorted and cells sorted (any fixed order of them makes the same
 * classes of positions as Python's) */
static void make_key(const Pos *p, Key *key) {
    uint8_t bytes[SEEN_WORDS * 8];
    memset(bytes, 0, sizeof bytes);
    int cells[CELLS];
    for (int i = 0; i < CELLS; i++) cells[i] = p->cells[i] == NONE ? EMPTY_CELL : p->cells[i];
    for (int i = 1; i < CELLS; i++)
        for (int j = i; j > 0 && cells[j] < cells[j - 1]; j--) {
            int t = cells[j];
            cells[j] = cells[j - 1];
            cells[j - 1] = t;
        }
    int order[COLUMNS];
    for (int i = 0; i < COLUMNS; i++) order[i] = i;
    for (int i = 1; i < COLUMNS; i++)
        for (int j = i; j > 0 && column_less(p, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int at = 0;
    for (int i = 0; i < CELLS; i++) bytes[at++] = (uint8_t)cells[i];
    for (int i = 0; i < COLUMNS; i++) {
        const int c = order[i];
        memcpy(bytes + at, p->col[c], (size_t)p->len[c]);
        at += p->len[c];
        bytes[at++] = END_OF_COLUMN;
    }
    memcpy(key->w, bytes, sizeof bytes);
}

static int is_red(int card) { return card < 26; }

static int fits(int card, int onto) {
    return onto % 13 == card % 13 + 1 && is_red(card) != is_red(onto);
}

static int run_length(const Pos *p, int i) {
    const int n = p->len[i];
    if (n == 0) return 0;
    int length = 1;
    for (int k = n - 1; k > 0 && fits(p->col[i][k], p->col[i][k - 1]); k--) length++;
    return length;
}

static int capacity(int free_cells, int empty_columns, int to_empty) {
    int empties = to_empty ? empty_columns - 1 : empty_columns;
    if (empties < 0) empties = 0;
    return (free_cells + 1) << empties;
}

/* _safe */
static int safe(int card, const int *homes) {
    const int rank = card % 13 + 1;
    if (homes[card / 13] != rank - 1) return 0;
    if (rank <= 2) return 1;
    if (card < 26) return homes[2] >= rank - 1 && homes[3] >= rank - 1;
    return homes[0] >= rank - 1 && homes[1] >= rank - 1;
}

/* _settled: safe cards home until none is left */
static void settle(Pos *p) {
    int going = 1;
    while (going) {
        going = 0;
        for (int i = 0; i < CELLS; i++) {
            const int card = p->cells[i];
            if (card != NONE && safe(card, p->homes)) {
                p->cells[i] = NONE;
                p->homes[card / 13]++;
                going = 1;
            }
        }
        for (int i = 0; i < COLUMNS; i++)
            while (p->len[i] && safe(p->col[i][p->len[i] - 1], p->homes)) {
                p->homes[p->col[i][p->len[i] - 1] / 13]++;
                p->len[i]--;
                going = 1;
            }
    }
}

/* _estimate */
static int estimate(const Pos *p) {
    int home = 0, used = 0;
    for (int s = 0; s < 4; s++) home += p->homes[s];
    for (int i = 0; i < CELLS; i++) used += p->cells[i] != NONE;
    int cost = per_card_out * (CARDS - home) + per_cell_used * used;
    int needed[4], n = 0;
    for (int s = 0; s < 4; s++)
        if (p->homes[s] < KING + 1) needed[n++] = s * 13 + p->homes[s];
    for (int i = 0; i < COLUMNS; i++) {
        if (p->len[i] == 0) {
            cost -= per_empty_column;
            continue;
        }
        for (int k = p->len[i] - 1; k >= 0; k--)
            for (int j = 0; j < n; j++)
                if (p->col[i][k] == needed[j]) cost += per_card_on_needed * (p->len[i] - 1 - k);
    }
    return cost;
}

/* ----- the search ------------------------------------------------------------------------ */
/* The seen set keeps a key as the node it was made from: a slot is 32 bits of the key's hash and
 * the node's index, 8 bytes where the key is 64, and the key is made again from the stored
 * node only when those hash bits match. A search's memory is mostly its nodes and this set:
 * about 100 bytes a node instead of 190 to 290 (one search of a million positions had 246 MB
 * resident). The positions to avoid have no node: their keys are kept in `avoided`. A slot's
 * place in the table is also taken from those 32 bits, so the table grows without the keys. */
#define AVOIDED 0x80000000u /* a slot's ref: AVOIDED | index in avoided, or node + 1 */

typedef struct {
    uint32_t tag, ref; /* ref 0: an empty slot */
} Slot;

typedef struct {
    Slot *slot;
    size_t mask, count;
    Stack avoided; /* Key */
} Seen;

typedef struct {
    Budget budget;
    Seen seen;
    Stack nodes;   /* Packed, by node index */
    Stack parents; /* Parent, by node index */
    Stack heap;    /* Entry: the frontier */
    int32_t won_node;
} Search;

static int seen_init(Seen *seen, size_t slots) {
    seen->slot = table_alloc(slots * sizeof(Slot), 1);
    seen->mask = slots - 1;
    seen->count = 0;
    return seen->slot != NULL && stack_init(&seen->avoided, sizeof(Key), 16);
}

static void seen_free(Seen *seen) {
    table_free(seen->slot, (seen->mask + 1) * sizeof(Slot));
    seen->slot = NULL;
    stack_free(&seen->avoided);
}

static void key_of_ref(const Search *s, uint32_t ref, Key *key) {
    if (ref & AVOIDED) {
        *key = AT(s->seen.avoided, Key, ref & ~AVOIDED);
        return;
    }
    Pos p;
    unpack(&AT(s->nodes, Packed, ref - 1), &p);
    make_key(&p, key);
}

static int seen_grow(Seen *seen) {
    const size_t slots = (seen->mask + 1) * 2;
    if (slots > ((size_t)1 << 32)) return 0; /* the place comes from 32 bits of hash */
    Slot *bigger = table_alloc(slots * sizeof(Slot), 1);
    if (bigger == NULL) return 0;
    for (size_t j = 0; j <= seen->mask; j++) {
        if (!seen->slot[j].ref) continue;
        size_t i = (size_t)seen->slot[j].tag & (slots - 1);
        while (bigger[i].ref) i = (i + 1) & (slots - 1);
        bigger[i] = seen->slot[j];
    }
    table_free(seen->slot, (seen->mask + 1) * sizeof(Slot));
    seen->slot = bigger;
    seen->mask = slots - 1;
    return 1;
}

/* whether two stored positions are the same (then so are their keys): the lengths, cells and
 * homes side by side, then the cards in the columns (the bytes past them are not set) */
static int packed_equal(const Packed *a, const Packed *b) {
    if (memcmp(a->len, b->len, COLUMNS + CELLS + 4)) return 0;
    size_t cards = 0;
    for (int i = 0; i < COLUMNS; i++) cards += a->len[i];
    return !memcmp(a->cards, b->cards, cards);
}

/* Adds the key of `position` (NULL: an avoided key), kept as `ref` (the node that will hold it,
 * or the avoided key's index); 1 when it was new, 0 when seen before, -1 when memory ran out.
 * Kept at most 5/8 full, as _search.h's set. A position met again mostly comes back with its
 * columns in the same places: then comparing the stored node tells without making its key. */
static int seen_add(Search *s, const Key *key, const Packed *position, uint32_t ref) {
    Seen *seen = &s->seen;
    const uint32_t tag = (uint32_t)key_hash(key);
    size_t i = (size_t)tag & seen->mask;
    for (; seen->slot[i].ref; i = (i + 1) & seen->mask) {
        if (seen->slot[i].tag != tag) continue;
        const uint32_t other_ref = seen->slot[i].ref;
        if (position != NULL && !(other_ref & AVOIDED) &&
            packed_equal(position, &AT(s->nodes, Packed, other_ref - 1)))
            return 0;
        Key other;
        key_of_ref(s, other_ref, &other);
        if (key_equal(&other, key)) return 0;
    }
    if ((ref & ~AVOIDED) >= AVOIDED - 1) return -1; /* more nodes than a ref can name */
    if ((seen->count + 1) * 8 > (seen->mask + 1) * 5) {
        if (!seen_grow(seen)) return -1;
        i = (size_t)tag & seen->mask;
        while (seen->slot[i].ref) i = (i + 1) & seen->mask;
    }
    seen->slot[i].tag = tag;
    seen->slot[i].ref = ref;
    seen->count++;
    return 1;
}

/* the ref of a key about to be stored as the next node */
static uint32_t next_node_ref(const Search *s) { return (uint32_t)s->nodes.len + 1; }

static int entry_less(const Entry *a, const Entry *b) {
    return a->estimate < b->estimate || (a->estimate == b->estimate && a->node < b->node);
}

static int heap_push(Stack *heap, Entry entry) {
    if (!stack_reserve(heap, 1)) return 0;
    Entry *e = (Entry *)heap->data;
    size_t i = heap->len++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&entry, &e[up])) break;
        e[i] = e[up];
        i = up;
    }
    e[i] = entry;
    return 1;
}

static Entry heap_pop(Stack *heap) {
    Entry *e = (Entry *)heap->data;
    Entry top = e[0];
    Entry last = e[--heap->len];
    size_t n = heap->len, i = 0;
    while (1) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_less(&e[child + 1], &e[child])) child++;
        if (!entry_less(&e[child], &last)) break;
        e[i] = e[child];
        i = child;
    }
    if (n > 0) e[i] = last;
    return top;
}

/* a new node: stored, its parent noted, pushed on the frontier; 0 when memory runs out */
static int add_node(Search *s, const Pos *p, int32_t parent, int kind, int src, int dst,
                    int count) {
    if (!stack_reserve(&s->nodes, 1) || !stack_reserve(&s->parents, 1)) return 0;
    const int32_t node = (int32_t)s->nodes.len;
    pack(p, &AT(s->nodes, Packed, node));
    s->nodes.len++;
    Parent *up = &AT(s->parents, Parent, node);
    up->parent = parent;
    up->kind = (uint8_t)kind;
    up->src = (uint8_t)src;
    up->dst = (uint8_t)dst;
    up->count = (uint8_t)count;
    s->parents.len++;
    Entry entry = {estimate(p), node};
    return heap_push(&s->heap, entry);
}

/* the child of one move (Python's add): settled, then won, new or seen. Returns WON, LOST
 * (go on) or FAILED (memory). */
static int child(Search *s, Pos *c, int32_t parent, int kind, int src, int dst, int count) {
    if (kind == EH || kind == CH) {
        settle(c);
    } else if (kind != EC) {
        if (c->len[src] && safe(c->col[src][c->len[src] - 1], c->homes)) settle(c);
    }
    if (c->homes[0] + c->homes[1] + c->homes[2] + c->homes[3] == CARDS) {
        if (!add_node(s, c, parent, kind, src, dst, count)) return FAILED;
        s->won_node = (int32_t)(s->nodes.len - 1);
        return WON;
    }
    Key key;
    make_key(c, &key);
    Packed packed;
    pack(c, &packed);
    const int added = seen_add(s, &key, &packed, next_node_ref(s));
    if (added < 0) return FAILED;
    if (added && !add_node(s, c, parent, kind, src, dst, count)) return FAILED;
    return LOST;
}

#define TRY(kind, src, dst, count)                                       \
    do {                                                                 \
        const int r_ = child(s, &c, node, (kind), (src), (dst), (count)); \
        if (r_ != LOST) return r_;                                       \
    } while (0)

/* _children of one node, each handed to child() in order */
static int expand(Search *s, int32_t node) {
    Pos p, c;
    unpack(&AT(s->nodes, Packed, node), &p);
    int free_cells = 0, empties = 0, first_empty = -1, first_free = -1;
    for (int i = 0; i < CELLS; i++)
        if (p.cells[i] == NONE) {
            if (first_free < 0) first_free = i;
            free_cells++;
        }
    for (int i = 0; i < COLUMNS; i++)
        if (p.len[i] == 0) {
            if (first_empty < 0) first_empty = i;
            empties++;
        }
    const int cap = capacity(free_cells, empties, 0);
    for (int i = 0; i < CELLS; i++) {
        const int card = p.cells[i];
        if (card != NONE && p.homes[card / 13] == card % 13) {
            c = p;
            c.cells[i] = NONE;
            c.homes[card / 13]++;
            TRY(EH, i, card / 13, 1);
        }
    }
    int top_of[CARDS], runs[COLUMNS];
    for (int k = 0; k < CARDS; k++) top_of[k] = -1;
    for (int i = 0; i < COLUMNS; i++) {
        if (p.len[i] == 0) {
            runs[i] = 0;
            continue;
        }
        const int top = p.col[i][p.len[i] - 1];
        top_of[top] = i;
        if (p.homes[top / 13] == top % 13) {
            c = p;
            c.len[i]--;
            c.homes[top / 13]++;
            TRY(CH, i, top / 13, 1);
        }
        runs[i] = run_length(&p, i);
    }
    for (int i = 0; i < COLUMNS; i++) {
        const int most = runs[i] < cap ? runs[i] : cap;
        for (int count = 1; count <= most; count++) {
            const int card = p.col[i][p.len[i] - count];
            if (card % 13 == KING) continue;
            const int first_suit = is_red(card) ? 2 : 0;
            for (int suit = first_suit; suit < first_suit + 2; suit++) {
                const int j = top_of[suit * 13 + card % 13 + 1];
                if (j >= 0 && j != i) {
                    c = p;
                    memcpy(c.col[j] + c.len[j], p.col[i] + p.len[i] - count, (size_t)count);
                    c.len[j] += count;
                    c.len[i] -= count;
                    TRY(CC, i, j, count);
                }
            }
        }
    }
    for (int i = 0; i < CELLS; i++) {
        const int card = p.cells[i];
        if (card == NONE || card % 13 == KING) continue;
        const int first_suit = is_red(card) ? 2 : 0;
        for (int suit = first_suit; suit < first_suit + 2; suit++) {
            const int j = top_of[suit * 13 + card % 13 + 1];
            if (j >= 0) {
                c = p;
                c.col[j][c.len[j]++] = (uint8_t)card;
                c.cells[i] = NONE;
                TRY(EC, i, j, 1);
            }
        }
    }
    if (empties) {
        const int first = first_empty;
        const int longest = capacity(free_cells, empties, 1);
        for (int i = 0; i < COLUMNS; i++) {
            int most = runs[i] < longest ? runs[i] : longest;
            if (most == p.len[i]) most--; /* the whole column elsewhere: the same position */
            if (most < 1) continue;
            for (int pass = 0; pass < (most > 1 ? 2 : 1); pass++) {
                const int count = pass == 0 ? most : 1;
                c = p;
                memcpy(c.col[first], p.col[i] + p.len[i] - count, (size_t)count);
                c.len[first] = count;
                c.len[i] -= count;
                TRY(CC, i, first, count);
            }
        }
        for (int i = 0; i < CELLS; i++) {
            const int card = p.cells[i];
            if (card == NONE) continue;
            c = p;
            c.col[first][0] = (uint8_t)card;
            c.len[first] = 1;
            c.cells[i] = NONE;
            TRY(EC, i, first, 1);
        }
    }
    if (free_cells) {
        for (int i = 0; i < COLUMNS; i++) {
            if (p.len[i] == 0) continue;
            c = p;
            c.cells[first_free] = c.col[i][--c.len[i]];
            TRY(CX, i, first_free, 1);
        }
    }
    return LOST;
}

static int run_search(Search *s, const Pos *start) {
    Key key;
    make_key(start, &key);
    if (seen_add(s, &key, NULL, next_node_ref(s)) < 0) return FAILED;
    if (!add_node(s, start, -1, 0, 0, 0, 0)) return FAILED;
    while (s->heap.len) {
        const Entry entry = heap_pop(&s->heap);
        if (!budget_tick(&s->budget)) return OUT;
        const int r = expand(s, entry.node);
        if (r != LOST) return r;
    }
    return LOST;
}

static PyObject *line_of(Search *s) {
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    for (int32_t node = s->won_node; node > 0;) {
        const Parent *up = &AT(s->parents, Parent, node);
        PyObject *item = Py_BuildValue("(iiii)", up->kind, up->src, up->dst, up->count);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
        node = up->parent;
    }
    if (PyList_Reverse(list) < 0) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

static int read_start(PyObject *columns, PyObject *cells, PyObject *homes, Pos *p) {
    if (!PySequence_Check(columns) || PySequence_Size(columns) != COLUMNS) {
        PyErr_SetString(PyExc_ValueError, "columns: eight bytes objects");
        return 0;
    }
    int cards = 0;
    for (int i = 0; i < COLUMNS; i++) {
        PyObject *column = PySequence_GetItem(columns, i);
        if (column == NULL) return 0;
        char *data;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(column, &data, &n) < 0) {
            Py_DECREF(column);
            return 0;
        }
        cards += (int)n;
        if (cards > CARDS) {
            Py_DECREF(column);
            PyErr_SetString(PyExc_ValueError, "columns: too many cards");
            return 0;
        }
        memcpy(p->col[i], data, (size_t)n);
        p->len[i] = (int)n;
        Py_DECREF(column);
        for (int k = 0; k < n; k++)
            if (p->col[i][k] >= CARDS) {
                PyErr_SetString(PyExc_ValueError, "columns: a card out of range");
                return 0;
            }
    }
    char *data;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(cells, &data, &n) < 0) return 0;
    if (n != CELLS) {
        PyErr_SetString(PyExc_ValueError, "cells: four bytes");
        return 0;
    }
    for (int i = 0; i < CELLS; i++) {
        p->cells[i] = (uint8_t)data[i];
        if (p->cells[i] != NONE && p->cells[i] >= CARDS) {
            PyErr_SetString(PyExc_ValueError, "cells: a card out of range");
            return 0;
        }
    }
    if (!PySequence_Check(homes) || PySequence_Size(homes) != 4) {
        PyErr_SetString(PyExc_ValueError, "homes: four heights");
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *item = PySequence_GetItem(homes, s);
        if (item == NULL) return 0;
        const long height = PyLong_AsLong(item);
        Py_DECREF(item);
        if (height == -1 && PyErr_Occurred()) return 0;
        if (height < 0 || height > 13) {
            PyErr_SetString(PyExc_ValueError, "homes: a height out of range");
            return 0;
        }
        p->homes[s] = (int)height;
    }
    return 1;
}

static void search_free(Search *s) {
    seen_free(&s->seen);
    stack_free(&s->nodes);
    stack_free(&s->parents);
    stack_free(&s->heap);
}

/* the keys of the positions to avoid, seen before the search starts; 0 with an exception set */
static int seen_avoided(Search *s, PyObject *avoid) {
    PyObject *items = PySequence_Fast(avoid, "avoid: a sequence of (columns, cells, homes)");
    if (items == NULL) return 0;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(items, i);
        PyObject *columns, *cells, *homes;
        Pos p;
        Key key;
        if (!PyArg_ParseTuple(item, "OOO:avoid", &columns, &cells, &homes) ||
            !read_start(columns, cells, homes, &p)) {
            Py_DECREF(items);
            return 0;
        }
        make_key(&p, &key);
        /* the key is stored before it is added (its ref names it), and kept only when new */
        Stack *avoided = &s->seen.avoided;
        int added = -1;
        if (stack_reserve(avoided, 1)) {
            AT(*avoided, Key, avoided->len) = key;
            added = seen_add(s, &key, NULL, AVOIDED | (uint32_t)avoided->len);
        }
        if (added < 0) {
            Py_DECREF(items);
            PyErr_NoMemory();
            return 0;
        }
        avoided->len += (size_t)added;
    }
    Py_DECREF(items);
    return 1;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns, *cells, *homes, *limit_obj, *deadline_obj, *avoid = NULL;
    unsigned long long nodes;
    if (!PyArg_ParseTuple(args, "OOOOOK(iiii)|O:search", &columns, &cells, &homes, &limit_obj,
                          &deadline_obj, &nodes, &per_card_out, &per_card_on_needed,
                          &per_empty_column, &per_cell_used, &avoid))
        return NULL;
    Pos start;
    if (!read_start(columns, cells, homes, &start)) return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (!budget_read(&s.budget, limit_obj, deadline_obj, nodes)) return NULL;
    if (!seen_init(&s.seen, 1 << 16) || !stack_init(&s.nodes, sizeof(Packed), 1 << 12) ||
        !stack_init(&s.parents, sizeof(Parent), 1 << 12) ||
        !stack_init(&s.heap, sizeof(Entry), 1 << 12)) {
        search_free(&s);
        return PyErr_NoMemory();
    }
    if (avoid != NULL && !seen_avoided(&s, avoid)) {
        search_free(&s);
        return NULL;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = run_search(&s, &start);
    Py_END_ALLOW_THREADS;
    PyObject *result = NULL;
    if (status == FAILED) {
        PyErr_NoMemory();
    } else {
        PyObject *line = status == WON ? line_of(&s) : PyList_New(0);
        if (line != NULL) result = Py_BuildValue("(iNL)", status, line, s.budget.nodes);
    }
    search_free(&s);
    return result;
}

static PyObject *py_table_bytes(PyObject *self, PyObject *args) {
    (void)self;
    int reset = 0;
    if (!PyArg_ParseTuple(args, "|p:table_bytes", &reset)) return NULL;
    PyObject *result = Py_BuildValue("(nn)", (Py_ssize_t)tables_held, (Py_ssize_t)tables_peak);
    if (reset) tables_peak = tables_held;
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(columns, cells, homes, limit, deadline, nodes, weights[, avoid])\n"
     "-> (status, line, nodes): freecell._Search.best_first; status 1 won, 0 lost, -1 out "
     "of budget."},
    {"table_bytes", py_table_bytes, METH_VARARGS,
     "table_bytes(reset=False) -> (held, most): the bytes of the searches' tables held now and "
     "the most held at once (since the last reset; reset: start again from now)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_freecell",
    "The search of engine.solvers.freecell in C (optional: the Python code gives the same "
    "answers).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__freecell(void) { return PyModule_Create(&module); }

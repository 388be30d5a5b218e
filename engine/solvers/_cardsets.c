/* The exact pass of the Klondike card-set search (engine/solvers/klondike.py,
 * CardSetSearch with quick=False) in C: the same states, moves, move order, keys and node
 * counting, so that for the same node budget it answers exactly as the Python code does, only
 * faster. The Python module documents the search; the comments here only say where the C
 * code keeps the Python semantics.
 *
 * search(king, base, visible, heads, fnd, talon, p, limit, deadline, nodes)
 *   king      top rank (10 or 13)
 *   base      per column, the cards of its deal still in place (bit indices, bottom first)
 *   visible   bit mask of the face-up tableau cards; heads: bit mask of the heads
 *   fnd       four foundation heights; talon: card bits (waste bottom to top, then stock);
 *   p         cards on the waste
 *   limit     node limit (None: none); deadline: process CPU seconds (None: none)
 *   nodes     nodes counted so far
 * returns (status, path, nodes): status 1 won, 0 lost (exhausted), -1 out of budget; path is
 * the list the Python search builds (its state when the search stopped).
 *
 * The search is an explicit stack of frames, one per Python _dfs call, so depth is limited
 * by memory only. The seen set stores whole keys (two 64-bit words) in an open-addressing
 * table that grows (_search.h). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define SEEN_WORDS 2
#include "_search.h"

#define MAX_COLUMNS 16
#define MAX_CARDS 64

enum { PS, DS, RV, DP, SP };
enum { LOST = 0, WON = 1, OUT = -1, FAILED = -2 };

typedef struct {
    int kind, a, b;  /* PS card; RV column, k; DS/DP talon index, turns; SP suit */
} Move;

typedef struct {
    int kind, x, y, z;  /* ("ps", x) ("rv", x, y) ("sp", x, y) ("ds"/"dp", x, y, z) */
} Step;

typedef struct {
    int card, was_head;
} Played;

typedef struct {
    size_t path_mark, played_mark, moves_start, moves_end, next;
    /* what undoing the move being tried needs */
    int was_head, card, old_p;
    /* the key with a waste of 0, added once the moves are exhausted (twin != 0) */
    Key twin_key;
    int twin;
} Frame;

typedef struct {
    /* the deck */
    int king, size;
    uint64_t low, kings;
    int suit[MAX_CARDS], rank[MAX_CARDS], bit[4][16];
    /* the position */
    int columns;
    int base[MAX_COLUMNS][MAX_CARDS], k[MAX_COLUMNS];
    int head_column[MAX_CARDS];
    uint64_t visible, heads, talon_mask, kcode, fcode, full_fcode;
    int fnd[4];
    int talon[MAX_CARDS], talon_len, p;
    /* the budget */
    Budget budget;
    /* the search */
    Seen seen;
    Stack frames, moves, played, path;
} Search;

/* ----- what the sets allow --------------------------------------------------------------- */
static uint64_t tops_of(const Search *s) {
    uint64_t low = s->low, v = s->visible, f = v & ~s->heads;
    uint64_t n_or = (v | v >> 1) & low;
    uint64_t n_and = v & (v >> 1) & low;
    uint64_t f_or = ((f | f >> 1) & low) << 4;
    uint64_t f_and = (f & (f >> 1) & low) << 4;
    return (n_or & ~f_or) | (n_and & f_or & ~f_and);
}

static uint64_t next_mask(const Search *s) {
    uint64_t mask = 0;
    for (int suit = 0; suit < 4; suit++)
        if (s->fnd[suit] < s->king) mask |= 1ULL << s->bit[suit][s->fnd[suit] + 1];
    return mask;
}

static int min_int(int a, int b) { return a < b ? a : b; }

static uint64_t safe_mask(const Search *s) {
    const int *fnd = s->fnd;
    int red_low = min_int(fnd[0], fnd[1]), black_low = min_int(fnd[2], fnd[3]);
    uint64_t mask = 0;
    for (int suit = 0; suit < 4; suit++) {
        int rank = fnd[suit] + 1;
        if (rank > s->king) continue;
        int low = suit < 2 ? black_low : red_low;
        if (low >= rank - 1 && fnd[suit ^ 1] >= rank - 2) mask |= 1ULL << s->bit[suit][rank];
    }
    return mask;
}

static int popcount64(uint64_t x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

static int lowest_bit(uint64_t x) {
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

static int king_off_bottom(const Search *s) {
    int at_bottom = popcount64(s->visible & s->kings & ~s->heads);
    for (int i = 0; i < s->columns; i++)
        if (s->k[i] == 1 && s->rank[s->base[i][0]] == s->king) at_bottom++;
    return at_bottom < 4;
}

/* engine.solvers.talon.reach: (index, turns) in the order the Python dict keeps them */
static int reach(int size, int waste, int *index, int *turns) {
    int n = 0;
    char found[MAX_CARDS + 1];
    memset(found, 0, sizeof found);
#define FOUND(i, t)              \
    do {                         \
        if (!found[i]) {         \
            found[i] = 1;        \
            index[n] = (i);      \
            turns[n] = (t);      \
            n++;                 \
        }                        \
    } while (0)
    if (waste) FOUND(waste - 1, 0);
    int top = waste, count = 0;
    while (top < size) {
        top = min_int(top + 3, size);
        count++;
        FOUND(top - 1, count);
    }
    if (size) {
        count++;
        top = 0;
        while (top < size) {
            top = min_int(top + 3, size);
            count++;
            FOUND(top - 1, count);
        }
    }
#undef FOUND
    return n;
}

/* ----- state changes --------------------------------------------------------------------- */
static void lift_head(Search *s, int card) {
    int i = s->head_column[card];
    s->heads ^= 1ULL << card;
    int k = --s->k[i];
    s->kcode -= 1ULL << (3 * i);
    if (k) {
        int under = s->base[i][k - 1];
        s->heads |= 1ULL << under;
        s->visible |= 1ULL << under;
    }
}

static void drop_head(Search *s, int card) {
    int i = s->head_column[card];
    int k = s->k[i];
    if (k) {
        int under = s->base[i][k - 1];
        s->heads ^= 1ULL << under;
        s->visible ^= 1ULL << under;
    }
    s->k[i] = k + 1;
    s->kcode += 1ULL << (3 * i);
    s->heads |= 1ULL << card;
}

static int home(Search *s, int card) {
    int suit = s->suit[card];
    s->fnd[suit]++;
    s->fcode += 1ULL << (4 * suit);
    s->visible ^= 1ULL << card;
    if (s->heads >> card & 1) {
        lift_head(s, card);
        return 1;
    }
    return 0;
}

static void unhome(Search *s, int card, int was_head) {
    int suit = s->suit[card];
    if (was_head) drop_head(s, card);
    s->visible |= 1ULL << card;
    s->fnd[suit]--;
    s->fcode -= 1ULL << (4 * suit);
}

static int push_step(Search *s, int kind, int x, int y, int z) {
    if (!stack_reserve(&s->path, 1)) return 0;
    Step *step = &AT(s->path, Step, s->path.len++);
    step->kind = kind;
    step->x = x;
    step->y = y;
    step->z = z;
    return 1;
}

/* ----- moves (CardSetSearch._moves with after == -1) ------------------------------------- */
#define MAX_MOVES (8 + 2 * MAX_COLUMNS + 2 * MAX_CARDS + 8)

static int gen_moves(const Search *s, uint64_t tops, uint64_t nxt, uint64_t safe, Move *out) {
    Move home_m[8 + 2 * MAX_CARDS], rest[8], reveals[MAX_COLUMNS], plays[MAX_CARDS],
        late[MAX_COLUMNS + 4];
    int n_home = 0, n_rest = 0, n_reveals = 0, n_plays = 0, n_late = 0;
    int king = s->king;
    uint64_t visible = s->visible, heads = s->heads;
    uint64_t slots = tops >> 4;
    int zero = 0;
    for (int i = 0; i < s->columns; i++) zero += s->k[i] == 0;
    int empties = zero - popcount64(visible & s->kings & ~heads);
    /* tableau cards home, heads first */
    uint64_t cards = (tops | tops << 1) & visible & nxt;
    while (cards) {
        int card = lowest_bit(cards);
        cards &= cards - 1;
        Move m = {PS, card, 0};
        if (heads >> card & 1)
            home_m[n_home++] = m;
        else
            rest[n_rest++] = m;
    }
    for (int j = 0; j < n_rest; j++) home_m[n_home++] = rest[j];
    /* heads onto a parent */
    int some_king_loose = -1;
    for (int i = 0; i < s->columns; i++) {
        int k = s->k[i];
        if (!k) continue;
        int card = s->base[i][k - 1];
        if (s->rank[card] == king) {
            if (k >= 2 && empties > 0) reveals[n_reveals++] = (Move){RV, i, k};
            continue;
        }
        if (!(slots >> (card & ~1) & 1)) continue;
        if (k == 1) {
            if (some_king_loose < 0) some_king_loose = king_off_bottom(s);
            if (some_king_loose) late[n_late++] = (Move){RV, i, 0};
        } else {
            reveals[n_reveals++] = (Move){RV, i, k};
        }
    }
    /* most face-down cards first; stable, as Python's sort */
    for (int j = 1; j < n_reveals; j++) {
        Move m = reveals[j];
        int t = j;
        while (t > 0 && reveals[t - 1].b < m.b) {
            reveals[t] = reveals[t - 1];
            t--;
        }
        reveals[t] = m;
    }
    /* talon cards, fewest turns first */
    if (s->talon_len) {
        int index[MAX_CARDS], turns[MAX_CARDS];
        int n = reach(s->talon_len, s->p, index, turns);
        for (int j = 0; j < n; j++) {
            int card = s->talon[index[j]];
            Move m = {DS, index[j], turns[j]};
            if (safe >> card & 1) {
                home_m[n_home++] = m;
                continue;
            }
            Move play = {DP, index[j], turns[j]};
            if (s->rank[card] == king) {
                if (empties > 0) plays[n_plays++] = play;
            } else if (slots >> (card & ~1) & 1) {
                plays[n_plays++] = play;
            }
            if (nxt >> card & 1) home_m[n_home++] = m;
        }
    }
    /* foundation cards back (never an Ace or a 2) */
    for (int suit = 0; suit < 4; suit++) {
        int rank = s->fnd[suit];
        if (rank < 3) continue;
        int card = s->bit[suit][rank];
        if (safe >> card & 1) continue;
        if (rank == king) {
            if (empties > 0) late[n_late++] = (Move){SP, suit, 0};
        } else if (slots >> (card & ~1) & 1) {
            late[n_late++] = (Move){SP, suit, 0};
        }
    }
    int n = 0;
    for (int j = 0; j < n_home; j++) out[n++] = home_m[j];
    for (int j = 0; j < n_reveals; j++) out[n++] = reveals[j];
    for (int j = 0; j < n_plays; j++) out[n++] = plays[j];
    for (int j = 0; j < n_late; j++) out[n++] = late[j];
    return n;
}

/* ----- the search -------------------------------------------------------------------------- */

/* A _dfs entry: tick, safe moves home, the key, the moves. WON, OUT, FAILED (memory), or
 * LOST meaning "a frame was pushed: go on with its moves". */
static int enter(Search *s) {
    if (!budget_tick(&s->budget)) return OUT;
    if (!stack_reserve(&s->frames, 1)) return FAILED;
    Frame *frame = &AT(s->frames, Frame, s->frames.len++);
    frame->path_mark = s->path.len;
    frame->played_mark = s->played.len;
    frame->moves_start = frame->moves_end = frame->next = s->moves.len;
    frame->twin = 0;
    uint64_t tops = tops_of(s), safe_all, nxt;
    for (;;) {
        safe_all = safe_mask(s);
        nxt = next_mask(s);
        uint64_t safe = safe_all & s->visible & (tops | tops << 1);
        if (!safe) break;
        int card = lowest_bit(safe);
        if (!stack_reserve(&s->played, 1)) return FAILED;
        Played *played = &AT(s->played, Played, s->played.len++);
        played->card = card;
        played->was_head = home(s, card);
        if (!push_step(s, PS, card, 0, 0)) return FAILED;
        tops = tops_of(s);
    }
    if (s->fcode == s->full_fcode) return WON;
    int p = s->p, size = s->talon_len;
    uint64_t waste = (p % 3 == 0 || p == size) ? 0 : (uint64_t)p;
    /* key = talon_mask | waste << 56 | kcode << 61 | fcode << 85 (after + 1 == 0) */
    uint64_t lo = s->talon_mask | waste << 56 | s->kcode << 61;
    uint64_t hi = s->kcode >> 3 | s->fcode << 21;
    Key key = {{lo, hi}};
    int added = seen_add(&s->seen, &key);
    if (added < 0) return FAILED;
    if (added) {
        if (!stack_reserve(&s->moves, MAX_MOVES)) return FAILED;
        int n = gen_moves(s, tops, nxt, safe_all, &AT(s->moves, Move, s->moves.len));
        s->moves.len += n;
        frame->moves_end = s->moves.len;
        /* as _dfs: once searched through, the same cards with a waste of 0 are done too */
        frame->twin = waste != 0;
        frame->twin_key = key;
        frame->twin_key.w[0] ^= waste << 56;
    }
    return LOST;
}

/* Plays the move (as CardSetSearch._try before its _dfs call); 0: out of memory */
static int apply(Search *s, Frame *frame, const Move *m) {
    switch (m->kind) {
    case PS: {
        int card = m->a;
        frame->card = card;
        frame->was_head = home(s, card);
        return push_step(s, PS, card, 0, 0);
    }
    case RV: {
        int i = m->a;
        int card = s->base[i][s->k[i] - 1];
        frame->card = card;
        lift_head(s, card);
        return push_step(s, RV, i, card, 0);
    }
    case SP: {
        int suit = m->a;
        int card = s->bit[suit][s->fnd[suit]];
        frame->card = card;
        s->fnd[suit]--;
        s->fcode -= 1ULL << (4 * suit);
        s->visible |= 1ULL << card;
        return push_step(s, SP, suit, card, 0);
    }
    default: { /* DS, DP */
        int index = m->a;
        int card = s->talon[index];
        memmove(s->talon + index, s->talon + index + 1,
                sizeof(int) * (size_t)(s->talon_len - index - 1));
        s->talon_len--;
        frame->card = card;
        frame->old_p = s->p;
        s->p = index;
        s->talon_mask ^= 1ULL << card;
        if (m->kind == DS) {
            int suit = s->suit[card];
            s->fnd[suit]++;
            s->fcode += 1ULL << (4 * suit);
        } else {
            s->visible |= 1ULL << card;
        }
        return push_step(s, m->kind, index, m->b, card);
    }
    }
}

static void undo(Search *s, const Frame *frame, const Move *m) {
    int card = frame->card;
    s->path.len--;
    switch (m->kind) {
    case PS:
        unhome(s, card, frame->was_head);
        break;
    case RV:
        drop_head(s, card);
        break;
    case SP: {
        int suit = m->a;
        s->visible ^= 1ULL << card;
        s->fnd[suit]++;
        s->fcode += 1ULL << (4 * suit);
        break;
    }
    default: {
        int index = m->a;
        if (m->kind == DS) {
            int suit = s->suit[card];
            s->fnd[suit]--;
            s->fcode -= 1ULL << (4 * suit);
        } else {
            s->visible ^= 1ULL << card;
        }
        s->talon_mask |= 1ULL << card;
        memmove(s->talon + index + 1, s->talon + index,
                sizeof(int) * (size_t)(s->talon_len - index));
        s->talon[index] = card;
        s->talon_len++;
        s->p = frame->old_p;
    }
    }
}

static int run(Search *s) {
    int status = enter(s);
    if (status != LOST) return status;
    while (s->frames.len) {
        Frame *frame = &AT(s->frames, Frame, s->frames.len - 1);
        if (frame->next < frame->moves_end) {
            Move m = AT(s->moves, Move, frame->next);
            frame->next++;
            if (!apply(s, frame, &m)) return FAILED;
            status = enter(s);
            if (status != LOST) return status;
            continue;
        }
        /* exhausted: undo the safe moves, drop the frame, undo the move that led here */
        if (frame->twin && seen_add(&s->seen, &frame->twin_key) < 0) return FAILED;
        for (size_t j = s->played.len; j > frame->played_mark; j--) {
            Played *played = &AT(s->played, Played, j - 1);
            unhome(s, played->card, played->was_head);
        }
        s->played.len = frame->played_mark;
        s->path.len = frame->path_mark;
        s->moves.len = frame->moves_start;
        s->frames.len--;
        if (!s->frames.len) break;
        Frame *parent = &AT(s->frames, Frame, s->frames.len - 1);
        undo(s, parent, &AT(s->moves, Move, parent->next - 1));
    }
    return LOST;
}

/* ----- Python glue --------------------------------------------------------------------------- */
static int read_ints(PyObject *obj, int *out, int most, int below, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many items", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (value < 0 || value >= below) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: %ld out of range", what, value);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(seq);
    return (int)n;
}

static PyObject *path_list(const Search *s) {
    static const char *names[] = {"ps", "ds", "rv", "dp", "sp"};
    PyObject *list = PyList_New((Py_ssize_t)s->path.len);
    if (list == NULL) return NULL;
    for (size_t j = 0; j < s->path.len; j++) {
        const Step *step = &AT(s->path, Step, j);
        const char *name = names[step->kind];
        PyObject *item;
        switch (step->kind) {
        case PS:
            item = Py_BuildValue("(si)", name, step->x);
            break;
        case RV:
        case SP:
            item = Py_BuildValue("(sii)", name, step->x, step->y);
            break;
        default:
            item = Py_BuildValue("(siii)", name, step->x, step->y, step->z);
        }
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)j, item);
    }
    return list;
}

static void search_free(Search *s) {
    seen_free(&s->seen);
    stack_free(&s->frames);
    stack_free(&s->moves);
    stack_free(&s->played);
    stack_free(&s->path);
}

static int bit_index(int suit, int rank) {
    return (rank - 1) * 4 + 2 * ((suit >> 1) ^ (rank & 1)) + (suit & 1);
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    int king, p;
    unsigned long long visible, heads, nodes;
    PyObject *base_obj, *fnd_obj, *talon_obj, *limit_obj, *deadline_obj;
    if (!PyArg_ParseTuple(args, "iOKKOOiOOK:search", &king, &base_obj, &visible, &heads,
                          &fnd_obj, &talon_obj, &p, &limit_obj, &deadline_obj, &nodes))
        return NULL;
    if (king < 1 || king > 13) return PyErr_Format(PyExc_ValueError, "king: %d", king);
    Search *s = calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    s->king = king;
    s->size = 4 * king;
    for (int suit = 0; suit < 4; suit++) {
        s->bit[suit][0] = -1;
        for (int rank = 1; rank <= king; rank++) {
            int index = bit_index(suit, rank);
            s->bit[suit][rank] = index;
            s->suit[index] = suit;
            s->rank[index] = rank;
        }
        s->kings |= 1ULL << bit_index(suit, king);
    }
    for (int r = 0; r < king; r++) s->low |= 1ULL << (4 * r) | 1ULL << (4 * r + 2);
    s->visible = visible;
    s->heads = heads;
    /* the columns */
    PyObject *columns = PySequence_Fast(base_obj, "base: a list of columns");
    if (columns == NULL) goto done;
    Py_ssize_t n_columns = PySequence_Fast_GET_SIZE(columns);
    if (n_columns > MAX_COLUMNS) {
        Py_DECREF(columns);
        PyErr_SetString(PyExc_ValueError, "base: too many columns");
        goto done;
    }
    s->columns = (int)n_columns;
    for (int i = 0; i < MAX_CARDS; i++) s->head_column[i] = -1;
    for (Py_ssize_t i = 0; i < n_columns; i++) {
        int n = read_ints(PySequence_Fast_GET_ITEM(columns, i), s->base[i], s->size, s->size,
                          "base column");
        if (n < 0) {
            Py_DECREF(columns);
            goto done;
        }
        s->k[i] = n;
        s->kcode += (uint64_t)n << (3 * i);
        for (int j = 0; j < n; j++) s->head_column[s->base[i][j]] = (int)i;
    }
    Py_DECREF(columns);
    if (read_ints(fnd_obj, s->fnd, 4, king + 1, "fnd") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fnd: four heights");
        goto done;
    }
    for (int suit = 0; suit < 4; suit++) {
        s->fcode |= (uint64_t)s->fnd[suit] << (4 * suit);
        s->full_fcode |= (uint64_t)king << (4 * suit);
    }
    s->talon_len = read_ints(talon_obj, s->talon, s->size, s->size, "talon");
    if (s->talon_len < 0) goto done;
    for (int j = 0; j < s->talon_len; j++) s->talon_mask |= 1ULL << s->talon[j];
    if (p < 0 || p > s->talon_len) {
        PyErr_SetString(PyExc_ValueError, "p: more than the talon");
        goto done;
    }
    s->p = p;
    uint64_t deck = (s->size == 64) ? ~0ULL : (1ULL << s->size) - 1;
    if ((visible | heads) & ~deck) {
        PyErr_SetString(PyExc_ValueError, "visible/heads: cards outside the deck");
        goto done;
    }
    /* the budget */
    if (!budget_read(&s->budget, limit_obj, deadline_obj, nodes)) goto done;
    if (!seen_init(&s->seen, 1 << 16) || !stack_init(&s->frames, sizeof(Frame), 256) ||
        !stack_init(&s->moves, sizeof(Move), 4096) ||
        !stack_init(&s->played, sizeof(Played), 256) ||
        !stack_init(&s->path, sizeof(Step), 512)) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    /* the search touches no Python object: other threads may run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    status = run(s);
    Py_END_ALLOW_THREADS
    if (status == FAILED) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *path = path_list(s);
    if (path == NULL) goto done;
    result = Py_BuildValue("(iNL)", status, path, s->budget.nodes);
done:
    search_free(s);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(king, base, visible, heads, fnd, talon, p, limit, deadline, nodes)\n"
     "-> (status, path, nodes): the exact pass of klondike.CardSetSearch; status 1 won, 0 lost,"
     " -1 out of budget."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cardsets",
    "The exact pass of engine.solvers.klondike.CardSetSearch in C (optional: the Python code "
    "gives the same answers).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cardsets(void) { return PyModule_Create(&module); }

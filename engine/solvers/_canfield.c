/* The Canfield search (engine/solvers/canfield.py, CanfieldSearch._search) in C: the same
 * positions, children, child order, keys and node counting, so that for the same node budget
 * it answers exactly as the Python code does, line and node count included, only faster. The Python module documents the search; the comments
 * here only say where the C code keeps the Python semantics.
 *
 * search(piles, reserve, talon, p, fnd, limit, deadline, nodes, relaxed_limit)
 *   piles        four bytes objects, bottom first (cards suit * 16 + rel)
 *   reserve      bytes, top last; all of it is in play (r = len(reserve))
 *   talon        bytes: the waste bottom to top, then the stock in turning order
 *   p            cards on the waste; fnd: four foundation heights
 *   limit        node limit (None: none); deadline: Counter.deadline (None: none), process
 *                CPU seconds
 *   nodes        nodes counted so far
 *   relaxed_limit  canfield.RELAXED_LIMIT: new positions one relaxed query may search
 * returns (status, line, nodes): status 1 won, 0 lost (the search exhausted, or a
 * precedence cycle at the start), -1 out of budget; line is CanfieldSearch.line, a list of
 * (kind, source, target, turns) (the winning line when won).
 *
 * The search is an explicit stack of frames, one per Python _dfs call that got past the seen
 * set, so depth is limited by memory only. The relaxed game (_relaxed) is searched by
 * recursion: its depth is at most the cards in play (each macro move takes a card out of the
 * reserve or sends one home), its chains at most 12 cards; its verdicts live in one more
 * arena set, each key followed by WON or LOST. The seen set stores whole keys: no lossy hashing.
 * Its keys vary in length (the piles and the talon), so it is not _search.h's set of
 * fixed-size keys: the bytes of each key sit in an arena and the open-addressing table that
 * grows holds their hashes and offsets (16 bytes a slot instead of a whole key: with the
 * 48-byte keys a fixed size would need, the search ran 25-35 % slower). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* growable arrays and the budget (nodes, CPU clock); no SEEN_WORDS: the seen set is this
 * file's own */
#include "_search.h"



#define PILES 4
#define MAX_CARDS 64
#define RANKS 13
#define ALL_HOME (4 * RANKS)
/* per position: reserve 1 + 4, piles 4 * (1 + 3), talon 64 * (1 + 4) */
#define MAX_MOVES (5 + 16 + 5 * MAX_CARDS)
/* sorted piles (length + cards), r, talon length + cards, waste: at most 64 cards in all */
#define MAX_KEY (PILES + MAX_CARDS + 3)

enum { LOST = 0, WON = 1, OUT = -1, FAILED = -2, SPENT = -3 };

typedef struct {
    uint8_t pile[PILES][MAX_CARDS];
    uint8_t len[PILES];
    uint8_t talon[MAX_CARDS];
    uint8_t talon_len, p, r;
    uint8_t fnd[4];
} Pos;

/* a move as the Python line holds it, (kind, source, target, turns), plus the talon index */
typedef struct {
    int8_t kind, source, target;
    uint8_t turns, index;
} Move;

typedef struct {
    Pos pos; /* after the safe moves: the parent of the children */
    size_t line_mark, line_safe, moves_start, moves_end, next;
    int waste; /* the key's waste count */
} Frame;

typedef struct {
    uint64_t hash, off; /* off 0: an empty slot (the arena's first byte is never a key) */
} Slot;

typedef struct {
    Slot *slot;
    size_t mask, count;
    uint8_t *arena;
    size_t used, cap;
} Seen;

typedef struct {
    uint8_t reserve[MAX_CARDS];
    /* the budget */
    Budget budget;
    /* the search */
    Seen seen;
    Stack frames, moves, line;
    /* the relaxed game (CanfieldSearch.relaxed) and the query's allowance */
    Seen relaxed; /* each key followed by WON or LOST */
    long relaxed_limit, relaxed_left;
} Search;

/* _ONTO[card]: the two cards it may lie on; _WANTERS[card]: the two that may lie on it */
static uint8_t onto[MAX_CARDS][2], wanters[MAX_CARDS][2];

static void init_tables(void) {
    for (int suit = 0; suit < 4; suit++) {
        int other = suit < 2 ? 2 : 0;
        for (int rel = 0; rel < RANKS; rel++) {
            int card = suit * 16 + rel;
            int up = (rel + 1) % RANKS, down = (rel + RANKS - 1) % RANKS;
            onto[card][0] = (uint8_t)(other * 16 + up);
            onto[card][1] = (uint8_t)((other + 1) * 16 + up);
            wanters[card][0] = (uint8_t)(other * 16 + down);
            wanters[card][1] = (uint8_t)((other + 1) * 16 + down);
        }
    }
}

static int fits(int card, int top) { return top == onto[card][0] || top == onto[card][1]; }

/* ----- the seen set ---------------------------------------------------------------------- */
static uint64_t hash_key(const uint8_t *key, size_t len) {
    uint64_t x = 0x243F6A8885A308D3ULL ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, key + i, 8);
        x = (x ^ word) * 0x9E3779B97F4A7C15ULL;
        x ^= x >> 29;
    }
    uint64_t tail = 0;
    for (size_t j = 0; i + j < len; j++) tail |= (uint64_t)key[i + j] << (8 * j);
    x = (x ^ tail) * 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

static int seen_init(Seen *seen, size_t slots) {
    seen->slot = table_alloc(slots * sizeof(Slot), 1);
    seen->mask = slots - 1;
    seen->count = 0;
    seen->cap = 1 << 20;
    seen->used = 1;
    seen->arena = table_alloc(seen->cap, 0);
    return seen->slot != NULL && seen->arena != NULL;
}

static void seen_free(Seen *seen) {
    table_free(seen->slot, (seen->mask + 1) * sizeof(Slot));
    table_free(seen->arena, seen->cap);
    seen->slot = NULL;
    seen->arena = NULL;
}

static int seen_grow(Seen *seen) {
    size_t slots = (seen->mask + 1) * 2;
    Slot *bigger = table_alloc(slots * sizeof(Slot), 1);
    if (bigger == NULL) return 0;
    for (size_t j = 0; j <= seen->mask; j++) {
        if (!seen->slot[j].off) continue;
        size_t i = (size_t)seen->slot[j].hash & (slots - 1);
        while (bigger[i].off) i = (i + 1) & (slots - 1);
        bigger[i] = seen->slot[j];
    }
    table_free(seen->slot, (seen->mask + 1) * sizeof(Slot));
    seen->slot = bigger;
    seen->mask = slots - 1;
    return 1;
}

/* The arena offset of the key (with that hash), 0 when it is not in the set. */
static size_t seen_find(const Seen *seen, const uint8_t *key, size_t len, uint64_t hash) {
    size_t i = (size_t)hash & seen->mask;
    while (seen->slot[i].off) {
        const Slot *slot = &seen->slot[i];
        if (slot->hash == hash && seen->arena[slot->off] == len &&
            !memcmp(seen->arena + slot->off + 1, key, len))
            return slot->off;
        i = (i + 1) & seen->mask;
    }
    return 0;
}

/* Adds the key (known to be absent) followed by one byte `value` in the arena; 1, or -1
 * when memory ran out. */
static int seen_insert(Seen *seen, const uint8_t *key, size_t len, uint64_t hash, uint8_t value) {
    if (seen->used + len + 2 > seen->cap) {
        size_t cap = seen->cap * 2;
        uint8_t *arena = table_resize(seen->arena, seen->cap, cap);
        if (arena == NULL) return -1;
        seen->arena = arena;
        seen->cap = cap;
    }
    size_t off = seen->used;
    seen->arena[off] = (uint8_t)len;
    memcpy(seen->arena + off + 1, key, len);
    seen->arena[off + 1 + len] = value;
    seen->used += len + 2;
    if ((seen->count + 1) * 8 > (seen->mask + 1) * 5 && !seen_grow(seen)) return -1;
    size_t i = (size_t)hash & seen->mask;
    while (seen->slot[i].off) i = (i + 1) & seen->mask;
    seen->slot[i].hash = hash;
    seen->slot[i].off = off;
    seen->count++;
    return 1;
}

/* Adds the key (the Python key, whole); 1 when it was new, 0 when seen before, -1 when
 * memory ran out. */
static int seen_add(Seen *seen, const uint8_t *key, size_t len) {
    uint64_t hash = hash_key(key, len);
    if (seen_find(seen, key, len, hash)) return 0;
    return seen_insert(seen, key, len, hash, 0);
}

/* ----- precedence cycles ----------------------------------------------------------------- */

/* under[card]: the card it lies on in a pile, -1 when none (CanfieldSearch._closes_cycle's
 * pile[index - 1]); returns whether some pile holds a card on a base-rank card (_has_wrap) */
static int lay_out(const Pos *pos, int8_t *under) {
    int wrapped = 0;
    memset(under, -1, MAX_CARDS);
    for (int i = 0; i < PILES; i++) {
        const uint8_t *pile = pos->pile[i];
        for (int k = 1; k < pos->len[i]; k++) {
            under[pile[k]] = (int8_t)pile[k - 1];
            if (!(pile[k - 1] & 15)) wrapped = 1;
        }
    }
    return wrapped;
}

/* _closes_cycle: whether `upper` is reached from `lower` along "next of the suit" and "lies
 * on". The child's piles differ from the parent's only by upper's edge onto lower (a pile
 * moved away leaves the reserve's top, which lies on nothing), and the walk stops when it
 * reaches upper, so the parent's `under` gives the same answer. */
static int closes_cycle(const int8_t *under, int upper, int lower) {
    uint64_t seen = 1ULL << lower;
    int todo[MAX_CARDS], n = 0;
    todo[n++] = lower;
    while (n) {
        int card = todo[--n];
        int nexts[2], count = 0;
        if ((card & 15) < 12) nexts[count++] = card + 1;
        if (under[card] >= 0) nexts[count++] = under[card];
        for (int j = 0; j < count; j++) {
            int nxt = nexts[j];
            if (nxt == upper) return 1;
            if (!(seen >> nxt & 1)) {
                seen |= 1ULL << nxt;
                todo[n++] = nxt;
            }
        }
    }
    return 0;
}

static int has_cycle(const Pos *pos) {
    int8_t under[MAX_CARDS];
    lay_out(pos, under);
    for (int i = 0; i < PILES; i++)
        for (int k = 1; k < pos->len[i]; k++)
            if (closes_cycle(under, pos->pile[i][k], pos->pile[i][k - 1])) return 1;
    return 0;
}

/* ----- the talon (engine.solvers.talon.reach, in the order the Python dict keeps) --------- */
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
        top = top + 3 < size ? top + 3 : size;
        count++;
        FOUND(top - 1, count);
    }
    if (size) {
        count++;
        top = 0;
        while (top < size) {
            top = top + 3 < size ? top + 3 : size;
            count++;
            FOUND(top - 1, count);
        }
    }
#undef FOUND
    return n;
}

/* ----- children (CanfieldSearch._children) ----------------------------------------------- */
typedef struct {
    int rank, turns;
    Move move;
} Ranked;

/* a cycle needs a wrap: one in the piles already, or the new card across the base rank */
static int closes(const int8_t *under, int wrapped, int upper, int lower) {
    return (wrapped || (upper & 15) == 12) && closes_cycle(under, upper, lower);
}

static int gen_children(const Search *s, const Pos *pos, Move *out) {
    Ranked ranked[MAX_MOVES];
    int n = 0;
    int8_t under[MAX_CARDS];
    int wrapped = lay_out(pos, under);
    int tops[PILES], space = -1;
    for (int i = 0; i < PILES; i++) {
        tops[i] = pos->len[i] ? pos->pile[i][pos->len[i] - 1] : -1;
        /* a space takes a card only once the reserve is empty (the engine's rule) */
        if (tops[i] < 0 && space < 0 && !pos->r) space = i;
    }
    const uint8_t *fnd = pos->fnd;
    int r = pos->r;
#define ADD(rank_, turns_, kind_, source_, target_, index_)                                  \
    do {                                                                                    \
        Ranked *entry = &ranked[n++];                                                       \
        entry->rank = (rank_);                                                              \
        entry->turns = (turns_);                                                            \
        entry->move = (Move){(int8_t)(kind_), (int8_t)(source_), (int8_t)(target_),         \
                             (uint8_t)(turns_), (uint8_t)(index_)};                         \
    } while (0)
    /* the reserve's top */
    if (r) {
        int card = s->reserve[r - 1];
        if (fnd[card >> 4] == (card & 15)) ADD(0, 0, 0, -1, card >> 4, 0);
        for (int j = 0; j < PILES; j++)
            if (fits(card, tops[j]) && !closes(under, wrapped, card, tops[j]))
                ADD(1, 0, 1, -1, j, 0);
    }
    /* the piles' tops home, whole piles onto others */
    for (int i = 0; i < PILES; i++) {
        int len = pos->len[i];
        if (!len) continue;
        int card = tops[i];
        if (fnd[card >> 4] == (card & 15)) ADD(len > 1 || !r ? 0 : 1, 0, 0, i, card >> 4, 0);
        int bottom = pos->pile[i][0];
        for (int j = 0; j < PILES; j++)
            if (j != i && fits(bottom, tops[j]) && !closes(under, wrapped, bottom, tops[j]))
                ADD(r ? 1 : 3, 0, 1, i, j, 0);
    }
    /* talon cards */
    if (pos->talon_len) {
        int index[MAX_CARDS], turns[MAX_CARDS];
        int count = reach(pos->talon_len, pos->p, index, turns);
        for (int t = 0; t < count; t++) {
            int card = pos->talon[index[t]];
            if (fnd[card >> 4] == (card & 15)) ADD(0, turns[t], 0, 4, card >> 4, index[t]);
            for (int j = 0; j < PILES; j++)
                if (j == space ||
                    (fits(card, tops[j]) && !closes(under, wrapped, card, tops[j])))
                    ADD(2, turns[t], 1, 4, j, index[t]);
        }
    }
#undef ADD
    /* ranked.sort(key=(rank, turns)): stable, as Python's sort */
    for (int j = 1; j < n; j++) {
        Ranked entry = ranked[j];
        int t = j;
        while (t > 0 && (ranked[t - 1].rank > entry.rank ||
                         (ranked[t - 1].rank == entry.rank && ranked[t - 1].turns > entry.turns))) {
            ranked[t] = ranked[t - 1];
            t--;
        }
        ranked[t] = entry;
    }
    for (int j = 0; j < n; j++) out[j] = ranked[j].move;
    return n;
}

/* the child position one move away (what _children builds for that move) */
static void play(const Search *s, const Pos *from, const Move *m, Pos *to) {
    *to = *from;
    if (m->source < 0) { /* the reserve's top */
        int card = s->reserve[--to->r];
        if (m->kind == 0)
            to->fnd[m->target]++;
        else
            to->pile[m->target][to->len[m->target]++] = (uint8_t)card;
    } else if (m->source < PILES) {
        int i = m->source;
        if (m->kind == 0) {
            to->fnd[m->target]++;
            if (--to->len[i] == 0 && to->r) { /* the reserve refills the space */
                to->pile[i][0] = s->reserve[--to->r];
                to->len[i] = 1;
            }
        } else {
            int j = m->target;
            memcpy(to->pile[j] + to->len[j], from->pile[i], from->len[i]);
            to->len[j] += from->len[i];
            if (to->r) {
                to->pile[i][0] = s->reserve[--to->r];
                to->len[i] = 1;
            } else {
                to->len[i] = 0;
            }
        }
    } else { /* the talon */
        int index = m->index;
        int card = from->talon[index];
        memmove(to->talon + index, to->talon + index + 1, (size_t)(to->talon_len - index - 1));
        to->talon_len--;
        to->p = (uint8_t)index;
        if (m->kind == 0)
            to->fnd[m->target]++;
        else
            to->pile[m->target][to->len[m->target]++] = (uint8_t)card;
    }
}

/* ----- the search ------------------------------------------------------------------------ */

/* the piles' order in tuple(sorted(piles)): as Python sorts bytes, by content, a prefix
 * first */
static void sort_piles(const Pos *pos, int *order) {
    for (int j = 0; j < PILES; j++) order[j] = j;
    for (int j = 1; j < PILES; j++) {
        int pile = order[j], t = j;
        while (t > 0) {
            int other = order[t - 1];
            int len = pos->len[pile] < pos->len[other] ? pos->len[pile] : pos->len[other];
            int c = memcmp(pos->pile[other], pos->pile[pile], (size_t)len);
            if (c < 0 || (c == 0 && pos->len[other] <= pos->len[pile])) break;
            order[t] = other;
            t--;
        }
        order[t] = pile;
    }
}

/* the sorted piles (length + cards) into key; the bytes written */
static size_t put_piles(const Pos *pos, uint8_t *key) {
    int order[PILES];
    sort_piles(pos, order);
    size_t n = 0;
    for (int j = 0; j < PILES; j++) {
        int pile = order[j];
        key[n++] = pos->len[pile];
        memcpy(key + n, pos->pile[pile], pos->len[pile]);
        n += pos->len[pile];
    }
    return n;
}

/* the Python key (tuple(sorted(piles)), r, talon, waste) as bytes; its length. The talon is
 * written as the foundation heights: within one search the talon is the start's talon
 * without the cards in the piles or home (cards only ever leave it), so the piles, r and the
 * heights tell it, and the key is shorter. */
static size_t make_key(const Pos *pos, int waste, uint8_t *key) {
    size_t n = put_piles(pos, key);
    key[n++] = pos->r;
    memcpy(key + n, pos->fnd, 4);
    n += 4;
    key[n++] = (uint8_t)waste;
    return n;
}

/* CanfieldSearch._safe: each card that could lie on `card` is home or lies on a card */
static int safe(int card, const uint8_t *fnd, uint64_t covered) {
    for (int j = 0; j < 2; j++) {
        int wanter = wanters[card][j];
        if (fnd[wanter >> 4] > (wanter & 15)) continue;
        if (!(covered >> wanter & 1)) return 0;
    }
    return 1;
}

static int push_line(Search *s, Move m) {
    if (!stack_reserve(&s->line, 1)) return 0;
    AT(s->line, Move, s->line.len++) = m;
    return 1;
}

/* ----- the relaxed game (CanfieldSearch._relaxed_lost, _relaxed, _relaxed_children) ------ */

/* _lazy: the heights once `card` went home, the cards of its suit under it coming home from
 * the talon; 0 when one of them is not in the talon */
static int lazy(int card, const uint8_t *fnd, uint64_t talon, uint8_t *heights) {
    int suit = card >> 4;
    for (int rel = fnd[suit]; rel < (card & 15); rel++)
        if (!(talon >> (suit * 16 + rel) & 1)) return 0;
    memcpy(heights, fnd, 4);
    heights[suit] = (uint8_t)((card & 15) + 1);
    return 1;
}

static int relaxed(Search *s, const Pos *pos);

/* one macro move being built: the reserve's top (kind 0) or pile i (kind 1) onto pile j
 * through a chain of talon cards (_chains) */
typedef struct {
    Search *s;
    const Pos *pos;
    const int8_t *under; /* the parent's */
    int wrapped, kind, i, j, card;
    uint64_t talon;
    uint8_t chain[RANKS];
} Macro;

/* the child of a complete chain; LOST when it closes a cycle or is lost */
static int macro_child(Macro *m, int clen) {
    Search *s = m->s;
    const Pos *pos = m->pos;
    Pos child = *pos;
    int j = m->j;
    uint8_t laid[RANKS + 1];
    memcpy(laid, m->chain, (size_t)clen);
    laid[clen] = (uint8_t)m->card;
    memcpy(child.pile[j] + child.len[j], m->chain, (size_t)clen);
    child.len[j] = (uint8_t)(child.len[j] + clen);
    if (m->kind == 0) {
        child.pile[j][child.len[j]++] = (uint8_t)m->card;
    } else {
        int i = m->i;
        memcpy(child.pile[j] + child.len[j], pos->pile[i], pos->len[i]);
        child.len[j] = (uint8_t)(child.len[j] + pos->len[i]);
        child.pile[i][0] = s->reserve[pos->r - 1];
        child.len[i] = 1;
    }
    child.r--;
    /* _closes_any: each new edge, on the child's piles (the new cards lie on the chain) */
    int8_t under[MAX_CARDS];
    memcpy(under, m->under, MAX_CARDS);
    int lower = pos->pile[j][pos->len[j] - 1];
    for (int k = 0; k <= clen; k++) {
        under[laid[k]] = (int8_t)lower;
        lower = laid[k];
    }
    if (m->kind == 1) under[child.pile[m->i][0]] = -1;
    lower = pos->pile[j][pos->len[j] - 1];
    for (int k = 0; k <= clen; k++) {
        int upper = laid[k];
        if ((m->wrapped || (upper & 15) == 12) && closes_cycle(under, upper, lower)) return LOST;
        lower = upper;
    }
    return relaxed(s, &child);
}

/* _chains' walk: every chain from `below`, `left` cards still to lay */
static int walk(Macro *m, int below, int left, int clen) {
    if (!left) return fits(m->card, below) ? macro_child(m, clen) : LOST;
    for (int k = 0; k < 2; k++) {
        int wanter = wanters[below][k];
        if (m->talon >> wanter & 1) {
            m->chain[clen] = (uint8_t)wanter;
            int status = walk(m, wanter, left - 1, clen + 1);
            if (status != LOST) return status;
        }
    }
    return LOST;
}

static int chains(Macro *m) {
    int below = m->pos->pile[m->j][m->pos->len[m->j] - 1];
    int steps = (((below & 15) - (m->card & 15) - 1) % RANKS + RANKS) % RANKS;
    /* as _chains, no walk when no chain can exist: the last card would have the colour of
     * m->card, or a step has neither of its two cards in the talon */
    int colour = below >> 5;
    if ((colour ^ (steps & 1)) == (m->card >> 5)) return LOST;
    for (int step = 1, rel = below & 15; step <= steps; step++) {
        rel = (rel + RANKS - 1) % RANKS;
        int first = (colour ^ (step & 1)) * 32 + rel;
        if (!(m->talon >> first & 1) && !(m->talon >> (first + 16) & 1)) return LOST;
    }
    return walk(m, below, steps, 0);
}

/* _relaxed_children, each searched at once: WON at the first won one, LOST when none is */
static int relaxed_children(Search *s, const Pos *pos) {
    uint64_t talon = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rel = pos->fnd[suit]; rel < RANKS; rel++) talon |= 1ULL << (suit * 16 + rel);
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < pos->len[i]; k++) talon &= ~(1ULL << pos->pile[i][k]);
    for (int k = 0; k < pos->r; k++) talon &= ~(1ULL << s->reserve[k]);
    int8_t under[MAX_CARDS];
    int wrapped = lay_out(pos, under);
    int status, r = pos->r;
    Pos child;
    int card = s->reserve[r - 1];
    child = *pos;
    if (lazy(card, pos->fnd, talon, child.fnd)) {
        child.r--;
        if ((status = relaxed(s, &child)) != LOST) return status;
    }
    Macro m = {s, pos, under, wrapped, 0, 0, 0, card, talon, {0}};
    for (int j = 0; j < PILES; j++) {
        if (!pos->len[j]) continue;
        m.j = j;
        if ((status = chains(&m)) != LOST) return status;
    }
    m.kind = 1;
    for (int i = 0; i < PILES; i++) {
        if (!pos->len[i]) continue;
        m.i = i;
        m.card = pos->pile[i][0];
        for (int j = 0; j < PILES; j++) {
            if (j == i || !pos->len[j]) continue;
            m.j = j;
            if ((status = chains(&m)) != LOST) return status;
        }
    }
    for (int i = 0; i < PILES; i++) {
        int len = pos->len[i];
        if (!len) continue;
        child = *pos;
        if (!lazy(pos->pile[i][len - 1], pos->fnd, talon, child.fnd)) continue;
        if (len > 1) {
            child.len[i]--;
        } else {
            child.pile[i][0] = s->reserve[r - 1];
            child.r--;
        }
        if ((status = relaxed(s, &child)) != LOST) return status;
    }
    return LOST;
}

/* _relaxed: WON, LOST, or SPENT (the query's allowance), OUT, FAILED */
static int relaxed(Search *s, const Pos *pos) {
    if (!pos->r) return WON;
    uint8_t key[MAX_KEY];
    size_t len = put_piles(pos, key);
    key[len++] = pos->r;
    memcpy(key + len, pos->fnd, 4);
    len += 4;
    uint64_t hash = hash_key(key, len);
    size_t known = seen_find(&s->relaxed, key, len, hash);
    if (known) return s->relaxed.arena[known + 1 + len];
    if (!budget_tick(&s->budget)) return OUT;
    if (--s->relaxed_left < 0) return SPENT;
    int status = relaxed_children(s, pos);
    if (status == WON || status == LOST) {
        if (seen_insert(&s->relaxed, key, len, hash, (uint8_t)status) < 0) return FAILED;
    }
    return status;
}

/* A _dfs entry on `pos` (changed: the safe moves are played on it): tick, safe moves home,
 * the win, the key, the children. WON, OUT, FAILED
 * (memory), or LOST meaning "go on with the top frame" (a new one, or the parent's when the
 * key was seen before). */
static int enter(Search *s, Pos *pos) {
    if (!budget_tick(&s->budget)) return OUT;
    size_t line_mark = s->line.len;
    uint64_t covered = 0; /* cards lying on another in a pile (pile.find(card) > 0) */
    for (int i = 0; i < PILES; i++)
        for (int k = 1; k < pos->len[i]; k++) covered |= 1ULL << pos->pile[i][k];
    /* safe moves home, alone: the reserve's top, then each pile's, until none moves */
    int moved = 1;
    while (moved) {
        moved = 0;
        if (pos->r) {
            int card = s->reserve[pos->r - 1], suit = card >> 4;
            if (pos->fnd[suit] == (card & 15) && safe(card, pos->fnd, covered)) {
                pos->r--;
                pos->fnd[suit]++;
                if (!push_line(s, (Move){0, -1, (int8_t)suit, 0, 0})) return FAILED;
                moved = 1;
            }
        }
        for (int i = 0; i < PILES; i++) {
            int len = pos->len[i];
            if (!len) continue;
            int card = pos->pile[i][len - 1], suit = card >> 4;
            if (pos->fnd[suit] == (card & 15) && safe(card, pos->fnd, covered)) {
                covered &= ~(1ULL << card);
                pos->len[i] = (uint8_t)--len;
                if (!len && pos->r) {
                    pos->pile[i][0] = s->reserve[--pos->r];
                    pos->len[i] = 1;
                }
                pos->fnd[suit]++;
                if (!push_line(s, (Move){0, (int8_t)i, (int8_t)suit, 0, 0})) return FAILED;
                moved = 1;
            }
        }
    }
    if (pos->fnd[0] + pos->fnd[1] + pos->fnd[2] + pos->fnd[3] == ALL_HOME) return WON;
    int p = pos->p, size = pos->talon_len;
    int waste = (p % 3 == 0 || p == size) ? 0 : p;
    uint8_t key[MAX_KEY];
    size_t len = make_key(pos, waste, key);
    int added = seen_add(&s->seen, key, len);
    if (added < 0) return FAILED;
    if (!added) {
        s->line.len = line_mark;
        return LOST;
    }
    if (pos->r) { /* _relaxed_lost */
        s->relaxed_left = s->relaxed_limit;
        int status = relaxed(s, pos);
        if (status == OUT || status == FAILED) return status;
        if (status == LOST) {
            s->line.len = line_mark;
            return LOST;
        }
    }
    if (!stack_reserve(&s->frames, 1) || !stack_reserve(&s->moves, MAX_MOVES)) return FAILED;
    Frame *frame = &AT(s->frames, Frame, s->frames.len++);
    frame->pos = *pos;
    frame->line_mark = line_mark;
    frame->line_safe = s->line.len;
    frame->waste = waste;
    frame->moves_start = frame->next = s->moves.len;
    s->moves.len += (size_t)gen_children(s, pos, &AT(s->moves, Move, s->moves.len));
    frame->moves_end = s->moves.len;
    return LOST;
}

/* CanfieldSearch._dfs from the start */
static int run_pass(Search *s, const Pos *start) {
    Pos pos = *start;
    int status = enter(s, &pos);
    if (status != LOST) return status;
    while (s->frames.len) {
        Frame *frame = &AT(s->frames, Frame, s->frames.len - 1);
        if (frame->next < frame->moves_end) {
            Move m = AT(s->moves, Move, frame->next);
            frame->next++;
            play(s, &frame->pos, &m, &pos);
            s->line.len = frame->line_safe;
            if (!push_line(s, m)) return FAILED;
            status = enter(s, &pos);
            if (status != LOST) return status;
            continue;
        }
        if (frame->waste) {
            /* turns alone lead to the same cards with a waste count of 0: lost too */
            uint8_t key[MAX_KEY];
            size_t len = make_key(&frame->pos, 0, key);
            if (seen_add(&s->seen, key, len) < 0) return FAILED;
        }
        s->line.len = frame->line_mark;
        s->moves.len = frame->moves_start;
        s->frames.len--;
    }
    return LOST;
}

/* CanfieldSearch._search: a precedence cycle at the start is lost, else the search */
static int run(Search *s, const Pos *start) {
    if (has_cycle(start)) return LOST;
    return run_pass(s, start);
}

/* ----- Python glue ----------------------------------------------------------------------- */

/* copies a bytes object of cards; its length, or -1 with an exception set */
static int read_cards(PyObject *obj, uint8_t *out, uint64_t *cards, const char *what) {
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: bytes expected", what);
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(obj);
    const uint8_t *data = (const uint8_t *)PyBytes_AS_STRING(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
        int card = data[i];
        if (card >= MAX_CARDS || (card & 15) >= RANKS) {
            PyErr_Format(PyExc_ValueError, "%s: %d is not a card", what, card);
            return -1;
        }
        if (*cards >> card & 1) {
            PyErr_Format(PyExc_ValueError, "%s: card %d twice", what, card);
            return -1;
        }
        *cards |= 1ULL << card;
        out[i] = (uint8_t)card;
    }
    return (int)n;
}

static PyObject *line_list(const Search *s) {
    PyObject *list = PyList_New((Py_ssize_t)s->line.len);
    if (list == NULL) return NULL;
    for (size_t j = 0; j < s->line.len; j++) {
        const Move *m = &AT(s->line, Move, j);
        PyObject *item = Py_BuildValue("(iiii)", m->kind, m->source, m->target, m->turns);
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
    seen_free(&s->relaxed);
    stack_free(&s->frames);
    stack_free(&s->moves);
    stack_free(&s->line);
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *piles_obj, *reserve_obj, *talon_obj, *fnd_obj, *limit_obj, *deadline_obj;
    int p;
    unsigned long long nodes;
    long relaxed_limit;
    if (!PyArg_ParseTuple(args, "OOOiOOOKl:search", &piles_obj, &reserve_obj, &talon_obj, &p,
                          &fnd_obj, &limit_obj, &deadline_obj, &nodes, &relaxed_limit))
        return NULL;
    if (relaxed_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "relaxed_limit: out of range");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    s->relaxed_limit = relaxed_limit;
    PyObject *result = NULL;
    Pos start;
    memset(&start, 0, sizeof start);
    uint64_t cards = 0;
    /* the piles */
    PyObject *piles = PySequence_Fast(piles_obj, "piles: four bytes objects");
    if (piles == NULL) goto done;
    if (PySequence_Fast_GET_SIZE(piles) != PILES) {
        Py_DECREF(piles);
        PyErr_SetString(PyExc_ValueError, "piles: four bytes objects");
        goto done;
    }
    for (int i = 0; i < PILES; i++) {
        int n = read_cards(PySequence_Fast_GET_ITEM(piles, i), start.pile[i], &cards, "pile");
        if (n < 0) {
            Py_DECREF(piles);
            goto done;
        }
        start.len[i] = (uint8_t)n;
    }
    Py_DECREF(piles);
    /* the reserve and the talon (every card at most once in all: at most 52 cards) */
    int r = read_cards(reserve_obj, s->reserve, &cards, "reserve");
    if (r < 0) goto done;
    start.r = (uint8_t)r;
    int talon_len = read_cards(talon_obj, start.talon, &cards, "talon");
    if (talon_len < 0) goto done;
    start.talon_len = (uint8_t)talon_len;
    if (p < 0 || p > talon_len) {
        PyErr_SetString(PyExc_ValueError, "p: more than the talon");
        goto done;
    }
    start.p = (uint8_t)p;
    PyObject *fnd = PySequence_Fast(fnd_obj, "fnd: four heights");
    if (fnd == NULL) goto done;
    if (PySequence_Fast_GET_SIZE(fnd) != 4) {
        Py_DECREF(fnd);
        PyErr_SetString(PyExc_ValueError, "fnd: four heights");
        goto done;
    }
    for (int suit = 0; suit < 4; suit++) {
        long height = PyLong_AsLong(PySequence_Fast_GET_ITEM(fnd, suit));
        if (height == -1 && PyErr_Occurred()) {
            Py_DECREF(fnd);
            goto done;
        }
        if (height < 0 || height > RANKS) {
            Py_DECREF(fnd);
            PyErr_Format(PyExc_ValueError, "fnd: %ld out of range", height);
            goto done;
        }
        start.fnd[suit] = (uint8_t)height;
    }
    Py_DECREF(fnd);
    /* the budget */
    if (!budget_read(&s->budget, limit_obj, deadline_obj, nodes)) goto done;
    if (!seen_init(&s->seen, 1 << 16) || !seen_init(&s->relaxed, 1 << 14) || !stack_init(&s->frames, sizeof(Frame), 256) ||
        !stack_init(&s->moves, sizeof(Move), 4096) || !stack_init(&s->line, sizeof(Move), 512)) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    /* the search touches no Python object: other threads may run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    status = run(s, &start);
    Py_END_ALLOW_THREADS
    if (status == FAILED) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *line = line_list(s);
    if (line == NULL) goto done;
    result = Py_BuildValue("(iNL)", status, line, s->budget.nodes);
done:
    search_free(s);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(piles, reserve, talon, p, fnd, limit, deadline, nodes, relaxed_limit)\n"
     "-> (status, line, nodes): "
     "canfield.CanfieldSearch's search; status 1 won, 0 lost, -1 out of budget."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_canfield",
    "The search of engine.solvers.canfield.CanfieldSearch in C (optional: the Python code "
    "gives the same answers).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__canfield(void) {
    init_tables();
    return PyModule_Create(&module);
}

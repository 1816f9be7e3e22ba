/* MSHR table (mshr.h): fixed arrays, a free stack, a ready ring. Lookup is
 * an open-addressing hash of the lines that take merges (a line has at most
 * one such entry, so the answer is the one a scan of the keys gives): the
 * scan cost 1,300 instructions an access at the H100's 256 entries (issue 20).
 * Nothing iterates the hash, so the order of everything stays deterministic. */
#include "mem/mshr.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#define NO_LINE UINT64_MAX  /* key of an entry that takes no merges (never line aligned) */

typedef struct mshr_entry {
    uint64_t line;
    uint32_t pending;       /* sectors requested from below */
    uint32_t filled;        /* sectors arrived */
    uint16_t joined;        /* requesters in slots 0..joined-1 */
    uint16_t popped;        /* requesters handed back */
    bool used;
    mshr_origin origin;
} mshr_entry;

struct mshr_table {
    unsigned entries, merge;
    uint64_t *key;          /* per entry: its line while it takes merges, else NO_LINE */
    int16_t *hash;          /* linear probing over `hmask + 1` slots: an entry, or -1 */
    unsigned hmask, hshift;
    mshr_entry *e;
    mshr_requester *rq;     /* entries * merge slots */
    uint8_t *queued;        /* per slot: already put on the ready ring */
    uint16_t *free_stack;
    unsigned n_free, in_use;
    uint32_t *ring;         /* ready requesters: entry * merge + slot */
    unsigned ring_head, ring_len;
    uint64_t occ_since;     /* cycle of the last occupancy change */
    uint64_t *occ_cycles;   /* per in-use count 0..entries: cycles spent there */
    stats_hist occ;         /* built from occ_cycles at each flush */
};

static void occupancy_init(stats_hist *h, unsigned entries)
{
    if (entries + 1 <= STATS_HIST_MAX) {
        stats_hist_init_exact(h, entries + 1);
        return;
    }
    /* 31 equal ranges cover 0..entries-1, the last bucket is "all in use". */
    uint64_t bounds[2 * STATS_HIST_MAX];
    unsigned w = (entries + 30) / 31, n = 0;
    for (unsigned lo = 0; lo < entries; lo += w, n++) {
        bounds[2 * n] = lo;
        bounds[2 * n + 1] = lo + w - 1 < entries - 1 ? lo + w - 1 : entries - 1;
    }
    bounds[2 * n] = bounds[2 * n + 1] = entries;
    stats_hist_init_ranges(h, n + 1, bounds);
}

mshr_table *mshr_new(unsigned entries, unsigned merge)
{
    if (entries < 1 || entries > MSHR_MAX_ENTRIES || merge < 1 || merge > MSHR_MAX_MERGE)
        return NULL;
    mshr_table *m = g_new0(mshr_table, 1);
    size_t slots = (size_t)entries * merge;
    m->entries = entries;
    m->merge = merge;
    m->key = g_new(uint64_t, entries);
    m->e = g_new0(mshr_entry, entries);
    m->rq = g_new0(mshr_requester, slots);
    m->queued = g_new0(uint8_t, slots);
    m->free_stack = g_new(uint16_t, entries);
    m->ring = g_new(uint32_t, slots);
    m->occ_cycles = g_new0(uint64_t, entries + 1);
    unsigned bits = 1;
    while ((1u << bits) < 2 * entries)   /* at most half full */
        bits++;
    m->hmask = (1u << bits) - 1;
    m->hshift = 64 - bits;
    m->hash = g_new(int16_t, m->hmask + 1);
    for (unsigned i = 0; i <= m->hmask; i++)
        m->hash[i] = -1;
    for (unsigned i = 0; i < entries; i++) {
        m->key[i] = NO_LINE;
        m->free_stack[i] = (uint16_t)(entries - 1 - i);  /* entry 0 is handed out first */
    }
    m->n_free = entries;
    occupancy_init(&m->occ, entries);
    return m;
}

void mshr_free(mshr_table *m)
{
    if (!m)
        return;
    g_free(m->key);
    g_free(m->hash);
    g_free(m->e);
    g_free(m->rq);
    g_free(m->queued);
    g_free(m->free_stack);
    g_free(m->ring);
    g_free(m->occ_cycles);
    g_free(m);
}

static unsigned home_slot(const mshr_table *m, uint64_t line)
{
    return (unsigned)((line * UINT64_C(0x9E3779B97F4A7C15)) >> m->hshift);
}

int mshr_find(const mshr_table *m, uint64_t line)
{
    for (unsigned h = home_slot(m, line);; h = (h + 1) & m->hmask) {
        int e = m->hash[h];
        if (e < 0 || m->key[e] == line)
            return e;
    }
}

static void hash_insert(mshr_table *m, unsigned e)
{
    unsigned h = home_slot(m, m->key[e]);
    while (m->hash[h] >= 0)
        h = (h + 1) & m->hmask;
    m->hash[h] = (int16_t)e;
}

/* Entry e's key leaves the hash (backward-shift deletion: no tombstones). */
static void hash_remove(mshr_table *m, unsigned e)
{
    unsigned h = home_slot(m, m->key[e]);
    while (m->hash[h] != (int16_t)e)
        h = (h + 1) & m->hmask;
    for (unsigned j = (h + 1) & m->hmask; m->hash[j] >= 0; j = (j + 1) & m->hmask) {
        unsigned home = home_slot(m, m->key[m->hash[j]]);
        /* the entry at j may move to the hole h if its home is not in (h, j] */
        if (((j - home) & m->hmask) >= ((j - h) & m->hmask)) {
            m->hash[h] = m->hash[j];
            h = j;
        }
    }
    m->hash[h] = -1;
}

bool mshr_can_merge(const mshr_table *m, int e)
{
    return m->e[e].joined < m->merge;
}

uint32_t mshr_pending(const mshr_table *m, int e)
{
    return m->e[e].pending;
}

const mshr_origin *mshr_origin_of(const mshr_table *m, int e)
{
    return &m->e[e].origin;
}

unsigned mshr_in_use(const mshr_table *m)
{
    return m->in_use;
}

unsigned mshr_capacity(const mshr_table *m)
{
    return m->entries;
}

unsigned mshr_ready_count(const mshr_table *m)
{
    return m->ring_len;
}

const stats_hist *mshr_occupancy(const mshr_table *m)
{
    return &m->occ;
}

/* Charge the cycles since the last change to the current count: a plain
 * increment on the hot path; the histogram is rebuilt only at a flush. */
static void occupancy_charge(mshr_table *m, uint64_t level, uint64_t now)
{
    if (now > m->occ_since) {
        m->occ_cycles[level] += now - m->occ_since;
        m->occ_since = now;
    }
}

static void occupancy_touch(mshr_table *m, uint64_t now) { occupancy_charge(m, m->in_use, now); }

static void occupancy_rebuild(mshr_table *m)
{
    stats_hist *h = &m->occ;
    memset(h->count, 0, sizeof h->count);
    h->overflow = h->samples = 0;
    h->sum = 0;
    for (unsigned k = 0; k <= m->entries; k++)
        if (m->occ_cycles[k])
            stats_hist_add_n(h, k, m->occ_cycles[k]);
}

void mshr_occupancy_flush(mshr_table *m, uint64_t now)
{
    occupancy_touch(m, now);
    occupancy_rebuild(m);
}

/* Saved: the last change's cycle, the count in use since, the totals. */
size_t mshr_occupancy_words(const mshr_table *m) { return (size_t)m->entries + 3; }

void mshr_occupancy_save(const mshr_table *m, uint64_t *buf)
{
    buf[0] = m->occ_since;
    buf[1] = m->in_use;
    memcpy(buf + 2, m->occ_cycles, ((size_t)m->entries + 1) * sizeof *buf);
}

void mshr_occupancy_flush_saved(mshr_table *m, const uint64_t *buf, uint64_t now)
{
    memcpy(m->occ_cycles, buf + 2, ((size_t)m->entries + 1) * sizeof *buf);
    m->occ_since = buf[0];
    occupancy_charge(m, buf[1], now);
    occupancy_rebuild(m);
}

static void ring_push(mshr_table *m, unsigned e, unsigned slot)
{
    size_t cap = (size_t)m->entries * m->merge;
    m->ring[(m->ring_head + m->ring_len) % cap] = (uint32_t)(e * m->merge + slot);
    m->ring_len++;
    m->queued[e * m->merge + slot] = 1;
}

static void join(mshr_table *m, unsigned e, const mshr_requester *rq)
{
    mshr_entry *en = &m->e[e];
    unsigned slot = en->joined++;
    m->rq[e * m->merge + slot] = *rq;
    m->queued[e * m->merge + slot] = 0;
    if (!(rq->sectors & ~en->filled))
        ring_push(m, e, slot);  /* its data is already here */
}

int mshr_allocate(mshr_table *m, uint64_t line, uint32_t sectors, const mshr_requester *rq,
                  const mshr_origin *origin, uint64_t now)
{
    if (!m->n_free)
        return -1;
    occupancy_touch(m, now);
    unsigned e = m->free_stack[--m->n_free];
    m->in_use++;
    m->e[e] = (mshr_entry){.line = line, .pending = sectors, .used = true, .origin = *origin};
    m->key[e] = line;
    hash_insert(m, e);
    join(m, e, rq);
    return (int)e;
}

void mshr_add(mshr_table *m, int e, const mshr_requester *rq, uint32_t new_sectors)
{
    m->e[e].pending |= new_sectors;
    join(m, (unsigned)e, rq);
}

/* Free entry e once its data is complete and every requester was taken. */
static void release_if_drained(mshr_table *m, unsigned e, uint64_t now)
{
    mshr_entry *en = &m->e[e];
    if (m->key[e] == NO_LINE && en->used && en->popped == en->joined) {
        occupancy_touch(m, now);
        en->used = false;
        m->in_use--;
        m->free_stack[m->n_free++] = (uint16_t)e;
    }
}

unsigned mshr_fill(mshr_table *m, uint64_t line, uint32_t sectors, bool *complete, uint64_t now)
{
    int e = mshr_find(m, line);
    if (complete)
        *complete = false;
    if (e < 0)
        return 0;
    mshr_entry *en = &m->e[e];
    en->filled |= sectors;
    unsigned ready = 0;
    for (unsigned s = 0; s < en->joined; s++) {
        size_t k = (size_t)e * m->merge + s;
        if (!m->queued[k] && !(m->rq[k].sectors & ~en->filled)) {
            ring_push(m, (unsigned)e, s);
            ready++;
        }
    }
    bool done = !(en->pending & ~en->filled);
    if (done) {
        hash_remove(m, (unsigned)e);
        m->key[e] = NO_LINE;  /* draining: a new miss to the line gets a new entry */
        release_if_drained(m, (unsigned)e, now);  /* every requester already taken */
    }
    if (complete)
        *complete = done;
    return ready;
}

bool mshr_pop_ready(mshr_table *m, mshr_requester *out, uint64_t *line, uint64_t now)
{
    if (!m->ring_len)
        return false;
    size_t cap = (size_t)m->entries * m->merge;
    uint32_t k = m->ring[m->ring_head];
    m->ring_head = (unsigned)((m->ring_head + 1) % cap);
    m->ring_len--;
    if (!m->ring_len)
        m->ring_head = 0;   /* touch only the slots ever used (peak memory, issue 20) */
    unsigned e = k / m->merge;
    mshr_entry *en = &m->e[e];
    if (out)
        *out = m->rq[k];
    if (line)
        *line = en->line;
    en->popped++;
    release_if_drained(m, e, now);
    return true;
}

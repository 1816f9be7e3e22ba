/* The lazy global-memory image: written bytes live in 4 KiB pages found by an
 * open-addressing table keyed by page number (with a one-entry cache of the
 * last page looked up, stored or not); every other byte is computed from the
 * covering array's initializer (arrays sorted by base, binary search plus a
 * one-entry cache). A page is materialised, initializer values included, on
 * its first write, so a later read of any byte in it is a plain load. */
#include <stdarg.h>
#include <string.h>

#include "dinit.h"
#include "simtgrid/memimg.h"

#define PAGE_SHIFT 12
#define PAGE_MASK (MEMIMG_PAGE_BYTES - 1)
#define NO_PAGE UINT64_MAX /* never a page number: addresses have 64 - 12 bits of page */

typedef struct mi_array {
    char *name;
    uint64_t base, last; /* first and last byte address (inclusive: the array may end at 2^64) */
    unsigned shift;      /* log2(elem_bytes) */
    dinit init;
} mi_array;

struct memimg {
    uint64_t seed;
    mi_array *arrays; /* sorted by base, disjoint */
    unsigned n_arrays, cap_arrays;
    unsigned last_array; /* index of the array found last (a hint) */

    /* page table: slot_key = page + 1 (0 = empty), linear probing */
    uint64_t *slot_key;
    uint8_t **slot_page;
    uint64_t n_slots, n_pages; /* n_slots a power of two */
    unsigned slot_bits;

    uint64_t cached_page_no; /* last page looked up; NO_PAGE if none */
    uint8_t *cached_page;    /* its bytes, or NULL when that page is not stored */

    GArray *journal;         /* memimg_journal_begin: the old value of every write, or NULL */
};

typedef struct mi_undo {
    uint64_t addr, old;
    unsigned size;
} mi_undo;

memimg *memimg_new(uint64_t seed)
{
    memimg *m = g_new0(memimg, 1);
    m->seed = seed;
    m->slot_bits = 10;
    m->n_slots = UINT64_C(1) << m->slot_bits;
    m->slot_key = g_new0(uint64_t, m->n_slots);
    m->slot_page = g_new0(uint8_t *, m->n_slots);
    m->cached_page_no = NO_PAGE;
    return m;
}

void memimg_free(memimg *m)
{
    if (!m) return;
    for (unsigned i = 0; i < m->n_arrays; i++) {
        g_free(m->arrays[i].name);
        dinit_clear(&m->arrays[i].init);
    }
    g_free(m->arrays);
    for (uint64_t s = 0; s < m->n_slots; s++) g_free(m->slot_page[s]);
    g_free(m->slot_key);
    g_free(m->slot_page);
    if (m->journal) g_array_free(m->journal, TRUE);
    g_free(m);
}

/* ---- page table ----------------------------------------------------------- */

static inline uint64_t slot_of(const memimg *m, uint64_t page_no)
{
    return (page_no * DINIT_GOLDEN) >> (64 - m->slot_bits);
}

static uint8_t *page_find(const memimg *m, uint64_t page_no)
{
    uint64_t mask = m->n_slots - 1;
    for (uint64_t s = slot_of(m, page_no);; s = (s + 1) & mask) {
        if (m->slot_key[s] == page_no + 1) return m->slot_page[s];
        if (m->slot_key[s] == 0) return NULL;
    }
}

static void page_insert(memimg *m, uint64_t page_no, uint8_t *page)
{
    uint64_t mask = m->n_slots - 1, s = slot_of(m, page_no);
    while (m->slot_key[s] != 0) s = (s + 1) & mask;
    m->slot_key[s] = page_no + 1;
    m->slot_page[s] = page;
}

static void table_grow(memimg *m)
{
    uint64_t old_n = m->n_slots, *old_key = m->slot_key;
    uint8_t **old_page = m->slot_page;
    m->slot_bits++;
    m->n_slots = UINT64_C(1) << m->slot_bits;
    m->slot_key = g_new0(uint64_t, m->n_slots);
    m->slot_page = g_new0(uint8_t *, m->n_slots);
    for (uint64_t s = 0; s < old_n; s++)
        if (old_key[s]) page_insert(m, old_key[s] - 1, old_page[s]);
    g_free(old_key);
    g_free(old_page);
}

/* ---- arrays ----------------------------------------------------------------- */

/* The array holding byte `addr`, or NULL. */
static const mi_array *array_at(memimg *m, uint64_t addr)
{
    if (m->n_arrays == 0) return NULL;
    const mi_array *a = &m->arrays[m->last_array];
    if (addr >= a->base && addr <= a->last) return a;
    unsigned lo = 0, hi = m->n_arrays; /* first array with base > addr */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (m->arrays[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return NULL;
    a = &m->arrays[lo - 1];
    if (addr > a->last) return NULL;
    m->last_array = lo - 1;
    return a;
}

/* Initial value of one byte. */
static uint8_t initial_byte(memimg *m, uint64_t addr)
{
    const mi_array *a = array_at(m, addr);
    if (!a) return 0;
    uint64_t off = addr - a->base;
    uint64_t v = a->init.value(&a->init, off >> a->shift);
    return (uint8_t)(v >> (8 * (off & ((1u << a->shift) - 1))));
}

/* The initial value of `size` bytes at addr in array a when one element
 * holds them all (true), else false. */
static inline bool element_value(const mi_array *a, uint64_t addr, unsigned size, uint64_t *out)
{
    uint64_t off = addr - a->base;
    unsigned in_elem = (unsigned)(off & ((1u << a->shift) - 1));
    if (in_elem + size > (1u << a->shift)) return false;
    uint64_t v = a->init.value(&a->init, off >> a->shift) >> (8 * in_elem);
    *out = size == 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1);
    return true;
}

/* Initial value of `size` bytes at addr (never written). */
static uint64_t initial_value(memimg *m, uint64_t addr, unsigned size)
{
    const mi_array *a = array_at(m, addr);
    if (a) {
        uint64_t v;
        if (element_value(a, addr, size, &v)) return v;
    } else if (m->n_arrays == 0) {
        return 0;
    }
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++) v |= (uint64_t)initial_byte(m, addr + k) << (8 * k);
    return v;
}

/* A new page holding the initial bytes of page_no. */
static uint8_t *page_materialise(memimg *m, uint64_t page_no)
{
    uint8_t *page = g_malloc0(MEMIMG_PAGE_BYTES);
    uint64_t start = page_no << PAGE_SHIFT, end = start + PAGE_MASK; /* inclusive */
    for (unsigned i = 0; i < m->n_arrays; i++) {
        const mi_array *a = &m->arrays[i];
        if (a->last < start || a->base > end) continue;
        uint64_t lo = a->base > start ? a->base : start, hi = a->last < end ? a->last : end;
        unsigned eb = 1u << a->shift;
        for (uint64_t idx = (lo - a->base) >> a->shift, stop = (hi - a->base) >> a->shift;; idx++) {
            uint64_t v = a->init.value(&a->init, idx), elem_addr = a->base + (idx << a->shift);
            for (unsigned k = 0; k < eb; k++) {
                uint64_t b = elem_addr + k;
                if (b >= lo && b <= hi) page[b - start] = (uint8_t)(v >> (8 * k));
            }
            if (idx == stop) break;
        }
    }
    return page;
}

static uint8_t *page_for_write(memimg *m, uint64_t page_no)
{
    if (page_no == m->cached_page_no && m->cached_page) return m->cached_page;
    uint8_t *page = page_find(m, page_no);
    if (!page) {
        if (2 * (m->n_pages + 1) > m->n_slots) table_grow(m); /* load <= 1/2 */
        page = page_materialise(m, page_no);
        page_insert(m, page_no, page);
        m->n_pages++;
    }
    m->cached_page_no = page_no;
    m->cached_page = page;
    return page;
}

/* ---- reads and writes --------------------------------------------------- */

static inline uint64_t load_le(const uint8_t *p, unsigned size)
{
    /* constant-size copies: each becomes a single load */
    switch (size) {
    case 8: { uint64_t v; memcpy(&v, p, 8); return GUINT64_FROM_LE(v); }
    case 4: { uint32_t v; memcpy(&v, p, 4); return GUINT32_FROM_LE(v); }
    case 2: { uint16_t v; memcpy(&v, p, 2); return GUINT16_FROM_LE(v); }
    case 1: return p[0];
    default: break;
    }
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static inline void store_le(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 8: { uint64_t le = GUINT64_TO_LE(v); memcpy(p, &le, 8); return; }
    case 4: { uint32_t le = GUINT32_TO_LE((uint32_t)v); memcpy(p, &le, 4); return; }
    case 2: { uint16_t le = GUINT16_TO_LE((uint16_t)v); memcpy(p, &le, 2); return; }
    default: break;
    }
    for (unsigned k = 0; k < size; k++) p[k] = (uint8_t)(v >> (8 * k));
}

uint64_t memimg_read(memimg *m, uint64_t addr, unsigned size)
{
    g_return_val_if_fail(size >= 1 && size <= 8, 0);
    uint64_t page_no = addr >> PAGE_SHIFT;
    unsigned off = (unsigned)(addr & PAGE_MASK);
    if (off + size > MEMIMG_PAGE_BYTES) { /* straddles two pages: byte by byte */
        uint64_t v = 0;
        for (unsigned k = 0; k < size; k++) v |= memimg_read(m, addr + k, 1) << (8 * k);
        return v;
    }
    if (page_no != m->cached_page_no) {
        m->cached_page_no = page_no;
        m->cached_page = page_find(m, page_no);
    }
    if (m->cached_page) return load_le(m->cached_page + off, size);
    return initial_value(m, addr, size);
}

/* memimg_read of each lane in turn, with its common cases inline: the page
 * (stored or not) looked up last and, when not stored, the array found last
 * (issue 20: a coalesced warp load reads 32 neighbours). Reads change only
 * the two lookup hints, so the values are memimg_read's. */
void memimg_read_lanes(memimg *m, const uint64_t *addr, uint32_t lanes, unsigned size, uint64_t *out)
{
    g_return_if_fail(size >= 1 && size <= 8);
    for (uint32_t r = lanes; r; r &= r - 1) {
        unsigned l = (unsigned)__builtin_ctz(r);
        uint64_t a = addr[l];
        unsigned off = (unsigned)(a & PAGE_MASK);
        if (off + size <= MEMIMG_PAGE_BYTES && a >> PAGE_SHIFT == m->cached_page_no) {
            if (m->cached_page) {
                out[l] = load_le(m->cached_page + off, size);
                continue;
            }
            const mi_array *arr = m->n_arrays ? &m->arrays[m->last_array] : NULL;
            if (arr && a >= arr->base && a <= arr->last && element_value(arr, a, size, &out[l])) continue;
        }
        out[l] = memimg_read(m, a, size);
    }
}

void memimg_write(memimg *m, uint64_t addr, unsigned size, uint64_t value)
{
    g_return_if_fail(size >= 1 && size <= 8);
    unsigned off = (unsigned)(addr & PAGE_MASK);
    if (off + size > MEMIMG_PAGE_BYTES) {
        for (unsigned k = 0; k < size; k++) memimg_write(m, addr + k, 1, value >> (8 * k));
        return;
    }
    /* A write that leaves the bytes as the initializer has them stores no page,
     * so a kernel rewriting an initialised array (tools/correlate's k_link
     * stand-in over a 32 GiB chain) costs no host memory. */
    uint64_t page_no = addr >> PAGE_SHIFT;
    if (page_no != m->cached_page_no) {
        m->cached_page_no = page_no;
        m->cached_page = page_find(m, page_no);
    }
    if (!m->cached_page) {
        uint64_t mask = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
        if (initial_value(m, addr, size) == (value & mask)) return;
    }
    if (m->journal) {
        mi_undo u = {.addr = addr, .old = memimg_read(m, addr, size), .size = size};
        g_array_append_val(m->journal, u);
    }
    store_le(page_for_write(m, page_no) + off, size, value);
}

uint64_t memimg_bytes_stored(const memimg *m) { return m->n_pages * MEMIMG_PAGE_BYTES; }

void memimg_journal_begin(memimg *m)
{
    if (!m->journal) m->journal = g_array_new(FALSE, FALSE, sizeof(mi_undo));
    g_array_set_size(m->journal, 0);
}

void memimg_journal_rollback(memimg *m)
{
    GArray *j = m->journal;
    if (!j) return;
    m->journal = NULL; /* the restoring writes are not journalled */
    for (guint i = j->len; i-- > 0;) {
        const mi_undo *u = &g_array_index(j, mi_undo, i);
        memimg_write(m, u->addr, u->size, u->old);
    }
    g_array_free(j, TRUE);
}

/* ---- declaring arrays ------------------------------------------------------ */

static bool layout_error(GError **err, const char *origin, const char *name, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static bool layout_error(GError **err, const char *origin, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, MEMIMG_ERROR, MEMIMG_ERROR_LAYOUT, "%s: array '%s': %s", origin, name, msg);
    g_free(msg);
    return false;
}

/* A stored page intersecting [base, last], or NO_PAGE. Pages are stored only
 * after writes, so this is normally empty; order of the scan is irrelevant. */
static uint64_t stored_page_in(const memimg *m, uint64_t base, uint64_t last)
{
    for (uint64_t s = 0; s < m->n_slots; s++) {
        if (!m->slot_key[s]) continue;
        uint64_t page_no = m->slot_key[s] - 1;
        if (page_no >= (base >> PAGE_SHIFT) && page_no <= (last >> PAGE_SHIFT)) return page_no;
    }
    return NO_PAGE;
}

bool memimg_add_array(memimg *m, const char *name, uint64_t base, unsigned elem_bytes,
                      bool is_float, uint64_t count, const char *init_spec, const char *origin,
                      GError **err)
{
    const char *org = origin ? origin : "<memimg>";
    if (!name || !*name) return layout_error(err, org, "", "an array needs a name");
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8)
        return layout_error(err, org, name, "element size %u is not 1, 2, 4 or 8 bytes", elem_bytes);
    if (is_float && elem_bytes < 4)
        return layout_error(err, org, name, "float elements are 4 or 8 bytes, not %u", elem_bytes);
    if (count == 0) return layout_error(err, org, name, "the array has no elements");
    unsigned shift = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
    uint64_t room = UINT64_MAX - base; /* bytes after the first one */
    if (room < elem_bytes - 1 || count - 1 > (room - (elem_bytes - 1)) >> shift)
        return layout_error(err, org, name,
                            "%" G_GUINT64_FORMAT " elements of %u bytes from 0x%" G_GINT64_MODIFIER
                            "x run past the end of the address space", count, elem_bytes, base);
    uint64_t last = base + ((count - 1) << shift) + (elem_bytes - 1);
    memimg_array_info other;
    if (memimg_find_array(m, name, &other))
        return layout_error(err, org, name, "an array of this name is already declared");
    unsigned at = 0; /* insertion point: first array with a higher base */
    while (at < m->n_arrays && m->arrays[at].base <= base) at++;
    const mi_array *clash = at > 0 && m->arrays[at - 1].last >= base ? &m->arrays[at - 1]
                            : at < m->n_arrays && m->arrays[at].base <= last ? &m->arrays[at]
                                                                             : NULL;
    if (clash)
        return layout_error(err, org, name,
                            "bytes 0x%" G_GINT64_MODIFIER "x..0x%" G_GINT64_MODIFIER
                            "x overlap array '%s' (0x%" G_GINT64_MODIFIER "x..0x%" G_GINT64_MODIFIER "x)",
                            base, last, clash->name, clash->base, clash->last);
    uint64_t written = stored_page_in(m, base, last);
    if (written != NO_PAGE)
        return layout_error(err, org, name,
                            "page 0x%" G_GINT64_MODIFIER "x in its range was written before the "
                            "declaration; declare arrays before writing memory", written << PAGE_SHIFT);
    mi_array a = {.base = base, .last = last, .shift = shift};
    if (!dinit_setup(&a.init, name, base, elem_bytes, is_float, count, m->seed, init_spec, org, err))
        return false;
    a.name = g_strdup(name);
    if (m->n_arrays == m->cap_arrays) {
        m->cap_arrays = m->cap_arrays ? 2 * m->cap_arrays : 8;
        m->arrays = g_renew(mi_array, m->arrays, m->cap_arrays);
    }
    memmove(&m->arrays[at + 1], &m->arrays[at], (m->n_arrays - at) * sizeof *m->arrays);
    m->arrays[at] = a;
    m->n_arrays++;
    m->last_array = at;
    return true;
}

static memimg_array_info info_of(const mi_array *a)
{
    return (memimg_array_info){.name = a->name, .base = a->base, .count = a->init.count,
                               .elem_bytes = a->init.elem_bytes, .is_float = a->init.is_float};
}

bool memimg_find_array(const memimg *m, const char *name, memimg_array_info *out)
{
    for (unsigned i = 0; i < m->n_arrays; i++) {
        if (strcmp(m->arrays[i].name, name) == 0) {
            if (out) *out = info_of(&m->arrays[i]);
            return true;
        }
    }
    return false;
}

unsigned memimg_array_count(const memimg *m) { return m->n_arrays; }

memimg_array_info memimg_array_at(const memimg *m, unsigned i)
{
    g_return_val_if_fail(i < m->n_arrays, (memimg_array_info){0});
    return info_of(&m->arrays[i]);
}

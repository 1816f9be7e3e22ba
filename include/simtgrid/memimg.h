/* The lazy global-memory image of a kernel.
 *
 * A kernel declares data arrays with initializers (`.data next u64[1048576] =
 * perm_cycle(seed=7)`). Their values are never materialised: an unwritten byte
 * is computed on demand, in O(1), from the covering array's initializer and
 * (global seed, array seed, element index). Only pages that have been written
 * are stored (4 KiB each), so a 4 GiB input costs no memory until the kernel
 * writes to it. The initializers and their exact formulas are documented in
 * docs/data-initializers.md.
 *
 * Reads and writes are on the simulator's hot path (every lane of every load):
 * they allocate nothing, except a write that touches a page for the first time.
 * A memimg is not thread-safe: reads update its look-up caches. */
#ifndef SIMTGRID_MEMIMG_H
#define SIMTGRID_MEMIMG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct memimg memimg;

#define MEMIMG_PAGE_BYTES 4096u

#define MEMIMG_ERROR (memimg_error_quark())
GQuark memimg_error_quark(void);

typedef enum {
    MEMIMG_ERROR_SYNTAX,       /* the initializer text is malformed */
    MEMIMG_ERROR_UNKNOWN_INIT, /* no initializer of that name */
    MEMIMG_ERROR_UNKNOWN_ARG,  /* argument not taken by that initializer, or given twice */
    MEMIMG_ERROR_MISSING_ARG,  /* a required argument is absent */
    MEMIMG_ERROR_BAD_VALUE,    /* an argument is not a number of the expected kind */
    MEMIMG_ERROR_RANGE,        /* a value is out of range (also: values not fitting the element) */
    MEMIMG_ERROR_LAYOUT,       /* element size/kind, count, overlap, duplicate name */
} memimg_error_code;

/* `seed` is the global seed, mixed into every initializer's own seed. */
memimg *memimg_new(uint64_t seed);
void memimg_free(memimg *m);

/* Declares an array of `count` elements of `elem_bytes` (1, 2, 4 or 8; floats
 * 4 or 8) at `base`, initialised by `init_spec` (the text after `=`, e.g.
 * "iota(start=0, step=1)"; NULL or "" means zero). `origin` ("file:line") and
 * `name` start every error message, which also names the initializer and the
 * bad argument. Arrays must not overlap and names must be unique. On error
 * nothing is added. */
bool memimg_add_array(memimg *m, const char *name, uint64_t base, unsigned elem_bytes,
                      bool is_float, uint64_t count, const char *init_spec, const char *origin,
                      GError **err);

/* `size` is 1..8 bytes, little endian, any alignment. Bytes never written read
 * as the initializer's value of the covering array, else 0. 16-byte accesses
 * are done by the caller as two 8-byte ones. */
uint64_t memimg_read(memimg *m, uint64_t addr, unsigned size);
/* memimg_read(m, addr[l], size) into out[l] for each lane l of `lanes`, in
 * increasing lane order (a warp's load in one call). */
void memimg_read_lanes(memimg *m, const uint64_t *addr, uint32_t lanes, unsigned size, uint64_t *out);
void memimg_write(memimg *m, uint64_t addr, unsigned size, uint64_t value);

/* Bytes held by stored (written) pages: a multiple of MEMIMG_PAGE_BYTES. */
uint64_t memimg_bytes_stored(const memimg *m);

/* A speculative run (ORACLE's functional pre-pass, src/core/reconv_oracle.c):
 * after begin, every write keeps the bytes it replaces; rollback restores
 * them in reverse order and ends the journal. Values read afterwards are the
 * ones before begin (pages first written inside stay stored, with their old
 * bytes, so memimg_bytes_stored may grow). */
void memimg_journal_begin(memimg *m);
void memimg_journal_rollback(memimg *m);

/* A declared array, for tests and tools that check a kernel's results. */
typedef struct memimg_array_info {
    const char *name; /* owned by the memimg */
    uint64_t base;
    uint64_t count;
    unsigned elem_bytes;
    bool is_float;
} memimg_array_info;

/* False if no array has that name. */
bool memimg_find_array(const memimg *m, const char *name, memimg_array_info *out);
/* Arrays in increasing base order: i in [0, memimg_array_count). */
unsigned memimg_array_count(const memimg *m);
memimg_array_info memimg_array_at(const memimg *m, unsigned i);

#endif

/* Helpers shared by the memimg / dinit tests: declare one array, read one
 * element, expect a declaration to fail. */
#ifndef TEST_MEMIMG_UTIL_H
#define TEST_MEMIMG_UTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/memimg.h"

#define T_BASE UINT64_C(0x10000000)

/* A fresh image with one array `a` at T_BASE; fails the test on error. */
static inline memimg *one_array(uint64_t global_seed, unsigned elem_bytes, bool is_float,
                                uint64_t count, const char *spec)
{
    memimg *m = memimg_new(global_seed);
    GError *err = NULL;
    bool ok = memimg_add_array(m, "a", T_BASE, elem_bytes, is_float, count, spec, "t.sasm:1", &err);
    cr_assert(ok, "add_array(%s) failed: %s", spec, err ? err->message : "?");
    return m;
}

/* Element i of the array called `name`, as stored bits. */
static inline uint64_t elem_of(memimg *m, const char *name, uint64_t i)
{
    memimg_array_info a;
    cr_assert(memimg_find_array(m, name, &a), "no array %s", name);
    return memimg_read(m, a.base + i * a.elem_bytes, a.elem_bytes);
}

static inline uint64_t elem(memimg *m, uint64_t i) { return elem_of(m, "a", i); }

/* The declaration must fail with `code`, its message containing each of the
 * NULL-terminated `parts` (in any order). */
static inline void expect_error(unsigned elem_bytes, bool is_float, uint64_t count, const char *spec,
                                int code, const char *const *parts)
{
    memimg *m = memimg_new(1);
    GError *err = NULL;
    bool ok = memimg_add_array(m, "a", T_BASE, elem_bytes, is_float, count, spec, "k.sasm:7", &err);
    cr_assert(!ok, "'%s' was accepted", spec);
    cr_assert_not_null(err);
    cr_assert_eq(err->domain, MEMIMG_ERROR);
    cr_assert_eq(err->code, code, "'%s': code %d, want %d: %s", spec, err->code, code, err->message);
    cr_assert(strstr(err->message, "k.sasm:7: array 'a': ") == err->message, "%s", err->message);
    for (unsigned i = 0; parts[i]; i++)
        cr_assert(strstr(err->message, parts[i]), "'%s' not in: %s", parts[i], err->message);
    cr_assert_eq(memimg_array_count(m), 0);
    g_error_free(err);
    memimg_free(m);
}

#define EXPECT_ERROR(eb, fl, count, spec, code, ...) \
    expect_error((eb), (fl), (count), (spec), (code), (const char *const[]){__VA_ARGS__, NULL})

/* ---- reference formula, written independently of src/isa ---------------- */

static inline uint64_t ref_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint64_t ref_hash(uint64_t global_seed, uint64_t seed, uint64_t i)
{
    uint64_t key = ref_mix(global_seed ^ ref_mix(seed + 0x9e3779b97f4a7c15ull));
    return ref_mix(key + (i + 1) * 0x9e3779b97f4a7c15ull);
}
static inline uint64_t ref_below(uint64_t h, uint64_t range)
{
    return (uint64_t)(((unsigned __int128)h * range) >> 64);
}
#endif

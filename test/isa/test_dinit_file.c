/* file(path, format): raw binary and NumPy .npy inputs written byte by byte
 * by the test, read back element by element; the header checks. */
#include "test_files_util.h"
#include "test_memimg_util.h"

/* An origin inside the folder, so relative paths resolve there. */
static char *origin_in(const tmp_dir *t) { return g_strdup_printf("%s/k.sasm:3", t->path); }

static bool add(memimg *m, const tmp_dir *t, const char *name, unsigned eb, bool fl, uint64_t count,
                const char *spec, GError **err)
{
    char *o = origin_in(t);
    bool ok = memimg_add_array(m, name, T_BASE, eb, fl, count, spec, o, err);
    g_free(o);
    return ok;
}

/* A .npy version-1 file: magic, version, header length, the header dict
 * padded with spaces and a newline to a multiple of 64 bytes, then data. */
static GByteArray *npy(const char *dict, const void *data, size_t len)
{
    GByteArray *b = g_byte_array_new();
    size_t hlen = strlen(dict) + 1;
    size_t pad = (64 - (10 + hlen) % 64) % 64;
    uint8_t pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)((hlen + pad) & 0xff),
                       (uint8_t)((hlen + pad) >> 8)};
    g_byte_array_append(b, pre, 10);
    g_byte_array_append(b, (const uint8_t *)dict, (guint)strlen(dict));
    for (size_t k = 0; k < pad; k++) g_byte_array_append(b, (const uint8_t *)" ", 1);
    g_byte_array_append(b, (const uint8_t *)"\n", 1);
    g_byte_array_append(b, data, (guint)len);
    return b;
}

static void expect_file_error(const tmp_dir *t, unsigned eb, bool fl, uint64_t count, const char *spec,
                              int code, const char *part)
{
    memimg *m = memimg_new(1);
    GError *e = NULL;
    cr_assert(!add(m, t, "a", eb, fl, count, spec, &e), "'%s' accepted", spec);
    cr_assert_eq(e->code, code, "%s: code %d: %s", spec, e->code, e->message);
    cr_assert(strstr(e->message, "/k.sasm:3: array 'a': "), "%s", e->message);
    cr_assert(strstr(e->message, part), "'%s' not in: %s", part, e->message);
    g_error_free(e);
    memimg_free(m);
}

Test(dinit_file, raw_little_endian_elements)
{
    tmp_dir t = tmp_dir_new();
    /* u32 7, 0xdeadbeef, 0, 42 as little-endian bytes */
    const uint8_t raw[16] = {7, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0, 42, 0, 0, 0};
    tmp_write(&t, "in.bin", raw, 16);
    memimg *m = memimg_new(1);
    GError *e = NULL;
    cr_assert(add(m, &t, "a", 4, false, 4, "file(path=\"in.bin\")", &e), "%s", e ? e->message : "");
    cr_assert_eq(elem(m, 0), 7);
    cr_assert_eq(elem(m, 1), 0xdeadbeefu);
    cr_assert_eq(elem(m, 2), 0);
    cr_assert_eq(elem(m, 3), 42);
    /* the same 16 bytes as u16: 7, 0, 0xbeef, 0xdead, ... */
    char *o4 = g_strdup_printf("%s/k.sasm:4", t.path);
    cr_assert(memimg_add_array(m, "b", T_BASE + 4096, 2, false, 8, "file(path=\"in.bin\", format=raw)",
                               o4, &e), "%s", e ? e->message : "");
    g_free(o4);
    cr_assert_eq(elem_of(m, "b", 2), 0xbeef);
    cr_assert_eq(elem_of(m, "b", 3), 0xdead);
    cr_assert_eq(elem_of(m, "b", 6), 42);
    /* a write lands in the page, the file stays untouched */
    memimg_write(m, T_BASE + 4, 4, 5);
    cr_assert_eq(elem(m, 1), 5);
    memimg_free(m);
    char *back;
    gsize len;
    cr_assert(g_file_get_contents(g_ptr_array_index(t.files, 0), &back, &len, NULL));
    cr_assert_eq(len, 16);
    cr_assert_eq(memcmp(back, raw, 16), 0);
    g_free(back);
    tmp_dir_free(&t);
}

Test(dinit_file, npy_f32_matrix_and_u8)
{
    tmp_dir t = tmp_dir_new();
    float f[6] = {0.5f, -1.0f, 2.25f, 3.0f, 1e10f, -0.0f};
    GByteArray *b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f, sizeof f);
    cr_assert_eq((b->len - sizeof f) % 64, 0, "header padded to 64 bytes");
    tmp_write(&t, "m.npy", b->data, b->len);
    g_byte_array_free(b, TRUE);
    uint8_t u[5] = {1, 2, 250, 0, 9};
    b = npy("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }", u, sizeof u);
    tmp_write(&t, "u.npy", b->data, b->len);
    g_byte_array_free(b, TRUE);

    memimg *m = memimg_new(1);
    GError *e = NULL;
    cr_assert(add(m, &t, "a", 4, true, 6, "file(path=\"m.npy\")", &e), "%s", e ? e->message : "");
    for (unsigned i = 0; i < 6; i++) {
        uint32_t want;
        memcpy(&want, &f[i], 4);
        cr_assert_eq(elem(m, i), want, "i=%u", i);
    }
    cr_assert(memimg_add_array(m, "u", T_BASE + 4096, 1, false, 5, "file(path = \"u.npy\", format = npy)",
                               "<memimg>", &e) == false, "relative to the current folder: not found");
    g_clear_error(&e);
    char *abs = g_strdup_printf("file(path=\"%s/u.npy\")", t.path);
    cr_assert(memimg_add_array(m, "u", T_BASE + 4096, 1, false, 5, abs, "<memimg>", &e), "%s",
              e ? e->message : "");
    g_free(abs);
    cr_assert_eq(elem_of(m, "u", 2), 250);
    cr_assert_eq(elem_of(m, "u", 4), 9);
    memimg_free(m);
    tmp_dir_free(&t);
}

Test(dinit_file, declaration_checks)
{
    tmp_dir t = tmp_dir_new();
    uint32_t v[6] = {1, 2, 3, 4, 5, 6};
    GByteArray *b = npy("{'descr': '<u4', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    tmp_write(&t, "v.npy", b->data, b->len);
    g_byte_array_free(b, TRUE);
    b = npy("{'descr': '>u4', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    tmp_write(&t, "be.npy", b->data, b->len);
    g_byte_array_free(b, TRUE);
    b = npy("{'descr': '<u4', 'fortran_order': True, 'shape': (2, 3), }", v, sizeof v);
    tmp_write(&t, "fo.npy", b->data, b->len);
    g_byte_array_free(b, TRUE);
    tmp_write(&t, "raw.bin", v, 24);

    /* the .npy holds 6 u4: as s32[6]/u32[6] it loads (checked above); not as: */
    expect_file_error(&t, 4, true, 6, "file(path=\"v.npy\")", MEMIMG_ERROR_LAYOUT,
                      "dtype '<u4' does not match the declared 4-byte float elements");
    expect_file_error(&t, 8, false, 6, "file(path=\"v.npy\")", MEMIMG_ERROR_LAYOUT,
                      "dtype '<u4' does not match the declared 8-byte integer");
    expect_file_error(&t, 4, false, 5, "file(path=\"v.npy\")", MEMIMG_ERROR_LAYOUT,
                      "the .npy shape holds 6 elements, the declaration 5");
    expect_file_error(&t, 4, false, 6, "file(path=\"be.npy\")", MEMIMG_ERROR_LAYOUT, "big-endian");
    expect_file_error(&t, 4, false, 6, "file(path=\"fo.npy\")", MEMIMG_ERROR_LAYOUT, "Fortran-order");
    expect_file_error(&t, 4, false, 6, "file(path=\"raw.bin\", format=npy)", MEMIMG_ERROR_BAD_VALUE,
                      "not a NumPy .npy file");
    /* raw: 24 bytes are 6 u32, 3 u64, not 7 u32 */
    expect_file_error(&t, 4, false, 7, "file(path=\"raw.bin\")", MEMIMG_ERROR_LAYOUT,
                      "24 data bytes, the declaration needs 28 (7 elements of 4 bytes)");
    expect_file_error(&t, 4, false, 6, "file(path=\"nope.bin\")", MEMIMG_ERROR_BAD_VALUE,
                      "argument 'path': ");
    expect_file_error(&t, 4, false, 6, "file(format=raw)", MEMIMG_ERROR_MISSING_ARG,
                      "missing argument 'path'");
    expect_file_error(&t, 4, false, 6, "file(path=\"raw.bin)", MEMIMG_ERROR_SYNTAX,
                      "a closing '\"' for argument 'path'");
    expect_file_error(&t, 4, false, 6, "file(path=\"raw.bin\", format=csv)", MEMIMG_ERROR_BAD_VALUE,
                      "unknown value 'csv'");
    memimg *m = memimg_new(1);
    GError *e = NULL;
    cr_assert(add(m, &t, "a", 8, false, 3, "file(path=\"raw.bin\")", &e), "%s", e ? e->message : "");
    cr_assert_eq(elem(m, 1), (UINT64_C(4) << 32) | 3);
    memimg_free(m);
    tmp_dir_free(&t);
}

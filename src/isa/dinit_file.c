/* file(path, format): an array whose values come from a raw binary or NumPy
 * .npy file, memory-mapped so that only the pages the kernel reads are ever
 * loaded. The .npy header (format version 1, 2 or 3) is checked against the
 * declaration: element kind and size, byte order, and shape. */
#include <stdlib.h>
#include <string.h>

#include "dinit.h"

char *dinit_resolve_path(const char *origin, const char *path)
{
    if (g_path_is_absolute(path) || !origin) return g_strdup(path);
    /* origin is "file:line"; a path is relative to that file's folder */
    const char *colon = strrchr(origin, ':');
    char *file = colon ? g_strndup(origin, (gsize)(colon - origin)) : g_strdup(origin);
    char *dir = g_path_get_dirname(file);
    char *full = g_build_filename(dir, path, NULL);
    g_free(file);
    g_free(dir);
    return full;
}

typedef struct dfile {
    GMappedFile *map;
    const uint8_t *data; /* first element */
} dfile;

static void dfile_free(void *p)
{
    dfile *f = p;
    if (f->map) g_mapped_file_unref(f->map);
    g_free(f);
}

static uint64_t value_file(const dinit *d, uint64_t i)
{
    const dfile *f = d->owned;
    const uint8_t *b = f->data + i * d->elem_bytes;
    uint64_t v = 0;
    for (unsigned k = 0; k < d->elem_bytes; k++) v |= (uint64_t)b[k] << (8 * k); /* little endian */
    return v;
}

/* The value text of `'key': value` in a .npy header dict, or NULL. */
static const char *npy_field(const char *hdr, const char *key)
{
    char *pat = g_strdup_printf("'%s'", key);
    const char *at = strstr(hdr, pat);
    g_free(pat);
    if (!at) return NULL;
    at = strchr(at + strlen(key) + 2, ':');
    if (!at) return NULL;
    at++;
    while (*at == ' ') at++;
    return at;
}

/* Checks a .npy header against the declaration; *data_off = first element. */
static bool npy_check(const uint8_t *b, size_t size, const char *path, const dinit_ctx *ctx,
                      size_t *data_off, GError **err)
{
    if (size < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "%s: not a NumPy .npy file (bad magic)", path);
        return false;
    }
    unsigned major = b[6];
    size_t hlen, hstart;
    if (major == 1) {
        hlen = b[8] | (size_t)b[9] << 8;
        hstart = 10;
    } else if ((major == 2 || major == 3) && size >= 12) {
        hlen = b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
        hstart = 12;
    } else {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "%s: unsupported .npy version %u", path, major);
        return false;
    }
    if (hstart + hlen > size) {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "%s: truncated .npy header", path);
        return false;
    }
    char *hdr = g_strndup((const char *)b + hstart, hlen);
    bool ok = false;
    const char *descr = npy_field(hdr, "descr"), *fortran = npy_field(hdr, "fortran_order"),
               *shape = npy_field(hdr, "shape");
    if (!descr || !fortran || !shape || descr[0] != '\'' || shape[0] != '(') {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE,
                    "%s: .npy header lacks 'descr', 'fortran_order' or 'shape': %s", path, hdr);
        goto out;
    }
    /* descr: byte order, kind, size, e.g. '<u4' */
    char order = descr[1], kind = descr[2];
    int dlen = (int)strcspn(descr + 1, "'");
    unsigned bytes = (unsigned)strtoul(descr + 3, NULL, 10);
    bool kind_ok = ctx->is_float ? kind == 'f' : (kind == 'u' || kind == 'i');
    if (!kind_ok || bytes != ctx->elem_bytes) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "%s: dtype '%.*s' does not match the declared %u-byte %s elements", path, dlen, descr + 1,
                    ctx->elem_bytes, ctx->is_float ? "float" : "integer");
        goto out;
    }
    if (order == '>' && bytes > 1) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "%s: big-endian dtype '%.*s' is not supported",
                    path, dlen, descr + 1);
        goto out;
    }
    /* shape: (d0, d1, ...) in C order; the product must be the declared count */
    uint64_t n = 1;
    unsigned dims = 0;
    const char *p = shape + 1;
    for (;;) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        char *end;
        uint64_t dim = g_ascii_strtoull(p, &end, 10);
        if (end == p || !dinit_mul_add(n, dim, 0, &n)) {
            dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "%s: bad shape in the .npy header: %s",
                        path, hdr);
            goto out;
        }
        dims++;
        p = end;
    }
    if (strncmp(fortran, "True", 4) == 0 && dims > 1) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "%s: Fortran-order arrays are not supported (save with order='C')", path);
        goto out;
    }
    if (n != ctx->count) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "%s: the .npy shape holds %" G_GUINT64_FORMAT " elements, the declaration %"
                    G_GUINT64_FORMAT, path, n, ctx->count);
        goto out;
    }
    *data_off = hstart + hlen;
    ok = true;
out:
    g_free(hdr);
    return ok;
}

bool dinit_setup_file(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    static const char *const formats[] = {"raw", "npy", NULL};
    const char *path_arg = dinit_arg_text(call, "path");
    if (!path_arg) {
        dinit_error(err, ctx, MEMIMG_ERROR_MISSING_ARG, "missing argument 'path'");
        return false;
    }
    unsigned fmt;
    if (!dinit_arg_choice(call, ctx, "format", formats, g_str_has_suffix(path_arg, ".npy") ? 1 : 0,
                          &fmt, err))
        return false;
    char *path = dinit_resolve_path(ctx->origin, path_arg);
    GError *e = NULL;
    GMappedFile *map = g_mapped_file_new(path, FALSE, &e);
    if (!map) {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "argument 'path': %s", e->message);
        g_error_free(e);
        g_free(path);
        return false;
    }
    const uint8_t *b = (const uint8_t *)g_mapped_file_get_contents(map);
    size_t size = g_mapped_file_get_length(map), off = 0;
    bool ok = fmt == 0 || npy_check(b, size, path, ctx, &off, err);
    uint64_t need = ctx->count * ctx->elem_bytes; /* count <= 2^44: no overflow */
    if (ok && size - off != need) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "%s: %" G_GUINT64_FORMAT " data bytes, the declaration needs %" G_GUINT64_FORMAT
                    " (%" G_GUINT64_FORMAT " elements of %u bytes)", path, (uint64_t)(size - off),
                    need, ctx->count, ctx->elem_bytes);
        ok = false;
    }
    g_free(path);
    if (!ok) {
        g_mapped_file_unref(map);
        return false;
    }
    dfile *f = g_new0(dfile, 1);
    f->map = map;
    f->data = b + off;
    d->owned = f;
    d->owned_free = dfile_free;
    d->value = value_file;
    return true;
}

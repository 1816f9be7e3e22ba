/* The initializer-spec parser: `name`, `name()` or `name(key=value, ...)`,
 * and the typed argument getters the initializer families use. Every error
 * names the origin (file:line), the array, the initializer and the argument. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_lib.h"
#include "dinit.h"

G_DEFINE_QUARK(simtgrid-memimg-error-quark, memimg_error)

void dinit_error(GError **err, const dinit_ctx *ctx, memimg_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (ctx->init)
        g_set_error(err, MEMIMG_ERROR, (int)code, "%s: array '%s': %s: %s", ctx->origin,
                    ctx->array, ctx->init, msg);
    else
        g_set_error(err, MEMIMG_ERROR, (int)code, "%s: array '%s': %s", ctx->origin, ctx->array,
                    msg);
    g_free(msg);
}

const char *dinit_nearest(const char *word, const char *const *names)
{
    /* first of equals: table order */
    const char *best = nearest_of(word, names, g_strv_length((char **)names));
    /* a typo changes a few characters; beyond that a suggestion misleads */
    size_t len = strlen(word);
    size_t limit = len <= 4 ? 2 : len / 2;
    return best && edit_distance(word, best) <= limit ? best : NULL;
}

void dinit_call_clear(dinit_call *call)
{
    g_free(call->text);
    g_free(call->buf);
    memset(call, 0, sizeof *call);
}

static bool is_ident_start(char c) { return g_ascii_isalpha(c) || c == '_'; }
static bool is_ident_char(char c) { return g_ascii_isalnum(c) || c == '_'; }
/* values are numbers (1, -3, 0x1f, 2.5e-3) or words (zipf) */
static bool is_value_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}

static char *skip_ws(char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Reports what was expected at p (a position in call->buf); quotes call->text. */
static void syntax_error(GError **err, const dinit_ctx *ctx, const dinit_call *call, const char *p,
                         const char *expected)
{
    size_t at = (size_t)(p - call->buf);
    const char *got = call->text[at] ? call->text + at : "the end";
    dinit_error(err, ctx, MEMIMG_ERROR_SYNTAX,
                "initializer '%s': column %zu: expected %s, got '%.16s'", call->text, at + 1,
                expected, got);
}

/* Splits `name(key=value, ...)` in place; returns false with a syntax error. */
/* One argument `key=value` (value bare or "quoted") at *pp, NUL-terminated in
 * place and stored in call; *pp ends after the ',' or ')' that follows, which
 * *sep gets. */
static bool split_arg(dinit_call *call, const dinit_ctx *ctx, char **pp, char *sep, GError **err)
{
    char what[96];
    char *p = *pp;
    if (!is_ident_start(*p)) {
        syntax_error(err, ctx, call, p, "an argument name");
        return false;
    }
    char *key = p;
    while (is_ident_char(*p)) p++;
    char *key_end = p;
    p = skip_ws(p);
    char eq = *p;
    *key_end = '\0';
    if (eq != '=') {
        g_snprintf(what, sizeof what, "'=' after argument '%s'", key);
        syntax_error(err, ctx, call, p, what);
        return false;
    }
    p = skip_ws(p + 1);
    char *val = p;
    if (*p == '"') { /* a quoted value (a file path): anything up to the next quote */
        char *close = strchr(p + 1, '"');
        if (!close) {
            g_snprintf(what, sizeof what, "a closing '\"' for argument '%s'", key);
            syntax_error(err, ctx, call, p + strlen(p), what);
            return false;
        }
        val = p + 1;
        *close = '\0';
        p = close + 1;
        if (val == close) {
            g_snprintf(what, sizeof what, "a non-empty value for argument '%s'", key);
            syntax_error(err, ctx, call, close, what);
            return false;
        }
    } else {
        while (is_value_char(*p)) p++;
    }
    if (p == val) {
        g_snprintf(what, sizeof what, "a value for argument '%s'", key);
        syntax_error(err, ctx, call, p, what);
        return false;
    }
    char *val_end = p;
    p = skip_ws(p);
    *sep = *p;
    if (*sep != ',' && *sep != ')') {
        g_snprintf(what, sizeof what, "',' or ')' after argument '%s'", key);
        syntax_error(err, ctx, call, p, what);
        return false;
    }
    *val_end = '\0';
    if (call->nargs == DINIT_MAX_ARGS) {
        dinit_error(err, ctx, MEMIMG_ERROR_SYNTAX, "initializer '%s': more than %d arguments",
                    call->text, DINIT_MAX_ARGS);
        return false;
    }
    call->arg_name[call->nargs] = key;
    call->arg_text[call->nargs] = val;
    call->nargs++;
    *pp = skip_ws(p + 1);
    return true;
}

static bool split_call(dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    char *p = skip_ws(call->buf);
    if (*p == '\0') { /* empty text: zero */
        call->init = "zero";
        return true;
    }
    if (!is_ident_start(*p)) {
        syntax_error(err, ctx, call, p, "an initializer name");
        return false;
    }
    char *name = p;
    while (is_ident_char(*p)) p++;
    char *name_end = p;
    p = skip_ws(p);
    if (*p != '\0' && *p != '(') {
        syntax_error(err, ctx, call, p, "'(' or the end after the initializer name");
        return false;
    }
    bool has_args = *p == '(';
    *name_end = '\0';
    call->init = name;
    if (!has_args) return true;
    p = skip_ws(p + 1);
    if (*p == ')') {
        p = skip_ws(p + 1);
    } else {
        char sep;
        do {
            if (!split_arg(call, ctx, &p, &sep, err)) return false;
        } while (sep != ')');
    }
    if (*p != '\0') {
        syntax_error(err, ctx, call, p, "the end of the initializer after ')'");
        return false;
    }
    return true;
}

bool dinit_parse_call(const char *spec, dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    memset(call, 0, sizeof *call);
    call->text = g_strdup(spec ? spec : "");
    call->buf = g_strdup(call->text);
    if (split_call(call, ctx, err)) return true;
    dinit_call_clear(call);
    return false;
}

/* "a, b, c" from a NULL-terminated list, into buf. */
static const char *join_names(const char *const *names, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; names[i]; i++) {
        if (i) g_strlcat(buf, ", ", size);
        g_strlcat(buf, names[i], size);
    }
    return buf;
}

bool dinit_check_args(const dinit_call *call, const char *const *allowed, const dinit_ctx *ctx,
                      GError **err)
{
    char list[256];
    for (unsigned i = 0; i < call->nargs; i++) {
        const char *name = call->arg_name[i];
        bool known = false;
        for (unsigned k = 0; allowed[k] && !known; k++) known = strcmp(allowed[k], name) == 0;
        if (!known) {
            if (!allowed[0]) {
                dinit_error(err, ctx, MEMIMG_ERROR_UNKNOWN_ARG,
                            "unknown argument '%s': this initializer takes no arguments", name);
                return false;
            }
            const char *near = dinit_nearest(name, allowed);
            dinit_error(err, ctx, MEMIMG_ERROR_UNKNOWN_ARG, "unknown argument '%s'%s%s%s (takes: %s)",
                        name, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "",
                        join_names(allowed, list, sizeof list));
            return false;
        }
        for (unsigned j = 0; j < i; j++) {
            if (strcmp(call->arg_name[j], name) == 0) {
                dinit_error(err, ctx, MEMIMG_ERROR_UNKNOWN_ARG, "argument '%s' is given twice", name);
                return false;
            }
        }
    }
    return true;
}

const char *dinit_arg_text(const dinit_call *call, const char *name)
{
    for (unsigned i = 0; i < call->nargs; i++)
        if (strcmp(call->arg_name[i], name) == 0) return call->arg_text[i];
    return NULL;
}

static bool missing(const dinit_ctx *ctx, const char *name, GError **err)
{
    dinit_error(err, ctx, MEMIMG_ERROR_MISSING_ARG, "missing argument '%s'", name);
    return false;
}

/* [+-] then decimal digits or 0x and hex digits: magnitude and sign. */
static num_status parse_int(const char *t, uint64_t *mag, bool *neg)
{
    return num_parse(t, 0, NUM_SIGN, mag, neg);
}

static bool int_text_error(const dinit_ctx *ctx, const char *name, const char *text, num_status r,
                           GError **err)
{
    if (r == NUM_RANGE)
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument '%s' = %s is out of range: does not fit 64 bits", name, text);
    else
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE,
                    "argument '%s': expected an integer (decimal or 0x hex), got '%s'", name, text);
    return false;
}

bool dinit_arg_u64(const dinit_call *call, const dinit_ctx *ctx, const char *name, bool required,
                   uint64_t def, uint64_t min, uint64_t max, uint64_t *out, GError **err)
{
    const char *text = dinit_arg_text(call, name);
    if (!text) {
        if (required) return missing(ctx, name, err);
        *out = def;
        return true;
    }
    uint64_t mag;
    bool neg;
    num_status r = parse_int(text, &mag, &neg);
    if (r != NUM_OK) return int_text_error(ctx, name, text, r, err);
    if ((neg && mag != 0) || mag < min || mag > max) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument '%s' = %s is out of range: expected %" G_GUINT64_FORMAT
                    "..%" G_GUINT64_FORMAT, name, text, min, max);
        return false;
    }
    *out = mag;
    return true;
}

bool dinit_arg_elem_int(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                        bool required, uint64_t def, uint64_t *out, bool *negative, GError **err)
{
    const char *text = dinit_arg_text(call, name);
    *negative = false;
    if (!text) {
        if (required) return missing(ctx, name, err);
        *out = def;
        return true;
    }
    uint64_t mag;
    bool neg;
    num_status r = parse_int(text, &mag, &neg);
    if (r != NUM_OK) return int_text_error(ctx, name, text, r, err);
    unsigned bits = ctx->elem_bytes * 8;
    uint64_t umax = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t neg_max = UINT64_C(1) << (bits - 1); /* |most negative| of the signed type */
    if (neg ? mag > neg_max : mag > umax) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument '%s' = %s does not fit a %u-byte element (expected -%" G_GUINT64_FORMAT
                    "..%" G_GUINT64_FORMAT ")", name, text, ctx->elem_bytes, neg_max, umax);
        return false;
    }
    *negative = neg && mag != 0;
    *out = neg ? (uint64_t)0 - mag : mag;
    return true;
}

bool dinit_arg_double(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                      bool required, double def, double min, double max, double *out, GError **err)
{
    const char *text = dinit_arg_text(call, name);
    if (!text) {
        if (required) return missing(ctx, name, err);
        *out = def;
        return true;
    }
    char *end;
    double v = g_ascii_strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE,
                    "argument '%s': expected a finite number, got '%s'", name, text);
        return false;
    }
    if (v < min || v > max) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument '%s' = %s is out of range: expected %g..%g", name, text, min, max);
        return false;
    }
    *out = v;
    return true;
}

bool dinit_arg_choice(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                      const char *const *choices, unsigned def, unsigned *out, GError **err)
{
    const char *text = dinit_arg_text(call, name);
    if (!text) {
        *out = def;
        return true;
    }
    for (unsigned i = 0; choices[i]; i++) {
        if (strcmp(choices[i], text) == 0) {
            *out = i;
            return true;
        }
    }
    char list[256];
    const char *near = dinit_nearest(text, choices);
    dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "argument '%s': unknown value '%s'%s%s%s (one of: %s)",
                name, text, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "",
                join_names(choices, list, sizeof list));
    return false;
}

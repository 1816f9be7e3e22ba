/* Parsing one parameter value from text: type, range and choices, with an
 * "expected ..., got ..." message on failure and a canonical text on success
 * (so the configuration echo is the same however a value was written). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config_lib.h"

const char *param_type_name(param_type t)
{
    switch (t) {
    case PT_INT: return "int";
    case PT_FLOAT: return "float";
    case PT_BOOL: return "bool";
    case PT_ENUM: return "enum";
    case PT_STRING: return "string";
    }
    return "?";
}

void param_format_number(char *buf, size_t len, double v)
{
    /* Integral values up to 2^53 print exactly, without exponent. */
    if (v == floor(v) && fabs(v) <= 9007199254740992.0) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    /* Otherwise the shortest text that reads back to the same double. */
    for (int prec = 15; prec <= 17; prec++) {
        g_ascii_formatd(buf, (int)len, prec == 15 ? "%.15g" : prec == 16 ? "%.16g" : "%.17g", v);
        if (g_ascii_strtod(buf, NULL) == v)
            return;
    }
}

int param_choice_index(const char *choices, const char *word)
{
    if (!choices)
        return -1;
    size_t wl = strlen(word);
    int idx = 0;
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == wl && !strncmp(p, word, l))
            return idx;
        if (!bar)
            return -1;
        p = bar + 1;
    }
}

bool param_parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (unsigned i = 0; i < G_N_ELEMENTS(yes); i++) {
        if (!g_ascii_strcasecmp(text, yes[i])) {
            *out = true;
            return true;
        }
        if (!g_ascii_strcasecmp(text, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* Decimal or 0x-hexadecimal, optional sign; the whole text must be used. */
bool param_parse_int64(const char *s, int64_t *out, bool *overflow)
{
    uint64_t mag;
    bool neg;
    num_status r = num_parse(s, 0, NUM_SIGN, &mag, &neg);
    *overflow = r == NUM_RANGE;
    if (r != NUM_OK)
        return false;
    if (mag > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) {
        *overflow = true;
        return false;
    }
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return true;
}

static char *range_text(const param_def *p)
{
    char lo[40], hi[40];
    param_format_number(lo, sizeof lo, p->min);
    param_format_number(hi, sizeof hi, p->max);
    return g_strdup_printf("from %s to %s", lo, hi);
}

/* An integer within the parameter's range: the error message, or NULL with
 * v->i and its canonical text set. */
static char *parse_int(const param_def *p, const char *t, param_value *v, char **out)
{
    bool overflow;
    int64_t x = 0;
    bool ok = param_parse_int64(t, &x, &overflow);
    if (!ok || (double)x < p->min || (double)x > p->max) {
        char *r = range_text(p);
        char *msg = g_strdup_printf("expected an integer %s, got '%s'%s", r, t,
                                    ok || overflow ? " (out of range)" : "");
        g_free(r);
        return msg;
    }
    v->i = x;
    *out = g_strdup_printf("%" PRId64, x);
    return NULL;
}

/* A finite number within the parameter's range, likewise (v->f). */
static char *parse_float(const param_def *p, const char *t, param_value *v, char **out)
{
    char *end = NULL;
    errno = 0;
    double x = *t ? g_ascii_strtod(t, &end) : 0;
    bool ok = *t && !*end && isfinite(x) && errno != ERANGE;
    if (!ok || x < p->min || x > p->max) {
        char *r = range_text(p);
        char *msg = g_strdup_printf("expected a number %s, got '%s'%s", r, t,
                                    ok ? " (out of range)" : "");
        g_free(r);
        return msg;
    }
    v->f = x;
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    param_format_number(buf, sizeof buf, x);
    *out = g_strdup(buf);
    return NULL;
}

char *param_parse(const param_def *p, const char *text, param_value *v, char **canon)
{
    char *t = g_strdup(text ? text : "");
    char *msg = NULL, *out = NULL;
    size_t len = strlen(t);
    /* "lrr " is not "lrr": a blank around a value is refused, not trimmed
     * (a PT_STRING may hold blanks inside). */
    if (len && (g_ascii_isspace(t[0]) || g_ascii_isspace(t[len - 1]))) {
        msg = g_strdup_printf("expected a value without blanks around it, got '%s'", t);
        g_free(t);
        return msg;
    }
    switch (p->type) {
    case PT_INT:
        msg = parse_int(p, t, v, &out);
        break;
    case PT_FLOAT:
        msg = parse_float(p, t, v, &out);
        break;
    case PT_BOOL: {
        bool b;
        if (!param_parse_bool(t, &b)) {
            msg = g_strdup_printf("expected true or false (or yes/no, on/off, 1/0), got '%s'", t);
            break;
        }
        v->b = b;
        out = g_strdup(b ? "true" : "false");
        break;
    }
    case PT_ENUM: {
        int i = policy_choice_index(p, t);
        if (i < 0) {
            char *l = policy_choices_text(p, ", ");
            msg = g_strdup_printf("expected one of %s, got '%s'", l, t);
            g_free(l);
            break;
        }
        v->e = i;
        out = g_strdup(t);
        break;
    }
    case PT_STRING:
        /* Free text is kept exactly as written (GKeyFile already trimmed it). */
        v->i = 0;
        out = g_strdup(text ? text : "");
        break;
    default:
        msg = g_strdup_printf("parameter has an unknown type %d", (int)p->type);
    }
    g_free(t);
    if (msg) {
        g_free(out);
        return msg;
    }
    if (canon)
        *canon = out;
    else
        g_free(out);
    return NULL;
}

/* Helpers shared by the stats tests: capture a FILE* into memory, and a
 * strict RFC 8259 syntax checker (written independently of src/stats/json.c
 * so a writer bug cannot hide behind itself). */
#ifndef SIMTGRID_TEST_STATS_UTIL_H
#define SIMTGRID_TEST_STATS_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct capture {
    FILE *f;
    char *buf;
    size_t len;
} capture;

static inline FILE *capture_open(capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    return c->f;
}

/* Close the stream; the text stays in c->buf until capture_free. */
static inline const char *capture_text(capture *c)
{
    if (c->f) {
        fclose(c->f);
        c->f = NULL;
    }
    return c->buf;
}

static inline void capture_free(capture *c)
{
    capture_text(c);
    free(c->buf);
    c->buf = NULL;
}

/* ---- JSON syntax check ---------------------------------------------------- */
static const char *jc_value(const char *p, int depth);

static const char *jc_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *jc_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c < 0x20)
            return NULL;               /* includes the terminating NUL */
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 5;
                continue;
            }
            if (!*p || !strchr("\"\\/bfnrt", *p))
                return NULL;
        }
        p++;
    }
}

static const char *jc_digits(const char *p)
{
    if (*p < '0' || *p > '9')
        return NULL;
    while (*p >= '0' && *p <= '9')
        p++;
    return p;
}

static const char *jc_number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (!(p = jc_digits(p)))
        return NULL;
    if (*p == '.' && !(p = jc_digits(p + 1)))
        return NULL;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(p = jc_digits(p)))
            return NULL;
    }
    return p;
}

static const char *jc_container(const char *p, int depth, char close, bool members)
{
    p = jc_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (members) {
            if (!(p = jc_string(jc_ws(p))))
                return NULL;
            p = jc_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = jc_value(p, depth + 1)))
            return NULL;
        p = jc_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *jc_value(const char *p, int depth)
{
    if (depth > 100)
        return NULL;
    p = jc_ws(p);
    switch (*p) {
    case '{': return jc_container(p, depth, '}', true);
    case '[': return jc_container(p, depth, ']', false);
    case '"': return jc_string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return jc_number(p);
    }
}

/* True when `s` is exactly one JSON value (surrounding whitespace allowed). */
static inline bool json_valid(const char *s)
{
    const char *end = s ? jc_value(s, 0) : NULL;
    return end && *jc_ws(end) == '\0';
}

#endif

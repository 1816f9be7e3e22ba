/* Streaming JSON writer. Output bytes depend only on the calls made, never on
 * the locale or the platform's printf rounding of integers, so identical runs
 * give identical documents.
 *
 * Layout: indent 0 writes everything on one line with no spaces; indent N
 * writes one member or element per line, N spaces per level, "key": value,
 * and empty containers as {} / [] (the layout of Python's json.dumps). */
#include "simtgrid/json.h"

#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* need_comma[] has 64 slots; deeper nesting reuses the last slot, which only
 * matters for documents nobody writes (results nest 5 levels). */
static int comma_slot(int depth)
{
    return depth < 63 ? depth : 63;
}

void json_init(json_writer *w, FILE *f, int indent)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->indent = indent < 0 ? 0 : indent;
}

static void newline_indent(json_writer *w)
{
    if (w->indent == 0)
        return;
    putc('\n', w->f);
    for (int i = 0; i < w->depth * w->indent; i++)
        putc(' ', w->f);
}

/* Called before every value and every key: a value that follows a key goes
 * on the key's line; anything else inside a container is preceded by a comma
 * (if not first) and a fresh indented line. */
static void before_item(json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    int slot = comma_slot(w->depth);
    if (w->need_comma[slot])
        putc(',', w->f);
    w->need_comma[slot] = true;
    newline_indent(w);
}

static void begin_container(json_writer *w, char open)
{
    before_item(w);
    putc(open, w->f);
    w->depth++;
    w->need_comma[comma_slot(w->depth)] = false;
}

static void end_container(json_writer *w, char close)
{
    if (w->depth == 0) {       /* unbalanced end: keep the writer usable */
        putc(close, w->f);
        return;
    }
    bool had_items = w->need_comma[comma_slot(w->depth)];
    w->depth--;
    if (had_items)
        newline_indent(w);
    putc(close, w->f);
}

void json_begin_object(json_writer *w) { begin_container(w, '{'); }
void json_end_object(json_writer *w) { end_container(w, '}'); }
void json_begin_array(json_writer *w) { begin_container(w, '['); }
void json_end_array(json_writer *w) { end_container(w, ']'); }

void json_write_quoted(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    char *fixed = NULL;
    if (!g_utf8_validate(s, -1, NULL))
        s = fixed = g_utf8_make_valid(s, -1);
    putc('"', f);
    const char *run = s;           /* start of bytes not yet written */
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        fwrite(run, 1, (size_t)(p - run), f);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else
            fprintf(f, "\\u%04x", c);
        run = p + 1;
    }
    fputs(run, f);
    putc('"', f);
    g_free(fixed);
}

int json_format_double(char *buf, double v)
{
    if (!isfinite(v)) {
        memcpy(buf, "null", 5);
        return 4;
    }
    /* Integral values that an int64 holds exactly print as integers: 3, not
     * 3.0 or 3e+00. 2^63 itself does not fit, hence the strict bound. */
    if (v == trunc(v) && fabs(v) < 9223372036854775808.0)
        return snprintf(buf, JSON_DOUBLE_BUF, "%" PRId64, (int64_t)v);
    /* %.17g round-trips every double; g_ascii_formatd ignores the locale's
     * decimal comma. */
    g_ascii_formatd(buf, JSON_DOUBLE_BUF, "%.17g", v);
    return (int)strlen(buf);
}

void json_key(json_writer *w, const char *key)
{
    before_item(w);
    json_write_quoted(w->f, key ? key : "");
    if (w->indent)
        fputs(": ", w->f);
    else
        putc(':', w->f);
    w->after_key = true;
}

void json_string(json_writer *w, const char *s)
{
    before_item(w);
    json_write_quoted(w->f, s);
}

void json_uint(json_writer *w, uint64_t v)
{
    before_item(w);
    fprintf(w->f, "%" PRIu64, v);
}

void json_int(json_writer *w, int64_t v)
{
    before_item(w);
    fprintf(w->f, "%" PRId64, v);
}

void json_double(json_writer *w, double v)
{
    char buf[JSON_DOUBLE_BUF];
    before_item(w);
    json_format_double(buf, v);
    fputs(buf, w->f);
}

void json_bool(json_writer *w, bool v)
{
    before_item(w);
    fputs(v ? "true" : "false", w->f);
}

void json_null(json_writer *w)
{
    before_item(w);
    fputs("null", w->f);
}

void json_kv_string(json_writer *w, const char *k, const char *v)
{
    json_key(w, k);
    json_string(w, v);
}

void json_kv_uint(json_writer *w, const char *k, uint64_t v)
{
    json_key(w, k);
    json_uint(w, v);
}

void json_kv_int(json_writer *w, const char *k, int64_t v)
{
    json_key(w, k);
    json_int(w, v);
}

void json_kv_double(json_writer *w, const char *k, double v)
{
    json_key(w, k);
    json_double(w, v);
}

void json_kv_bool(json_writer *w, const char *k, bool v)
{
    json_key(w, k);
    json_bool(w, v);
}

void json_end(json_writer *w)
{
    if (w->depth == 0)
        putc('\n', w->f);
}

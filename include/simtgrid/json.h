/* A small streaming JSON writer with deterministic number formatting, used for
 * results documents. Doubles are printed with "%.17g" (integral values without
 * exponent when exact), so identical runs give identical bytes. */
#ifndef SIMTGRID_JSON_H
#define SIMTGRID_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json_writer {
    FILE *f;
    int indent;          /* spaces per level; 0 = compact */
    int depth;
    bool need_comma[64]; /* per level; nesting deeper than 63 is unsupported */
    bool after_key;
} json_writer;

void json_init(json_writer *w, FILE *f, int indent);
void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *s);   /* NULL writes null */
void json_uint(json_writer *w, uint64_t v);
void json_int(json_writer *w, int64_t v);
void json_double(json_writer *w, double v);        /* NaN/inf write null */
void json_bool(json_writer *w, bool v);
void json_null(json_writer *w);
/* key + value shorthands */
void json_kv_string(json_writer *w, const char *k, const char *v);
void json_kv_uint(json_writer *w, const char *k, uint64_t v);
void json_kv_double(json_writer *w, const char *k, double v);
void json_kv_int(json_writer *w, const char *k, int64_t v);
void json_kv_bool(json_writer *w, const char *k, bool v);
/* Finish: newline at depth 0. */
void json_end(json_writer *w);

/* Low-level helpers shared with the CSV and trace writers. */
/* Write `s` as a quoted JSON string literal (RFC 8259 escaping; invalid UTF-8
 * becomes U+FFFD so the output stays valid JSON). NULL writes null. */
void json_write_quoted(FILE *f, const char *s);
/* Format a double the way json_double does ("null" for NaN/inf) into buf,
 * which must hold JSON_DOUBLE_BUF bytes; returns the length written. */
#define JSON_DOUBLE_BUF 32
int json_format_double(char *buf, double v);

#endif

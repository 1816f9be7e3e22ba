/* The configuration library's calls for the layers that read files of their
 * own (src/gen's profiles, src/scenario's models): parameter values, the
 * table, nearest names, key files with line numbers, input errors. Not a
 * private header: the library sits below every block (tools/check-layers). */
#ifndef SIMTGRID_CONFIG_LIB_H
#define SIMTGRID_CONFIG_LIB_H

#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/config.h"

/* ---- parameter values (param_value.c) ---------------------------------- */

typedef union param_value {
    int64_t i;   /* PT_INT */
    double f;    /* PT_FLOAT */
    bool b;      /* PT_BOOL */
    int e;       /* PT_ENUM: index in choices */
} param_value;

/* Parse `text` as a value of `p`, checking type, range and choices. On
 * success fills *v and, when canon is not NULL, *canon with the canonical text
 * (g_free it), and returns NULL. On failure returns a newly allocated
 * "expected ..., got '...'" (g_free it). */
char *param_parse(const param_def *p, const char *text, param_value *v, char **canon);
/* ---- integers (num_parse.c): the one parser of every input format ----- */

typedef enum num_status { NUM_OK, NUM_BAD, NUM_RANGE } num_status;
#define NUM_SIGN 1u  /* a leading + or - (its sign in *neg) */
#define NUM_BIN 2u   /* with base 0: 0b binary as well as 0x hex */
#define NUM_SEP 4u   /* '_' between digits: 1_000_000 */
/* The whole of `s` as an integer of magnitude *mag: base 0 means decimal, or
 * hex after 0x (binary after 0b with NUM_BIN); base 16 accepts a 0x prefix.
 * NUM_RANGE: well formed but over 64 bits. `neg` may be NULL without NUM_SIGN. */
num_status num_parse(const char *s, unsigned base, unsigned flags, uint64_t *mag, bool *neg);

/* Decimal or 0x-hex integer with optional sign, whole text; *overflow tells
 * an out-of-range number from a malformed one. */
bool param_parse_int64(const char *s, int64_t *out, bool *overflow);
/* Index of `word` among the '|'-separated `choices`, or -1. */
int param_choice_index(const char *choices, const char *word);
/* Index of `word` among the choices of enum `d`, then among the policies
 * registered for it (policy.c), or -1. */
int policy_choice_index(const param_def *d, const char *word);
/* Every accepted value of enum `d`, joined by `sep` (g_free it). */
char *policy_choices_text(const param_def *d, const char *sep);
/* Text of a bool for the strings people write: true/false, yes/no, on/off, 1/0. */
bool param_parse_bool(const char *text, bool *out);
/* Number text for messages and tables: integral values without exponent. */
void param_format_number(char *buf, size_t len, double v);
const char *param_type_name(param_type t);

/* The default of `p` as a typed JSON value (config_json.c). */
struct json_writer;
void param_write_default_json(struct json_writer *w, const param_def *p);

/* ---- the table (param_table.c) ----------------------------------------- */

/* Check a table: names well formed and unique, defaults parse and lie in
 * range, enum defaults among their choices. Returns false with *err naming
 * the row. The real table is checked once, on first use (abort if bad). */
bool param_table_check(const param_def *table, size_t n, GError **err);
/* Index of `name` in param_table, or -1. */
int param_index(const char *name);
/* True when some parameter is named GROUP.something. */
bool param_group_exists(const char *group);
/* Nearest group name (for "unknown group [l1]: did you mean [l1d]?"). */
const char *param_nearest_group(const char *group);

/* ---- nearest names (nearest.c) ----------------------------------------- */

size_t edit_distance(const char *a, const char *b);
/* The candidate closest to `name`; ties go to the earliest. NULL if n == 0. */
const char *nearest_of(const char *name, const char *const *cands, size_t n);

/* ---- config internals (config.c) --------------------------------------- */

/* config_set with error text "<where> key '<key>': <what>", where `where` is
 * e.g. "m.ini:12: [l1d]" and `origin` (remembered) e.g. "m.ini:12". */
bool config_set_at(config *c, const char *key, const char *value, const char *origin,
                   const char *where, GError **err);

/* ---- key files with line numbers (keyfile_scan.c) ---------------------- */

typedef struct kf_entry {
    const char *group;   /* points into kf_doc.groups */
    char *key;
    char *value;         /* unescaped by GKeyFile, trimmed */
    int line;            /* 1-based */
} kf_entry;

typedef struct kf_group {
    char *name;
    int line;
} kf_group;

typedef struct kf_doc {
    char *path;          /* as given (for messages) */
    kf_group *groups;    /* file order */
    unsigned ngroups;
    kf_entry *entries;   /* file order */
    unsigned nentries;
} kf_doc;

/* Read and parse a key file. Syntax errors, repeated groups and repeated keys
 * are errors with "path:line:". When the file cannot be read the message is
 * "<named_by>: cannot read 'path' (reason)", or "path: cannot read file
 * (reason)" when named_by is NULL. */
kf_doc *kf_doc_load(const char *path, const char *named_by, GError **err);
void kf_doc_free(kf_doc *d);
const kf_group *kf_find_group(const kf_doc *d, const char *group);
const kf_entry *kf_find(const kf_doc *d, const char *group, const char *key);
/* Resolve `rel` against the directory of the file `base` (absolute stays). */
char *kf_resolve_path(const char *base, const char *rel);
/* Split "a, b ,c" on commas, trimming; NULL when some item is empty. An empty
 * or all-blank text gives an empty vector. */
char **kf_split_list(const char *text);

/* The one user-error helper (input_error.c). Sets *err (domain, code) to
 * "FILE:LINE: MSG", "FILE: MSG" when line is 0, or "MSG" when file is NULL
 * (the message then names its origin itself). Returns false. */
bool input_error_v(GError **err, GQuark domain, int code, const char *file, unsigned line,
                   const char *fmt, va_list ap) G_GNUC_PRINTF(6, 0);
bool input_error_in(GError **err, GQuark domain, int code, const char *file, unsigned line,
                    const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* The same in SIMTGRID_ERROR / SIMTGRID_ERROR_INPUT. */
bool input_error_at(GError **err, const char *file, unsigned line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
bool input_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* The user error about one key of an input file, in the one form every
 * reader uses: "FILE:LINE: [GROUP] key 'KEY': MESSAGE" (no ":LINE" when
 * line is 0, as for an origin that already is "file:line"; no "[GROUP] "
 * when group is NULL). MESSAGE (printf style) says what was expected and
 * what was given. Returns false. */
bool key_error(GError **err, const char *file, int line, const char *group, const char *key,
               const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* "FILE:LINE", the origin a value keeps for later errors. */
char *input_origin(const char *file, unsigned line);
/* "FILE:LINE: [group] key 'k'", the start of an error about one key. */
char *input_key_where(const char *file, unsigned line, const char *group, const char *key);

#endif

/* Parameters and resolved configurations.
 *
 * Every model parameter is one row of one table (src/config/param_table.c):
 * dotted name, type, unit, default, allowed range, one-line description.
 * The rows live next to their blocks in `src/<block>/params.def` files as
 * PARAM(...) lines, and the table includes them all, so `simtgrid params`
 * prints everything and a typo names the nearest valid key.
 *
 * A `config` holds one value for every parameter (defaults, then the model
 * file and its includes, then scenario overrides, then --set), and remembers
 * where each value came from ("file:line" or "default" or "--set"), so errors
 * and the JSON configuration echo can say so. */
#ifndef SIMTGRID_CONFIG_H
#define SIMTGRID_CONFIG_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtgrid/policy.h"

typedef enum param_type {
    PT_INT,     /* signed 64-bit integer; min/max inclusive */
    PT_FLOAT,   /* double; min/max inclusive */
    PT_BOOL,    /* true/false, yes/no, 1/0, on/off */
    PT_ENUM,    /* one of `choices` ("lrr|gto|2lev") */
    PT_STRING,  /* free text (paths, names) */
} param_type;

typedef struct param_def {
    const char *name;     /* "l1d.sets" */
    param_type type;
    const char *unit;     /* "cycles", "bytes", "MHz", "" ... */
    const char *def;      /* default, as text */
    double min, max;      /* for PT_INT and PT_FLOAT */
    const char *choices;  /* for PT_ENUM: "a|b|c" */
    const char *desc;     /* one line */
} param_def;

/* The one table. */
extern const param_def param_table[];
extern const size_t param_table_len;
const param_def *param_find(const char *name);
/* The valid name closest to `name` (edit distance), for "did you mean". */
const char *param_nearest(const char *name);

typedef struct config config;

config *config_new(void);                 /* every parameter at its default */
config *config_copy(const config *c);
void config_free(config *c);

/* Set a parameter from text. `origin` is "file:line" (or "--set", ...) and is
 * used in the error and remembered. On error returns false and sets *err with
 * a message that names the origin, the key, and what was expected (and the
 * nearest valid key when the key is unknown). */
bool config_set(config *c, const char *key, const char *value, const char *origin,
                GError **err);

/* Typed reads. Reading a key that is not in the table, or with the wrong
 * type, is a programming error and aborts with a message. */
int64_t cfg_int(const config *c, const char *key);
double cfg_float(const config *c, const char *key);
bool cfg_bool(const config *c, const char *key);
const char *cfg_str(const config *c, const char *key);   /* any type, as text */
/* Whether enum `key` is set to `word`; a word that is not among its choices
 * aborts (a programming error). Enums are read by name, never by position. */
bool cfg_is(const config *c, const char *key, const char *word);
const char *cfg_origin(const config *c, const char *key);

/* The error for a value a block cannot use (the table accepted it, but not
 * with the other values): "<origin>: <key> = '<value>': <why>", origin being
 * where the value came from ("m.ini:12", "default"). Returns false. */
bool cfg_blame(const config *c, const char *key, const char *why, GError **err);

/* ---- parameters bound to struct fields: one reader for every block ------ */

typedef enum param_field {
    PF_UNSIGNED,   /* unsigned from PT_INT */
    PF_U64,        /* uint64_t from PT_INT */
    PF_BOOL,       /* bool from PT_BOOL */
    PF_DOUBLE,     /* double from PT_FLOAT */
    PF_ENUM,       /* an int-sized enum from PT_ENUM, by name: names[v] is value v's word */
    PF_POLICY,     /* const policy * from PT_ENUM, found by `find` (a block's registry) */
    PF_TEXT,       /* char[size] from any type */
} param_field;

typedef struct param_bind {
    const char *key;          /* "dram.tRCD", or "sets" when read with prefix "l1d" */
    size_t offset;            /* of the field in the block's parameter struct */
    param_field field;
    const char *const *names; /* PF_ENUM: NULL-terminated, indexed by value */
    const policy *(*find)(const char *param, const char *name);  /* PF_POLICY */
    size_t size;              /* PF_TEXT: the buffer's size */
} param_bind;

#define PB(type, key, member, kind) {key, offsetof(type, member), kind, NULL, NULL, 0}
#define PB_ENUM(type, key, member, words) {key, offsetof(type, member), PF_ENUM, words, NULL, 0}
#define PB_POLICY(type, key, member, finder) {key, offsetof(type, member), PF_POLICY, NULL, finder, 0}
#define PB_TEXT(type, key, member) \
    {key, offsetof(type, member), PF_TEXT, NULL, NULL, sizeof(((type *)0)->member)}

/* Fills the `n` bound fields of *dst from `c`, or from the table's defaults
 * when c is NULL (the one default path). `prefix` ("l1d") is put before
 * every key, NULL for full keys. Fails (cfg_blame) only for a text too long
 * for its buffer; a key not in the table, a type mismatch or a word that is
 * not among `names` is a programming error and aborts. */
bool params_read(void *dst, const param_bind *b, size_t n, const char *prefix, const config *c,
                 GError **err);

/* The configuration echo for results: a JSON object of every parameter, in
 * table order, name -> value (numbers, booleans, strings for enum/string). */
struct json_writer;
void config_write_json(const config *c, struct json_writer *w);
/* name -> origin ("file:line", "--set", ...) of every value not at its default,
 * in table order: where each setting of a run came from. */
void config_write_json_origins(const config *c, struct json_writer *w);

/* GError domain for configuration, scenario and model errors. */
#define SIMTGRID_ERROR simtgrid_error_quark()
GQuark simtgrid_error_quark(void);
enum { SIMTGRID_ERROR_INPUT = 1 };

#endif

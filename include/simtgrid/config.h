/* Parameters and resolved configurations.
 *
 * Every model parameter is one row of one table (src/scenario/param_table.c):
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
#include <stdint.h>

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
int cfg_enum(const config *c, const char *key);          /* index in choices */
const char *cfg_origin(const config *c, const char *key);

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

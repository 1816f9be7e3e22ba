/* `simtgrid params` and `simtgrid params --json`: the table, in table order. */
#include <string.h>

#include "simtgrid/json.h"
#include "simtgrid/params_print.h"
#include "config/config_lib.h"

/* "1 .. 64" for numbers, "rr|islip" for enums, "" otherwise. */
static char *range_column(const param_def *p)
{
    if (p->type == PT_ENUM)
        return g_strdup(p->choices);
    if (p->type != PT_INT && p->type != PT_FLOAT)
        return g_strdup("");
    char lo[40], hi[40];
    param_format_number(lo, sizeof lo, p->min);
    param_format_number(hi, sizeof hi, p->max);
    return g_strdup_printf("%s .. %s", lo, hi);
}

void params_print_text(FILE *f)
{
    param_index("");   /* validate the table first */
    static const char *const head[] = {"NAME", "TYPE", "UNIT", "DEFAULT", "RANGE"};
    size_t w[5];
    for (unsigned k = 0; k < 5; k++)
        w[k] = strlen(head[k]);
    char **range = g_new0(char *, param_table_len);
    for (size_t i = 0; i < param_table_len; i++) {
        const param_def *p = &param_table[i];
        range[i] = range_column(p);
        const char *col[5] = {p->name, param_type_name(p->type), p->unit, p->def, range[i]};
        for (unsigned k = 0; k < 5; k++)
            w[k] = MAX(w[k], strlen(col[k]));
    }
    fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], head[0], (int)w[1], head[1],
            (int)w[2], head[2], (int)w[3], head[3], (int)w[4], head[4], "DESCRIPTION");
    for (size_t i = 0; i < param_table_len; i++) {
        const param_def *p = &param_table[i];
        fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], p->name, (int)w[1],
                param_type_name(p->type), (int)w[2], p->unit, (int)w[3], p->def, (int)w[4],
                range[i], p->desc);
        g_free(range[i]);
    }
    g_free(range);
    fprintf(f, "%zu parameters\n", param_table_len);
}

void params_print_json(FILE *f)
{
    param_index("");
    json_writer w;
    json_init(&w, f, 2);
    json_begin_object(&w);
    json_key(&w, "parameters");
    json_begin_array(&w);
    for (size_t i = 0; i < param_table_len; i++) {
        const param_def *p = &param_table[i];
        json_begin_object(&w);
        json_kv_string(&w, "name", p->name);
        json_kv_string(&w, "type", param_type_name(p->type));
        json_kv_string(&w, "unit", p->unit);
        json_key(&w, "default");
        param_write_default_json(&w, p);
        if (p->type == PT_INT || p->type == PT_FLOAT) {
            json_kv_double(&w, "min", p->min);
            json_kv_double(&w, "max", p->max);
        }
        if (p->type == PT_ENUM) {
            json_key(&w, "choices");
            json_begin_array(&w);
            char **v = g_strsplit(p->choices, "|", -1);
            for (unsigned k = 0; v[k]; k++)
                json_string(&w, v[k]);
            g_strfreev(v);
            json_end_array(&w);
        }
        json_kv_string(&w, "description", p->desc);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
    json_end(&w);
}

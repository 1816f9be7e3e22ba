/* The configuration echo written into every result document. */
#include "simtgrid/json.h"
#include "config/config_lib.h"

static void write_value(json_writer *w, const param_def *p, const char *text, param_value v)
{
    switch (p->type) {
    case PT_INT: json_int(w, v.i); break;
    case PT_FLOAT: json_double(w, v.f); break;
    case PT_BOOL: json_bool(w, v.b); break;
    case PT_ENUM:
    case PT_STRING: json_string(w, text); break;
    }
}

void config_write_json(const config *c, json_writer *w)
{
    json_begin_object(w);
    for (size_t i = 0; i < param_table_len; i++) {
        const param_def *p = &param_table[i];
        param_value v = {0};
        /* Re-parse the canonical text: it is exact for every type. */
        const char *text = cfg_str(c, p->name);
        char *why = param_parse(p, text, &v, NULL);
        g_assert(!why);
        json_key(w, p->name);
        write_value(w, p, text, v);
    }
    json_end_object(w);
}

void config_write_json_origins(const config *c, json_writer *w)
{
    json_begin_object(w);
    for (size_t i = 0; i < param_table_len; i++) {
        const char *o = cfg_origin(c, param_table[i].name);
        if (g_strcmp0(o, "default"))
            json_kv_string(w, param_table[i].name, o);
    }
    json_end_object(w);
}

void param_write_default_json(json_writer *w, const param_def *p)
{
    param_value v = {0};
    char *canon = NULL;
    char *why = param_parse(p, p->def, &v, &canon);
    g_assert(!why);
    write_value(w, p, canon, v);
    g_free(canon);
}

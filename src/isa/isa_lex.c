/* Small lexical helpers for the .sasm parser: trimming, comma splitting,
 * literals, identifiers ("did you mean" uses the config library's
 * edit_distance). */
#include <string.h>

#include "isa_internal.h"

bool isa_is_ident(const char *s)
{
    if (!s || !(g_ascii_isalpha(*s) || *s == '_' || *s == '$')) return false;
    for (s++; *s; s++)
        if (!(g_ascii_isalnum(*s) || *s == '_' || *s == '$' || *s == '.')) return false;
    return true;
}

char *isa_strip(char *s)
{
    return g_strstrip(s);
}

GPtrArray *isa_split_commas(const char *s)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    int depth = 0;
    const char *start = s;
    for (const char *c = s;; c++) {
        if (*c == '[' || *c == '{') depth++;
        else if ((*c == ']' || *c == '}') && depth > 0) depth--;
        if (*c == '\0' || (*c == ',' && depth == 0)) {
            char *piece = g_strndup(start, (gsize)(c - start));
            g_ptr_array_add(out, isa_strip(piece));
            if (*c == '\0') break;
            start = c + 1;
        }
    }
    return out;
}

bool isa_parse_u64(const char *s, uint64_t *out)
{
    return num_parse(s, 0, NUM_BIN | NUM_SEP, out, NULL) == NUM_OK;
}

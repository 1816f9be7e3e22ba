/* Key files with line numbers. GKeyFile parses and unescapes values but keeps
 * no line numbers, so the text is also scanned here, with GKeyFile's own line
 * rules, to map every group and key to its line, to name the line of a syntax
 * error, and to refuse repeated groups and keys (which GKeyFile would merge or
 * silently override). */
#include <stdio.h>
#include <string.h>

#include "config/config_lib.h"
#include "simtgrid/input.h"

void kf_doc_free(kf_doc *d)
{
    if (!d)
        return;
    for (unsigned i = 0; i < d->ngroups; i++)
        g_free(d->groups[i].name);
    for (unsigned i = 0; i < d->nentries; i++) {
        g_free(d->entries[i].key);
        g_free(d->entries[i].value);
    }
    g_free(d->groups);
    g_free(d->entries);
    g_free(d->path);
    g_free(d);
}

const kf_group *kf_find_group(const kf_doc *d, const char *group)
{
    for (unsigned i = 0; i < d->ngroups; i++)
        if (!strcmp(d->groups[i].name, group))
            return &d->groups[i];
    return NULL;
}

const kf_entry *kf_find(const kf_doc *d, const char *group, const char *key)
{
    for (unsigned i = 0; i < d->nentries; i++)
        if (!strcmp(d->entries[i].group, group) && !strcmp(d->entries[i].key, key))
            return &d->entries[i];
    return NULL;
}

/* One line, already stripped of leading blanks and the trailing '\r'. Adds a
 * group or entry (value filled later), or fails with the reason. */
static bool scan_line(kf_doc *d, GArray *groups, GArray *entries, char *line, int lineno,
                      GError **err)
{
    if (!*line || *line == '#')
        return true;
    if (*line == '[') {
        char *close = strchr(line, ']');
        const char *after = close ? close + 1 : NULL;
        while (after && (*after == ' ' || *after == '\t'))
            after++;
        if (!close || *after || close == line + 1 || memchr(line + 1, '[', (size_t)(close - line - 1)))
            return input_error_at(err, d->path, lineno,
                                  "expected a group header like '[name]', got '%s'", line);
        char *name = g_strndup(line + 1, (size_t)(close - line - 1));
        for (guint i = 0; i < groups->len; i++) {
            kf_group *g = &g_array_index(groups, kf_group, i);
            if (!strcmp(g->name, name)) {
                input_error_at(err, d->path, lineno,
                               "group [%s] appears again (first at line %d): expected each group once",
                               name, g->line);
                g_free(name);
                return false;
            }
        }
        kf_group g = {name, lineno};
        g_array_append_val(groups, g);
        return true;
    }
    char *eq = strchr(line, '=');
    if (!eq || eq == line)
        return input_error_at(err, d->path, lineno,
                              "expected 'key = value', '[group]' or a '#' comment, got '%s'", line);
    char *key = g_strchomp(g_strndup(line, (size_t)(eq - line)));
    if (!*key || strpbrk(key, "[]")) {
        input_error_at(err, d->path, lineno,
                       "bad key '%s': expected a name without '[' or ']'", key);
        g_free(key);
        return false;
    }
    if (!groups->len) {
        input_error_at(err, d->path, lineno,
                       "key '%s' comes before any group: expected a '[group]' line first", key);
        g_free(key);
        return false;
    }
    kf_group *cur = &g_array_index(groups, kf_group, groups->len - 1);
    for (guint i = 0; i < entries->len; i++) {
        kf_entry *e = &g_array_index(entries, kf_entry, i);
        /* Entries keep the group's index until the array stops moving. */
        if (GPOINTER_TO_UINT(e->group) == groups->len - 1 && !strcmp(e->key, key)) {
            input_error_at(err, d->path, lineno,
                           "[%s] key '%s' is set again (first at line %d): expected each key once",
                           cur->name, key, e->line);
            g_free(key);
            return false;
        }
    }
    kf_entry e = {GUINT_TO_POINTER(groups->len - 1), key, NULL, lineno};
    g_array_append_val(entries, e);
    return true;
}

static bool scan_text(kf_doc *d, char *text, GError **err)
{
    GArray *groups = g_array_new(FALSE, TRUE, sizeof(kf_group));
    GArray *entries = g_array_new(FALSE, TRUE, sizeof(kf_entry));
    bool ok = true;
    int lineno = 0;
    for (char *line = text; line && ok; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r')
            line[l - 1] = '\0';
        char *start = line;
        while (g_ascii_isspace(*start))
            start++;
        ok = scan_line(d, groups, entries, start, lineno + 1, err);
        if (nl)
            *nl = '\n';
        if (l && line[l - 1] == '\0')
            line[l - 1] = '\r';
        line = nl ? nl + 1 : NULL;
    }
    d->ngroups = groups->len;
    d->groups = (kf_group *)g_array_free(groups, FALSE);
    d->nentries = entries->len;
    d->entries = (kf_entry *)g_array_free(entries, FALSE);
    /* Turn group indices into pointers now that the group array is final. */
    for (unsigned i = 0; i < d->nentries; i++)
        d->entries[i].group = d->groups[GPOINTER_TO_UINT(d->entries[i].group)].name;
    return ok;
}

/* Values through GKeyFile, for its escapes (\s \n \t \\) and UTF-8 checks. */
static bool fill_values(kf_doc *d, const char *text, size_t len, GError **err)
{
    GKeyFile *kf = g_key_file_new();
    GError *e = NULL;
    bool ok = g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e);
    if (!ok)
        input_error(err, "%s: %s", d->path, e->message);
    for (unsigned i = 0; ok && i < d->nentries; i++) {
        kf_entry *en = &d->entries[i];
        char *v = g_key_file_get_string(kf, en->group, en->key, &e);
        /* GKeyFile returns a value for an invalid escape ("8\x") and sets
         * the error too (found by tools/fuzz): refuse it, and never pass a
         * set error to the next call. */
        if (!v || e) {
            g_free(v);
            char *raw = g_key_file_get_value(kf, en->group, en->key, NULL);
            ok = key_error(err, d->path, en->line, en->group, en->key,
                           "expected a value whose escapes are \\s \\n \\t \\r or \\\\ (%s), got '%s'",
                           e ? e->message : "unreadable", raw ? g_strstrip(raw) : "");
            g_free(raw);
            break;
        }
        en->value = g_strstrip(v);
    }
    g_clear_error(&e);
    g_key_file_free(kf);
    return ok;
}

kf_doc *kf_doc_load(const char *path, const char *named_by, GError **err)
{
    size_t len = 0;
    char *text = NULL;
    char *why = input_read_why(path, INPUT_MAX_BYTES, &text, &len);
    if (why) {
        if (named_by)
            input_error_at(err, named_by, 0, "cannot read '%s' (%s)", path, why);
        else
            input_error_at(err, path, 0, "cannot read file (%s)", why);
        g_free(why);
        return NULL;
    }
    kf_doc *d = g_new0(kf_doc, 1);
    d->path = g_strdup(path);
    bool ok = true;
    if (strlen(text) != len) {
        int line = 1;
        for (const char *p = text; *p; p++)
            line += *p == '\n';
        ok = input_error_at(err, path, line, "unexpected NUL byte: expected a text file");
    }
    const char *bad_utf8 = NULL;
    if (ok && !g_utf8_validate(text, (gssize)len, &bad_utf8)) {
        int line = 1;
        for (const char *p = text; p < bad_utf8; p++)
            line += *p == '\n';
        ok = input_error_at(err, path, line, "invalid UTF-8: expected UTF-8 text");
    }
    ok = ok && scan_text(d, text, err) && fill_values(d, text, len, err);
    g_free(text);
    if (!ok) {
        kf_doc_free(d);
        return NULL;
    }
    return d;
}

char *kf_resolve_path(const char *base, const char *rel)
{
    if (g_path_is_absolute(rel))
        return g_strdup(rel);
    char *dir = g_path_get_dirname(base);
    char *p = strcmp(dir, ".") ? g_build_filename(dir, rel, NULL) : g_strdup(rel);
    g_free(dir);
    return p;
}

char **kf_split_list(const char *text)
{
    char *t = g_strstrip(g_strdup(text));
    if (!*t) {
        g_free(t);
        return g_new0(char *, 1);
    }
    char **v = g_strsplit(t, ",", -1);
    g_free(t);
    for (unsigned i = 0; v[i]; i++)
        if (!*g_strstrip(v[i])) {
            g_strfreev(v);
            return NULL;
        }
    return v;
}

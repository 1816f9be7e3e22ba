/* simtgrid-fuzz: a seeded mutation fuzzer of simtgrid's input formats
 * (docs/fuzzing.md). For each execution it takes a corpus file of the
 * format, applies 1-4 random mutations (bit flips, interesting bytes and
 * tokens, deleted, duplicated and spliced ranges, swapped lines), and feeds
 * the result to the same loader `simtgrid` uses:
 *
 *   scenario     scenario_load (its model, includes and kernel checks)
 *   model        model_load
 *   sasm         isa_program_parse
 *   profile      gen_profile_load, then the generated kernel must parse
 *   initializer  a .data line in a one-instruction kernel: parse, build the
 *                memory image, read elements at both ends and in between
 *
 * A finding is a crash (the input is saved first, as FINDINGS/last-FORMAT,
 * so a crash leaves it behind; run the ASan build to catch memory errors),
 * a hang (an execution over --timeout seconds), a refusal without an error
 * message or one that does not name the file, or a generated kernel that
 * does not load. Findings are saved as FINDINGS/FORMAT-N and counted; the
 * exit status is 1 if there were any. The same --seed gives the same
 * inputs. Relative paths in corpus files (model, kernel, include) are made
 * absolute first, so mutants written to a temporary folder still find the
 * files they name. */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "simtgrid/config.h"
#include "simtgrid/gen.h"
#include "simtgrid/isa.h"
#include "simtgrid/memimg.h"
#include "simtgrid/scenario.h"

typedef enum { F_SCENARIO, F_MODEL, F_SASM, F_PROFILE, F_INIT, F_COUNT } format;
static const char *const format_name[F_COUNT] = {"scenario", "model", "sasm", "profile", "initializer"};

typedef struct fuzz {
    GRand *rng;
    GPtrArray *corpus[F_COUNT];   /* char* texts */
    char *tmpdir, *findings;
    unsigned timeout;
    uint64_t execs[F_COUNT], found[F_COUNT], accepted[F_COUNT];
    bool ok;   /* the last execution's input was accepted */
} fuzz;

/* ---- corpus ------------------------------------------------------------ */

/* `key = a, b` with relative paths made absolute against `dir`. */
static char *absolute_paths(const char *text, const char *dir)
{
    static const char *const keys[] = {"model", "kernel", "include"};
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        const char *eq = strchr(*l, '=');
        char *key = eq ? g_strstrip(g_strndup(*l, (size_t)(eq - *l))) : NULL;
        bool path_key = false;
        for (unsigned k = 0; key && k < G_N_ELEMENTS(keys); k++)
            path_key |= !strcmp(key, keys[k]);
        if (!path_key) {
            g_string_append(out, *l);
        } else {
            g_string_append_printf(out, "%s = ", key);
            char **vals = g_strsplit(eq + 1, ",", -1);
            for (char **v = vals; *v; v++) {
                char *t = g_strstrip(g_strdup(*v));
                char *abs = g_path_is_absolute(t) ? g_strdup(t) : g_build_filename(dir, t, NULL);
                g_string_append_printf(out, "%s%s", v == vals ? "" : ", ", abs);
                g_free(abs);
                g_free(t);
            }
            g_strfreev(vals);
        }
        g_free(key);
        if (l[1])
            g_string_append_c(out, '\n');
    }
    g_strfreev(lines);
    return g_string_free(out, FALSE);
}

static format classify(const char *path, const char *text)
{
    if (g_str_has_suffix(path, ".sasm"))
        return F_SASM;
    if (!g_str_has_suffix(path, ".ini"))
        return F_COUNT;
    if (strstr(text, "[scenario]"))
        return F_SCENARIO;
    if (strstr(path, "profiles/"))
        return F_PROFILE;
    return F_MODEL;
}

static void add_initializers(fuzz *z, const char *text)
{
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        const char *t = *l;
        while (*t == ' ' || *t == '\t')
            t++;
        if (g_str_has_prefix(t, ".data "))
            g_ptr_array_add(z->corpus[F_INIT], g_strdup(t));
    }
    g_strfreev(lines);
}

static void load_corpus(fuzz *z, const char *root)
{
    GDir *d = g_dir_open(root, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        char *p = g_build_filename(root, n, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR)) {
            load_corpus(z, p);
        } else {
            char *text = NULL;
            if (g_file_get_contents(p, &text, NULL, NULL)) {
                format f = classify(p, text);
                char *dir = g_path_get_dirname(p);
                char *abs_dir = g_canonicalize_filename(dir, NULL);
                if (f != F_COUNT)
                    g_ptr_array_add(z->corpus[f], absolute_paths(text, abs_dir));
                if (f == F_SASM)
                    add_initializers(z, text);
                g_free(dir);
                g_free(abs_dir);
            }
            g_free(text);
        }
        g_free(p);
    }
    if (d)
        g_dir_close(d);
}

/* ---- mutations --------------------------------------------------------- */

static const char *const tokens[] = {
    "4294967296", "-1", "18446744073709551616", "9223372036854775807", "1e308", "nan", "inf", "0x",
    "0", "-0", "1.5", "/dev/zero", "/", "..", "[launch.x]", "[sweep]", "[model]", "include = ", "=",
    ",", ", , ,", "%tid.x", ".data", "iota(", "random(", "perm(", "csr(", ")", "((((", "\\", "\\x",
    "\"", "#", "\n[", "]", "u64[", "f32[0]", "[4294967295]", "@a", "r255", "p7", "bra", "exit", "\t",
    "\xff\xfe", "\xc3\x28", "seed = ", "sms = 0-1000000", "grid = 4294967295",
};

static size_t rnd(fuzz *z, size_t n) { return n ? (size_t)g_rand_int_range(z->rng, 0, (gint32)MIN(n, G_MAXINT32)) : 0; }

static void mutate_once(fuzz *z, GString *s, format f)
{
    size_t len = s->len;
    switch (rnd(z, 7)) {
    case 0:   /* flip a bit */
        if (len)
            s->str[rnd(z, len)] ^= (char)(1u << rnd(z, 8));
        break;
    case 1: { /* an interesting byte */
        static const char bytes[] = {'\0', '\n', '=', '[', ']', ',', '-', '9', '\xff', ' ', '.', '#'};
        if (len)
            s->str[rnd(z, len)] = bytes[rnd(z, sizeof bytes)];
        break;
    }
    case 2: { /* delete a range */
        size_t at = rnd(z, len + 1), n = rnd(z, MIN(len - at, 64) + 1);
        g_string_erase(s, (gssize)at, (gssize)n);
        break;
    }
    case 3: { /* duplicate a range */
        size_t at = rnd(z, len + 1), n = rnd(z, MIN(len - at, 128) + 1);
        char *copy = g_strndup(s->str + at, n);
        g_string_insert(s, (gssize)rnd(z, len + 1), copy);
        g_free(copy);
        break;
    }
    case 4:   /* an interesting token */
        g_string_insert(s, (gssize)rnd(z, len + 1), tokens[rnd(z, G_N_ELEMENTS(tokens))]);
        break;
    case 5: { /* splice in part of another file of the format */
        GPtrArray *c = z->corpus[f];
        const char *other = g_ptr_array_index(c, rnd(z, c->len));
        size_t ol = strlen(other), at = rnd(z, ol + 1), n = rnd(z, MIN(ol - at, 256) + 1);
        char *part = g_strndup(other + at, n);
        size_t where = rnd(z, len + 1);
        g_string_erase(s, (gssize)where, (gssize)rnd(z, MIN(len - where, 64) + 1));
        g_string_insert(s, (gssize)where, part);
        g_free(part);
        break;
    }
    default: { /* swap two lines */
        char **lines = g_strsplit(s->str, "\n", -1);
        guint n = g_strv_length(lines);
        if (n > 1) {
            guint a = (guint)rnd(z, n), b = (guint)rnd(z, n);
            char *t = lines[a];
            lines[a] = lines[b];
            lines[b] = t;
            char *j = g_strjoinv("\n", lines);
            g_string_assign(s, j);
            g_free(j);
        }
        g_strfreev(lines);
        break;
    }
    }
}

/* ---- executions -------------------------------------------------------- */

/* A GLib warning or critical during an execution (a GError set twice, a
 * failed g_return_if_fail) is a finding: it is a bug even when the loader
 * then refuses the input cleanly. */
static char *glib_complaint;
static void on_glib_log(const char *domain, GLogLevelFlags level, const char *msg, gpointer data)
{
    (void)data;
    if (!glib_complaint && (level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)))
        glib_complaint = g_strdup_printf("GLib %s: %s", domain ? domain : "", msg);
}

static const char *current_format;
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "simtgrid-fuzz: HANG: an execution ran past the timeout; the input is "
                              "FINDINGS/last-FORMAT\n";
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
    }
    _exit(3);
}

/* A refusal must carry a message that names the input file. */
static char *check_refusal(GError *err, const char *path, bool *ok)
{
    *ok = false;
    if (!err)
        return g_strdup("refused without an error");
    /* The mutant, or a file it names (a model, an include, a kernel). */
    if (!strstr(err->message, path) && !strstr(err->message, ".ini") && !strstr(err->message, ".sasm"))
        return g_strdup_printf("error does not name the file: %s", err->message);
    return NULL;
}

/* Plain writes: g_file_set_contents may fsync, which would make the disk,
 * not the loaders, the fuzzer's bottleneck. */
static void put_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

static char *exec_text(fuzz *z, format f, const char *text, size_t len)
{
    char *path = g_build_filename(z->tmpdir, f == F_SASM || f == F_INIT ? "fuzz.sasm" : "fuzz.ini", NULL);
    GError *err = NULL;
    char *problem = NULL;
    z->ok = true;
    if (f == F_SASM || f == F_INIT) {
        char *src = f == F_INIT ? g_strdup_printf(".kernel k\n%.*s\n    exit\n", (int)len, text)
                                : g_strndup(text, len);
        isa_program *p = isa_program_parse(src, path, &err);
        if (!p) {
            problem = check_refusal(err, path, &z->ok);
        } else if (f == F_INIT) {
            memimg *m = isa_program_new_memimg(p, 7, &err);
            if (!m && isa_program_ndata(p))
                problem = check_refusal(err, path, &z->ok);
            for (unsigned i = 0; m && i < isa_program_ndata(p); i++) {
                const isa_data_decl *d = isa_program_data(p, i);
                uint64_t idx[] = {0, 1, d->count / 2, d->count ? d->count - 1 : 0};
                for (unsigned k = 0; k < 4 && d->count; k++)
                    memimg_read(m, d->base + idx[k] * d->elem_bytes, d->elem_bytes > 8 ? 8 : d->elem_bytes);
            }
            memimg_free(m);
        }
        isa_program_free(p);
        g_free(src);
    } else {
        put_file(path, text, len);
        if (f == F_SCENARIO) {
            scenario *s = scenario_load(path, NULL, &err);
            if (!s)
                problem = check_refusal(err, path, &z->ok);
            scenario_free(s);
        } else if (f == F_MODEL) {
            config *c = config_new();
            if (!model_load(c, path, &err))
                problem = check_refusal(err, path, &z->ok);
            config_free(c);
        } else {
            gen_profile *p = gen_profile_load(path, &err);
            if (!p) {
                problem = check_refusal(err, path, &z->ok);
            } else {
                char *k = gen_kernel_text(p, 1);
                GError *e2 = NULL;
                isa_program *prog = isa_program_parse(k, "generated.sasm", &e2);
                if (!prog)
                    problem = g_strdup_printf("the generated kernel does not load: %s", e2->message);
                isa_program_free(prog);
                g_clear_error(&e2);
                g_free(k);
                gen_profile_free(p);
            }
        }
    }
    g_clear_error(&err);
    g_free(path);
    return problem;
}

static void save(const char *dir, const char *name, const char *text, size_t len)
{
    char *p = g_build_filename(dir, name, NULL);
    put_file(p, text, len);
    g_free(p);
}

static void run_one(fuzz *z, format f)
{
    GPtrArray *c = z->corpus[f];
    GString *s = g_string_new(g_ptr_array_index(c, rnd(z, c->len)));
    unsigned n = 1 + (unsigned)rnd(z, 4);
    for (unsigned i = 0; i < n; i++)
        mutate_once(z, s, f);
    char *last = g_strdup_printf("last-%s", format_name[f]);
    save(z->findings, last, s->str, s->len);   /* a crash leaves its input */
    current_format = format_name[f];
    alarm(z->timeout);
    char *problem = exec_text(z, f, s->str, s->len);
    alarm(0);
    if (glib_complaint) {
        g_free(problem);
        problem = glib_complaint;
        glib_complaint = NULL;
    }
    z->execs[f]++;
    z->accepted[f] += z->ok;
    if (problem) {
        char *name = g_strdup_printf("%s-%" G_GUINT64_FORMAT, format_name[f], z->found[f]++);
        save(z->findings, name, s->str, s->len);
        fprintf(stderr, "simtgrid-fuzz: finding %s: %s\n", name, problem);
        g_free(name);
        g_free(problem);
    }
    g_free(last);
    g_string_free(s, TRUE);
}

static const char usage[] =
    "usage: simtgrid-fuzz [--seed N] [--execs N] [--format F] [--timeout S] [--findings DIR] CORPUS_DIR...\n"
    "  F: scenario, model, sasm, profile, initializer or all (default)\n";

int main(int argc, char **argv)
{
    guint64 seed = 1, execs = 1000, timeout = 10;
    const char *only = "all", *findings = NULL;
    GPtrArray *roots = g_ptr_array_new();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--seed") && more) {
            seed = g_ascii_strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--execs") && more) {
            execs = g_ascii_strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--timeout") && more) {
            timeout = g_ascii_strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--format") && more) {
            only = argv[++i];
        } else if (!strcmp(a, "--findings") && more) {
            findings = argv[++i];
        } else if (a[0] == '-') {
            fputs(usage, stderr);
            return 2;
        } else {
            g_ptr_array_add(roots, (char *)a);
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);   /* each format's line, even if the run is cut */
    fuzz z = {.rng = g_rand_new_with_seed((guint32)seed), .timeout = (unsigned)(timeout ? timeout : 1)};
    for (unsigned f = 0; f < F_COUNT; f++)
        z.corpus[f] = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < roots->len; i++)
        load_corpus(&z, g_ptr_array_index(roots, i));
    z.tmpdir = g_dir_make_tmp("simtgrid-fuzz-XXXXXX", NULL);
    z.findings = findings ? g_strdup(findings) : g_build_filename(z.tmpdir, "findings", NULL);
    g_mkdir_with_parents(z.findings, 0755);
    signal(SIGALRM, on_alarm);
    g_log_set_default_handler(on_glib_log, NULL);
    bool any = false;
    for (unsigned f = 0; f < F_COUNT; f++) {
        if (strcmp(only, "all") && strcmp(only, format_name[f]))
            continue;
        if (!z.corpus[f]->len) {
            fprintf(stderr, "simtgrid-fuzz: no %s files in the corpus\n", format_name[f]);
            return 2;
        }
        for (guint64 i = 0; i < execs; i++)
            run_one(&z, (format)f);
        printf("%-12s %8" G_GUINT64_FORMAT " executions (%" G_GUINT64_FORMAT " accepted, the rest refused) "
               "from %4u corpus inputs, %" G_GUINT64_FORMAT " findings\n", format_name[f], z.execs[f],
               z.accepted[f], z.corpus[f]->len, z.found[f]);
        any |= z.found[f] > 0;
        char *last = g_strdup_printf("%s/last-%s", z.findings, format_name[f]);
        g_unlink(last);
        g_free(last);
    }
    char *p = g_build_filename(z.tmpdir, "fuzz.ini", NULL);
    g_unlink(p);
    g_free(p);
    p = g_build_filename(z.tmpdir, "fuzz.sasm", NULL);
    g_unlink(p);
    g_free(p);
    if (!findings) {
        g_rmdir(z.findings);   /* only when empty */
        if (any)
            printf("findings kept in %s\n", z.findings);
    }
    g_rmdir(z.tmpdir);
    fflush(stdout);
    /* Freed so that the sanitizer build's leak check sees only real leaks. */
    for (unsigned f = 0; f < F_COUNT; f++)
        g_ptr_array_free(z.corpus[f], TRUE);
    g_rand_free(z.rng);
    g_free(z.tmpdir);
    g_free(z.findings);
    g_ptr_array_free(roots, TRUE);
    return any ? 1 : 0;
}

/* `simtgrid kernel check` and `simtgrid gen`. */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "simtgrid/gen.h"
#include "simtgrid/isa.h"

static bool asks_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
}

static const char kernel_usage[] =
    "usage: simtgrid kernel check KERNEL.sasm\n\n"
    "Parse a kernel; print its control-flow graph, reconvergence points and data declarations.\n";
static const char gen_usage[] =
    "usage: simtgrid gen PROFILE.ini -o KERNEL.sasm [--seed N]\n\n"
    "Write a synthetic kernel from a generator profile (docs/generator.md); --seed overrides the\n"
    "profile's seed. Only a regular file (or a new one) is written.\n";

/* Help is asked for: the usage on stdout, exit 0 (misuse prints it on
 * stderr and exits 2). */
int cli_kernel(int argc, char **argv)
{
    if (asks_help(argc, argv)) {
        fputs(kernel_usage, stdout);
        return 0;
    }
    if (argc != 2 || strcmp(argv[0], "check")) {
        fputs(kernel_usage, stderr);
        return 2;
    }
    GError *err = NULL;
    isa_program *p = isa_program_load_file(argv[1], &err);
    if (!p) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
        return 2;
    }
    GString *out = g_string_new(NULL);
    isa_program_dump(p, out);
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
    isa_program_free(p);
    return 0;
}

/* NULL when `out` may be written: absent, or a regular file. Anything else
 * (a symbolic link, a device node, a named pipe, a folder) is refused rather
 * than replaced: as root, replacing /dev/sda by a kernel text is a disaster. */
static const char *not_writable(const char *out)
{
    struct stat st;
    if (lstat(out, &st) != 0)
        return errno == ENOENT ? NULL : g_strerror(errno);
    return S_ISREG(st.st_mode) ? NULL : S_ISLNK(st.st_mode) ? "a symbolic link"
         : S_ISDIR(st.st_mode) ? "a folder" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
         : S_ISFIFO(st.st_mode) ? "a named pipe" : "not a regular file";
}

/* simtgrid gen PROFILE -o KERNEL.sasm [--seed N]: the kernel is written only
 * when the profile is valid and the text loads as a kernel, so an error
 * leaves no file behind. */
int cli_gen(int argc, char **argv)
{
    if (asks_help(argc, argv)) {
        fputs(gen_usage, stdout);
        return 0;
    }
    const char *profile = NULL, *out = NULL, *seed_text = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed_text = argv[++i];
        else if (argv[i][0] != '-' && !profile)
            profile = argv[i];
        else
            profile = out = NULL, i = argc;
    }
    if (!profile || !out) {
        fputs(gen_usage, stderr);
        return 2;
    }
    const char *why = not_writable(out);
    if (why) {
        fprintf(stderr, "simtgrid gen: -o '%s': %s; only regular files are written\n", out, why);
        return 2;
    }
    guint64 seed = 0;
    GError *err = NULL;
    if (seed_text && !g_ascii_string_to_unsigned(seed_text, 10, 0, G_MAXUINT64, &seed, &err)) {
        fprintf(stderr, "simtgrid gen: --seed: expected an unsigned integer, got '%s'\n", seed_text);
        g_clear_error(&err);
        return 2;
    }
    gen_profile *p = gen_profile_load(profile, &err);
    if (!p) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
        return 2;
    }
    char *text = gen_kernel_text(p, seed_text ? seed : gen_profile_seed(p));
    gen_profile_free(p);
    int rc = 0;
    isa_program *k = isa_program_parse(text, out, &err);
    if (!k) {
        /* A bug in the generator, not in the profile. */
        fprintf(stderr, "simtgrid gen: internal error: the generated kernel does not load: %s\n",
                err->message);
        rc = 1;
    } else if (!g_file_set_contents(out, text, -1, &err)) {
        fprintf(stderr, "simtgrid gen: cannot write '%s' (%s)\n", out, err->message);
        rc = 2;
    }
    g_clear_error(&err);
    isa_program_free(k);
    g_free(text);
    return rc;
}

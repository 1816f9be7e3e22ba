/* `simtgrid kernel check` and `simtgrid gen`. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "simtgrid/isa.h"

int cli_kernel(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[0], "check")) {
        fprintf(stderr, "usage: simtgrid kernel check KERNEL.sasm\n");
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

int cli_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "simtgrid gen: the generator is not in this build yet\n");
    return 2;
}

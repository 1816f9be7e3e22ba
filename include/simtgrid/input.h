/* Reading an input file (scenario, model, profile, kernel) whole, safely:
 * only regular files are read (a device such as /dev/zero, a named pipe or a
 * directory is refused, never opened for reading in a way that can block),
 * and no input may exceed INPUT_MAX_BYTES (docs/scenarios.md, "Limits"). */
#ifndef SIMTGRID_INPUT_H
#define SIMTGRID_INPUT_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* 64 MiB: far above any real model, scenario or kernel text. */
#define INPUT_MAX_BYTES ((size_t)64 << 20)

/* Read `path` into *text (NUL-terminated, g_free it) and *len. On failure
 * returns NULL and the reason ("not a regular file (a character device)",
 * "larger than the 64 MiB limit of an input file", errno's text), which the
 * caller formats with the file name (g_free it). */
char *input_read_why(const char *path, size_t max, char **text, size_t *len);
/* The same with a GError "PATH: cannot read file (REASON)". */
bool input_read(const char *path, size_t max, char **text, size_t *len, GError **err);

#endif

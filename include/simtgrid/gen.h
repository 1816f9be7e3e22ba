/* The synthetic kernel generator: a profile (INI) becomes a readable .sasm
 * kernel with its data declarations, the same file for the same profile and
 * seed. Profile keys, their meaning and the kernel's shape: docs/generator.md.
 *
 * Profile keys are not model parameters (a model never sets them), so they
 * live in their own table (src/gen/profile_keys.def), with the same row
 * layout (name, type, unit, default, range, description) and the same value
 * parser and messages as the model parameters. */
#ifndef SIMTGRID_GEN_H
#define SIMTGRID_GEN_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "simtgrid/config.h"

typedef struct gen_profile gen_profile;

/* Reads and checks a profile. On error returns NULL and sets *err
 * (SIMTGRID_ERROR_INPUT) to "file:line: [group] key 'k': what was expected". */
gen_profile *gen_profile_load(const char *path, GError **err);
void gen_profile_free(gen_profile *p);
/* [profile] seed: the seed used when the command line gives none. */
uint64_t gen_profile_seed(const gen_profile *p);

/* The kernel text (g_free it). Deterministic in (profile, seed). */
char *gen_kernel_text(const gen_profile *p, uint64_t seed);

/* The profile key table (test/gen checks that docs/generator.md lists it). */
const param_def *gen_profile_keys(size_t *n);

#endif

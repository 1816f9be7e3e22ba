/* `simtgrid params`: the parameter table for people (text) and tools (JSON). */
#ifndef SIMTGRID_PARAMS_PRINT_H
#define SIMTGRID_PARAMS_PRINT_H

#include <stdio.h>

/* One row per parameter, in table order, with aligned columns: name, type,
 * unit, default, range or choices, description. */
void params_print_text(FILE *f);
/* {"parameters": [{"name", "type", "unit", "default", "min", "max",
 * "choices", "description"}, ...]}; default typed as the parameter; min/max
 * only for int and float, choices only for enum. */
void params_print_json(FILE *f);

#endif

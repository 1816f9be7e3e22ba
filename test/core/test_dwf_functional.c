/* Functional equivalence of the DWF variants with PDOM on every kernel of
 * test_lwm_functional.c (the same file, with the DWF variant table). */
#define FUNCTIONAL_DWF 1
#include "test_lwm_functional.c"

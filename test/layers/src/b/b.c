/* fixture: b may include a.h (a dependency), not a private header of a */
#include "a/a.h"
#include "a/a_internal.h"

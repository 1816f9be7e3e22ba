/* fixture: c does not depend on a */
#include "a/a.h"
#include "c/c.h"

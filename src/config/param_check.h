/* The frame of a block's parameter check, `bool X_params_check(const X *p,
 * const char **key, char *why, size_t why_len)` (cache_params_check,
 * dram_params_check): CHECK_FRAME() lets the caller pass NULL for key and
 * why; CHECK_FAIL(k, fmt, ...) blames parameter k, writes what was
 * expected and returns false. */
#ifndef SIMTGRID_CONFIG_PARAM_CHECK_H
#define SIMTGRID_CONFIG_PARAM_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static inline bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

#define CHECK_FRAME()                          \
    const char *check_key_;                    \
    char check_why_[1];                        \
    if (!key)                                  \
        key = &check_key_;                     \
    if (!why || !why_len) {                    \
        why = check_why_;                      \
        why_len = sizeof check_why_;           \
    }

#define CHECK_FAIL(k, ...)                     \
    do {                                       \
        *key = (k);                            \
        snprintf(why, why_len, __VA_ARGS__);   \
        return false;                          \
    } while (0)

#endif

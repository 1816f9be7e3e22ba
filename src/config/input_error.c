/* The one user-error helper: every message about bad input names where it
 * came from the same way, "FILE:LINE: [group] key 'k': expected ..., got
 * '...'" (docs/architecture.md). */
#include <stdarg.h>

#include "config/config_lib.h"

bool input_error_v(GError **err, GQuark domain, int code, const char *file, unsigned line,
                   const char *fmt, va_list ap)
{
    char *msg = g_strdup_vprintf(fmt, ap);
    if (file && line)
        g_set_error(err, domain, code, "%s:%u: %s", file, line, msg);
    else if (file)
        g_set_error(err, domain, code, "%s: %s", file, msg);
    else
        g_set_error_literal(err, domain, code, msg);
    g_free(msg);
    return false;
}

bool input_error_in(GError **err, GQuark domain, int code, const char *file, unsigned line,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_error_v(err, domain, code, file, line, fmt, ap);
    va_end(ap);
    return false;
}

bool input_error_at(GError **err, const char *file, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_error_v(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, file, line, fmt, ap);
    va_end(ap);
    return false;
}

bool input_error(GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_error_v(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, NULL, 0, fmt, ap);
    va_end(ap);
    return false;
}

bool key_error(GError **err, const char *file, int line, const char *group, const char *key,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (group)
        input_error_at(err, file, line > 0 ? (unsigned)line : 0, "[%s] key '%s': %s", group, key, msg);
    else
        input_error_at(err, file, line > 0 ? (unsigned)line : 0, "key '%s': %s", key, msg);
    g_free(msg);
    return false;
}

char *input_origin(const char *file, unsigned line)
{
    return g_strdup_printf("%s:%u", file, line);
}

char *input_key_where(const char *file, unsigned line, const char *group, const char *key)
{
    return g_strdup_printf("%s:%u: [%s] key '%s'", file, line, group, key);
}

/* Whole-file reads of inputs; see simtgrid/input.h. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_lib.h"
#include "simtgrid/config.h"
#include "simtgrid/input.h"

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "it is a directory" : S_ISCHR(m) ? "not a regular file (a character device)"
         : S_ISBLK(m) ? "not a regular file (a block device)" : S_ISFIFO(m) ? "not a regular file (a named pipe)"
         : S_ISSOCK(m) ? "not a regular file (a socket)" : "not a regular file";
}

char *input_read_why(const char *path, size_t max, char **text, size_t *len)
{
    /* O_NONBLOCK: opening a named pipe must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return g_strdup(g_strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        char *why = g_strdup(fstat(fd, &st) != 0 ? g_strerror(errno) : kind_of(st.st_mode));
        close(fd);
        return why;
    }
    if ((size_t)st.st_size > max) {
        close(fd);
        return g_strdup_printf("%" G_GUINT64_FORMAT " bytes, larger than the %zu MiB limit of an input file",
                               (guint64)st.st_size, max >> 20);
    }
    /* The size may change under us: read at most max + 1 bytes. */
    GString *s = g_string_sized_new((gsize)st.st_size + 1);
    char buf[65536];
    for (;;) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            char *why = g_strdup(g_strerror(errno));
            close(fd);
            g_string_free(s, TRUE);
            return why;
        }
        if (got == 0)
            break;
        g_string_append_len(s, buf, got);
        if (s->len > max) {
            close(fd);
            g_string_free(s, TRUE);
            return g_strdup_printf("larger than the %zu MiB limit of an input file", max >> 20);
        }
    }
    close(fd);
    *len = s->len;
    *text = g_string_free(s, FALSE);
    return NULL;
}

bool input_read(const char *path, size_t max, char **text, size_t *len, GError **err)
{
    char *why = input_read_why(path, max, text, len);
    if (!why)
        return true;
    input_error_at(err, path, 0, "cannot read file (%s)", why);
    g_free(why);
    return false;
}

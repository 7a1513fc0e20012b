/*
 * Diagnostics.  A user's mistake becomes one GirError line that names the
 * file and the place; the compiler's own bug aborts through gir_die.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir.h"
#include "internal.h"

GirLoc gir_loc_none(void)
{
    GirLoc l = {NULL, 0, -1, NULL};
    return l;
}

GirLoc gir_loc_file(const char *file, int64_t offset)
{
    GirLoc l = {file, 0, offset, NULL};
    return l;
}

const char *gir_loc_str(GirLoc loc, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (loc.file) {
        if (loc.line > 0)
            n += (size_t)snprintf(buf + n, size - n, "%s:%d", loc.file, loc.line);
        else if (loc.offset >= 0)
            n += (size_t)snprintf(buf + n, size - n, "%s: byte %lld", loc.file,
                                  (long long)loc.offset);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s", loc.file);
    }
    if (n < size && loc.node)
        snprintf(buf + n, size - n, "%snode '%s'", n ? ": " : "", loc.node);
    return buf;
}

int gir_error_at(GirError *e, GirLoc loc, const char *fmt, ...)
{
    char where[512];
    char what[768];
    va_list ap;
    if (!e)
        return -1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    gir_loc_str(loc, where, sizeof where);
    /* Truncation is acceptable: a diagnostic line longer than the buffer
     * still names the place first. */
    e->msg[0] = '\0';
    if (where[0]) {
        strncat(e->msg, where, sizeof e->msg - 1);
        strncat(e->msg, ": ", sizeof e->msg - 1 - strlen(e->msg));
    }
    strncat(e->msg, what, sizeof e->msg - 1 - strlen(e->msg));
    return -1;
}

void gir_die(const char *fmt, ...)
{
    va_list ap;
    fputs("kiln: internal error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

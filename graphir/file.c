/*
 * Small file helpers the folders above graphir share: a whole file read, a
 * whole-or-nothing file write and the string comparator of sorted folder
 * listings.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fsync, getpid */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graphir/graphir.h"

char *gir_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (!buf)
        gir_die("out of memory");
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = (size_t)n;
    fclose(f);
    return buf;
}

int gir_write_atomic(const char *path, const void *const *parts, const size_t *lens, int nparts,
                     GirError *e)
{
    GirLoc loc = gir_loc_file(path, -1);
    size_t tl = strlen(path) + 32;
    char *tmp = malloc(tl);
    FILE *f;
    int i, ok = 1, err = 0;

    if (!tmp)
        gir_die("out of memory");
    snprintf(tmp, tl, "%s.tmp.%ld", path, (long)getpid());
    f = fopen(tmp, "wb");
    if (!f) {
        err = errno;
        gir_error_at(e, loc, "cannot create '%s': %s", tmp, strerror(err));
        free(tmp);
        errno = err;
        return -1;
    }
    for (i = 0; i < nparts && ok; i++)
        if (lens[i] && fwrite(parts[i], 1, lens[i], f) != lens[i])
            ok = 0;
    if (ok && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        ok = 0;
    if (!ok) {
        err = errno;
        gir_error_at(e, loc, "cannot write '%s': %s", tmp, strerror(err));
    }
    if (fclose(f) != 0 && ok) {
        err = errno;
        gir_error_at(e, loc, "cannot write '%s': %s", tmp, strerror(err));
        ok = 0;
    }
    if (ok && rename(tmp, path) != 0) {
        err = errno;
        gir_error_at(e, loc, "cannot rename '%s' into place: %s", tmp, strerror(err));
        ok = 0;
    }
    if (!ok)
        remove(tmp);
    free(tmp);
    errno = err;
    return ok ? 0 : -1;
}

int gir_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

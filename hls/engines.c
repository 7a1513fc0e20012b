/* Registry of engine descriptors: the conv family, then the stream family. */
#include "hls/hls.h"

#include <string.h>

/* Whether name a is b: the same literal (the linker merges equal string
 * constants, so most of the planner's lookups end here), else the same
 * text. */
static int same_name(const char *a, const char *b)
{
    return a == b || (a[0] == b[0] && !strcmp(a, b));
}

static const HlsEngineDesc *const *const families[] = {hls_conv_descs, hls_stream_descs,
                                                        hls_tsconv_descs};

int hls_engine_count(void)
{
    int n = 0;
    size_t f;
    for (f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const HlsEngineDesc *const *d = families[f]; *d; d++)
            n++;
    return n;
}

const HlsEngineDesc *hls_engine_at(int i)
{
    size_t f;
    if (i < 0)
        return NULL;
    for (f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const HlsEngineDesc *const *d = families[f]; *d; d++)
            if (i-- == 0)
                return *d;
    return NULL;
}

const HlsEngineDesc *hls_engine_find(const char *name)
{
    size_t f;
    for (f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const HlsEngineDesc *const *d = families[f]; *d; d++)
            if (same_name((*d)->name, name))
                return *d;
    return NULL;
}

int hls_param_index(const char *const *names, const char *name)
{
    return hls_param_index_from(names, name, 0);
}

int hls_param_index_from(const char *const *names, const char *name, int from)
{
    int i;
    for (i = from; names[i]; i++) /* from .. the end, then from the start */
        if (same_name(names[i], name))
            return i;
    for (i = 0; i < from; i++)
        if (same_name(names[i], name))
            return i;
    return -1;
}

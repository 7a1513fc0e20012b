/* mem_model: the resource model's count for one memory with one write and
 * one read port (hls/res_util.h), as tests/plan/mem_yosys.py compares it
 * with yosys.
 * usage: mem_model DEPTH WIDTH [ultra]
 * prints {"bram36": B, "uram": U, "lutram": 0|1} */
#include "hls/res_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int arg(const char *s, long long *v)
{
    char *end;
    *v = strtoll(s, &end, 10);
    return *s && !*end && *v >= 1 && *v <= (1LL << 24);
}

int main(int argc, char **argv)
{
    long long depth, width;
    if (argc < 3 || argc > 4 || !arg(argv[1], &depth) || !arg(argv[2], &width) ||
        (argc == 4 && strcmp(argv[3], "ultra"))) {
        fprintf(stderr, "usage: mem_model DEPTH WIDTH [ultra] (DEPTH, WIDTH 1..16777216)\n");
        return 2;
    }
    if (argc == 4) {
        printf("{\"bram36\": 0, \"uram\": %lld, \"lutram\": 0}\n",
               (long long)hls_uram_for(depth, width));
    } else {
        HlsMem m = hls_mem(depth, width);
        printf("{\"bram36\": %.1f, \"uram\": 0, \"lutram\": %d}\n", m.bram36, m.bram36 == 0.0);
    }
    return 0;
}

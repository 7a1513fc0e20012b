/* hls_res: print an engine descriptor's resources and latency for given
 * Verilog parameters (bench/synth/run_all.py compares them with yosys).
 * usage: hls_res MODULE NAME=VALUE...   (missing parameters are an error) */
#include "hls/hls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const HlsEngineDesc *d;
    int64_t hw[32];
    int n, i;
    HlsRes r;
    if (argc < 2 || !(d = hls_engine_find(argv[1]))) {
        fprintf(stderr, "usage: hls_res MODULE NAME=VALUE...\n");
        return 2;
    }
    for (n = 0; d->hw_params[n]; n++) {
        size_t len = strlen(d->hw_params[n]);
        int found = 0;
        for (i = 2; i < argc; i++)
            if (!strncmp(argv[i], d->hw_params[n], len) && argv[i][len] == '=') {
                hw[n] = strtoll(argv[i] + len + 1, NULL, 0);
                found = 1;
            }
        if (!found) {
            fprintf(stderr, "hls_res: %s needs %s\n", argv[1], d->hw_params[n]);
            return 2;
        }
    }
    r = d->resources(hw);
    printf("{\"lut\": %.1f, \"ff\": %.1f, \"dsp\": %.1f, \"bram36\": %.2f, \"uram\": %.1f, "
           "\"latency\": %lld}\n",
           r.lut, r.ff, r.dsp, r.bram36, r.uram, (long long)d->latency(hw));
    return 0;
}

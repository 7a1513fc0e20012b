/*
 * kiln boards [NAME|FILE.xml] [--json]: the bundled board models, or one
 * board file checked against the schema and shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hls/board.h"
#include "kiln.h"

static void boards_usage(FILE *f)
{
    fprintf(f, "usage: kiln boards [NAME|FILE.xml] [--json]\n"
               "  lists the bundled boards; with NAME or FILE, loads and validates that board\n");
}

static cJSON *board_json(const HlsBoard *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", b->name);
    cJSON_AddStringToObject(o, "description", b->description);
    cJSON_AddStringToObject(o, "part", b->part);
    cJSON_AddNumberToObject(o, "dsp48e2", (double)b->dsp);
    cJSON_AddNumberToObject(o, "bram36", (double)b->bram36);
    cJSON_AddNumberToObject(o, "uram", (double)b->uram);
    cJSON_AddNumberToObject(o, "lut", (double)b->lut);
    cJSON_AddNumberToObject(o, "ff", (double)b->ff);
    cJSON_AddNumberToObject(o, "default_mhz", b->default_mhz);
    cJSON_AddNumberToObject(o, "max_mhz", b->max_mhz);
    cJSON_AddNumberToObject(o, "ddr_bytes", (double)b->ddr_bytes);
    cJSON_AddNumberToObject(o, "ddr_gbps", b->ddr_gbps);
    cJSON_AddNumberToObject(o, "axi_ports", b->nports);
    cJSON_AddStringToObject(o, "file", b->path);
    return o;
}

static void board_line(const HlsBoard *b)
{
    printf("%-10s %-22s %6lld %6lld %5lld %7lld %7lld %6.0f %6.1f  %s\n", b->name, b->part,
           (long long)b->dsp, (long long)b->bram36, (long long)b->uram, (long long)b->lut,
           (long long)b->ff, b->default_mhz, b->ddr_gbps, b->description);
}

int kiln_cmd_boards(int argc, char **argv)
{
    const char *one = NULL;
    int json = 0, i, n = 0, rc = KILN_OK;
    char **names = NULL;
    cJSON *arr = NULL;
    GirError err;
    HlsBoard b;

    for (i = 1; i < argc; i++) {
        if (kiln_is_help(argv[i])) {
            boards_usage(stdout);
            return KILN_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-') {
            boards_usage(stderr);
            return kiln_user_error("boards: unknown option '%s'", argv[i]);
        } else if (!one) {
            one = argv[i];
        } else {
            return kiln_user_error("boards: more than one board given ('%s')", argv[i]);
        }
    }
    if (one) {
        names = malloc(sizeof *names);
        if (!names)
            gir_die("out of memory");
        names[0] = malloc(strlen(one) + 1);
        if (!names[0])
            gir_die("out of memory");
        strcpy(names[0], one);
        n = 1;
    } else {
        names = hls_board_names(&n);
        if (n == 0)
            return kiln_user_error("boards: no board files in %s", hls_board_dir());
    }
    if (json)
        arr = cJSON_CreateArray();
    for (i = 0; i < n; i++) {
        if (hls_board_load(names[i], &b, &err) < 0) {
            rc = kiln_report(&err);
            break;
        }
        if (!json && i == 0) /* after the first load: a bad file prints no table */
            printf("%-10s %-22s %6s %6s %5s %7s %7s %6s %6s  %s\n", "board", "part", "DSP",
                   "BRAM36", "URAM", "LUT", "FF", "MHz", "GB/s", "description");
        if (json)
            cJSON_AddItemToArray(arr, board_json(&b));
        else
            board_line(&b);
    }
    if (json) {
        if (rc == KILN_OK) {
            char *s = cJSON_Print(arr);
            puts(s);
            free(s);
        }
        cJSON_Delete(arr);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

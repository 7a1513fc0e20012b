/*
 * kiln compare A B [--max-rel-l2 T] [--max-abs T] [--json]: compare two
 * tensor files (.npy or .pb) of the same type: relative L2 error
 * ||a - b|| / ||b||, the largest absolute difference and cosine similarity.
 * Exit 1 when a bound is exceeded.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "kiln.h"

static void compare_usage(FILE *f)
{
    fprintf(f, "usage: kiln compare GOT EXPECTED [--max-rel-l2 T] [--max-abs T] [--json]\n"
               "  prints relative L2 error ||GOT-EXPECTED||/||EXPECTED||, max |GOT-EXPECTED| and cosine\n"
               "  --json  the same figures and the verdict as one JSON object\n");
}

/* Element i of a numeric tensor as double. */
static double elem(const GirTensor *t, int64_t i)
{
    switch (t->type.dtype) {
    case GIR_DT_F32: return ((const float *)t->data)[i];
    case GIR_DT_F64: return ((const double *)t->data)[i];
    case GIR_DT_I8: return ((const int8_t *)t->data)[i];
    case GIR_DT_U8: return ((const uint8_t *)t->data)[i];
    case GIR_DT_I32: return ((const int32_t *)t->data)[i];
    case GIR_DT_I64: return (double)((const int64_t *)t->data)[i];
    case GIR_DT_BOOL: return ((const uint8_t *)t->data)[i];
    case GIR_DT_I16: return ((const int16_t *)t->data)[i];
    case GIR_DT_U16: return ((const uint16_t *)t->data)[i];
    case GIR_DT_U32: return ((const uint32_t *)t->data)[i];
    case GIR_DT_U64: return (double)((const uint64_t *)t->data)[i];
    case GIR_DT_F16: return gir_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: gir_unreachable();
    }
}

int kiln_cmd_compare(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    double max_rel = -1, max_abs = -1;
    int nf = 0, i, rc = KILN_OK, json = 0;
    GirArena *a;
    GirTensor t[2];
    GirError err;
    double d2 = 0, b2 = 0, a2 = 0, ab = 0, worst = 0, rel, cosv;
    int64_t n, k;
    char s0[128], s1[128];

    for (i = 1; i < argc; i++) {
        if (kiln_is_help(argv[i])) {
            compare_usage(stdout);
            return KILN_OK;
        } else if (strcmp(argv[i], "--max-rel-l2") == 0 || strcmp(argv[i], "--max-abs") == 0) {
            char *end;
            double v;
            if (i + 1 >= argc)
                return kiln_user_error("compare: %s needs a value", argv[i]);
            v = strtod(argv[i + 1], &end);
            if (*end || !(v >= 0))
                return kiln_user_error("compare: %s '%s' is not a bound", argv[i], argv[i + 1]);
            if (argv[i][6] == 'r')
                max_rel = v;
            else
                max_abs = v;
            i++;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-') {
            compare_usage(stderr);
            return kiln_user_error("compare: unknown option '%s'", argv[i]);
        } else if (nf < 2) {
            files[nf++] = argv[i];
        } else {
            return kiln_user_error("compare: more than two files given");
        }
    }
    if (nf != 2) {
        compare_usage(stderr);
        return kiln_user_error("compare: two tensor files needed");
    }
    a = gir_arena_new();
    for (i = 0; i < 2; i++)
        if (fe_read_tensor(files[i], a, &t[i], &err) < 0) {
            rc = kiln_report(&err);
            goto out;
        }
    if (t[0].type.rank != t[1].type.rank ||
        memcmp(t[0].type.dims, t[1].type.dims, sizeof(int64_t) * (size_t)t[0].type.rank) != 0) {
        rc = kiln_user_error("compare: %s is %s but %s is %s", files[0],
                             gir_type_str(&t[0].type, s0, sizeof s0), files[1],
                             gir_type_str(&t[1].type, s1, sizeof s1));
        goto out;
    }
    n = gir_type_numel(&t[1].type);
    for (k = 0; k < n; k++) {
        double x = elem(&t[0], k), y = elem(&t[1], k);
        d2 += (x - y) * (x - y);
        b2 += y * y;
        a2 += x * x;
        ab += x * y;
        if (fabs(x - y) > worst || isnan(x - y))
            worst = fabs(x - y);
    }
    rel = b2 > 0 ? sqrt(d2) / sqrt(b2) : sqrt(d2);
    cosv = a2 > 0 && b2 > 0 ? ab / (sqrt(a2) * sqrt(b2)) : (a2 == b2 ? 1.0 : 0.0);
    if ((max_rel >= 0 && !(rel <= max_rel)) || (max_abs >= 0 && !(worst <= max_abs)))
        rc = KILN_FAILED;
    if (json) {
        cJSON *o = cJSON_CreateObject();
        char *txt;
        cJSON_AddStringToObject(o, "got", files[0]);
        cJSON_AddStringToObject(o, "expected", files[1]);
        cJSON_AddNumberToObject(o, "values", (double)n);
        cJSON_AddNumberToObject(o, "rel_l2", rel);
        cJSON_AddNumberToObject(o, "max_abs", worst);
        cJSON_AddNumberToObject(o, "cosine", cosv);
        if (max_rel >= 0)
            cJSON_AddNumberToObject(o, "max_rel_l2_bound", max_rel);
        if (max_abs >= 0)
            cJSON_AddNumberToObject(o, "max_abs_bound", max_abs);
        cJSON_AddBoolToObject(o, "passed", rc == KILN_OK);
        txt = cJSON_Print(o);
        puts(txt);
        free(txt);
        cJSON_Delete(o);
    } else {
        printf("compare %s vs %s: %lld values, rel-L2 %.3e, max-abs %.3e, cosine %.9f\n", files[0],
               files[1], (long long)n, rel, worst, cosv);
        if (rc != KILN_OK)
            printf("compare: FAILED (bound rel-L2 %g, max-abs %g)\n", max_rel, max_abs);
    }
out:
    gir_arena_free(a);
    return rc;
}

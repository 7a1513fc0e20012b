/*
 * kiln conformance DIR... : run ONNX backend test folders (model.onnx plus
 * test_data_set_N folders of input_K.pb, output_K.pb) through the ONNX reader and the
 * reference interpreter, or with --target cpu through the CPU back end
 * (llvm/: the model compiled once, each data set run; nodes without a
 * lowering run in the interpreter and are counted; a model whose shapes
 * wait on the values of its inputs is compiled per distinct set of those
 * values, klv_spec_run, as is one whose program would interpret nodes
 * reading a Range's, ConstantOfShape's or OneHot's output sized by input
 * values, klv_spec_new_extents; one whose shapes wait on a computed value
 * runs whole in the interpreter).  A test is
 *   pass         every data set's outputs match (same dtype and shape; floats
 *                within atol + rtol * |expected|, integers exactly),
 *   fail         it loads but an output differs or running fails,
 *   unsupported  the model uses an op or type outside kiln's set (counted
 *                by category: training-only, randomness, control flow,
 *                sequence or optional types, strings, ...),
 *   excluded     listed in the --exclude file with a reason.
 * Exit 1 when any test fails or the pass count is below --min-pass (with
 * --target cpu: or the compiled nodes are fewer than --min-compiled).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "kiln.h"
#include "llvm/llvm.h"

#define MAX_TESTS 4096 /* the ONNX suite has about 1300 */

typedef enum { T_PASS, T_FAIL, T_UNSUPPORTED, T_EXCLUDED } Outcome;
static const char *const outcome_name[] = {"pass", "fail", "unsupported", "excluded"};

/* Why a test is unsupported, as one of a short list of categories: the op
 * named in the reader's message, or the kind of type it refused.  Ops not
 * listed are "op not in kiln's set yet". */
static const struct {
    const char *key;      /* op name, or text of the reader's message */
    const char *category; /* what it is counted as */
} unsupported_kinds[] = {
    {"Adagrad", "training-only"}, {"Adam", "training-only"}, {"Momentum", "training-only"},
    {"Gradient", "training-only"}, {"Bernoulli", "randomness"},
    {"RandomUniformLike", "randomness"}, {"RandomNormalLike", "randomness"},
    {"RandomUniform", "randomness"}, {"RandomNormal", "randomness"},
    {"Multinomial", "randomness"}, {"Loop", "control flow"}, {"If", "control flow"},
    {"Scan", "control flow"}, {"Sequence", "sequence or optional types"},
    {"Optional", "sequence or optional types"}, {"SplitToSequence", "sequence or optional types"},
    {"ConcatFromSequence", "sequence or optional types"},
    {"is not a tensor", "sequence or optional types"}, {"StringNormalizer", "strings"},
    {"TfIdfVectorizer", "strings"}, {"STRING", "strings"}, {"data type 8 ", "strings"},
    {"BFLOAT16", "bfloat16"}, {"data type 16 ", "bfloat16"}, {"GRU", "recurrent layers"},
    {"LSTM", "recurrent layers"}, {"RNN", "recurrent layers"}, {"DFT", "signal processing"},
    {"STFT", "signal processing"}, {"BlackmanWindow", "signal processing"},
    {"HammingWindow", "signal processing"}, {"HannWindow", "signal processing"},
    {"MelWeightMatrix", "signal processing"},
};

/* The category of an unsupported test from the reader's message. */
static const char *unsupported_category(const char *why)
{
    const char *op = strstr(why, "unsupported op '");
    size_t i;
    for (i = 0; i < sizeof unsupported_kinds / sizeof unsupported_kinds[0]; i++) {
        const char *k = unsupported_kinds[i].key;
        if (op) {
            /* an op: its name starts with the key (Sequence*, Optional*) */
            const char *name = op + strlen("unsupported op '");
            if (strncmp(name, k, strlen(k)) == 0)
                return unsupported_kinds[i].category;
        } else if (strstr(why, k)) {
            return unsupported_kinds[i].category;
        }
    }
    return "op not in kiln's set yet";
}

/* Options and the exclusion list. */
typedef struct {
    double rtol, atol;  /* float comparison tolerances */
    char **excl;        /* excluded test names */
    int nexcl;          /* count of excl */
    int verbose;        /* a line per test */
    int cpu;            /* --target cpu: run through the CPU back end */
    int opt_level;      /* its LLVM optimization level */
    long nodes, lowered; /* --target cpu: nodes of the passing tests, and compiled ones */
    int dynamic;        /* --target cpu: passing tests run in the interpreter (shapes that
                           depend on input data) */
    long interp[GIR_OP_COUNT]; /* --target cpu: nodes of the compiled passing tests left to
                                  the interpreter, per op */
    int specialized;    /* --target cpu: passing tests compiled per value of the inputs
                           that decide their shapes */
    int folded;         /* --target cpu: passing tests compiled after folding constants
                           (shapes computed from Shape of static values) */
    long folded_nodes;  /* --target cpu: nodes of those and of the specialized tests
                           folded into constants when compiled */
} Conf;

#define MAX_CATEGORIES 16 /* more than unsupported_kinds has distinct ones */

/* One category of unsupported tests and how many fell in it. */
typedef struct {
    const char *name; /* from unsupported_kinds, or the catch-all */
    int count;        /* tests counted */
} Category;

/* Add one test to category name, in order of first appearance. */
static void count_category(Category *c, int max, int *n, const char *name)
{
    int i;
    for (i = 0; i < *n; i++) {
        if (strcmp(c[i].name, name) == 0) {
            c[i].count++;
            return;
        }
    }
    if (*n < max) {
        c[*n].name = name;
        c[*n].count = 1;
        (*n)++;
    }
}

static void conf_usage(FILE *f)
{
    fprintf(f, "usage: kiln conformance DIR... [--exclude FILE] [--min-pass N] [--rtol R] [--atol A]\n"
               "                        [--target ref|cpu] [--min-compiled N] [-v] [--json]\n"
               "  DIR           an ONNX backend test folder, or a folder of them\n"
               "  --exclude F   skip the tests named in F (lines 'test_name reason'; # comments)\n"
               "  --min-pass N  fail when fewer than N tests pass\n"
               "  --rtol, --atol  float tolerances (default 1e-3, 1e-7: the ONNX backend defaults)\n"
               "  --target cpu  run through the CPU back end (LLVM -O1, one thread) instead of the\n"
               "                interpreter; counts the nodes compiled (a test whose shapes wait on\n"
               "                the values of its inputs: compiled per data set's values)\n"
               "  --min-compiled N  with --target cpu: fail when fewer than N nodes of the\n"
               "                passing tests are compiled\n");
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Sorted names of the entries of dir starting with prefix (NULL: all but
 * dot files).  Caller frees each name and the array. */
static char **list_dir(const char *dir, const char *prefix, int *count)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL;
    int n = 0, cap = 0;
    *count = 0;
    if (!d)
        return NULL;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (prefix && strncmp(de->d_name, prefix, strlen(prefix)) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, sizeof *names * (size_t)cap);
            if (!names)
                gir_die("out of memory");
        }
        names[n] = strdup(de->d_name);
        if (!names[n])
            gir_die("out of memory");
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, gir_cmp_str);
    *count = n;
    return names;
}

static void free_list(char **names, int n)
{
    int i;
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int load_exclusions(Conf *c, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int lineno = 0;
    if (!f)
        return kiln_user_error("conformance: cannot open exclusion file %s", path);
    while (fgets(line, sizeof line, f)) {
        char name[512];
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%511s", name) != 1)
            continue;
        if (!strchr(line, ' ') && !strchr(line, '\t')) {
            fclose(f);
            return kiln_user_error("%s:%d: test '%s' has no reason", path, lineno, name);
        }
        c->excl = realloc(c->excl, sizeof *c->excl * (size_t)(c->nexcl + 1));
        if (!c->excl)
            gir_die("out of memory");
        c->excl[c->nexcl] = strdup(name);
        if (!c->excl[c->nexcl])
            gir_die("out of memory");
        c->nexcl++;
    }
    fclose(f);
    return 0;
}

static int excluded(const Conf *c, const char *name)
{
    int i;
    for (i = 0; i < c->nexcl; i++)
        if (strcmp(c->excl[i], name) == 0)
            return 1;
    return 0;
}

/* Compare one output; on a mismatch write why into why. */
static int compare(const Conf *c, const GirTensor *got, const GirTensor *want, char *why,
                   size_t whysize)
{
    int64_t n, i;
    char a[128], b[128];
    if (!gir_type_equal(&got->type, &want->type)) {
        snprintf(why, whysize, "type %s, expected %s", gir_type_str(&got->type, a, sizeof a),
                 gir_type_str(&want->type, b, sizeof b));
        return -1;
    }
    n = gir_type_numel(&want->type);
    if (want->type.dtype == GIR_DT_F32 || want->type.dtype == GIR_DT_F64 ||
        want->type.dtype == GIR_DT_F16) {
        for (i = 0; i < n; i++) {
            double x, y;
            if (want->type.dtype == GIR_DT_F32) {
                x = ((const float *)got->data)[i];
                y = ((const float *)want->data)[i];
            } else if (want->type.dtype == GIR_DT_F16) {
                x = gir_f16_to_f32(((const uint16_t *)got->data)[i]);
                y = gir_f16_to_f32(((const uint16_t *)want->data)[i]);
            } else {
                x = ((const double *)got->data)[i];
                y = ((const double *)want->data)[i];
            }
            if (isnan(x) && isnan(y))
                continue;
            if (x == y)
                continue; /* also equal infinities */
            if (!(fabs(x - y) <= c->atol + c->rtol * fabs(y))) {
                snprintf(why, whysize, "element %lld is %.9g, expected %.9g", (long long)i, x, y);
                return -1;
            }
        }
        return 0;
    }
    if (memcmp(got->data, want->data, (size_t)n * gir_dtype_size(want->type.dtype)) != 0) {
        snprintf(why, whysize, "integer data differs");
        return -1;
    }
    return 0;
}

/* Run one data set folder against g: through prog, or spec, or else the
 * interpreter.  -2 when spec cannot make the graph static with these
 * values (the caller runs the interpreter instead). */
static int run_dataset(const Conf *c, const GirGraph *g, KlvProgram *prog, KlvSpec *spec,
                       const char *dir, char *why, size_t whysize)
{
    GirArena *a = gir_arena_new();
    GirTensor *in = gir_arena_alloc(a, sizeof *in * (size_t)(g->ninput + 1));
    GirTensor *out = gir_arena_alloc(a, sizeof *out * (size_t)(g->noutput + 1));
    GirError err;
    char p[4096];
    int i, rc = -1, compiled;
    for (i = 0; i < g->ninput; i++) {
        snprintf(p, sizeof p, "%s/input_%d.pb", dir, i);
        if (fe_read_tensor(p, a, &in[i], &err) < 0) {
            snprintf(why, whysize, "%s", err.msg);
            goto done;
        }
    }
    if ((prog   ? klv_run(prog, in, out, a, &err)
         : spec ? klv_spec_run(spec, in, out, a, &compiled, &err)
                : gir_run(g, in, out, a, &err)) < 0) {
        snprintf(why, whysize, "%s", err.msg);
        if (spec && strstr(err.msg, "needs static shapes"))
            rc = -2;
        goto done;
    }
    for (i = 0; i < g->noutput; i++) {
        GirTensor want;
        char sub[1024];
        snprintf(p, sizeof p, "%s/output_%d.pb", dir, i);
        if (!is_file(p))
            continue; /* the data set does not check this output */
        if (fe_read_tensor(p, a, &want, &err) < 0) {
            snprintf(why, whysize, "%s", err.msg);
            goto done;
        }
        if (compare(c, &out[i], &want, sub, sizeof sub) < 0) {
            snprintf(why, whysize, "%s: output %d (%s): %s", base_name(dir), i,
                     g->vals[g->outputs[i]].name, sub);
            goto done;
        }
    }
    rc = 0;
done:
    gir_arena_free(a);
    return rc;
}

static Outcome run_test(Conf *c, const char *dir, char *why, size_t whysize)
{
    char p[4096];
    GirError err;
    GirGraph *g;
    KlvProgram *prog = NULL;
    KlvSpec *spec = NULL;
    GirGraph *fg = NULL; /* g with its constants folded, when that is what compiles */
    KlvStats st;
    long sinterp[GIR_OP_COUNT] = {0};
    int unsupported = 0, nsets, i, slowered = 0, sfolded = 0, nbound = 0;
    char whole[512] = ""; /* why the test runs whole in the interpreter */
    char **sets;
    Outcome o = T_PASS;

    if (excluded(c, base_name(dir)))
        return T_EXCLUDED;
    snprintf(p, sizeof p, "%s/model.onnx", dir);
    g = fe_load_onnx(p, &unsupported, &err);
    if (!g) {
        snprintf(why, whysize, "%s", err.msg);
        return unsupported ? T_UNSUPPORTED : T_FAIL;
    }
    if (c->cpu) {
        KlvOptions ko = {0};
        ko.threads = 1;
        ko.opt_level = c->opt_level;
        /* a graph whose shapes depend on its input data (the shape input of
         * Reshape or Expand, say) has no static form to compile: it runs in
         * the interpreter and is counted so */
        if (!(prog = klv_compile(g, &ko, &err)) && !strstr(err.msg, "needs static shapes")) {
            snprintf(why, whysize, "cpu back end: %s", err.msg);
            gir_graph_free(g);
            return T_FAIL;
        }
        /* shapes computed from Shape of static values (the _expanded
         * tests' Reshapes): constants folded, as kiln run's -O does, and
         * the folded copy compiled */
        if (!prog) {
            GirError ferr;
            fg = gir_graph_copy(g);
            if (gir_infer_shapes(fg, &ferr) < 0 ||
                gir_run_passes(fg, "fold_constants", NULL, &ferr) < 0 ||
                !(prog = klv_compile(fg, &ko, &ferr))) {
                gir_graph_free(fg);
                fg = NULL;
            }
        }
        /* when graph inputs' values decide those shapes: compiled per
         * data set's values */
        if (!prog) {
            GirError serr;
            snprintf(whole, sizeof whole, "%s", err.msg);
            spec = klv_spec_new(g, &ko, NULL, &serr);
        } else {
            /* interpreted nodes reading a Range's, ConstantOfShape's or
             * OneHot's output whose extent input values decide: compiled
             * per data set's values (the program stays, for values that
             * leave a shape unknown) */
            GirError serr;
            KlvStats ps;
            klv_stats(prog, &ps);
            if (ps.fallback > 0)
                spec = klv_spec_new_extents(fg ? fg : g, prog, &ko, &serr);
        }
    }
    sets = list_dir(dir, "test_data_set_", &nsets);
    if (nsets == 0) {
        snprintf(why, whysize, "%s: no test_data_set_* folders", dir);
        o = T_FAIL;
    }
    for (i = 0; i < nsets && o == T_PASS; i++) {
        int rc;
        snprintf(p, sizeof p, "%s/%s", dir, sets[i]);
        rc = run_dataset(c, g, spec ? NULL : prog, spec, p, why, whysize);
        if (rc == -2) {
            /* the values leave a shape unknown: the whole test runs in the
             * interpreter (or the program as compiled, when there is one),
             * as a graph without specialization */
            klv_spec_free(spec);
            spec = NULL;
            if (!prog)
                snprintf(whole, sizeof whole, "%s", why);
            why[0] = '\0';
            i = -1;
            continue;
        }
        if (rc < 0) {
            o = T_FAIL;
        } else if (spec && i == 0) {
            /* the figures of the first data set's program */
            const GirGraph *sg;
            const KlvProgram *sp = klv_spec_program(spec, &sg);
            int k;
            klv_stats(sp, &st);
            slowered = st.lowered;
            sfolded = g->nnode - sg->nnode;
            for (k = 0; k < sg->nnode; k++)
                if (!klv_node_lowered(sp, k) && (int)sg->nodes[k].op < GIR_OP_COUNT)
                    sinterp[sg->nodes[k].op]++;
        }
    }
    free_list(sets, nsets);
    if (c->cpu && !prog && !spec && o == T_PASS)
        snprintf(why, whysize, "whole in the interpreter: %s", whole);
    if (spec && o == T_PASS) {
        size_t at = 0;
        at += (size_t)snprintf(why, whysize, "specialized on the values of");
        for (i = 0; i < g->ninput; i++)
            if (klv_spec_bound(spec, i) && at < whysize)
                at += (size_t)snprintf(why + at, whysize - at, "%s '%s'", nbound++ ? "," : "",
                                       g->vals[g->inputs[i]].name);
        if (at < whysize)
            snprintf(why + at, whysize - at, ": %d compile%s for %d data set%s",
                     klv_spec_compiles(spec), klv_spec_compiles(spec) == 1 ? "" : "s", nsets,
                     nsets == 1 ? "" : "s");
    }
    if (c->cpu && o == T_PASS) {
        if (prog && !spec) {
            const GirGraph *pg = fg ? fg : g;
            int k;
            klv_stats(prog, &st);
            for (k = 0; k < pg->nnode; k++)
                if (!klv_node_lowered(prog, k) && (int)pg->nodes[k].op < GIR_OP_COUNT)
                    c->interp[pg->nodes[k].op]++;
            /* nodes of the model as given: those folded away are counted
             * apart, as for specialized tests */
            if (fg) {
                c->folded_nodes += g->nnode - fg->nnode;
                st.nodes = g->nnode;
            }
            c->folded += fg != NULL;
        }
        if (spec) {
            /* nodes of the model as given; those folded away when the
             * values were bound are counted apart */
            int k;
            for (k = 0; k < GIR_OP_COUNT; k++)
                c->interp[k] += sinterp[k];
            c->folded_nodes += sfolded;
            c->specialized++;
        }
        c->nodes += prog && !spec ? st.nodes : g->nnode;
        c->lowered += spec ? slowered : prog ? st.lowered : 0;
        c->dynamic += !prog && !spec;
    }
    klv_spec_free(spec);
    klv_free(prog);
    gir_graph_free(fg);
    gir_graph_free(g);
    return o;
}

/* The ops of the interpreted nodes of the compiled tests, most first (ties
 * in op order), on one line. */
static void print_interp_ops(const long *interp)
{
    int used[GIR_OP_COUNT] = {0}, k, best, any = 0;
    printf("conformance: cpu back end, interpreted nodes of compiled tests by op:");
    for (;;) {
        for (best = -1, k = 0; k < GIR_OP_COUNT; k++)
            if (!used[k] && interp[k] > 0 && (best < 0 || interp[k] > interp[best]))
                best = k;
        if (best < 0)
            break;
        used[best] = 1;
        printf("%s %s %ld", any ? "," : "", gir_op_name((GirOp)best), interp[best]);
        any = 1;
    }
    printf("%s\n", any ? "" : " none");
}

int kiln_cmd_conformance(int argc, char **argv)
{
    Conf c = {1e-3, 1e-7, NULL, 0, 0, 0, 1, 0, 0, 0, {0}, 0, 0, 0};
    const char *dirs[256];
    int ndir = 0, json = 0, i, j, counts[4] = {0, 0, 0, 0}, ntests = 0;
    long min_pass = -1, min_compiled = -1;
    static char *tests[MAX_TESTS];
    Category cats[MAX_CATEGORIES];
    int ncat = 0, ncats = MAX_CATEGORIES;
    cJSON *root = NULL, *arr = NULL;
    int rc = KILN_OK;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (kiln_is_help(a)) {
            conf_usage(stdout);
            return KILN_OK;
        } else if (strcmp(a, "--exclude") == 0 || strcmp(a, "--min-pass") == 0 ||
                   strcmp(a, "--min-compiled") == 0 || strcmp(a, "--rtol") == 0 || strcmp(a, "--atol") == 0) {
            char *end;
            if (i + 1 >= argc)
                return kiln_user_error("conformance: %s needs a value", a);
            i++;
            if (strcmp(a, "--exclude") == 0) {
                if (load_exclusions(&c, argv[i]) < 0)
                    return KILN_BAD_INPUT;
                continue;
            }
            if (strcmp(a, "--min-pass") == 0) {
                min_pass = strtol(argv[i], &end, 10);
                if (*end || min_pass < 0)
                    return kiln_user_error("conformance: --min-pass '%s' is not a count", argv[i]);
            } else if (strcmp(a, "--min-compiled") == 0) {
                min_compiled = strtol(argv[i], &end, 10);
                if (*end || min_compiled < 0)
                    return kiln_user_error("conformance: --min-compiled '%s' is not a count", argv[i]);
            } else {
                double v = strtod(argv[i], &end);
                if (*end || !(v >= 0))
                    return kiln_user_error("conformance: %s '%s' is not a tolerance", a, argv[i]);
                if (a[2] == 'r')
                    c.rtol = v;
                else
                    c.atol = v;
            }
        } else if (strcmp(a, "-v") == 0) {
            c.verbose = 1;
        } else if (strcmp(a, "--target") == 0) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "ref") != 0 && strcmp(argv[i + 1], "cpu") != 0))
                return kiln_user_error("conformance: --target wants ref or cpu");
            c.cpu = strcmp(argv[++i], "cpu") == 0;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-') {
            conf_usage(stderr);
            return kiln_user_error("conformance: unknown option '%s'", a);
        } else {
            if (ndir == 256)
                return kiln_user_error("conformance: too many folders");
            dirs[ndir++] = a;
        }
    }
    if (ndir == 0) {
        conf_usage(stderr);
        return kiln_user_error("conformance: no test folder given");
    }
    if (min_compiled >= 0 && !c.cpu)
        return kiln_user_error("conformance: --min-compiled needs --target cpu");

    /* Collect test folders: DIR itself when it holds model.onnx, else its
     * subfolders that do. */
    for (i = 0; i < ndir; i++) {
        char p[4096];
        size_t len = strlen(dirs[i]);
        while (len > 1 && dirs[i][len - 1] == '/')
            ((char *)dirs[i])[--len] = '\0';
        snprintf(p, sizeof p, "%s/model.onnx", dirs[i]);
        if (is_file(p)) {
            if (ntests < MAX_TESTS)
                tests[ntests++] = strdup(dirs[i]);
            continue;
        }
        if (!is_dir(dirs[i]))
            return kiln_user_error("conformance: %s is not a folder", dirs[i]);
        {
            int n;
            char **names = list_dir(dirs[i], NULL, &n);
            for (j = 0; j < n; j++) {
                snprintf(p, sizeof p, "%s/%s/model.onnx", dirs[i], names[j]);
                if (is_file(p) && ntests < MAX_TESTS) {
                    snprintf(p, sizeof p, "%s/%s", dirs[i], names[j]);
                    tests[ntests++] = strdup(p);
                }
            }
            free_list(names, n);
        }
    }

    if (json) {
        root = cJSON_CreateObject();
        arr = cJSON_AddArrayToObject(root, "tests");
    }
    for (i = 0; i < ntests; i++) {
        char why[2048] = "";
        Outcome o = run_test(&c, tests[i], why, sizeof why);
        counts[o]++;
        if (o == T_UNSUPPORTED)
            count_category(cats, ncats, &ncat, unsupported_category(why));
        if (json) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddStringToObject(t, "test", base_name(tests[i]));
            cJSON_AddStringToObject(t, "outcome", outcome_name[o]);
            if (why[0])
                cJSON_AddStringToObject(t, "reason", why);
            if (o == T_UNSUPPORTED)
                cJSON_AddStringToObject(t, "category", unsupported_category(why));
            cJSON_AddItemToArray(arr, t);
        } else if (o == T_FAIL || c.verbose) {
            printf("%-11s %s%s%s\n", outcome_name[o], base_name(tests[i]), why[0] ? ": " : "",
                   why);
        }
        free(tests[i]);
    }
    if (counts[T_FAIL] > 0)
        rc = KILN_FAILED;
    if (min_pass >= 0 && counts[T_PASS] < min_pass)
        rc = KILN_FAILED;
    if (c.cpu && min_compiled >= 0 && c.lowered < min_compiled)
        rc = KILN_FAILED;
    if (json) {
        char *s;
        cJSON_AddNumberToObject(root, "pass", counts[T_PASS]);
        cJSON_AddNumberToObject(root, "fail", counts[T_FAIL]);
        cJSON_AddNumberToObject(root, "unsupported", counts[T_UNSUPPORTED]);
        cJSON_AddNumberToObject(root, "excluded", counts[T_EXCLUDED]);
        if (c.cpu) {
            cJSON_AddNumberToObject(root, "cpu_nodes", (double)c.nodes);
            cJSON_AddNumberToObject(root, "cpu_nodes_compiled", (double)c.lowered);
            cJSON_AddNumberToObject(root, "cpu_tests_data_dependent_shapes", c.dynamic);
            cJSON_AddNumberToObject(root, "cpu_tests_specialized", c.specialized);
            cJSON_AddNumberToObject(root, "cpu_tests_folded", c.folded);
            cJSON_AddNumberToObject(root, "cpu_nodes_folded", (double)c.folded_nodes);
        }
        {
            cJSON *by = cJSON_AddObjectToObject(root, "unsupported_by_category");
            for (i = 0; i < ncat; i++)
                cJSON_AddNumberToObject(by, cats[i].name, cats[i].count);
        }
        s = cJSON_Print(root);
        puts(s);
        free(s);
        cJSON_Delete(root);
    } else {
        printf("conformance: %d tests: %d pass, %d fail, %d unsupported, %d excluded\n", ntests,
               counts[T_PASS], counts[T_FAIL], counts[T_UNSUPPORTED], counts[T_EXCLUDED]);
        for (i = 0; i < ncat; i++)
            printf("conformance: unsupported, %s: %d\n", cats[i].name, cats[i].count);
        if (c.cpu) {
            printf("conformance: cpu back end: %ld of %ld nodes of the passing tests compiled, "
                   "%ld folded into constants, %ld in the interpreter (%d tests whole: shapes that depend on input data; "
                   "%d specialized on input values; %d compiled after folding constants)\n",
                   c.lowered, c.nodes, c.folded_nodes, c.nodes - c.lowered - c.folded_nodes,
                   c.dynamic, c.specialized, c.folded);
            print_interp_ops(c.interp);
        }
        if (min_pass >= 0 && counts[T_PASS] < min_pass)
            printf("conformance: %d pass is below the required %ld\n", counts[T_PASS], min_pass);
        if (c.cpu && min_compiled >= 0 && c.lowered < min_compiled)
            printf("conformance: %ld nodes compiled is below the required %ld\n", c.lowered,
                   min_compiled);
    }
    for (i = 0; i < c.nexcl; i++)
        free(c.excl[i]);
    free(c.excl);
    return rc;
}

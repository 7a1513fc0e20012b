/*
 * Runs one text-IR case: tests/text/cases/NAME.gir, whose first line names
 * the check, with the expectation beside it in NAME.expect.
 *
 *   # RUN: roundtrip   parse, print: the print equals NAME.expect; parse the
 *                      print and print again: byte-identical
 *   # RUN: elided      parse, print with data elided: equals NAME.expect
 *   # RUN: error       parsing fails with exactly the line in NAME.expect
 *
 * Files named *_bad.gir must be error cases and error cases must be named
 * so.  Diagnostics name the case by its file name alone, so expectations do
 * not depend on where the tree is.
 *
 * usage: text_test CASE.gir
 *        text_test --print [--elide] CASE.gir   (print the parsed case, to
 *                                               write a new expectation)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/graphir.h"

/* The whole file, NUL-terminated (the parser is given the length; the NUL
 * only serves strstr/strcmp here); NULL if unreadable. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (!f)
        return NULL;
    for (;;) {
        if (cap - n < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap + 1);
            if (!buf) {
                fclose(f);
                return NULL;
            }
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The graph printed, as a malloc'd NUL-terminated string. */
static char *print_to_string(const GirGraph *g, int elide, size_t *len)
{
    FILE *f = tmpfile();
    char *buf;
    long n;
    if (!f)
        return NULL;
    if (gir_print(g, f, elide) < 0 || fflush(f) != 0 || (n = ftell(f)) < 0) {
        fclose(f);
        return NULL;
    }
    rewind(f);
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* First differing line of two texts, for a readable failure. */
static void show_diff(const char *what, const char *want, const char *got)
{
    int line = 1;
    const char *w = want, *g = got;
    while (*w && *w == *g) {
        if (*w == '\n')
            line++;
        w++;
        g++;
    }
    while (w > want && w[-1] != '\n') {
        w--;
        g--;
    }
    fprintf(stderr, "FAIL %s: first difference at line %d\n  want: %.*s\n  got:  %.*s\n", what,
            line, (int)strcspn(w, "\n"), w, (int)strcspn(g, "\n"), g);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int main(int argc, char **argv)
{
    const char *path, *base, *run;
    char *text, *expect, *p1 = NULL, *p2 = NULL, expect_path[4096], cmd[32];
    size_t len, elen, n1, n2;
    GirGraph *g, *g2;
    GirError err;
    int bad_name, rc = 1;

    if (argc >= 3 && strcmp(argv[1], "--print") == 0) {
        int elide = argc == 4 && strcmp(argv[2], "--elide") == 0;
        path = argv[argc - 1];
        text = read_file(path, &len);
        if (!text) {
            fprintf(stderr, "text_test: cannot read %s\n", path);
            return 2;
        }
        g = gir_parse(text, len, path, &err);
        free(text);
        if (!g) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        rc = gir_print(g, stdout, elide) < 0;
        gir_graph_free(g);
        return rc;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: text_test CASE.gir | --print [--elide] CASE.gir\n");
        return 2;
    }
    path = argv[1];
    base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!ends_with(path, ".gir") || strlen(path) + 8 > sizeof expect_path) {
        fprintf(stderr, "text_test: %s: not a .gir case\n", path);
        return 2;
    }
    snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(path) - 4), path);
    text = read_file(path, &len);
    expect = read_file(expect_path, &elen);
    if (!text || !expect) {
        fprintf(stderr, "text_test: cannot read %s\n", text ? expect_path : path);
        return 2;
    }
    if (strncmp(text, "# RUN: ", 7) != 0 || sscanf(text + 7, "%31s", cmd) != 1) {
        fprintf(stderr, "text_test: %s: first line must be '# RUN: roundtrip|elided|error'\n",
                path);
        return 2;
    }
    run = cmd;
    bad_name = ends_with(path, "_bad.gir");
    if (bad_name != (strcmp(run, "error") == 0)) {
        fprintf(stderr, "text_test: %s: *_bad.gir cases and only they must be RUN: error\n",
                path);
        return 2;
    }

    g = gir_parse(text, len, base, &err);
    if (strcmp(run, "error") == 0) {
        if (elen > 0 && expect[elen - 1] == '\n')
            expect[--elen] = '\0';
        if (g) {
            fprintf(stderr, "FAIL %s: parsed, expected the error\n  %s\n", base, expect);
        } else if (strcmp(err.msg, expect) != 0) {
            fprintf(stderr, "FAIL %s: wrong diagnostic\n  want: %s\n  got:  %s\n", base, expect,
                    err.msg);
        } else {
            rc = 0;
        }
        goto done;
    }
    if (!g) {
        fprintf(stderr, "FAIL %s: %s\n", base, err.msg);
        goto done;
    }
    if (strcmp(run, "elided") == 0) {
        p1 = print_to_string(g, 1, &n1);
        if (!p1)
            fprintf(stderr, "FAIL %s: printing failed\n", base);
        else if (n1 != elen || memcmp(p1, expect, n1) != 0)
            show_diff(base, expect, p1);
        else
            rc = 0;
        goto done;
    }
    if (strcmp(run, "roundtrip") != 0) {
        fprintf(stderr, "text_test: %s: unknown RUN command '%s'\n", path, run);
        rc = 2;
        goto done;
    }
    p1 = print_to_string(g, 0, &n1);
    if (!p1) {
        fprintf(stderr, "FAIL %s: printing failed\n", base);
        goto done;
    }
    if (n1 != elen || memcmp(p1, expect, n1) != 0) {
        show_diff(base, expect, p1);
        goto done;
    }
    g2 = gir_parse(p1, n1, "printed", &err);
    if (!g2) {
        fprintf(stderr, "FAIL %s: the print does not parse back: %s\n", base, err.msg);
        goto done;
    }
    p2 = print_to_string(g2, 0, &n2);
    gir_graph_free(g2);
    if (!p2 || n1 != n2 || memcmp(p1, p2, n1) != 0) {
        show_diff("second print", p1, p2 ? p2 : "");
        goto done;
    }
    rc = 0;
done:
    gir_graph_free(g);
    free(p1);
    free(p2);
    free(text);
    free(expect);
    if (rc == 0)
        printf("ok %s\n", base);
    return rc;
}

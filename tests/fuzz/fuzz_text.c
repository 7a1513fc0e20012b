/*
 * libFuzzer target for the text IR reader: gir_parse must turn any bytes
 * into a graph or one error line, never a crash, a leak or undefined
 * behaviour.  Whatever parses must also round-trip: print -> parse -> print
 * is byte-identical, or the target aborts.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_text.c graphir/<all>.c -lm
 * Seeds: tests/text/cases/ (every .gir there is a good start).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/graphir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The print of g in malloc'd memory; aborts when printing fails, which on a
 * parsed (so verified) graph is a bug. */
static char *print_mem(const GirGraph *g, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f || gir_print(g, f, 0) < 0 || fclose(f) != 0)
        abort();
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirError err;
    GirGraph *g, *g2;
    char *p1, *p2;
    size_t n1, n2;

    g = gir_parse((const char *)data, size, "fuzz.gir", &err);
    if (!g) {
        /* One line, naming the text: a message from elsewhere means
         * gir_verify caught what the parser let through. */
        if (strncmp(err.msg, "fuzz.gir:", 9) != 0 || strchr(err.msg, '\n')) {
            fprintf(stderr, "bad diagnostic: %s\n", err.msg);
            abort();
        }
        return 0;
    }
    p1 = print_mem(g, &n1);
    g2 = gir_parse(p1, n1, "printed.gir", &err);
    if (!g2) {
        fprintf(stderr, "print does not parse back: %s\n", err.msg);
        abort();
    }
    p2 = print_mem(g2, &n2);
    if (n1 != n2 || memcmp(p1, p2, n1) != 0) {
        fprintf(stderr, "print -> parse -> print differs\n");
        abort();
    }
    free(p1);
    free(p2);
    gir_graph_free(g);
    gir_graph_free(g2);
    return 0;
}

/*
 * A few assertion macros for the frontend tests: a failed check prints where
 * and what, counts, and lets the test go on so one run shows every failure.
 */
#ifndef KILN_TESTS_FRONTEND_CHECK_H
#define KILN_TESTS_FRONTEND_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures; /* failed checks so far in this program */

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

#define CHECK_INT(a, b)                                                          \
    do {                                                                         \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);          \
        if (check_a_ != check_b_) {                                              \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__,      \
                    __LINE__, #a, check_a_, check_b_);                           \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

#define CHECK_STR(a, b)                                                          \
    do {                                                                         \
        const char *check_a_ = (a), *check_b_ = (b);                             \
        if (!check_a_ || strcmp(check_a_, check_b_) != 0) {                      \
            fprintf(stderr, "%s:%d: %s is\n  \"%s\"\nexpected\n  \"%s\"\n",      \
                    __FILE__, __LINE__, #a, check_a_ ? check_a_ : "(null)",      \
                    check_b_);                                                   \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

/* Exit status of a test program. */
#define CHECK_DONE()                                                             \
    (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)

#endif

/*
 * Private to the text form of the graph IR (print.c writes it, parse.c reads
 * it): the character classes both agree on, and the spelling of a type that
 * the parser's messages borrow from the printer.  docs/ir.md has the grammar.
 */
#ifndef KILN_GRAPHIR_TEXT_H
#define KILN_GRAPHIR_TEXT_H

#include <stddef.h>
#include <string.h>

#include "graphir.h"

static inline int is_digit(int c) { return c >= '0' && c <= '9'; }

static inline int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Characters a value name may use without quotes.  '.', ':' and '/' are in
 * because ONNX names like "conv1/W:0" are common and should stay readable. */
static inline int is_bare_char(int c)
{
    return is_alpha(c) || is_digit(c) || c == '.' || c == ':' || c == '/' || c == '-';
}

/* A name the printer may write bare after '%'.  It may not end in ':' so
 * that "%x: f32[1]" reads as %x. */
static inline int is_bare_name(const char *s)
{
    if (!s || !*s || s[strlen(s) - 1] == ':')
        return 0;
    for (; *s; s++)
        if (!is_bare_char((unsigned char)*s))
            return 0;
    return 1;
}

/* The type as the text form writes it ("f32[1,?,8]", "f32[*]", "i64[]"),
 * truncated to size; returns buf.  In print.c; the parser's messages use it
 * so that a type reads the same in a diagnostic as in the text. */
const char *gir_text_type(const GirType *t, char *buf, size_t size);

#endif

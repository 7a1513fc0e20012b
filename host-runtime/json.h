/*
 * A small JSON reader for regmap.json (internal to libkiln-rt): the whole
 * document into a tree; numbers as double, strings unescaped for \" \\ \/
 * and \n only (regmap.json holds names and hex numbers).
 */
#ifndef KILN_RT_JSON_H
#define KILN_RT_JSON_H

#include <stddef.h>

enum { KJ_NULL, KJ_BOOL, KJ_NUM, KJ_STR, KJ_ARR, KJ_OBJ };

/* One value; array elements and object members are a list of kids. */
typedef struct KJ {
    int type;        /* KJ_ */
    double num;      /* KJ_NUM value, KJ_BOOL 0 or 1 */
    char *str;       /* KJ_STR text */
    char *key;       /* member name inside an object, else NULL */
    struct KJ *kid;  /* first element or member */
    struct KJ *next; /* next sibling */
} KJ;

/* Parse text (len bytes); NULL when malformed (*line gets the line) or out
 * of memory (*line = 0). */
KJ *krt_json_parse(const char *text, size_t len, int *line);
void krt_json_free(KJ *j);
/* Member key of object o, or NULL. */
const KJ *krt_json_get(const KJ *o, const char *key);

#endif

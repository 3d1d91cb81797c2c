/* Compares two cJSON trees: the loader's (src/io/json_tree.c) against cJSON's own parse of the
 * same text. Shared by the JSON test suite and the glTF fuzz target. */
#ifndef OSSA_TEST_JSON_SAME_H
#define OSSA_TEST_JSON_SAME_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* 1 when a and b hold the same values: types, keys and strings byte for byte, numbers bit for
 * bit, members in the same order, linked as cJSON links them (next, and the first's prev the
 * last). Else 0, with what differs first in why (why_size bytes). */
int json_same(const cJSON *a, const cJSON *b, char *why, size_t why_size);

/* cJSON's verdict on text under the loader's rule: the root value parses and is followed by white
 * space only, then nothing or NUL bytes. Returns the tree (free it with cJSON_Delete) or NULL. */
cJSON *json_parse_cjson(const char *text, size_t size);

/* 1 when text has a run of more than 63 characters that can be part of a number: cJSON reads at
 * most 63 of them and refuses longer numbers, which JSON allows. */
int json_has_long_number(const char *text, size_t size);

#endif

/* The loader's JSON parser (src/io/json_tree.c): the same tree as cJSON's own parse for valid
 * text (every shared model's JSON, and texts that reach each escape, number form and nesting
 * limit), and a refusal, with the offset of what is wrong, for the invalid text jsmn alone lets
 * through. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_tree.h"
#include "json_same.h"
#include "rig/owned.h"
#include "test_support.h"

/* malloc and free (ossa_allocator_resolve's default), set by main */
static ossa_allocator heap;
static const ossa_allocator *const allocator = &heap;

/* Parses text with both and checks that the trees are the same. */
static void check_same(const char *label, const char *text, size_t size) {
    ossa_json_tree tree;
    ossa_json_failure failure = {0};
    int parsed = ossa_json_tree_parse(text, size, allocator, &tree, &failure);
    CHECKF(parsed, "%s: refused: %s near byte %zu", label, failure.what ? failure.what : "",
           failure.offset);
    cJSON *reference = json_parse_cjson(text, size);
    CHECKF(reference != NULL, "%s: cJSON refuses it", label);
    if (parsed && reference) {
        char why[256] = "";
        CHECKF(json_same(tree.root, reference, why, sizeof why), "%s: %s", label, why);
    }
    cJSON_Delete(reference);
    if (parsed) ossa_json_tree_free(&tree, allocator);
}

static void check_refused(const char *text, size_t size, ossa_result code, size_t offset) {
    ossa_json_tree tree;
    ossa_json_failure failure = {0};
    int parsed = ossa_json_tree_parse(text, size, allocator, &tree, &failure);
    CHECKF(!parsed, "accepted: %.*s", (int)size, text);
    if (parsed) {
        ossa_json_tree_free(&tree, allocator);
        return;
    }
    CHECKF(failure.code == code && failure.offset == offset,
           "%.*s: %s (code %d) near byte %zu, expected code %d near byte %zu", (int)size, text,
           failure.what, (int)failure.code, failure.offset, (int)code, offset);
    CHECK(tree.root == NULL && tree.memory == NULL);
}

static void valid_texts(void) {
    static const char *texts[] = {
        "{}",
        " \t\r\n{ } \n",
        "{\"a\":[],\"b\":{},\"c\":[[]],\"d\":[{}]}",
        "{\"n\":[0,-0,1,-1,12,123456789012345,1234567890123456,12345678901234567890,4294967296]}",
        "{\"f\":[0.5,-0.0,1e3,1E-3,2.5e+2,0.1,3.14159265358979323846,1e308,1e-320,1e400,-1e400]}",
        "{\"i\":[2147483647,2147483648,-2147483648,-2147483649,1e10,-1e10]}",
        "{\"l\":[true,false,null],\"t\":true}",
        "{\"s\":\"\",\"e\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\",\"u\":\"\\u00e9\\u20AC\\ud83d\\ude00x\"}",
        "{\"z\":\"a\\u0000b\",\"raw\":\"\xc3\xa9\xe2\x82\xac\x01\x7f\"}",
        "{\"dup\":1,\"dup\":2,\"\":3,\"k\\u0041\":4}",
        "{\"a\":1,\"b\":[1,\"x\",{\"c\":null}],\"d\":{\"e\":{\"f\":[[[[1]]]]}}}",
        "{\"asset\":{\"version\":\"2.0\"}}   \0\0\0",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t size = strlen(texts[i]);
        if (i == sizeof texts / sizeof texts[0] - 1) size += 3; /* the NUL padding */
        check_same(texts[i], texts[i], size);
    }
}

/* Numbers of every length, point position, sign and exponent, and the edges of the parser's
 * exact path (2^53, 10^22, 19 digits): bit for bit what cJSON's strtod reads. */
static void many_numbers(void) {
    static const char *const edges[] = {"9007199254740992",
                                        "9007199254740993",
                                        "-9007199254740993",
                                        "1e22",
                                        "1e23",
                                        "1e-22",
                                        "1e-23",
                                        "4.5e-22",
                                        "9007199254740992e22",
                                        "9007199254740993e-22",
                                        "1234567890123456789",
                                        "12345678901234567890",
                                        "0.1234567890123456789",
                                        "0.00000000000000000001",
                                        "1e-1000",
                                        "0e999999999999",
                                        "-0.0e-5",
                                        "3.0E+22",
                                        "7.2057594037927933e16",
                                        "0.30000000000000004",
                                        "2.2250738585072014e-308",
                                        "1.7976931348623157e308",
                                        "17976931348623157e292",
                                        "5e-324"};
    enum { RANDOM = 20000 };
    size_t room = 64 + (RANDOM + sizeof edges / sizeof edges[0]) * 48;
    char *text = malloc(room), *o = text;
    o += sprintf(o, "[");
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        o += sprintf(o, "%s%s", i ? "," : "", edges[i]);
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (int n = 0; n < RANDOM; n++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        uint64_t r = state >> 11;
        int digits = 1 + (int)(r % 21), point = (int)((r >> 5) % (uint64_t)(digits + 1));
        *o++ = ',';
        if (r >> 10 & 1) *o++ = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d) *o++ = '.';
            state = state * 6364136223846793005u + 1442695040888963407u;
            int digit = (int)((state >> 33) % 10);
            *o++ = (char)('0' + (d == 0 && digit == 0 && digits > 1 && point != 1 ? 1 : digit));
        }
        if (r >> 11 & 1) o += sprintf(o, "e%d", (int)((r >> 12) % 61) - 30);
    }
    o += sprintf(o, "]");
    check_same("many numbers", text, (size_t)(o - text));
    free(text);
}

/* Strings are copied 16 bytes at a time: an escape at every offset of a long string, strings of
 * every length, and a string that ends where the text does. */
static void string_chunks(void) {
    static const char *const escapes[] = {"\\n", "\\u00e9", "\\\\", "\\ud83d\\ude00"};
    char text[256];
    for (size_t e = 0; e < sizeof escapes / sizeof escapes[0]; e++)
        for (int at = 0; at <= 40; at++) {
            int n = snprintf(text, sizeof text, "[\"%.*s%s%.*s\",\"%.*s\"]", at,
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", escapes[e],
                             40 - at, "0123456789012345678901234567890123456789", at,
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
            check_same(text, text, (size_t)n);
        }
    for (int length = 0; length <= 40; length++) {
        int n = snprintf(text, sizeof text, "{\"k\":\"%.*s\"}", length,
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
        check_same(text, text, (size_t)n);
        n = snprintf(text, sizeof text, "\"%.*s\"", length,
                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
        check_same(text, text, (size_t)n); /* a string alone: it ends where the text ends */
    }
}

/* Text jsmn's strict mode tokenizes without complaint (or that cJSON refuses) and JSON forbids. */
static void invalid_texts(void) {
    static const struct {
        const char *text;
        size_t offset;
    } cases[] = {
        {"[1 2]", 3},
        {"[1,,2]", 3},
        {"{\"a\":1,}", 6},
        {"[1,]", 2},
        {"{\"a\" \"b\"}", 1},
        {"{\"a\":1 \"b\":2}", 1},
        {"[tru]", 1},
        {"[nul]", 1},
        {"[01]", 1},
        {"[1.]", 1},
        {"[.5]", 1},
        {"[-]", 1},
        {"[1e]", 1},
        {"[1e+]", 1},
        {"[+1]", 1},
        {"[0x10]", 1},
        {"[1.5e3.2]", 1},
        {"{\"a\"}", 1},
        {"{\"a\":}", 1},
        {"{,}", 1},
        {"[,1]", 1},
        {"{} {}", 2},
        {"{} x", 3},
        {"{}\0x", 3},
        {"[\"\\ud800\"]", 2},
        {"[\"\\udc00\"]", 2},
        {"[\"\\ud800\\u0041\"]", 2},
        {"[\"\\ud800x\"]", 2},
        {"{\"a\":1}}", 7},
        {"[}", 1},
        {"", 0},
        {"   ", 3},
        {"{\"a\":[1,2", 8},
        {":{}", 0}, /* jsmn skips a separator before the root (found by fuzz_gltf) */
        {" ,{}", 1},
        {"[1:2]", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size = strlen(cases[i].text);
        if (!strcmp(cases[i].text, "{}")) size = 4; /* "{}\0x" */
        check_refused(cases[i].text, size, OSSA_ERROR_JSON, cases[i].offset);
    }
}

/* 1000 nested arrays parse, as in cJSON; 1001 are refused (cJSON refuses them too). */
static void nesting_limit(void) {
    char text[2 * 1002 + 16];
    for (int depth = 1000; depth <= 1001; depth++) {
        size_t n = 0;
        text[n++] = '{';
        text[n++] = '"';
        text[n++] = 'a';
        text[n++] = '"';
        text[n++] = ':';
        for (int i = 1; i < depth; i++)
            text[n++] = '[';
        for (int i = 1; i < depth; i++)
            text[n++] = ']';
        text[n++] = '}';
        if (depth == 1000) {
            check_same("1000 levels", text, n);
        } else {
            check_refused(text, n, OSSA_ERROR_JSON, 5 + 999);
            CHECK(json_parse_cjson(text, n) == NULL);
        }
    }
}

/* A long array of small objects: jsmn closes each one by its parent link, not by walking back
 * over every token before it (which took minutes for a text like this one). */
static void long_array_of_objects(void) {
    size_t count = 200000, n = 0;
    char *text = malloc(count * 3 + 16);
    n += (size_t)sprintf(text, "{\"a\":[");
    for (size_t i = 0; i < count; i++) {
        memcpy(text + n, i ? ",{}" : "{}", i ? 3 : 2);
        n += i ? 3 : 2;
    }
    text[n++] = ']';
    text[n++] = '}';
    check_same("200000 objects", text, n);
    free(text);
}

/* Every shared model's JSON text (a .gltf file, or a GLB's JSON chunk). */
static void shared_models(void) {
    static const char *models[] = {
        "models/Fox/Fox.glb",
        "models/CesiumMan/glTF-Binary/CesiumMan.glb",
        "models/CesiumMan/glTF/CesiumMan.gltf",
        "models/CesiumMan/glTF-Embedded/CesiumMan.gltf",
        "models/AssimpSimpleSkin/quad_skin.glb",
        "models/MorphStressTest/MorphStressTest.gltf",
        "models/OracleSynth/Synth.gltf",
        "models/SyntheticInterp/SyntheticInterp.gltf",
        "models/BlenderAllAnimations/03_all_animations.gltf",
        "models/FoxSparse/FoxSparse.glb",
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        size_t size = 0;
        unsigned char *bytes = ossa_test_read_file(ossa_test_shared_path(models[i]), &size);
        CHECKF(bytes != NULL, "cannot read %s", models[i]);
        if (!bytes) continue;
        const char *text = (const char *)bytes;
        size_t length = size;
        if (size >= 20 && !memcmp(bytes, "glTF", 4)) { /* the JSON chunk */
            length = (size_t)bytes[12] | (size_t)bytes[13] << 8 | (size_t)bytes[14] << 16 |
                     (size_t)bytes[15] << 24;
            text = (const char *)bytes + 20;
            CHECK(length <= size - 20);
        }
        check_same(models[i], text, length);
        free(bytes);
    }
}

/* Where the decimal point is a comma, numbers still read with a point (as cJSON reads them). The
 * build names such a locale in OSSA_TEST_COMMA_LOCALE when it could make one (then it must
 * work); else a host's own de_DE or fr_FR locale is used if it has one. */
static void comma_locale(void) {
    const char *required = getenv("OSSA_TEST_COMMA_LOCALE");
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *name = NULL;
    if (required) {
        CHECKF(setlocale(LC_NUMERIC, required) != NULL, "cannot use the locale %s", required);
        name = required;
    }
    for (size_t i = 0; !required && i < sizeof names / sizeof names[0] && !name; i++)
        if (setlocale(LC_NUMERIC, names[i])) name = names[i];
    if (!name || !setlocale(LC_NUMERIC, name)) {
        printf("json_tree: no locale with a decimal comma here; its case was not run\n");
        return;
    }
    CHECK(strcmp(localeconv()->decimal_point, ",") == 0);
    const char *text = "{\"f\":[1.5,-0.25,2.5e-3,12345678901234567.5]}";
    check_same(name, text, strlen(text));
    setlocale(LC_NUMERIC, "C");
}

int main(void) {
    heap = ossa_allocator_resolve(NULL);
    valid_texts();
    many_numbers();
    string_chunks();
    invalid_texts();
    nesting_limit();
    long_array_of_objects();
    shared_models();
    comma_locale();
    check_refused("{}", (size_t)INT32_MAX + 1u, OSSA_ERROR_LIMIT, 0);
    return ossa_test_finish("io_json_tree");
}

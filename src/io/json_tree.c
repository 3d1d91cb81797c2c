/* JSON text to a cJSON tree in one block (json_tree.h). */
#include "io/json_tree.h"

#include <float.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Parent links make closing a bracket walk up the open containers instead of back over every
 * token before it, which is quadratic on a long array of objects. Strict mode refuses unquoted
 * keys and primitives that do not start like a number, true, false or null (the rest of each
 * primitive is checked here). */
#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include <jsmn.h>

typedef struct builder {
    const char *text, *text_end;
    const jsmntok_t *tokens;
    int token_count;
    int next_token;
    cJSON *nodes;
    size_t node_count;
    size_t next_node;
    char *strings; /* where the next string goes */
    const ossa_allocator *allocator;
    ossa_json_failure *failure;
} builder;

/* Bytes of the block past its last string that unescape may write (16-byte stores). */
#define STRING_SLACK 16

static int fail(ossa_json_failure *failure, ossa_result code, const char *what, size_t offset) {
    failure->code = code;
    failure->what = what;
    failure->offset = offset;
    return 0;
}

static int syntax_error(builder *b, size_t offset) {
    return fail(b->failure, OSSA_ERROR_JSON, "the JSON text does not parse", offset);
}

/* A string token spans its text without the quotes. */
static size_t outer_start(const jsmntok_t *t) {
    return (size_t)t->start - (t->type == JSMN_STRING);
}

static size_t outer_end(const jsmntok_t *t) {
    return (size_t)t->end + (t->type == JSMN_STRING);
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_space(const char *text, size_t at, size_t end) {
    while (at < end && is_space(text[at]))
        at++;
    return at;
}

/* text[from, to) between two tokens must be white space around exactly one separator, or only
 * white space when separator is 0. jsmn does not check this: it takes [1 2], [1,,2] and
 * {"a":1,} for valid. */
static inline int check_gap(builder *b, size_t from, size_t to, char separator) {
    /* compact text: nothing, or the separator alone */
    if (to - from == (separator != 0) && (!separator || b->text[from] == separator)) return 1;
    if (from > to) return syntax_error(b, to);
    size_t at = skip_space(b->text, from, to);
    if (separator) {
        if (at == to || b->text[at] != separator) return syntax_error(b, at);
        at = skip_space(b->text, at + 1, to);
    }
    if (at != to) return syntax_error(b, at);
    return 1;
}

static int hex4(const char *s) {
    int value = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        value = value * 16 + digit;
    }
    return value;
}

static size_t utf8_encode(unsigned code_point, char *out) {
    if (code_point < 0x80) {
        out[0] = (char)code_point;
        return 1;
    }
    if (code_point < 0x800) {
        out[0] = (char)(0xC0 | (code_point >> 6));
        out[1] = (char)(0x80 | (code_point & 0x3F));
        return 2;
    }
    if (code_point < 0x10000) {
        out[0] = (char)(0xE0 | (code_point >> 12));
        out[1] = (char)(0x80 | ((code_point >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code_point & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code_point >> 18));
    out[1] = (char)(0x80 | ((code_point >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code_point >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code_point & 0x3F));
    return 4;
}

/* The string of a token, unescaped and NUL-terminated, in the block's string room (never longer
 * than its escaped text). jsmn has checked each escape's letter and hex digits; a \u escape of
 * half a surrogate pair without its other half is refused here, as cJSON refuses it. */
static char *unescape(builder *b, const jsmntok_t *t) {
    const char *s = b->text + t->start, *end = b->text + t->end;
    char *out = b->strings, *o = out;
    for (;;) {
        if (end - s >= 64) { /* data URIs and other long strings: libc's wide loops */
            const char *slash = memchr(s, '\\', (size_t)(end - s));
            size_t run = (size_t)((slash ? slash : end) - s);
            memcpy(o, s, run);
            o += run;
            s += run;
        }
#if defined(__SSE2__)
        /* keys and names: 16 bytes at a time while they lie inside the text (the string room
         * has STRING_SLACK bytes beyond the last string for the stores past its end) */
        while (s < end && b->text_end - s >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
            _mm_storeu_si128((__m128i *)(void *)o, v);
            unsigned slashes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
            size_t run = slashes ? (size_t)__builtin_ctz(slashes) : 16;
            if (run > (size_t)(end - s)) run = (size_t)(end - s);
            o += run;
            s += run;
            if (run < 16) break; /* at the end or at a backslash */
        }
#endif
        while (s < end && *s != '\\')
            *o++ = *s++;
        if (s == end) break;
        char c = s[1];
        s += 2;
        switch (c) {
        case 'b':
            *o++ = '\b';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'u': {
            unsigned code_point = (unsigned)hex4(s);
            s += 4;
            if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
                syntax_error(b, (size_t)(s - b->text) - 6);
                return NULL;
            }
            if (code_point >= 0xD800 && code_point <= 0xDBFF) {
                unsigned low = 0;
                if (end - s >= 6 && s[0] == '\\' && s[1] == 'u') low = (unsigned)hex4(s + 2);
                if (low < 0xDC00 || low > 0xDFFF) {
                    syntax_error(b, (size_t)(s - b->text) - 6);
                    return NULL;
                }
                s += 6;
                code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
            }
            o += utf8_encode(code_point, o);
            break;
        }
        default:
            *o++ = c;
            break; /* " \ / */
        }
    }
    *o++ = '\0';
    b->strings = o;
    return out;
}

/* How scan_number read a number. */
enum { NOT_A_NUMBER, EXACT, NEEDS_STRTOD };

/* Reads s[0, n) by JSON's grammar of numbers, in one pass. Returns NOT_A_NUMBER when it breaks
 * the grammar; EXACT, with *value, when one correctly rounded operation gives the value (the
 * classic fast path: at most 19 digits making a whole number w <= 2^53 and a power of ten 10^e
 * with |e| <= 22, both exact doubles, so w * 10^e or w / 10^-e is what strtod returns); else
 * NEEDS_STRTOD. */
static int scan_number(const char *s, size_t n, double *value) {
    static const double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = s[0] == '-';
    uint64_t whole = 0; /* wraps past 19 digits, which then go to strtod */
    int digits = 0, exponent = 0;
    if (i == n) return NOT_A_NUMBER;
    if (s[i] == '0')
        i++;
    else if (s[i] >= '1' && s[i] <= '9')
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
            whole = whole * 10 + (uint64_t)(s[i] - '0');
    else
        return NOT_A_NUMBER;
    if (i < n && s[i] == '.') {
        size_t first = ++i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++, exponent--)
            whole = whole * 10 + (uint64_t)(s[i] - '0');
        if (i == first) return NOT_A_NUMBER;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int negative = 0, written = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
        size_t first = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (written < 100000) written = written * 10 + (s[i] - '0');
        if (i == first) return NOT_A_NUMBER;
        exponent += negative ? -written : written;
    }
    if (i != n) return NOT_A_NUMBER;
#if FLT_EVAL_METHOD == 0
    if (digits > 19 || whole > (UINT64_C(1) << 53) || exponent < -22 || exponent > 22)
        return NEEDS_STRTOD;
    double magnitude = exponent == 0  ? (double)whole
                       : exponent < 0 ? (double)whole / powers[-exponent]
                                      : (double)whole * powers[exponent];
    *value = s[0] == '-' ? -magnitude : magnitude;
    return EXACT;
#else
    (void)powers, (void)value;
    return NEEDS_STRTOD;
#endif
}

/* strtod in a locale whose decimal point is not '.': the text copied with the locale's point. */
static int number_in_locale(builder *b, const char *s, size_t n, double *value) {
    const char *point = localeconv()->decimal_point;
    size_t point_len = strlen(point);
    char local[128];
    size_t size = n * (point_len ? point_len : 1) + 1;
    char *copy = size <= sizeof local ? local : b->allocator->alloc(b->allocator->user, size);
    if (!copy) return fail(b->failure, OSSA_ERROR_OUT_OF_MEMORY, "out of memory", 0);
    char *o = copy;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            memcpy(o, point, point_len);
            o += point_len;
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    char *stop = NULL;
    *value = strtod(copy, &stop);
    int whole = stop == o;
    if (copy != local) b->allocator->free(b->allocator->user, copy);
    return whole ? 1 : syntax_error(b, (size_t)(s - b->text));
}

/* A number's value: exactly what strtod returns, from scan_number when it can, else from strtod,
 * which reads the token in place: jsmn's strict mode ends every primitive at a delimiter inside
 * the text, where strtod stops too. */
static int number_value(builder *b, const char *s, size_t n, double *value) {
    int read = scan_number(s, n, value);
    if (read == NOT_A_NUMBER) return syntax_error(b, (size_t)(s - b->text));
    if (read == EXACT) return 1;
    char *stop = NULL;
    *value = strtod(s, &stop);
    if (stop == s + n) return 1;
    return number_in_locale(b, s, n, value);
}

/* true, false, null, or a number (jsmn's strict mode lets no other first character through) */
static int primitive(builder *b, const jsmntok_t *t, cJSON *node) {
    const char *s = b->text + t->start;
    size_t n = (size_t)(t->end - t->start);
    switch (s[0]) {
    case 't':
        if (n != 4 || memcmp(s, "true", 4)) return syntax_error(b, (size_t)t->start);
        node->type = cJSON_True;
        node->valueint = 1;
        return 1;
    case 'f':
        if (n != 5 || memcmp(s, "false", 5)) return syntax_error(b, (size_t)t->start);
        node->type = cJSON_False;
        return 1;
    case 'n':
        if (n != 4 || memcmp(s, "null", 4)) return syntax_error(b, (size_t)t->start);
        node->type = cJSON_NULL;
        return 1;
    default:
        break;
    }
    double value = 0.0;
    if (!number_value(b, s, n, &value)) return 0;
    node->type = cJSON_Number;
    node->valuedouble = value;
    /* cJSON's saturating conversion */
    node->valueint = value >= INT_MAX ? INT_MAX : value <= (double)INT_MIN ? INT_MIN : (int)value;
    return 1;
}

static cJSON *value(builder *b, int depth);

/* The members of an object or the elements of an array, their separators checked, as cJSON
 * links them: next in order, the first's prev the last. */
static int members(builder *b, const jsmntok_t *t, cJSON *node, int depth) {
    int object = t->type == JSMN_OBJECT;
    size_t at = (size_t)t->start + 1;
    cJSON *last = NULL;
    for (int i = 0; i < t->size; i++) {
        if (b->next_token >= b->token_count) return syntax_error(b, at);
        const jsmntok_t *first = &b->tokens[b->next_token];
        if (!check_gap(b, at, outer_start(first), i ? ',' : 0)) return 0;
        char *key = NULL;
        if (object) {
            if (first->type != JSMN_STRING || first->size != 1)
                return syntax_error(b, outer_start(first));
            if (!(key = unescape(b, first))) return 0;
            at = outer_end(first);
            if (++b->next_token >= b->token_count) return syntax_error(b, at);
            if (!check_gap(b, at, outer_start(&b->tokens[b->next_token]), ':')) return 0;
        }
        const jsmntok_t *element = &b->tokens[b->next_token];
        cJSON *child = value(b, depth + 1);
        if (!child) return 0;
        child->string = key;
        if (last) {
            last->next = child;
            child->prev = last;
        } else {
            node->child = child;
        }
        last = child;
        at = outer_end(element);
    }
    if (node->child) node->child->prev = last;
    return check_gap(b, at, (size_t)t->end - 1, 0);
}

/* The value at the next token, and everything inside it. */
static cJSON *value(builder *b, int depth) {
    const jsmntok_t *t = &b->tokens[b->next_token++];
    if (b->next_node == b->node_count) { /* only when jsmn's tokens do not nest as counted */
        syntax_error(b, (size_t)t->start);
        return NULL;
    }
    cJSON *node = &b->nodes[b->next_node++];
    memset(node, 0, sizeof *node);
    switch (t->type) {
    case JSMN_PRIMITIVE:
        if (!primitive(b, t, node)) return NULL;
        break;
    case JSMN_STRING:
        node->type = cJSON_String;
        if (!(node->valuestring = unescape(b, t))) return NULL;
        break;
    case JSMN_OBJECT:
    case JSMN_ARRAY:
        if (depth >= OSSA_JSON_DEPTH_MAX) {
            fail(b->failure, OSSA_ERROR_JSON, "the JSON text nests deeper than 1000 levels",
                 (size_t)t->start);
            return NULL;
        }
        node->type = t->type == JSMN_OBJECT ? cJSON_Object : cJSON_Array;
        if (!members(b, t, node, depth)) return NULL;
        break;
    default:
        syntax_error(b, (size_t)t->start);
        return NULL;
    }
    return node;
}

/* An upper bound of the tokens of valid JSON text: each token but the first directly follows
 * (white space aside) a '[', '{', ',' or ':' of its own, so there are at most one more tokens
 * than those characters (counted inside strings too). Text that is not JSON may have more; then
 * the array grows. */
static size_t token_bound(const char *text, size_t size) {
    size_t count = 1, i = 0;
#if defined(__SSE2__)
    /* each byte lane counts its hits (a hit is -1) for up to 255 blocks, then the lanes are
     * summed */
    const __m128i comma = _mm_set1_epi8(','), colon = _mm_set1_epi8(':');
    const __m128i bracket = _mm_set1_epi8('['), brace = _mm_set1_epi8('{');
    while (i + 16 <= size) {
        __m128i lanes = _mm_setzero_si128();
        for (int block = 0; block < 255 && i + 16 <= size; block++, i += 16) {
            __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
            __m128i hit =
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, comma), _mm_cmpeq_epi8(c, colon)),
                             _mm_or_si128(_mm_cmpeq_epi8(c, bracket), _mm_cmpeq_epi8(c, brace)));
            lanes = _mm_sub_epi8(lanes, hit);
        }
        __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        count +=
            (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; i < size; i++)
        count += text[i] == ',' || text[i] == ':' || text[i] == '[' || text[i] == '{';
    return count;
}

/* jsmn's tokens, the array doubled whenever jsmn runs out (it then resumes where it stopped).
 * Returns the token count, or -1 with *failure filled. */
static int tokenize(const char *text, size_t size, const ossa_allocator *a, jsmntok_t **out,
                    ossa_json_failure *failure) {
    jsmn_parser parser;
    jsmn_init(&parser);
    size_t capacity = token_bound(text, size);
    jsmntok_t *tokens = a->alloc(a->user, capacity * sizeof *tokens);
    for (;;) {
        if (!tokens) {
            fail(failure, OSSA_ERROR_OUT_OF_MEMORY, "out of memory", 0);
            return -1;
        }
        int count = jsmn_parse(&parser, text, size, tokens, (unsigned)capacity);
        if (count >= 0) {
            *out = tokens;
            return count;
        }
        if (count != JSMN_ERROR_NOMEM) {
            a->free(a->user, tokens);
            fail(failure, OSSA_ERROR_JSON, "the JSON text does not parse", parser.pos);
            return -1;
        }
        jsmntok_t *grown = NULL;
        if (capacity <= SIZE_MAX / 2 / sizeof *tokens)
            grown = a->alloc(a->user, 2 * capacity * sizeof *tokens);
        if (grown) memcpy(grown, tokens, capacity * sizeof *tokens);
        a->free(a->user, tokens);
        tokens = grown;
        capacity *= 2;
    }
}

/* After the root value: white space, then nothing or NUL bytes to the end. */
static int check_rest(const char *text, size_t from, size_t size, ossa_json_failure *failure) {
    size_t at = skip_space(text, from, size);
    while (at < size && text[at] == '\0')
        at++;
    if (at != size) return fail(failure, OSSA_ERROR_JSON, "the JSON text does not parse", at);
    return 1;
}

/* The block for the nodes (every token but the objects' keys) and the strings. */
static void *tree_block(const jsmntok_t *tokens, int count, const ossa_allocator *a,
                        size_t *node_count) {
    size_t keys = 0, string_bytes = 0;
    for (int i = 0; i < count; i++) {
        if (tokens[i].type == JSMN_OBJECT) keys += (size_t)tokens[i].size;
        if (tokens[i].type == JSMN_STRING)
            string_bytes += (size_t)(tokens[i].end - tokens[i].start) + 1;
    }
    size_t nodes = keys < (size_t)count ? (size_t)count - keys : 0;
    if (nodes > (SIZE_MAX - string_bytes - STRING_SLACK - 1) / sizeof(cJSON)) return NULL;
    *node_count = nodes;
    return a->alloc(a->user, nodes * sizeof(cJSON) + string_bytes + 1 + STRING_SLACK);
}

int ossa_json_tree_parse(const char *text, size_t size, const ossa_allocator *allocator,
                         ossa_json_tree *tree, ossa_json_failure *failure) {
    memset(tree, 0, sizeof *tree);
    if (size >= INT_MAX)
        return fail(failure, OSSA_ERROR_LIMIT, "the JSON text is 2 GiB or more", 0);
    jsmntok_t *tokens = NULL;
    int count = tokenize(text, size, allocator, &tokens, failure);
    if (count < 0) return 0;
    if (count == 0) {
        allocator->free(allocator->user, tokens);
        return fail(failure, OSSA_ERROR_JSON, "the JSON text does not parse", size);
    }
    size_t node_count = 0;
    void *memory = tree_block(tokens, count, allocator, &node_count);
    if (!memory) {
        allocator->free(allocator->user, tokens);
        return fail(failure, OSSA_ERROR_OUT_OF_MEMORY, "out of memory", 0);
    }
    builder b = {.text = text,
                 .text_end = text + size,
                 .tokens = tokens,
                 .token_count = count,
                 .nodes = memory,
                 .node_count = node_count,
                 .strings = (char *)memory + node_count * sizeof(cJSON),
                 .allocator = allocator,
                 .failure = failure};
    /* jsmn skips a ':' or ',' before the root value */
    cJSON *root = check_gap(&b, 0, outer_start(&tokens[0]), 0) ? value(&b, 0) : NULL;
    if (root && b.next_token != count) { /* a second value after the root */
        syntax_error(&b, outer_end(&tokens[0]));
        root = NULL;
    }
    if (root && !check_rest(text, outer_end(&tokens[0]), size, failure)) root = NULL;
    allocator->free(allocator->user, tokens);
    if (!root) {
        allocator->free(allocator->user, memory);
        return 0;
    }
    tree->root = root;
    tree->memory = memory;
    return 1;
}

void ossa_json_tree_free(ossa_json_tree *tree, const ossa_allocator *allocator) {
    if (tree->memory) allocator->free(allocator->user, tree->memory);
    memset(tree, 0, sizeof *tree);
}

/* Base64 decoding for data URIs (RFC 4648 alphabet, at most two '=' of padding at the end). */
#include "io/loader.h"

/* The value of each byte as a base64 digit, -1 for bytes outside the alphabet. */
static const int8_t digit_value[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1, -1, -1, 0,  1,  2,  3,  4,  5,  6,
    7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, -1, -1, -1, -1, -1,
    -1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

int64_t ossa_io_base64_decode(const char *text, size_t length, uint8_t *out) {
    for (int pad = 0; length > 0 && text[length - 1] == '='; pad++) {
        if (pad == 2) return -1;
        length--;
    }
    if (length % 4 == 1) return -1;
    const unsigned char *in = (const unsigned char *)text;
    size_t whole = length / 4 * 4;
    uint8_t *o = out;
    for (size_t i = 0; i < whole; i += 4) {
        int32_t a = digit_value[in[i]], b = digit_value[in[i + 1]];
        int32_t c = digit_value[in[i + 2]], d = digit_value[in[i + 3]];
        if ((a | b | c | d) < 0) return -1;
        uint32_t bits = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        if (o) {
            o[0] = (uint8_t)(bits >> 16);
            o[1] = (uint8_t)(bits >> 8);
            o[2] = (uint8_t)bits;
            o += 3;
        }
    }
    size_t rest = length - whole;
    uint32_t bits = 0;
    for (size_t i = 0; i < rest; i++) {
        int32_t v = digit_value[in[whole + i]];
        if (v < 0) return -1;
        bits = bits << 6 | (uint32_t)v;
    }
    if (rest == 2 && o) o[0] = (uint8_t)(bits >> 4);
    if (rest == 3 && o) {
        o[0] = (uint8_t)(bits >> 10);
        o[1] = (uint8_t)(bits >> 2);
    }
    return (int64_t)(whole / 4 * 3 + (rest ? rest - 1 : 0));
}

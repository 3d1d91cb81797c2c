/* Base64 decoding for data URIs (RFC 4648 alphabet, '=' padding optional at the end). */
#include "io/loader.h"

static int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int64_t ossa_io_base64_decode(const char *text, size_t length, uint8_t *out) {
    for (int pad = 0; length > 0 && text[length - 1] == '='; pad++) {
        if (pad == 2) return -1;
        length--;
    }
    if (length % 4 == 1) return -1;
    uint64_t written = 0;
    uint32_t bits = 0;
    int count = 0;
    for (size_t i = 0; i < length; i++) {
        int v = sextet(text[i]);
        if (v < 0) return -1;
        bits = bits << 6 | (uint32_t)v;
        if (++count == 4) {
            if (out) {
                out[written] = (uint8_t)(bits >> 16);
                out[written + 1] = (uint8_t)(bits >> 8);
                out[written + 2] = (uint8_t)bits;
            }
            written += 3;
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) {
        if (out) out[written] = (uint8_t)(bits >> 4);
        written += 1;
    } else if (count == 3) {
        if (out) {
            out[written] = (uint8_t)(bits >> 10);
            out[written + 1] = (uint8_t)(bits >> 2);
        }
        written += 2;
    }
    return (int64_t)written;
}

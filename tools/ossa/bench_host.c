/* bench_host.h: CPUID leaves 0 (vendor), 1 (family and model) and 0x80000002-4 (brand string). */
#define _POSIX_C_SOURCE 200809L
#include "bench_host.h"

#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* The family and model numbers of CPUID leaf 1's eax, extended fields included as Intel and AMD
 * define them: the extended family adds to family 15; the extended model supplies the high
 * nibble of the model for families 6 and 15 and up. */
static void family_model(unsigned eax, int *family, int *model) {
    unsigned base_family = (eax >> 8) & 0xfu, base_model = (eax >> 4) & 0xfu;
    unsigned extended_family = (eax >> 20) & 0xffu, extended_model = (eax >> 16) & 0xfu;
    *family = (int)(base_family == 0xfu ? base_family + extended_family : base_family);
    *model = (int)(base_family == 0x6u || base_family == 0xfu ? (extended_model << 4) | base_model
                                                              : base_model);
}

static void describe_x86(bench_host *host) {
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        memcpy(host->vendor, &ebx, 4);
        memcpy(host->vendor + 4, &edx, 4);
        memcpy(host->vendor + 8, &ecx, 4);
        host->vendor[12] = '\0';
        if (eax >= 1 && __get_cpuid(1, &eax, &ebx, &ecx, &edx))
            family_model(eax, &host->family, &host->model);
    }
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000004u) return;
    unsigned brand[12];
    for (unsigned leaf = 0; leaf < 3; leaf++)
        __get_cpuid(0x80000002u + leaf, &brand[4 * leaf], &brand[4 * leaf + 1],
                    &brand[4 * leaf + 2], &brand[4 * leaf + 3]);
    char text[49];
    memcpy(text, brand, 48);
    text[48] = '\0';
    const char *start = text;
    while (*start == ' ')
        start++;
    size_t length = strlen(start);
    while (length && start[length - 1] == ' ')
        length--;
    memcpy(host->cpu, start, length);
    host->cpu[length] = '\0';
}
#endif

void bench_host_describe(bench_host *host) {
    memset(host, 0, sizeof *host);
    host->family = host->model = -1;
#if defined(__x86_64__) || defined(__i386__)
    describe_x86(host);
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    host->logical_cpus = online > 0 ? online : 1;
}

/* The processor a benchmark ran on, as `ossa bench` reports it first: figures compare only
 * between runs on the same kind of CPU, so every set of them names its own. */
#ifndef OSSA_TOOL_BENCH_HOST_H
#define OSSA_TOOL_BENCH_HOST_H

typedef struct bench_host {
    char vendor[13];   /* "GenuineIntel", "AuthenticAMD"; "" where CPUID is not available */
    char cpu[49];      /* the brand string, e.g. "AMD Ryzen 9 7950X 16-Core Processor" */
    int family, model; /* as the vendors number them (Zen 4: family 25); -1 when unknown */
    long logical_cpus; /* online */
} bench_host;

/* Fills `host` from CPUID (x86) and the online CPU count. */
void bench_host_describe(bench_host *host);

#endif

/* Compiles the functions between OSSA_TARGET_BEGIN("isa,isa") and OSSA_TARGET_END for those
 * instruction sets, whatever the build flags, so one binary carries every SIMD path and picks
 * one at run time. Include the intrinsics header after OSSA_TARGET_BEGIN. */
#ifndef OSSA_SIMD_TARGET_H
#define OSSA_SIMD_TARGET_H

#define OSSA_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define OSSA_TARGET_BEGIN(isa)                                                                     \
    OSSA_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define OSSA_TARGET_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#define OSSA_TARGET_BEGIN(isa) _Pragma("GCC push_options") OSSA_PRAGMA(GCC target(isa))
#define OSSA_TARGET_END        _Pragma("GCC pop_options")
#else
#define OSSA_TARGET_BEGIN(isa)
#define OSSA_TARGET_END
#endif

/* After OSSA_TARGET_BEGIN in files whose vector code must round as their scalar reference does:
 * no multiply and add fused into an FMA. */
#if defined(__clang__)
#define OSSA_FP_CONTRACT_OFF _Pragma("clang fp contract(off)")
#elif defined(__GNUC__)
#define OSSA_FP_CONTRACT_OFF _Pragma("GCC optimize(\"fp-contract=off\")")
#else
#define OSSA_FP_CONTRACT_OFF
#endif

/* For SIMD helpers whose vectors must stay in registers: always inlined, and loops over a
 * handful of vectors fully unrolled (left as loops, they keep the vectors in memory). */
#define OSSA_SIMD_INLINE inline __attribute__((always_inline))
#if defined(__clang__)
#define OSSA_SIMD_UNROLL _Pragma("unroll")
#else
#define OSSA_SIMD_UNROLL _Pragma("GCC unroll 16")
#endif

#endif

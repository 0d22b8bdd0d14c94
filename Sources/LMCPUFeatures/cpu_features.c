#include "LMCPUFeatures.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

uint32_t lm_cpu_features(void) {
    uint32_t a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    const int fma = (c >> 12) & 1, f16c = (c >> 29) & 1;
    if (!osxsave || !avx) return 0;
    const uint64_t xcr0 = read_xcr0();
    const int ymm = (xcr0 & 0x6) == 0x6;          /* SSE and AVX state */
    const int zmm = (xcr0 & 0xe6) == 0xe6;        /* plus opmask and ZMM state */
    if (!ymm) return 0;
    uint32_t features = 0;
    if (fma) features |= LM_CPU_FMA;
    if (f16c) features |= LM_CPU_F16C;
    uint32_t max_leaf = __get_cpuid_max(0, 0);
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if ((b >> 5) & 1) features |= LM_CPU_AVX2;
        if ((b >> 8) & 1) features |= LM_CPU_BMI2;
        if (zmm) {
            if ((b >> 16) & 1) features |= LM_CPU_AVX512F;
            if ((b >> 30) & 1) features |= LM_CPU_AVX512BW;
            if ((b >> 31) & 1) features |= LM_CPU_AVX512VL;
            if ((c >> 11) & 1) features |= LM_CPU_AVX512VNNI;
        }
        uint32_t subleaves = a;
        if (subleaves >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            if ((a >> 4) & 1) features |= LM_CPU_AVXVNNI;
        }
    }
    return features;
}
#else
uint32_t lm_cpu_features(void) { return 0; }
#endif

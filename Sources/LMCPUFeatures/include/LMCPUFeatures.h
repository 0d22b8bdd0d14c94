#ifndef LMCPUFEATURES_H
#define LMCPUFEATURES_H

#include <stdint.h>

/// Instruction-set extensions the CPU has AND the operating system has enabled (for AVX and
/// AVX-512 that means the XSAVE state of the YMM/ZMM registers is on, read with XGETBV).
enum {
    LM_CPU_AVX2 = 1u << 0,       ///< AVX2 (CPUID.7.0:EBX[5]) with YMM state enabled
    LM_CPU_FMA = 1u << 1,        ///< FMA3 (CPUID.1:ECX[12])
    LM_CPU_F16C = 1u << 2,       ///< F16C (CPUID.1:ECX[29])
    LM_CPU_BMI2 = 1u << 3,       ///< BMI2 (CPUID.7.0:EBX[8])
    LM_CPU_AVXVNNI = 1u << 4,    ///< AVX-VNNI, VEX vpdpbusd (CPUID.7.1:EAX[4])
    LM_CPU_AVX512F = 1u << 5,    ///< AVX-512 Foundation with ZMM state enabled (CPUID.7.0:EBX[16])
    LM_CPU_AVX512BW = 1u << 6,   ///< AVX-512 BW (CPUID.7.0:EBX[30])
    LM_CPU_AVX512VL = 1u << 7,   ///< AVX-512 VL (CPUID.7.0:EBX[31])
    LM_CPU_AVX512VNNI = 1u << 8, ///< AVX-512 VNNI (CPUID.7.0:ECX[11])
};

/// The `LM_CPU_*` bits of this CPU, from CPUID and XGETBV (Intel SDM vol. 2A, CPUID; vol. 1
/// §14.3 on detecting AVX support). 0 on other architectures.
uint32_t lm_cpu_features(void);

#endif

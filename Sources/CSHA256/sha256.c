// See CSHA256.h. The rounds follow Intel's "Intel SHA Extensions" (2013) and its public-domain
// reference code: the state kept as ABEF and CDGH, four rounds per message vector, the schedule
// extended with sha256msg1 and sha256msg2 as the rounds go.
#include "CSHA256.h"

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const uint32_t K[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *csha256_round_constants(void) { return K; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int csha256_hardware(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return ssse3 && sse41 && ((b >> 29) & 1);
}


__attribute__((target("sha,sse4.1,ssse3")))
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);      // a b c d (low to high: d c b a)
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);   // e f g h
    tmp = _mm_shuffle_epi32(tmp, 0xB1);                             // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B);                       // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);               // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);                    // CDGH

    while (blocks--) {
        const __m128i abef = state0, cdgh = state1;
        __m128i w[4];
        for (int group = 0; group < 16; group++) {
            if (group < 4) w[group] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byteSwap);
            __m128i message = _mm_add_epi32(w[group & 3], _mm_load_si128((const __m128i *)&K[4 * group]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, message);
            if (group >= 3 && group < 15) {
                // The schedule's next four words: w[t-16] + σ0 (msg1, done three groups ago) +
                // w[t-7] (the shifted pair) + σ1 (msg2).
                __m128i next = _mm_add_epi32(w[(group + 1) & 3], _mm_alignr_epi8(w[group & 3], w[(group + 3) & 3], 4));
                w[(group + 1) & 3] = _mm_sha256msg2_epu32(next, w[group & 3]);
            }
            message = _mm_shuffle_epi32(message, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, message);
            if (group >= 1 && group < 13) w[(group + 3) & 3] = _mm_sha256msg1_epu32(w[(group + 3) & 3], w[group & 3]);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
        data += 64;
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);                          // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);                       // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);                    // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);                       // ABEF
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}
#else
int csha256_hardware(void) { return 0; }
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) { (void)state; (void)data; (void)blocks; }
#endif

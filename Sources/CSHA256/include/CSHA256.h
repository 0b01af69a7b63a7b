#ifndef REPLAY_CSHA256_H
#define REPLAY_CSHA256_H
// SHA-256's compression function on the x86 SHA extensions (SHA-NI), which Swift cannot emit:
// it has no intrinsics for sha256rnds2, sha256msg1 and sha256msg2. Privacy's SHA256 calls it when
// the processor has them, and compresses in Swift otherwise; both are checked against FIPS 180-4's
// and NIST's vectors.
#include <stddef.h>
#include <stdint.h>

/// SHA-256's 64 round constants (FIPS 180-4 §4.2.2), for both compressions.
const uint32_t *csha256_round_constants(void);

/// Whether this processor has the SHA extensions (and the SSSE3 and SSE4.1 they are used with).
int csha256_hardware(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (a, b, …, h) with the SHA
/// extensions; only when csha256_hardware() said yes.
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif

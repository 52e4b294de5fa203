#ifndef CSHOPY_CRYPTO_H
#define CSHOPY_CRYPTO_H
// HMAC-SHA256 from the system's libcrypto (OpenSSL 1.1 or 3), opened with dlopen when a
// signature is first needed (the Coupang source): nothing is linked, so a machine without
// libcrypto still runs every other command. Only two functions are used, both stable ABI since
// OpenSSL 1.1.0: EVP_sha256() and the one-shot HMAC().

#include <stddef.h>

/// Opens `path` (dlopen) and resolves EVP_sha256 and HMAC. Returns 0, or -1 with the loader's
/// words (or the missing symbol) in `error`. A library once loaded stays open for the process.
int cshopy_crypto_load(const char *path, char *error, size_t error_size);

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes). Returns 0, or -1 when the library
/// is not loaded or HMAC failed (a key longer than INT_MAX bytes).
int cshopy_hmac_sha256(const unsigned char *key, size_t key_length,
                       const unsigned char *data, size_t data_length, unsigned char *out);

#endif

#include "CShopYCrypto.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>

// OpenSSL's functions, resolved by cshopy_crypto_load; EVP_MD is opaque.
static const void *(*p_evp_sha256)(void);
static unsigned char *(*p_hmac)(const void *md, const void *key, int key_length, const unsigned char *data,
                                size_t data_length, unsigned char *out, unsigned int *out_length);

int cshopy_crypto_load(const char *path, char *error, size_t error_size) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
    *(void **)(&p_evp_sha256) = dlsym(handle, "EVP_sha256");
    *(void **)(&p_hmac) = dlsym(handle, "HMAC");
    if (!p_evp_sha256 || !p_hmac) {
        snprintf(error, error_size, "%s has no %s (OpenSSL 1.1 or later is needed)", path, p_evp_sha256 ? "HMAC" : "EVP_sha256");
        p_evp_sha256 = NULL;
        p_hmac = NULL;
        dlclose(handle);
        return -1;
    }
    return 0;
}

int cshopy_hmac_sha256(const unsigned char *key, size_t key_length,
                       const unsigned char *data, size_t data_length, unsigned char *out) {
    if (!p_hmac || !p_evp_sha256 || key_length > INT_MAX) return -1;
    static const unsigned char empty = 0;
    unsigned int length = 0;
    // OpenSSL takes a NULL key as "reuse the last one": an empty key must still be a pointer.
    unsigned char *result = p_hmac(p_evp_sha256(), key ? (const void *)key : (const void *)&empty, (int)key_length,
                                   data ? data : &empty, data_length, out, &length);
    return result && length == 32 ? 0 : -1;
}

#ifndef CSHOPY_CURL_H
#define CSHOPY_CURL_H
// The few libcurl functions and constants shopy's transport uses, declared here so that no curl
// headers are needed to build: libcurl is opened with dlopen at the first request (never linked),
// and the variadic curl_easy_setopt / curl_easy_getinfo are wrapped in typed helpers (a variadic
// call cannot be made from Swift, and each option's argument type must be exact).
//
// Values are libcurl's stable ABI (curl.h, multi.h), unchanged since the versions named.

#include <stddef.h>
#include <stdint.h>

// CURLoption: base + number (CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000).
#define CSHOPY_CURLOPT_WRITEDATA            10001
#define CSHOPY_CURLOPT_URL                  10002
#define CSHOPY_CURLOPT_PROXY                10004
#define CSHOPY_CURLOPT_ERRORBUFFER          10010
#define CSHOPY_CURLOPT_WRITEFUNCTION        20011
#define CSHOPY_CURLOPT_HTTPHEADER           10023
#define CSHOPY_CURLOPT_HEADERDATA           10029
#define CSHOPY_CURLOPT_CUSTOMREQUEST        10036
#define CSHOPY_CURLOPT_NOPROGRESS           43
#define CSHOPY_CURLOPT_POST                 47
#define CSHOPY_CURLOPT_FOLLOWLOCATION       52
#define CSHOPY_CURLOPT_SSL_VERIFYPEER       64
#define CSHOPY_CURLOPT_HEADERFUNCTION       20079
#define CSHOPY_CURLOPT_CAINFO               10065
#define CSHOPY_CURLOPT_HTTPGET              80
#define CSHOPY_CURLOPT_SSL_VERIFYHOST       81
#define CSHOPY_CURLOPT_HTTP_VERSION         84
#define CSHOPY_CURLOPT_NOSIGNAL             99
#define CSHOPY_CURLOPT_ACCEPT_ENCODING      10102
#define CSHOPY_CURLOPT_PRIVATE              10103
#define CSHOPY_CURLOPT_MAXFILESIZE_LARGE    30117
#define CSHOPY_CURLOPT_POSTFIELDSIZE_LARGE  30120
#define CSHOPY_CURLOPT_TIMEOUT_MS           155
#define CSHOPY_CURLOPT_CONNECTTIMEOUT_MS    156
#define CSHOPY_CURLOPT_COPYPOSTFIELDS       10165
#define CSHOPY_CURLOPT_NOPROXY              10177
#define CSHOPY_CURLOPT_PROTOCOLS            181
#define CSHOPY_CURLOPT_TCP_KEEPALIVE        213
#define CSHOPY_CURLOPT_PIPEWAIT             237

#define CSHOPY_CURLPROTO_HTTP               1
#define CSHOPY_CURLPROTO_HTTPS              2
#define CSHOPY_CURL_HTTP_VERSION_2TLS       4
#define CSHOPY_CURL_GLOBAL_ALL              3

// CURLINFO: type (STRING 0x100000, LONG 0x200000, OFF_T 0x600000) + number.
#define CSHOPY_CURLINFO_RESPONSE_CODE       0x200002
#define CSHOPY_CURLINFO_SIZE_DOWNLOAD_T     0x600008
#define CSHOPY_CURLINFO_HTTP_CONNECTCODE    0x200016
#define CSHOPY_CURLINFO_OS_ERRNO            0x200019
#define CSHOPY_CURLINFO_NUM_CONNECTS        0x20001A

// CURLMoption.
#define CSHOPY_CURLMOPT_MAXCONNECTS         6

/// Size of the buffer CURLOPT_ERRORBUFFER writes (CURL_ERROR_SIZE).
#define CSHOPY_CURL_ERROR_SIZE              256

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*cshopy_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// Opens libcurl from `path` (NULL: "libcurl.so.4") and resolves every function below, then runs
/// curl_global_init. Returns 0, or -1 with a reason in `error` (the library stays unloaded).
/// Call it once, before any other function here (the Swift side guards it with a lock).
int cshopy_curl_load(const char *path, char *error, size_t error_size);

/// curl_version(): "libcurl/7.88.1 OpenSSL/3.0.x ...".
const char *cshopy_curl_version(void);
const char *cshopy_curl_easy_strerror(int code);

void *cshopy_curl_easy_init(void);
void cshopy_curl_easy_cleanup(void *easy);
int cshopy_curl_easy_setopt_long(void *easy, int option, long value);
/// For options that take a string, a curl_slist, a buffer or a context pointer.
int cshopy_curl_easy_setopt_pointer(void *easy, int option, const void *value);
int cshopy_curl_easy_setopt_offset(void *easy, int option, int64_t value);
int cshopy_curl_easy_setopt_callback(void *easy, int option, cshopy_curl_data_callback callback);
int cshopy_curl_easy_getinfo_long(void *easy, int info, long *value);
int cshopy_curl_easy_getinfo_offset(void *easy, int info, int64_t *value);

void *cshopy_curl_slist_append(void *list, const char *text);
void cshopy_curl_slist_free_all(void *list);

void *cshopy_curl_multi_init(void);
int cshopy_curl_multi_setopt_long(void *multi, int option, long value);
int cshopy_curl_multi_add_handle(void *multi, void *easy);
int cshopy_curl_multi_remove_handle(void *multi, void *easy);
int cshopy_curl_multi_perform(void *multi, int *running);
/// curl_multi_poll without extra descriptors: sleeps in the kernel until a transfer's socket is
/// ready, curl's own next timeout, `timeout_ms`, or cshopy_curl_multi_wakeup.
int cshopy_curl_multi_poll(void *multi, int timeout_ms);
int cshopy_curl_multi_wakeup(void *multi);
/// The next finished transfer (CURLMSG_DONE) from curl_multi_info_read: its easy handle, with
/// its CURLcode in `*result`; NULL when there is none.
void *cshopy_curl_multi_next_done(void *multi, int *result);

#endif

#include "CShopYCurl.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// libcurl's functions, resolved by cshopy_curl_load. Handles are opaque pointers throughout.
static int (*p_global_init)(long);
static char *(*p_version)(void);
static const char *(*p_easy_strerror)(int);
static void *(*p_easy_init)(void);
static void (*p_easy_cleanup)(void *);
static int (*p_easy_setopt)(void *, int, ...);
static int (*p_easy_getinfo)(void *, int, ...);
static void *(*p_slist_append)(void *, const char *);
static void (*p_slist_free_all)(void *);
static void *(*p_multi_init)(void);
static int (*p_multi_setopt)(void *, int, ...);
static int (*p_multi_add_handle)(void *, void *);
static int (*p_multi_remove_handle)(void *, void *);
static int (*p_multi_perform)(void *, int *);
static int (*p_multi_poll)(void *, void *, unsigned int, int, int *);
static int (*p_multi_wakeup)(void *);
static void *(*p_multi_info_read)(void *, int *);

/// CURLMsg from multi.h.
struct cshopy_curl_message {
    int msg;            // CURLMSG: 1 = CURLMSG_DONE
    void *easy_handle;
    union {
        void *whatever;
        int result;     // CURLcode
    } data;
};

#define RESOLVE(handle, name, symbol)                                                          \
    do {                                                                                       \
        *(void **)(&name) = dlsym(handle, symbol);                                             \
        if (!name) {                                                                           \
            snprintf(error, error_size, "%s has no %s (libcurl 7.68 or later is needed)", path, symbol); \
            dlclose(handle);                                                                   \
            return -1;                                                                         \
        }                                                                                      \
    } while (0)

int cshopy_curl_load(const char *path, char *error, size_t error_size) {
    if (!path) path = "libcurl.so.4";
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
    RESOLVE(handle, p_global_init, "curl_global_init");
    RESOLVE(handle, p_version, "curl_version");
    RESOLVE(handle, p_easy_strerror, "curl_easy_strerror");
    RESOLVE(handle, p_easy_init, "curl_easy_init");
    RESOLVE(handle, p_easy_cleanup, "curl_easy_cleanup");
    RESOLVE(handle, p_easy_setopt, "curl_easy_setopt");
    RESOLVE(handle, p_easy_getinfo, "curl_easy_getinfo");
    RESOLVE(handle, p_slist_append, "curl_slist_append");
    RESOLVE(handle, p_slist_free_all, "curl_slist_free_all");
    RESOLVE(handle, p_multi_init, "curl_multi_init");
    RESOLVE(handle, p_multi_setopt, "curl_multi_setopt");
    RESOLVE(handle, p_multi_add_handle, "curl_multi_add_handle");
    RESOLVE(handle, p_multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(handle, p_multi_perform, "curl_multi_perform");
    RESOLVE(handle, p_multi_poll, "curl_multi_poll");
    RESOLVE(handle, p_multi_wakeup, "curl_multi_wakeup");
    RESOLVE(handle, p_multi_info_read, "curl_multi_info_read");
    int code = p_global_init(CSHOPY_CURL_GLOBAL_ALL);
    if (code != 0) {
        snprintf(error, error_size, "curl_global_init failed: %s", p_easy_strerror(code));
        dlclose(handle);
        return -1;
    }
    return 0;  // the library stays open for the life of the process
}

const char *cshopy_curl_version(void) { return p_version(); }
const char *cshopy_curl_easy_strerror(int code) { return p_easy_strerror(code); }
void *cshopy_curl_easy_init(void) { return p_easy_init(); }
void cshopy_curl_easy_cleanup(void *easy) { p_easy_cleanup(easy); }

int cshopy_curl_easy_setopt_long(void *easy, int option, long value) { return p_easy_setopt(easy, option, value); }
int cshopy_curl_easy_setopt_pointer(void *easy, int option, const void *value) { return p_easy_setopt(easy, option, value); }
int cshopy_curl_easy_setopt_offset(void *easy, int option, int64_t value) { return p_easy_setopt(easy, option, (int64_t)value); }
int cshopy_curl_easy_setopt_callback(void *easy, int option, cshopy_curl_data_callback callback) {
    return p_easy_setopt(easy, option, callback);
}
int cshopy_curl_easy_getinfo_long(void *easy, int info, long *value) { return p_easy_getinfo(easy, info, value); }
int cshopy_curl_easy_getinfo_offset(void *easy, int info, int64_t *value) { return p_easy_getinfo(easy, info, value); }

void *cshopy_curl_slist_append(void *list, const char *text) { return p_slist_append(list, text); }
void cshopy_curl_slist_free_all(void *list) { p_slist_free_all(list); }

void *cshopy_curl_multi_init(void) { return p_multi_init(); }
int cshopy_curl_multi_setopt_long(void *multi, int option, long value) { return p_multi_setopt(multi, option, value); }
int cshopy_curl_multi_add_handle(void *multi, void *easy) { return p_multi_add_handle(multi, easy); }
int cshopy_curl_multi_remove_handle(void *multi, void *easy) { return p_multi_remove_handle(multi, easy); }
int cshopy_curl_multi_perform(void *multi, int *running) { return p_multi_perform(multi, running); }
int cshopy_curl_multi_poll(void *multi, int timeout_ms) { return p_multi_poll(multi, NULL, 0, timeout_ms, NULL); }
int cshopy_curl_multi_wakeup(void *multi) { return p_multi_wakeup(multi); }

void *cshopy_curl_multi_next_done(void *multi, int *result) {
    int queued = 0;
    struct cshopy_curl_message *message;
    while ((message = p_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == 1) {
            *result = message->data.result;
            return message->easy_handle;
        }
    }
    return NULL;
}

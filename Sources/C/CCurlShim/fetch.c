// Tile downloads through a libcurl opened at run time (see include/CCurlShim.h for why).
#define _GNU_SOURCE
#define CURL_DISABLE_TYPECHECK
#include "CCurlShim.h"

#include <curl/curl.h>
#include "CLibraryLoader.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// The libcurl functions used, looked up once.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
#define FIELD(field, name) {name, (void **)&curl.field}
    const sp_symbol symbols[] = {
        FIELD(global_init, "curl_global_init"), FIELD(easy_init, "curl_easy_init"), FIELD(easy_setopt, "curl_easy_setopt"),
        FIELD(easy_getinfo, "curl_easy_getinfo"), FIELD(easy_cleanup, "curl_easy_cleanup"),
        FIELD(easy_strerror, "curl_easy_strerror"), FIELD(multi_init, "curl_multi_init"),
        FIELD(multi_setopt, "curl_multi_setopt"), FIELD(multi_add_handle, "curl_multi_add_handle"),
        FIELD(multi_remove_handle, "curl_multi_remove_handle"), FIELD(multi_perform, "curl_multi_perform"),
        FIELD(multi_poll, "curl_multi_poll"), FIELD(multi_info_read, "curl_multi_info_read"),
        FIELD(multi_cleanup, "curl_multi_cleanup"), FIELD(slist_append, "curl_slist_append"),
        FIELD(slist_free_all, "curl_slist_free_all"),
    };
#undef FIELD
    if (sp_load_library("libcurl.so.4", "libcurl4", "libcurl 7.66 or later is needed", symbols, sizeof symbols / sizeof symbols[0],
                        load_error, sizeof load_error) != 0) {
        curl.easy_init = NULL;
        return;
    }
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl cannot initialise");
        curl.easy_init = NULL;
    }
}

int spc_available(char **error) {
    pthread_once(&load_once, load);
    if (curl.easy_init && !load_error[0]) return 1;
    if (error) *error = strdup(load_error[0] ? load_error : "libcurl is not usable");
    return 0;
}

// One transfer in flight: its response, the cap on its body and its request headers.
typedef struct Transfer {
    SPCResponse *response;
    size_t capacity;
    long max_body;
    struct curl_slist *headers;
} Transfer;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    Transfer *t = context;
    SPCResponse *r = t->response;
    size_t n = size * count;
    if (r->body_size + n > (size_t)t->max_body) return 0;  // too large: libcurl fails the transfer
    if (r->body_size + n > t->capacity) {
        size_t capacity = t->capacity ? t->capacity * 2 : 65536;
        while (capacity < r->body_size + n) capacity *= 2;
        unsigned char *grown = realloc(r->body, capacity);
        if (!grown) return 0;
        r->body = grown;
        t->capacity = capacity;
    }
    memcpy(r->body + r->body_size, data, n);
    r->body_size += n;
    return n;
}

// Copies a header's value, trimmed, if the line is `name: value`.
static void take_header(char **field, const char *line, size_t length, const char *name) {
    size_t n = strlen(name);
    if (length <= n || strncasecmp(line, name, n) != 0 || line[n] != ':') return;
    const char *v = line + n + 1, *end = line + length;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ')) end--;
    free(*field);
    *field = strndup(v, (size_t)(end - v));
}

static size_t on_header(char *line, size_t size, size_t count, void *context) {
    SPCResponse *r = ((Transfer *)context)->response;
    size_t n = size * count;
    if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
        // A new response (after a redirect or a 100 Continue): forget the last one's headers.
        char **fields[] = {&r->etag, &r->last_modified, &r->cache_control, &r->expires, &r->retry_after};
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) { free(*fields[i]); *fields[i] = NULL; }
        return n;
    }
    take_header(&r->etag, line, n, "ETag");
    take_header(&r->last_modified, line, n, "Last-Modified");
    take_header(&r->cache_control, line, n, "Cache-Control");
    take_header(&r->expires, line, n, "Expires");
    take_header(&r->retry_after, line, n, "Retry-After");
    return n;
}

static CURL *start(const SPCRequest *request, Transfer *t, const SPCOptions *o) {
    CURL *easy = curl.easy_init();
    if (!easy) return NULL;
    curl.easy_setopt(easy, CURLOPT_URL, request->url);
    curl.easy_setopt(easy, CURLOPT_PRIVATE, (void *)t);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(easy, CURLOPT_USERAGENT, o->user_agent);
    curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
    // Tile servers only: no file://, no other protocol, not even after a redirect.
    curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms);
    curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, o->timeout_ms);
    curl.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_body_bytes);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, (void *)t);
    curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(easy, CURLOPT_HEADERDATA, (void *)t);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, t->response->error);
    char line[1024];
    if (request->if_none_match) {
        snprintf(line, sizeof line, "If-None-Match: %s", request->if_none_match);
        t->headers = curl.slist_append(t->headers, line);
    }
    if (request->if_modified_since) {
        snprintf(line, sizeof line, "If-Modified-Since: %s", request->if_modified_since);
        t->headers = curl.slist_append(t->headers, line);
    }
    if (t->headers) curl.easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
    return easy;
}

// Takes every transfer libcurl has finished off `multi`, filling its response; returns how many.
static long collect_finished(CURLM *multi) {
    long done = 0;
    CURLMsg *message;
    int left;
    while ((message = curl.multi_info_read(multi, &left))) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL *easy = message->easy_handle;
        Transfer *t = NULL;
        curl.easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
        SPCResponse *r = t->response;
        r->curl_code = (int)message->data.result;
        if (r->curl_code == CURLE_OK) {
            curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &r->status);
        } else if (!r->error[0]) {
            snprintf(r->error, sizeof r->error, "%s", curl.easy_strerror(message->data.result));
        }
        curl.multi_remove_handle(multi, easy);
        curl.easy_cleanup(easy);
        if (t->headers) curl.slist_free_all(t->headers);
        t->headers = NULL;
        done++;
    }
    return done;
}

int spc_fetch_all(const SPCRequest *requests, SPCResponse *responses, size_t count, const SPCOptions *o,
                  char **error) {
    if (!spc_available(error)) return -1;
    CURLM *multi = curl.multi_init();
    Transfer *transfers = calloc(count ? count : 1, sizeof *transfers);
    if (!multi || !transfers) {
        if (multi) curl.multi_cleanup(multi);
        free(transfers);
        if (error) *error = strdup("libcurl cannot start a transfer");
        return -1;
    }
    // One request per connection (no HTTP/2 multiplexing), so that the cap on connections is
    // the cap on requests at a time; handles beyond the cap are added only as others finish,
    // because a queued handle's timeout would already be running.
    curl.multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_NOTHING);
    curl.multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, o->max_per_host);
    size_t next = 0, finished = 0;
    long in_flight = 0;
    while (finished < count) {
        while (next < count && in_flight < o->max_per_host) {
            Transfer *t = &transfers[next];
            t->response = &responses[next];
            t->max_body = o->max_body_bytes;
            CURL *easy = start(&requests[next], t, o);
            next++;
            if (!easy) {
                snprintf(t->response->error, sizeof t->response->error, "libcurl cannot start a transfer");
                t->response->curl_code = CURLE_FAILED_INIT;
                finished++;
                continue;
            }
            curl.multi_add_handle(multi, easy);
            in_flight++;
        }
        if (finished >= count) break;
        int running = 0;
        curl.multi_perform(multi, &running);
        long done = collect_finished(multi);
        in_flight -= done;
        finished += (size_t)done;
        if (in_flight > 0 && running > 0) curl.multi_poll(multi, NULL, 0, 200, NULL);
    }
    curl.multi_cleanup(multi);
    free(transfers);
    return 0;
}

void spc_response_clear(SPCResponse *r) {
    free(r->body); free(r->etag); free(r->last_modified); free(r->cache_control); free(r->expires); free(r->retry_after);
    memset(r, 0, sizeof *r);
}

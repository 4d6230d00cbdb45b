// Tile downloads through libcurl, for maps whose tiles come from an http(s) URL template.
//
// Why a shim: curl_easy_setopt and curl_multi_setopt are variadic, which Swift cannot call.
// Why loaded late: libcurl and its TLS chain add about thirty shared objects to a process, and
// only map jobs that name a tile server use it; `swiftprint convert notes.txt` must not pay for
// them at start-up. So libcurl.so.4 is opened with dlopen on first use, and curl.h is read only
// for its types and constants.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <stddef.h>

/// One GET, optionally conditional.
typedef struct SPCRequest {
    const char *url;
    /// An ETag to revalidate (If-None-Match), or NULL.
    const char *if_none_match;
    /// A Last-Modified date to revalidate (If-Modified-Since), or NULL.
    const char *if_modified_since;
} SPCRequest;

/// What came back. Strings and body are malloc'd; spc_response_clear frees them.
typedef struct SPCResponse {
    /// HTTP status; 0 when no response arrived (then `error` says why).
    long status;
    unsigned char *body;
    size_t body_size;
    char *etag;
    char *last_modified;
    char *cache_control;
    char *expires;
    char *retry_after;
    /// libcurl's result code (CURLE_*), 0 on success.
    int curl_code;
    char error[256];
} SPCResponse;

typedef struct SPCOptions {
    const char *user_agent;
    /// Connections at once to one host.
    long max_per_host;
    long connect_timeout_ms;
    /// The whole transfer, per request.
    long timeout_ms;
    /// A response body larger than this fails (a tile is rarely above 1 MB).
    long max_body_bytes;
} SPCOptions;

/// Whether libcurl can be loaded; on failure `*error` (malloc'd) says why.
int spc_available(char **error);

/// Runs `count` requests, at most `options->max_per_host` at a time to each host, and fills
/// `responses` (zeroed by the caller). Returns 0 when every transfer ran (each may still have
/// failed: see its status and curl_code), -1 when libcurl is missing or cannot start
/// (`*error`, malloc'd, says why).
int spc_fetch_all(const SPCRequest *requests, SPCResponse *responses, size_t count, const SPCOptions *options,
                  char **error);

void spc_response_clear(SPCResponse *response);

#endif

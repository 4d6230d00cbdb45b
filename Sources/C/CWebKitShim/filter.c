// The content filter that keeps a page off the network and out of other folders: WebKit's
// content-blocker rules, as JSON, for one document.
#include "filter.h"

#include <glib.h>
#include <string.h>

/// `text` with every regular-expression metacharacter escaped.
static GString *regex_escaped(const char *text) {
    GString *s = g_string_new(NULL);
    for (const char *p = text; *p; p++) {
        if (strchr(".^$*+?()[]{}|\\/", *p)) g_string_append_c(s, '\\');
        g_string_append_c(s, *p);
    }
    return s;
}

/// Default deny: every URL is blocked (http, https, ws, file, anything), then data: and the
/// document's own folder are let through. WebKit's rule regexes have no alternation, hence
/// one rule per exception.
char *spw_filter_rules(const char *allowedFolderURI) {
    GString *rules = g_string_new("[{\"trigger\":{\"url-filter\":\".*\"},\"action\":{\"type\":\"block\"}}");
    g_string_append(rules, ",{\"trigger\":{\"url-filter\":\"^data:\"},\"action\":{\"type\":\"ignore-previous-rules\"}}");
    g_string_append(rules, ",{\"trigger\":{\"url-filter\":\"^about:\"},\"action\":{\"type\":\"ignore-previous-rules\"}}");
    if (allowedFolderURI) {
        GString *escaped = regex_escaped(allowedFolderURI);
        // JSON-escape the backslashes the regex needs.
        GString *json = g_string_new(NULL);
        for (const char *p = escaped->str; *p; p++) {
            if (*p == '\\' || *p == '"') g_string_append_c(json, '\\');
            g_string_append_c(json, *p);
        }
        g_string_append_printf(rules, ",{\"trigger\":{\"url-filter\":\"^%s\",\"url-filter-is-case-sensitive\":true},"
                                      "\"action\":{\"type\":\"ignore-previous-rules\"}}", json->str);
        g_string_free(json, TRUE);
        g_string_free(escaped, TRUE);
    }
    g_string_append(rules, "]");
    return g_string_free(rules, FALSE);
}

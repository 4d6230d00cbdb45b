// The content filter's rules (filter.c).
#ifndef SPW_FILTER_H
#define SPW_FILTER_H

/// WebKit content-blocker rules (JSON, g_malloc'd) that block every URL except data:, about:
/// and, when `allowedFolderURI` is not NULL, what lies under it.
char *spw_filter_rules(const char *allowedFolderURI);

#endif

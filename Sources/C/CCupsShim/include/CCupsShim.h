// libcups, the one binding of it, opened at run time.
//
// Why: `swiftprint convert` must not load libcups. It maps gnutls, avahi, kerberos and more
// (6-11 ms at every start, measured), while only the commands that talk to a CUPS server
// (`printers`, `print`, `jobs`, `cancel`), the CUPS filter and backend (options, the queue's
// PPD) and raster jobs need it. So no program links libcups; the first call that needs it opens
// libcups.so.2 and finds these functions in it. Each `spcups_NAME` has exactly the signature of
// libcups's NAME (the C file checks that at compile time) and may be called only after
// `spcups_load` succeeded.
//
// libcups marks its PPD functions deprecated for applications; a CUPS filter reading its own
// queue's PPD is what they remain for (cups-filters does the same). _CUPS_SOURCE is how the
// headers turn those marks off.
//
// Two private functions of libcups are used, each where CUPS's own tools use it and no public
// one does the work: `_ppdCreateFromIPP`, the PPD writer behind `lpadmin -m everywhere` (a
// printer queue's options from the printer's own attributes, kept in step with CUPS), and
// `_httpResolveURI`, which turns a `dnssd://` printer URI into the address to ask, as CUPS's
// backends do. libcups exports both; they are declared here as CUPS 2.2-2.4 defines them.
#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H

#define _CUPS_SOURCE 1
#include <cups/cups.h>
#include <cups/ppd.h>
#include <cups/raster.h>

char *_ppdCreateFromIPP(char *buffer, size_t bufsize, ipp_t *supported);
const char *_httpResolveURI(const char *uri, char *resolved_uri, size_t resolved_size, int options, int (*cb)(void *context),
                            void *context);

/// Opens libcups once; 0 when every function was found, else -1 and a message in `*error`
/// (static storage; do not free).
int spcups_load(const char **error);

/// Makes the calling thread's libcups ask the server CUPS_SERVER names now. libcups reads its
/// server once per thread, at that thread's first use of it (even an `ippNew`), and keeps it: a
/// thread that used libcups before CUPS_SERVER was set or changed would go on asking the old
/// server. When CUPS_SERVER differs from what this thread last saw here, libcups is told to read
/// its settings again (`cupsSetServer(NULL)`: CUPS_SERVER, then client.conf, then the local
/// socket). Call before each request to the server; after `spcups_load`.
void spcups_follow_server_setting(void);

// The functions used: return type, name, parameters, arguments.
#define SPCUPS_FUNCTIONS(X)                                                                                      \
    X(int, cupsGetDests2, (http_t * http, cups_dest_t * *dests), (http, dests))                                  \
    X(void, cupsFreeDests, (int count, cups_dest_t *dests), (count, dests))                                      \
    X(cups_dinfo_t *, cupsCopyDestInfo, (http_t * http, cups_dest_t *dest), (http, dest))                        \
    X(void, cupsFreeDestInfo, (cups_dinfo_t * info), (info))                                                     \
    X(ipp_attribute_t *, cupsFindDestSupported, (http_t * http, cups_dest_t *dest, cups_dinfo_t *info, const char *option), \
      (http, dest, info, option))                                                                                \
    X(ipp_attribute_t *, cupsFindDestReady, (http_t * http, cups_dest_t *dest, cups_dinfo_t *info, const char *option), \
      (http, dest, info, option))                                                                                \
    X(ipp_attribute_t *, cupsFindDestDefault, (http_t * http, cups_dest_t *dest, cups_dinfo_t *info, const char *option), \
      (http, dest, info, option))                                                                                \
    X(int, cupsAddOption, (const char *name, const char *value, int count, cups_option_t **options),             \
      (name, value, count, options))                                                                             \
    X(void, cupsFreeOptions, (int count, cups_option_t *options), (count, options))                              \
    X(ipp_status_t, cupsCreateDestJob,                                                                           \
      (http_t * http, cups_dest_t *dest, cups_dinfo_t *info, int *job, const char *title, int count, cups_option_t *options), \
      (http, dest, info, job, title, count, options))                                                            \
    X(http_status_t, cupsStartDestDocument,                                                                      \
      (http_t * http, cups_dest_t *dest, cups_dinfo_t *info, int job, const char *name, const char *format, int count, \
       cups_option_t *options, int last),                                                                        \
      (http, dest, info, job, name, format, count, options, last))                                               \
    X(http_status_t, cupsWriteRequestData, (http_t * http, const char *buffer, size_t length), (http, buffer, length)) \
    X(ipp_status_t, cupsFinishDestDocument, (http_t * http, cups_dest_t *dest, cups_dinfo_t *info), (http, dest, info)) \
    X(ipp_status_t, cupsCancelDestJob, (http_t * http, cups_dest_t *dest, int job), (http, dest, job))           \
    X(int, cupsGetJobs2, (http_t * http, cups_job_t * *jobs, const char *name, int mine, int which),            \
      (http, jobs, name, mine, which))                                                                           \
    X(void, cupsFreeJobs, (int count, cups_job_t *jobs), (count, jobs))                                          \
    X(const char *, cupsLastErrorString, (void), ())                                                             \
    X(ipp_status_t, cupsLastError, (void), ())                                                                   \
    X(const char *, cupsUser, (void), ())                                                                        \
    X(const char *, cupsServer, (void), ())                                                                      \
    X(void, cupsSetServer, (const char *server), (server))                                                       \
    X(ipp_t *, cupsDoRequest, (http_t * http, ipp_t *request, const char *resource), (http, request, resource))   \
    X(ipp_t *, ippNewRequest, (ipp_op_t op), (op))                                                               \
    X(ipp_attribute_t *, ippAddString,                                                                           \
      (ipp_t * ipp, ipp_tag_t group, ipp_tag_t tag, const char *name, const char *language, const char *value),  \
      (ipp, group, tag, name, language, value))                                                                  \
    X(ipp_attribute_t *, ippAddStrings,                                                                          \
      (ipp_t * ipp, ipp_tag_t group, ipp_tag_t tag, const char *name, int count, const char *language,          \
       const char *const *values),                                                                               \
      (ipp, group, tag, name, count, language, values))                                                          \
    X(ipp_attribute_t *, ippAddInteger, (ipp_t * ipp, ipp_tag_t group, ipp_tag_t tag, const char *name, int value), \
      (ipp, group, tag, name, value))                                                                            \
    X(ipp_attribute_t *, ippAddBoolean, (ipp_t * ipp, ipp_tag_t group, const char *name, char value),           \
      (ipp, group, name, value))                                                                                 \
    X(ipp_attribute_t *, ippFindAttribute, (ipp_t * ipp, const char *name, ipp_tag_t tag), (ipp, name, tag))     \
    X(ipp_attribute_t *, ippFirstAttribute, (ipp_t * ipp), (ipp))                                                \
    X(ipp_attribute_t *, ippNextAttribute, (ipp_t * ipp), (ipp))                                                 \
    X(const char *, ippGetName, (ipp_attribute_t * attr), (attr))                                                \
    X(ipp_tag_t, ippGetGroupTag, (ipp_attribute_t * attr), (attr))                                               \
    X(int, ippGetCount, (ipp_attribute_t * attr), (attr))                                                        \
    X(ipp_tag_t, ippGetValueTag, (ipp_attribute_t * attr), (attr))                                               \
    X(const char *, ippGetString, (ipp_attribute_t * attr, int element, const char **language), (attr, element, language)) \
    X(int, ippGetInteger, (ipp_attribute_t * attr, int element), (attr, element))                                \
    X(int, ippGetBoolean, (ipp_attribute_t * attr, int element), (attr, element))                                \
    X(int, ippGetRange, (ipp_attribute_t * attr, int element, int *upper), (attr, element, upper))               \
    X(int, ippGetResolution, (ipp_attribute_t * attr, int element, int *yres, ipp_res_t *units),                 \
      (attr, element, yres, units))                                                                              \
    X(ipp_t *, ippGetCollection, (ipp_attribute_t * attr, int element), (attr, element))                         \
    X(int, ippSetString, (ipp_t * ipp, ipp_attribute_t **attr, int element, const char *strvalue),              \
      (ipp, attr, element, strvalue))                                                                            \
    X(void, ippDelete, (ipp_t * ipp), (ipp))                                                                     \
    X(ipp_status_t, ippGetStatusCode, (ipp_t * ipp), (ipp))                                                      \
    X(int, cupsParseOptions, (const char *arg, int num_options, cups_option_t **options), (arg, num_options, options)) \
    X(ppd_file_t *, ppdOpenFile, (const char *filename), (filename))                                             \
    X(void, ppdClose, (ppd_file_t * ppd), (ppd))                                                                 \
    X(ppd_status_t, ppdLastError, (int *line), (line))                                                           \
    X(const char *, ppdErrorString, (ppd_status_t status), (status))                                             \
    X(ppd_option_t *, ppdFirstOption, (ppd_file_t * ppd), (ppd))                                                 \
    X(ppd_option_t *, ppdNextOption, (ppd_file_t * ppd), (ppd))                                                  \
    X(ppd_size_t *, ppdPageSize, (ppd_file_t * ppd, const char *name), (ppd, name))                             \
    X(cups_raster_t *, cupsRasterOpen, (int fd, cups_mode_t mode), (fd, mode))                                   \
    X(cups_raster_t *, cupsRasterOpenIO, (cups_raster_iocb_t iocb, void *ctx, cups_mode_t mode), (iocb, ctx, mode)) \
    X(void, cupsRasterClose, (cups_raster_t * r), (r))                                                           \
    X(unsigned, cupsRasterReadHeader2, (cups_raster_t * r, cups_page_header2_t *h), (r, h))                      \
    X(unsigned, cupsRasterReadPixels, (cups_raster_t * r, unsigned char *p, unsigned len), (r, p, len))          \
    X(unsigned, cupsRasterWriteHeader2, (cups_raster_t * r, cups_page_header2_t *h), (r, h))                     \
    X(unsigned, cupsRasterWritePixels, (cups_raster_t * r, unsigned char *p, unsigned len), (r, p, len))         \
    X(int, cupsRasterInitPWGHeader,                                                                              \
      (cups_page_header2_t * h, pwg_media_t *media, const char *type, int xdpi, int ydpi, const char *sides,    \
       const char *sheet_back),                                                                                  \
      (h, media, type, xdpi, ydpi, sides, sheet_back))                                                           \
    X(const char *, cupsRasterErrorString, (void), ())                                                           \
    X(pwg_media_t *, pwgMediaForSize, (int width, int length), (width, length))                                  \
    X(http_uri_status_t, httpSeparateURI,                                                                                      \
      (http_uri_coding_t decoding, const char *uri, char *scheme, int slen, char *username, int ulen, char *host, \
       int hlen, int *port, char *resource, int rlen),                                                           \
      (decoding, uri, scheme, slen, username, ulen, host, hlen, port, resource, rlen))                           \
    X(http_t *, httpConnect2,                                                                                    \
      (const char *host, int port, http_addrlist_t *addrlist, int family, http_encryption_t encryption, int blocking, \
       int msec, int *cancel),                                                                                   \
      (host, port, addrlist, family, encryption, blocking, msec, cancel))                                        \
    X(void, httpClose, (http_t * http), (http))                                                                  \
    X(ipp_t *, ippNew, (void), ())                                                                               \
    X(ipp_state_t, ippReadFile, (int fd, ipp_t *ipp), (fd, ipp))                                                 \
    X(ipp_state_t, ippWriteFile, (int fd, ipp_t *ipp), (fd, ipp))                                                \
    X(char *, _ppdCreateFromIPP, (char *buffer, size_t bufsize, ipp_t *supported), (buffer, bufsize, supported))  \
    X(const char *, _httpResolveURI,                                                                             \
      (const char *uri, char *resolved_uri, size_t resolved_size, int options, int (*cb)(void *context), void *context), \
      (uri, resolved_uri, resolved_size, options, cb, context))                                                  \
    X(void, ppdMarkDefaults, (ppd_file_t * ppd), (ppd))                                                          \
    X(int, cupsMarkOptions, (ppd_file_t * ppd, int num_options, cups_option_t *options), (ppd, num_options, options)) \
    X(int, cupsRasterInterpretPPD,                                                                               \
      (cups_page_header2_t * h, ppd_file_t *ppd, int num_options, cups_option_t *options, cups_interpret_cb_t func), \
      (h, ppd, num_options, options, func))                                                                      \
    X(ppd_attr_t *, ppdFindAttr, (ppd_file_t * ppd, const char *name, const char *spec), (ppd, name, spec))         \
    X(int, cupsGetDestMediaCount, (http_t * http, cups_dest_t *dest, cups_dinfo_t *dinfo, unsigned flags),      \
      (http, dest, dinfo, flags))                                                                                \
    X(int, cupsGetDestMediaByIndex,                                                                              \
      (http_t * http, cups_dest_t *dest, cups_dinfo_t *dinfo, int n, unsigned flags, cups_size_t *size),        \
      (http, dest, dinfo, n, flags, size))

#define SPCUPS_DECLARE(ret, name, params, args) ret spcups_##name params;
SPCUPS_FUNCTIONS(SPCUPS_DECLARE)
#undef SPCUPS_DECLARE

#endif

// The damaged-PDF repair engine's C interface.
//
// Why it exists: qpdf rebuilds a damaged file's cross-reference table by reading objects at line
// starts and taking the first trailer it meets; poppler also finds objects that follow an
// "endobj" on the same line and takes the last trailer that names a catalog. So a file qpdf
// cannot rebuild into pages is read again by poppler, whose reconstruction is written back object
// by object (as pdfunite writes its output) for qpdf to place as usual: pages are never redrawn.
//
// poppler's core library is large and C++: it lives in libSwiftPrintPDFRepair.so (the
// SwiftPrintPDFRepair product), opened only when a PDF needs repairing, so no other job maps
// poppler or its dependencies.
#ifndef CPDFREPAIR_H
#define CPDFREPAIR_H

#ifdef __cplusplus
extern "C" {
#endif

// Reads the PDF at `input` with poppler and writes its objects, as poppler reconstructed them,
// to a new file at `output`. Returns 0 with *pages set to the pages poppler found; on failure
// returns -1 with *error set (free it with free()).
typedef int (*spr_rewrite_fn)(const char *input, const char *output, int *pages, char **error);

// Opens the engine at `path` and finds spr_rewrite; NULL with *error set when it cannot.
spr_rewrite_fn spr_rewrite_load(const char *path, char **error);

#ifdef __cplusplus
}
#endif

#endif

// The damaged-PDF repair engine: poppler reads the file (reconstructing its cross-reference
// table as it does for every damaged file it opens) and writes every object back into a new,
// well-formed file. See CPDFRepair.h for when it runs.
#include "CPDFRepair.h"
#include "engine_globals.h"

#include <Error.h>
#include <GlobalParams.h>
#include <PDFDoc.h>
#include <goo/GooString.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

namespace {

// poppler reports problems through one callback; the first of a call is kept for its message.
thread_local std::string firstProblem;

void keepFirstProblem(ErrorCategory, Goffset, const char *message) {
    if (firstProblem.empty() && message) firstProblem = message;
}

int fail(char **error, const std::string &message) {
    std::string text = message;
    if (!firstProblem.empty()) text += " (" + firstProblem + ")";
    if (error) *error = strdup(text.c_str());
    return -1;
}

} // namespace

extern "C" __attribute__((visibility("default")))
int spr_rewrite(const char *input, const char *output, int *pages, char **error) {
    static std::once_flag once;
    std::call_once(once, [] {
        setErrorCallback(keepFirstProblem);
    });
    spr_ensure_global_params();
    firstProblem.clear();
    PDFDoc doc(std::make_unique<GooString>(input));
    if (!doc.isOk()) return fail(error, "poppler cannot read it either (error " + std::to_string(doc.getErrorCode()) + ")");
    if (doc.isEncrypted()) return fail(error, "poppler reads it, but it is encrypted");
    int count = doc.getNumPages();
    if (count <= 0) return fail(error, "poppler finds no pages either");
    GooString out(output);
    int written = doc.saveAs(out, writeForceRewrite);
    if (written != errNone) return fail(error, "poppler cannot write its repair (error " + std::to_string(written) + ")");
    if (pages) *pages = count;
    return 0;
}

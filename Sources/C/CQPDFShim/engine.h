// Internals shared by the assembler engine's files; the interface is ../CQPDF/include/CQPDF.h.
#ifndef SPQ_ENGINE_H
#define SPQ_ENGINE_H

#include "CQPDFShim.h"

#include <qpdf/Buffer.hh>
#include <qpdf/Pl_Buffer.hh>
#include <qpdf/Pl_Flate.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

// Everything declared from here on stays inside libSwiftPrintQPDF.so, which exports only
// spq_functions (declared above, in CQPDFShim.h). qpdf's headers come first: its symbols must keep
// their default visibility to be found in libqpdf.
#pragma GCC visibility push(hidden)

// An input file mapped into memory: qpdf reads objects all over the file, and through a FILE*
// every read is a seek and a system call; from a mapping it is a memory access. Files larger
// than `largestMapped` are read through a FILE* instead: a mapping's pages stay resident once
// read, and in such a file most bytes are a few large streams (photos) that qpdf reads once,
// sequentially, into a buffer of its own, so mapped they would count twice in memory (a 96 MP
// photo's 27 MB stream: 141 MB for the job instead of 114).
constexpr size_t largestMapped = 16 << 20;
struct MappedFile {
    void *address = MAP_FAILED;
    size_t length = 0;
    ~MappedFile() {
        if (address != MAP_FAILED) munmap(address, length);
    }
};

struct SPQDocument {
    MappedFile mapping; // declared before the QPDF that reads it, so it is unmapped after it
    std::shared_ptr<QPDF> pdf;
    std::vector<QPDFPageObjectHelper> pages; // an input's pages, read once
    std::string version;
    int highestMinor = 3; // the highest PDF 1.x version copied into an output
    int recoveredPages = 0; // pages found outside a lost page tree (page_recovery.cpp)
    std::set<QPDFObjGen> splicedSearched; // its streams spliceLargeStreams has looked at
};

// Gives each piece written to it to a C callback (the output, an image spool); a callback's
// failure is thrown as `failure`, the callback's owner keeping the reason.
class CallbackPipeline : public Pipeline {
  public:
    CallbackPipeline(spq_write_fn fn, void *context, char const *failure)
        : Pipeline("swiftprint callback", nullptr), fn(fn), context(context), failure(failure) {}
    void write(unsigned char const *data, size_t length) override {
        if (length && fn(context, data, length) != 0) throw std::runtime_error(failure);
        written += (long long)length;
    }
    void finish() override {}
    long long written = 0;

  private:
    spq_write_fn fn;
    void *context;
    char const *failure;
};

struct SPQImageWriter {
    SPQDocument *doc;
    SPQImageInfo info;
    std::string icc;
    // The compressed samples go to a buffer (memory) or a spool (a callback).
    std::unique_ptr<Pl_Buffer> colorBuffer, alphaBuffer;
    std::unique_ptr<CallbackPipeline> colorSpool, alphaSpool;
    std::unique_ptr<Pl_Flate> color, alpha;
    bool started = false;
};

namespace spq {

inline void setError(char **error, std::string const &message) {
    if (error) *error = strdup(message.c_str());
}

// Runs body, turning any exception into a message. QPDFExc's detail leaves out the file name and
// offset, which the Swift side words for people itself.
template <typename T, typename F>
T guarded(char **error, T failure, F body, int *kind = nullptr) {
    try {
        return body();
    } catch (QPDFExc const &e) {
        if (kind) {
            switch (e.getErrorCode()) {
            case qpdf_e_password: *kind = SPQ_ERROR_PASSWORD; break;
            case qpdf_e_damaged_pdf: *kind = SPQ_ERROR_DAMAGED; break;
            case qpdf_e_system: *kind = SPQ_ERROR_SYSTEM; break;
            default: *kind = SPQ_ERROR_OTHER;
            }
        }
        setError(error, e.getMessageDetail());
    } catch (std::exception const &e) {
        if (kind) *kind = SPQ_ERROR_OTHER;
        setError(error, e.what());
    } catch (...) {
        if (kind) *kind = SPQ_ERROR_OTHER;
        setError(error, "unknown error in qpdf");
    }
    return failure;
}

// spliced_streams.cpp: a stream at least this long goes from its source straight into the
// output instead of through qpdf's writer, which would hold it whole, twice: 1 MB, or
// SWIFTPRINT_SPLICED_STREAM_MINIMUM bytes (the fuzz targets and a test splice every stream,
// to try the splicer on every kind of input).
long long splicedStreamMinimum();

// A stream of `length` bytes that `emit` writes, as stored (filtered on write: never).
class SplicedStream : public QPDFObjectHandle::StreamDataProvider {
  public:
    SplicedStream(std::function<void(Pipeline &)> emit, long long length) : emit(std::move(emit)), length(length) {}
    void provideStreamData(QPDFObjGen const &, Pipeline *pipeline) override;
    std::function<void(Pipeline &)> emit;
    long long length;
};

class Splicer;

// Writes the document through `writer` into `out`, with each spliced stream's bytes from its
// source.
void writeSpliced(QPDFWriter &writer, Pipeline &out);

// Makes the large images reached from `resources` (through forms and patterns too) spliced
// streams: their stored bytes are read from the source file only as the output is written.
void spliceLargeStreams(QPDFObjectHandle resources, SPQDocument &source);

// page_recovery.cpp: hangs the page dictionaries of a file whose page tree is lost under a new
// one; returns how many.
int recoverLostPages(SPQDocument &doc);

// fonts.cpp
int document_subset_fonts(SPQDocument *doc, int64_t *bytesBefore, int64_t *bytesAfter, char **error);

// images.cpp
int64_t add_jpeg(SPQDocument *dst, const SPQImageInfo *info, int64_t length, spq_provide_fn provide, void *context, char **error);
SPQImageWriter *image_begin(SPQDocument *dst, const SPQImageInfo *info, const SPQImageSpools *spools, char **error);
int image_write(SPQImageWriter *w, const uint8_t *data, size_t length, char **error);
int image_write_alpha(SPQImageWriter *w, const uint8_t *data, size_t length, char **error);
int64_t image_end(SPQImageWriter *w, const SPQImageSuppliers *suppliers, char **error);
void image_abandon(SPQImageWriter *w);

} // namespace spq

#pragma GCC visibility pop

#endif

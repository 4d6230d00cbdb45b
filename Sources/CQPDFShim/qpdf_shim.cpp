// The object-level PDF assembler's engine: see include/CQPDFShim.h for why it exists.
// Every entry point catches every exception; qpdf's own message goes back to Swift.
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
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// An input file mapped into memory: qpdf reads objects all over the file, and through a FILE*
// every read is a seek and a system call; from a mapping it is a memory access.
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
};

struct SPQImageWriter {
    SPQDocument *doc;
    SPQImageInfo info;
    std::string icc;
    std::unique_ptr<Pl_Buffer> colorBuffer, alphaBuffer;
    std::unique_ptr<Pl_Flate> color, alpha;
};

namespace {

void setError(char **error, std::string const &message) {
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

QPDFPageObjectHelper &pageAt(SPQDocument *doc, int index) {
    if (index < 0 || size_t(index) >= doc->pages.size()) throw std::out_of_range("page index out of range");
    return doc->pages[size_t(index)];
}

void noteVersion(SPQDocument *dst, SPQDocument *src) {
    auto const &v = src->version;
    if (v.size() >= 3 && v[0] == '1' && v[1] == '.') {
        int minor = v[2] - '0';
        if (minor > dst->highestMinor && minor <= 7) dst->highestMinor = minor;
    }
}

QPDFObjectHandle colorSpace(QPDF &pdf, SPQImageInfo const &info, std::string const &icc) {
    char const *device = info.components == 1 ? "/DeviceGray" : info.components == 4 ? "/DeviceCMYK" : "/DeviceRGB";
    if (icc.empty()) return QPDFObjectHandle::newName(device);
    auto profile = pdf.newStream(icc);
    profile.getDict().replaceKey("/N", QPDFObjectHandle::newInteger(info.components));
    profile.getDict().replaceKey("/Alternate", QPDFObjectHandle::newName(device));
    auto array = QPDFObjectHandle::newArray();
    array.appendItem(QPDFObjectHandle::newName("/ICCBased"));
    array.appendItem(profile);
    return array;
}

QPDFObjectHandle imageDictionary(QPDF &pdf, SPQImageInfo const &info, std::string const &icc) {
    auto dict = QPDFObjectHandle::newDictionary();
    dict.replaceKey("/Type", QPDFObjectHandle::newName("/XObject"));
    dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/Image"));
    dict.replaceKey("/Width", QPDFObjectHandle::newInteger(info.width));
    dict.replaceKey("/Height", QPDFObjectHandle::newInteger(info.height));
    dict.replaceKey("/BitsPerComponent", QPDFObjectHandle::newInteger(info.bitsPerComponent));
    dict.replaceKey("/ColorSpace", colorSpace(pdf, info, icc));
    if (info.invertCMYK && info.components == 4) dict.replaceKey("/Decode", QPDFObjectHandle::parse("[1 0 1 0 1 0 1 0]"));
    return dict;
}

void copyDictionary(QPDFObjectHandle stream, QPDFObjectHandle dict) {
    for (auto const &key : dict.getKeys()) stream.getDict().replaceKey(key, dict.getKey(key));
}

class CallbackPipeline : public Pipeline {
  public:
    CallbackPipeline(spq_write_fn fn, void *context) : Pipeline("swiftprint output", nullptr), fn(fn), context(context) {}
    void write(unsigned char const *data, size_t length) override {
        if (length && fn(context, data, length) != 0) throw std::runtime_error("cannot write the output");
    }
    void finish() override {}

  private:
    spq_write_fn fn;
    void *context;
};

} // namespace

extern "C" {

SPQDocument *spq_document_open(const char *path, const char *password, int *repairs, int *errorKind, char **error) {
    return guarded<SPQDocument *>(error, nullptr, [&]() {
        auto doc = std::make_unique<SPQDocument>();
        doc->pdf = std::make_shared<QPDF>();
        doc->pdf->setSuppressWarnings(true);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw QPDFExc(qpdf_e_system, path, "", 0, std::string("cannot open the file: ") + strerror(errno));
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_size > 0) {
            doc->mapping.length = size_t(st.st_size);
            doc->mapping.address = mmap(nullptr, doc->mapping.length, PROT_READ, MAP_PRIVATE, fd, 0);
        }
        close(fd);
        if (doc->mapping.address == MAP_FAILED) {
            doc->pdf->processFile(path, password);
        } else {
            doc->pdf->processMemoryFile(path, static_cast<char const *>(doc->mapping.address), doc->mapping.length, password);
        }
        doc->pages = QPDFPageDocumentHelper(*doc->pdf).getAllPages();
        doc->version = doc->pdf->getPDFVersion();
        if (repairs) *repairs = int(doc->pdf->numWarnings());
        return doc.release();
    }, errorKind);
}

SPQDocument *spq_document_create(char **error) {
    return guarded<SPQDocument *>(error, nullptr, [&]() {
        auto doc = std::make_unique<SPQDocument>();
        doc->pdf = std::make_shared<QPDF>();
        doc->pdf->emptyPDF();
        return doc.release();
    });
}

void spq_document_free(SPQDocument *doc) { delete doc; }

int spq_document_page_count(SPQDocument *doc, char **error) {
    return guarded<int>(error, -1, [&]() { return int(doc->pages.size()); });
}

int spq_document_is_encrypted(SPQDocument *doc) {
    return guarded<int>(nullptr, 0, [&]() { return doc->pdf->isEncrypted() ? 1 : 0; });
}

int spq_document_allows_printing(SPQDocument *doc) {
    return guarded<int>(nullptr, 0, [&]() {
        // The owner's password lifts every restriction.
        if (doc->pdf->isEncrypted() && doc->pdf->ownerPasswordMatched()) return 1;
        return doc->pdf->allowPrintHighRes() || doc->pdf->allowPrintLowRes() ? 1 : 0;
    });
}

const char *spq_document_version(SPQDocument *doc) { return doc->version.c_str(); }

int spq_page_geometry(SPQDocument *doc, int index, SPQPageGeometry *out, char **error) {
    return guarded<int>(error, -1, [&]() {
        auto &page = pageAt(doc, index);
        auto media = page.getMediaBox(false).getArrayAsRectangle();
        auto crop = page.getCropBox(false).getArrayAsRectangle();
        double m[4] = {media.llx, media.lly, media.urx, media.ury};
        double c[4] = {crop.llx, crop.lly, crop.urx, crop.ury};
        for (double *r : {m, c}) {
            if (r[0] > r[2]) std::swap(r[0], r[2]);
            if (r[1] > r[3]) std::swap(r[1], r[3]);
        }
        // A crop box reaches no further than the media box.
        c[0] = std::max(c[0], m[0]); c[1] = std::max(c[1], m[1]);
        c[2] = std::min(c[2], m[2]); c[3] = std::min(c[3], m[3]);
        if (c[2] <= c[0] || c[3] <= c[1]) std::memcpy(c, m, sizeof c);
        std::memcpy(out->mediaBox, m, sizeof m);
        std::memcpy(out->cropBox, c, sizeof c);
        auto rotate = page.getAttribute("/Rotate", false);
        int r = rotate.isInteger() ? int(rotate.getIntValue()) : 0;
        out->rotate = ((r % 360) + 360) % 360 / 90 * 90;
        auto unit = page.getObjectHandle().getKey("/UserUnit");
        out->userUnit = unit.isNumber() && unit.getNumericValue() > 0 ? unit.getNumericValue() : 1.0;
        return 0;
    });
}

int spq_copy_page(SPQDocument *dst, SPQDocument *src, int index, char **error) {
    return guarded<int>(error, -1, [&]() {
        QPDFPageDocumentHelper(*dst->pdf).addPage(pageAt(src, index), false);
        noteVersion(dst, src);
        return 0;
    });
}

int64_t spq_form_from_page(SPQDocument *dst, SPQDocument *src, int index, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        auto &page = pageAt(src, index);
        auto form = dst->pdf->copyForeignObject(page.getFormXObjectForPage(false));
        auto crop = page.getCropBox(false).getArrayAsRectangle();
        form.getDict().replaceKey("/BBox", QPDFObjectHandle::newArray(crop));
        form.getDict().removeKey("/Matrix");
        noteVersion(dst, src);
        return int64_t(form.getObjectID());
    });
}

int64_t spq_add_jpeg(SPQDocument *dst, const SPQImageInfo *info, const uint8_t *data, size_t length, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        std::string icc = info->icc ? std::string(reinterpret_cast<const char *>(info->icc), info->iccLength) : "";
        auto image = dst->pdf->newStream();
        copyDictionary(image, imageDictionary(*dst->pdf, *info, icc));
        image.replaceStreamData(std::string(reinterpret_cast<const char *>(data), length),
                                QPDFObjectHandle::newName("/DCTDecode"), QPDFObjectHandle::newNull());
        return int64_t(image.getObjectID());
    });
}

SPQImageWriter *spq_image_begin(SPQDocument *dst, const SPQImageInfo *info, char **error) {
    return guarded<SPQImageWriter *>(error, nullptr, [&]() {
        auto w = std::make_unique<SPQImageWriter>();
        w->doc = dst;
        w->info = *info;
        if (info->icc) w->icc.assign(reinterpret_cast<const char *>(info->icc), info->iccLength);
        w->info.icc = nullptr;
        w->colorBuffer = std::make_unique<Pl_Buffer>("image");
        w->color = std::make_unique<Pl_Flate>("image flate", w->colorBuffer.get(), Pl_Flate::a_deflate);
        if (info->hasAlpha) {
            w->alphaBuffer = std::make_unique<Pl_Buffer>("alpha");
            w->alpha = std::make_unique<Pl_Flate>("alpha flate", w->alphaBuffer.get(), Pl_Flate::a_deflate);
        }
        return w.release();
    });
}

int spq_image_write(SPQImageWriter *w, const uint8_t *data, size_t length, char **error) {
    return guarded<int>(error, -1, [&]() {
        w->color->write(data, length);
        return 0;
    });
}

int spq_image_write_alpha(SPQImageWriter *w, const uint8_t *data, size_t length, char **error) {
    return guarded<int>(error, -1, [&]() {
        if (!w->alpha) throw std::logic_error("the image has no alpha channel");
        w->alpha->write(data, length);
        return 0;
    });
}

int64_t spq_image_end(SPQImageWriter *w, char **error) {
    std::unique_ptr<SPQImageWriter> owner(w);
    return guarded<int64_t>(error, -1, [&]() {
        QPDF &pdf = *w->doc->pdf;
        auto flate = QPDFObjectHandle::newName("/FlateDecode");
        w->color->finish();
        auto image = pdf.newStream();
        copyDictionary(image, imageDictionary(pdf, w->info, w->icc));
        image.replaceStreamData(w->colorBuffer->getBufferSharedPointer(), flate, QPDFObjectHandle::newNull());
        if (w->alpha) {
            w->alpha->finish();
            SPQImageInfo maskInfo = w->info;
            maskInfo.components = 1;
            maskInfo.bitsPerComponent = w->info.alphaBitsPerComponent ? w->info.alphaBitsPerComponent : 8;
            maskInfo.invertCMYK = 0;
            auto mask = pdf.newStream();
            copyDictionary(mask, imageDictionary(pdf, maskInfo, ""));
            mask.replaceStreamData(w->alphaBuffer->getBufferSharedPointer(), flate, QPDFObjectHandle::newNull());
            image.getDict().replaceKey("/SMask", mask);
        }
        return int64_t(image.getObjectID());
    });
}

void spq_image_abandon(SPQImageWriter *w) { delete w; }

int spq_add_sheet(SPQDocument *dst, double width, double height, int rotate,
                  const SPQPlacement *placements, int count, int grayscale, char **error) {
    return guarded<int>(error, -1, [&]() {
        QPDF &pdf = *dst->pdf;
        auto xobjects = QPDFObjectHandle::newDictionary();
        std::string content;
        char buffer[256];
        if (grayscale) {
            // An opaque white sheet first: the blend below needs paper to blend with, or some
            // renderers blend with a transparent backdrop and grey the margins.
            snprintf(buffer, sizeof buffer, "q 1 g 0 0 %.4f %.4f re f Q\n", width, height);
            content += buffer;
        }
        for (int i = 0; i < count; ++i) {
            auto const &p = placements[i];
            std::string name = "/X" + std::to_string(i);
            xobjects.replaceKey(name, pdf.getObjectByID(int(p.object), 0));
            content += "q\n";
            if (p.hasClip) {
                snprintf(buffer, sizeof buffer, "%.4f %.4f m %.4f %.4f l %.4f %.4f l %.4f %.4f l h W n\n", p.clip[0],
                         p.clip[1], p.clip[2], p.clip[3], p.clip[4], p.clip[5], p.clip[6], p.clip[7]);
                content += buffer;
            }
            snprintf(buffer, sizeof buffer, "%.6f %.6f %.6f %.6f %.4f %.4f cm %s Do Q\n", p.matrix[0], p.matrix[1],
                     p.matrix[2], p.matrix[3], p.matrix[4], p.matrix[5], name.c_str());
            content += buffer;
        }
        auto resources = QPDFObjectHandle::newDictionary();
        resources.replaceKey("/XObject", xobjects);
        if (grayscale) {
            auto state = QPDFObjectHandle::parse("<< /Type /ExtGState /BM /Saturation >>");
            auto states = QPDFObjectHandle::newDictionary();
            states.replaceKey("/GSgray", state);
            resources.replaceKey("/ExtGState", states);
            snprintf(buffer, sizeof buffer, "q /GSgray gs 0.5 g 0 0 %.4f %.4f re f Q\n", width, height);
            content += buffer;
        }
        auto page = QPDFObjectHandle::newDictionary();
        page.replaceKey("/Type", QPDFObjectHandle::newName("/Page"));
        page.replaceKey("/MediaBox", QPDFObjectHandle::newArray(QPDFObjectHandle::Rectangle(0, 0, width, height)));
        page.replaceKey("/Resources", resources);
        page.replaceKey("/Contents", pdf.newStream(content));
        if (rotate) page.replaceKey("/Rotate", QPDFObjectHandle::newInteger(rotate));
        QPDFPageDocumentHelper(pdf).addPage(QPDFPageObjectHelper(pdf.makeIndirectObject(page)), false);
        return 0;
    });
}

int spq_set_info(SPQDocument *dst, const char *key, const char *utf8, char **error) {
    return guarded<int>(error, -1, [&]() {
        auto trailer = dst->pdf->getTrailer();
        auto info = trailer.getKey("/Info");
        if (!info.isDictionary()) {
            info = dst->pdf->makeIndirectObject(QPDFObjectHandle::newDictionary());
            trailer.replaceKey("/Info", info);
        }
        info.replaceKey(std::string("/") + key, QPDFObjectHandle::newUnicodeString(utf8));
        return 0;
    });
}

int spq_document_write(SPQDocument *dst, spq_write_fn write, void *context, char **error) {
    return guarded<int>(error, -1, [&]() {
        CallbackPipeline out(write, context);
        QPDFWriter writer(*dst->pdf);
        writer.setOutputPipeline(&out);
        writer.setDeterministicID(true);
        writer.setMinimumPDFVersion("1." + std::to_string(dst->highestMinor));
        writer.write();
        return 0;
    });
}

} // extern "C"

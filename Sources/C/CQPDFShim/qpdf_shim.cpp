// The object-level PDF assembler's engine: see ../CQPDF/include/CQPDF.h for why it exists and
// why it is a shared library of its own. Every entry point catches every exception; qpdf's own
// message goes back to Swift.
#include "engine.h"

#include <set>

#pragma GCC visibility push(hidden)

namespace {

using spq::guarded;

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

/// Whether a stream's data can be moved as it is stored: filters named plainly, none of them /Crypt.
bool storedDataMoves(QPDFObjectHandle stream) {
    auto filter = stream.getDict().getKey("/Filter");
    if (filter.isNull()) return true;
    if (filter.isName()) return filter.getName() != "/Crypt";
    if (!filter.isArray()) return false;
    for (auto &f : filter.aitems()) {
        if (!f.isName() || f.getName() == "/Crypt") return false;
    }
    return true;
}

/// A page as a form XObject, made in the page's own document. qpdf's getFormXObjectForPage joins
/// the page's content streams into one new, unfiltered stream: every page is inflated now and
/// deflated again when written (half of a 4-up job's time). A page with one content stream
/// keeps its stored, still compressed data instead.
QPDFObjectHandle formForPage(QPDFPageObjectHelper &page) {
    auto object = page.getObjectHandle();
    auto contents = object.getKey("/Contents");
    if (!contents.isStream() || !storedDataMoves(contents)) return page.getFormXObjectForPage(false);
    auto stored = contents.getDict();
    auto form = QPDFObjectHandle::newStream(object.getOwningQPDF());
    form.replaceStreamData(contents.getRawStreamData(), stored.getKey("/Filter"), stored.getKey("/DecodeParms"));
    auto dict = form.getDict();
    dict.replaceKey("/Type", QPDFObjectHandle::newName("/XObject"));
    dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/Form"));
    auto resources = page.getAttribute("/Resources", false);
    dict.replaceKey("/Resources", resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary());
    // A page's transparency group says how its content blends; the form keeps it.
    auto group = object.getKey("/Group");
    if (group.isDictionary()) dict.replaceKey("/Group", group.shallowCopy());
    return form;
}

} // namespace

namespace spq {

SPQDocument *document_open(const char *path, const char *password, int *repairs, int *errorKind, char **error) {
    return guarded<SPQDocument *>(error, nullptr, [&]() {
        auto doc = std::make_unique<SPQDocument>();
        doc->pdf = std::make_shared<QPDF>();
        doc->pdf->setSuppressWarnings(true);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw QPDFExc(qpdf_e_system, path, "", 0, std::string("cannot open the file: ") + strerror(errno));
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_size > 0 && size_t(st.st_size) <= largestMapped) {
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
        if (doc->pages.empty() && doc->pdf->numWarnings() > 0) {
            // A damaged file with no page tree left: its pages may still be in it.
            try {
                doc->recoveredPages = recoverLostPages(*doc);
            } catch (std::exception const &) {
                doc->pages.clear();
                doc->recoveredPages = 0;
            }
        }
        doc->version = doc->pdf->getPDFVersion();
        if (repairs) *repairs = int(doc->pdf->numWarnings());
        return doc.release();
    }, errorKind);
}

SPQDocument *document_create(char **error) {
    return guarded<SPQDocument *>(error, nullptr, [&]() {
        auto doc = std::make_unique<SPQDocument>();
        doc->pdf = std::make_shared<QPDF>();
        doc->pdf->emptyPDF();
        return doc.release();
    });
}

void document_free(SPQDocument *doc) { delete doc; }

int document_page_count(SPQDocument *doc, char **error) {
    return guarded<int>(error, -1, [&]() { return int(doc->pages.size()); });
}

int document_recovered_pages(SPQDocument *doc) { return doc->recoveredPages; }

int document_is_encrypted(SPQDocument *doc) {
    return guarded<int>(nullptr, 0, [&]() { return doc->pdf->isEncrypted() ? 1 : 0; });
}

int document_allows_printing(SPQDocument *doc) {
    return guarded<int>(nullptr, 0, [&]() {
        // The owner's password lifts every restriction.
        if (doc->pdf->isEncrypted() && doc->pdf->ownerPasswordMatched()) return 1;
        return doc->pdf->allowPrintHighRes() || doc->pdf->allowPrintLowRes() ? 1 : 0;
    });
}

const char *document_version(SPQDocument *doc) { return doc->version.c_str(); }

int page_geometry(SPQDocument *doc, int index, SPQPageGeometry *out, char **error) {
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

// The content operator that sets rendering intent `intent` (a PDF name without its slash),
// checked to be one of PDF's four.
std::string intentOperator(const char *intent) {
    static const char *names[] = {"Perceptual", "RelativeColorimetric", "Saturation", "AbsoluteColorimetric"};
    for (const char *name : names) {
        if (strcmp(intent, name) == 0) return std::string("/") + name + " ri\n";
    }
    throw std::runtime_error(std::string("not a rendering intent: ") + intent);
}

int copy_page(SPQDocument *dst, SPQDocument *src, int index, const char *intent, char **error) {
    return guarded<int>(error, -1, [&]() {
        auto &page = pageAt(src, index);
        // Checked before the page is added: a refused intent leaves the document as it was.
        std::string prelude = intent ? intentOperator(intent) : "";
        spq::spliceLargeStreams(page.getAttribute("/Resources", false), *src);
        QPDFPageDocumentHelper(*dst->pdf).addPage(page, false);
        // QPDF's own list of pages, kept up to date as pages are added (the helper's
        // getAllPages makes a new list each call).
        if (intent) QPDFPageObjectHelper(dst->pdf->getAllPages().back()).addPageContents(dst->pdf->newStream(prelude), true);
        noteVersion(dst, src);
        return 0;
    });
}

int64_t form_from_page(SPQDocument *dst, SPQDocument *src, int index, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        auto &page = pageAt(src, index);
        spq::spliceLargeStreams(page.getAttribute("/Resources", false), *src);
        auto form = dst->pdf->copyForeignObject(formForPage(page));
        auto crop = page.getCropBox(false).getArrayAsRectangle();
        form.getDict().replaceKey("/BBox", QPDFObjectHandle::newArray(crop));
        form.getDict().removeKey("/Matrix");
        noteVersion(dst, src);
        return int64_t(form.getObjectID());
    });
}

int add_sheet(SPQDocument *dst, double width, double height, int rotate,
                  const SPQPlacement *placements, int count, int grayscale, const char *intent, char **error) {
    return guarded<int>(error, -1, [&]() {
        QPDF &pdf = *dst->pdf;
        auto xobjects = QPDFObjectHandle::newDictionary();
        std::string content = intent ? intentOperator(intent) : "";
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
        QPDFPageObjectHelper helper(pdf.makeIndirectObject(page));
        QPDFPageDocumentHelper(pdf).addPage(helper, false);
        // A document made here can be read back like an opened one (raster pages are).
        dst->pages.push_back(helper);
        return 0;
    });
}

int64_t add_drawing(SPQDocument *dst, double width, double height, const char *operators, size_t length, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        auto form = dst->pdf->newStream(std::string(operators, length));
        auto dict = form.getDict();
        dict.replaceKey("/Type", QPDFObjectHandle::newName("/XObject"));
        dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/Form"));
        dict.replaceKey("/BBox", QPDFObjectHandle::newArray(QPDFObjectHandle::Rectangle(0, 0, width, height)));
        dict.replaceKey("/Resources", QPDFObjectHandle::newDictionary());
        return int64_t(form.getObjectID());
    });
}

int set_info(SPQDocument *dst, const char *key, const char *utf8, char **error) {
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

int set_outline(SPQDocument *dst, const SPQOutlineItem *items, int count, char **error) {
    return guarded<int>(error, -1, [&]() {
        auto pages = QPDFPageDocumentHelper(*dst->pdf).getAllPages();
        auto root = dst->pdf->makeIndirectObject(QPDFObjectHandle::newDictionary());
        root.replaceKey("/Type", QPDFObjectHandle::newName("/Outlines"));
        // The open path from the root to the last item: each with its level and how many
        // items are under it (an open item's /Count).
        struct Open { QPDFObjectHandle node; int level; QPDFObjectHandle last; int descendants; };
        std::vector<Open> path{{root, 0, QPDFObjectHandle::newNull(), 0}};
        auto close = [&]() {
            auto &done = path.back();
            if (done.descendants > 0) done.node.replaceKey("/Count", QPDFObjectHandle::newInteger(done.descendants));
            path.pop_back();
        };
        for (int i = 0; i < count; i++) {
            const auto &item = items[i];
            if (item.page < 0 || size_t(item.page) >= pages.size() || !item.title) continue;
            int level = item.level < 1 ? 1 : item.level;
            while (path.size() > 1 && path.back().level >= level) close();
            auto node = dst->pdf->makeIndirectObject(QPDFObjectHandle::newDictionary());
            node.replaceKey("/Title", QPDFObjectHandle::newUnicodeString(item.title));
            node.replaceKey("/Parent", path.back().node);
            auto dest = QPDFObjectHandle::newArray();
            dest.appendItem(pages[size_t(item.page)].getObjectHandle());
            dest.appendItem(QPDFObjectHandle::newName("/XYZ"));
            dest.appendItem(QPDFObjectHandle::newNull());
            dest.appendItem(item.top >= 0 ? QPDFObjectHandle::newReal(item.top, 2) : QPDFObjectHandle::newNull());
            dest.appendItem(QPDFObjectHandle::newNull());
            node.replaceKey("/Dest", dest);
            auto &parent = path.back();
            if (parent.last.isNull()) {
                parent.node.replaceKey("/First", node);
            } else {
                parent.last.replaceKey("/Next", node);
                node.replaceKey("/Prev", parent.last);
            }
            parent.node.replaceKey("/Last", node);
            parent.last = node;
            for (auto &open : path) open.descendants += 1;
            path.push_back({node, level, QPDFObjectHandle::newNull(), 0});
        }
        while (path.size() > 1) close();
        if (path[0].descendants == 0) return 0;
        root.replaceKey("/Count", QPDFObjectHandle::newInteger(path[0].descendants));
        dst->pdf->getRoot().replaceKey("/Outlines", root);
        return 0;
    });
}

int add_link(SPQDocument *dst, int page, double x1, double y1, double x2, double y2, const char *uri, int destPage,
             double destTop, char **error) {
    return guarded<int>(error, -1, [&]() {
        auto pages = QPDFPageDocumentHelper(*dst->pdf).getAllPages();
        if (page < 0 || size_t(page) >= pages.size()) throw std::out_of_range("link on a page that does not exist");
        auto annotation = dst->pdf->makeIndirectObject(QPDFObjectHandle::newDictionary());
        annotation.replaceKey("/Type", QPDFObjectHandle::newName("/Annot"));
        annotation.replaceKey("/Subtype", QPDFObjectHandle::newName("/Link"));
        annotation.replaceKey("/Rect", QPDFObjectHandle::newArray(QPDFObjectHandle::Rectangle(x1, y1, x2, y2)));
        auto border = QPDFObjectHandle::newArray();
        for (int i = 0; i < 3; i++) border.appendItem(QPDFObjectHandle::newInteger(0));
        annotation.replaceKey("/Border", border);
        if (uri) {
            auto action = QPDFObjectHandle::newDictionary();
            action.replaceKey("/S", QPDFObjectHandle::newName("/URI"));
            action.replaceKey("/URI", QPDFObjectHandle::newString(uri));
            annotation.replaceKey("/A", action);
        } else {
            if (destPage < 0 || size_t(destPage) >= pages.size()) throw std::out_of_range("link to a page that does not exist");
            auto dest = QPDFObjectHandle::newArray();
            dest.appendItem(pages[size_t(destPage)].getObjectHandle());
            dest.appendItem(QPDFObjectHandle::newName("/XYZ"));
            dest.appendItem(QPDFObjectHandle::newNull());
            dest.appendItem(destTop >= 0 ? QPDFObjectHandle::newReal(destTop, 2) : QPDFObjectHandle::newNull());
            dest.appendItem(QPDFObjectHandle::newNull());
            annotation.replaceKey("/Dest", dest);
        }
        auto target = pages[size_t(page)].getObjectHandle();
        auto annots = target.getKey("/Annots");
        if (!annots.isArray()) {
            annots = QPDFObjectHandle::newArray();
            target.replaceKey("/Annots", annots);
        }
        annots.appendItem(annotation);
        return 0;
    });
}

int document_write(SPQDocument *dst, spq_write_fn write, void *context, char **error) {
    return guarded<int>(error, -1, [&]() {
        CallbackPipeline out(write, context, "cannot write the output");
        QPDFWriter writer(*dst->pdf);
        writer.setDeterministicID(true);
        writer.setMinimumPDFVersion("1." + std::to_string(dst->highestMinor));
        spq::writeSpliced(writer, out);
        return 0;
    });
}

/// The largest image reached from `resources`: its XObjects' images (and their soft masks),
/// and, through forms and tiling patterns, theirs; each object visited once.
static int64_t largestImage(QPDFObjectHandle resources, std::set<QPDFObjGen> &seen) {
    if (!resources.isDictionary()) return 0;
    int64_t best = 0;
    auto visit = [&](QPDFObjectHandle object) {
        if (!object.isStream()) return;
        if (object.isIndirect() && !seen.insert(object.getObjGen()).second) return;
        auto dict = object.getDict();
        auto subtype = dict.getKey("/Subtype");
        if (subtype.isNameAndEquals("/Image")) {
            for (auto image : {dict, dict.getKey("/SMask").isStream() ? dict.getKey("/SMask").getDict() : QPDFObjectHandle::newNull()}) {
                if (!image.isDictionary()) continue;
                auto w = image.getKey("/Width"), h = image.getKey("/Height");
                if (!w.isNumber() || !h.isNumber()) continue;
                // Declared sizes can be anything: clamp before multiplying.
                double pixels = std::min(std::max(w.getNumericValue(), 0.0), 1e9) * std::min(std::max(h.getNumericValue(), 0.0), 1e9);
                best = std::max(best, int64_t(std::min(pixels, 9e18)));
            }
        } else {
            // A form XObject, or a tiling pattern: content with resources of its own.
            best = std::max(best, largestImage(dict.getKey("/Resources"), seen));
        }
    };
    for (auto const &kind : {"/XObject", "/Pattern"}) {
        auto group = resources.getKey(kind);
        if (!group.isDictionary()) continue;
        for (auto const &key : group.getKeys()) visit(group.getKey(key));
    }
    return best;
}

int64_t page_largest_image(SPQDocument *doc, int index, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        std::set<QPDFObjGen> seen;
        auto &page = pageAt(doc, index);
        return largestImage(page.getAttribute("/Resources", false), seen);
    });
}

char *get_info(SPQDocument *doc, const char *key) {
    try {
        auto info = doc->pdf->getTrailer().getKey("/Info");
        if (!info.isDictionary()) return nullptr;
        auto value = info.getKey(std::string("/") + key);
        if (!value.isString()) return nullptr;
        return strdup(value.getUTF8Value().c_str());
    } catch (...) {
        // A damaged dictionary has no entry to give.
        return nullptr;
    }
}

} // namespace spq

#pragma GCC visibility pop

extern "C" __attribute__((visibility("default"))) const SPQFunctions *spq_functions(void) {
    static const SPQFunctions table = {
        SPQ_FUNCTIONS_VERSION,
        sizeof(SPQFunctions),
        spq::document_open,
        spq::document_create,
        spq::document_free,
        spq::document_page_count,
        spq::document_is_encrypted,
        spq::document_allows_printing,
        spq::document_version,
        spq::document_subset_fonts,
        spq::page_geometry,
        spq::copy_page,
        spq::form_from_page,
        spq::add_jpeg,
        spq::image_begin,
        spq::image_write,
        spq::image_write_alpha,
        spq::image_end,
        spq::image_abandon,
        spq::add_sheet,
        spq::set_info,
        spq::document_write,
        spq::add_drawing,
        spq::set_outline,
        spq::add_link,
        spq::get_info,
        spq::page_largest_image,
        spq::document_recovered_pages,
    };
    return &table;
}

// The pages of a damaged PDF whose page tree is lost: qpdf rebuilds its cross-reference table,
// but when the root of the page tree is gone (a null /Pages, a broken /Kids), the rebuilt file
// has no pages though every page's own dictionary is still in it. Here those dictionaries are
// found among all the file's objects and hung under a new page tree, in the order they stand
// in the file (a writer puts pages in order; a linearized file puts the first page first).
#include "engine.h"

#include <algorithm>
#include <map>

namespace spq {

namespace {

// Where object `og` starts in the file, or, for one inside an object stream, where that stream
// does (its objects are in order within it); objects qpdf made up come last.
long long fileOrder(std::map<QPDFObjGen, QPDFXRefEntry> const &xref, QPDFObjGen og) {
    auto entry = xref.find(og);
    if (entry == xref.end()) return (1LL << 62) + og.getObj();
    if (entry->second.getType() == 1) return entry->second.getOffset();
    if (entry->second.getType() == 2) {
        auto stream = xref.find(QPDFObjGen(entry->second.getObjStreamNumber(), 0));
        long long base = (stream != xref.end() && stream->second.getType() == 1) ? stream->second.getOffset() : (1LL << 61);
        return base + entry->second.getObjStreamIndex();
    }
    return (1LL << 62) + og.getObj();
}

// A dictionary a page of the lost tree would be: /Type /Page with something to draw.
bool isPage(QPDFObjectHandle &object) {
    if (!object.isDictionary()) return false;
    auto type = object.getKey("/Type");
    if (!type.isName() || type.getName() != "/Page") return false;
    return object.hasKey("/Contents") || object.hasKey("/Resources");
}

} // namespace

int recoverLostPages(SPQDocument &doc) {
    QPDF &pdf = *doc.pdf;
    auto xref = pdf.getXRefTable();
    std::vector<std::pair<long long, QPDFObjectHandle>> found;
    for (auto &object : pdf.getAllObjects()) {
        if (isPage(object)) found.emplace_back(fileOrder(xref, object.getObjGen()), object);
    }
    if (found.empty()) return 0;
    // Offsets are unique; objects qpdf made up are ordered by number (in fileOrder).
    std::sort(found.begin(), found.end(), [](auto const &a, auto const &b) { return a.first < b.first; });

    // A page that had its size from the lost tree takes the size most of the others have.
    std::map<std::string, int> sizes;
    for (auto &page : found) {
        auto box = page.second.getKey("/MediaBox");
        if (box.isRectangle()) sizes[box.unparse()]++;
    }
    QPDFObjectHandle commonBox = QPDFObjectHandle::newNull();
    int most = 0;
    for (auto &[box, count] : sizes) {
        if (count > most) { most = count; commonBox = QPDFObjectHandle::parse(box); }
    }

    auto tree = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
    auto kids = QPDFObjectHandle::newArray();
    for (auto &[order, page] : found) {
        page.replaceKey("/Parent", tree);
        if (!page.getKey("/MediaBox").isRectangle()) {
            // Letter when no page says anything: what a viewer would show.
            page.replaceKey("/MediaBox", commonBox.isNull() ? QPDFObjectHandle::parse("[0 0 612 792]") : commonBox);
        }
        kids.appendItem(page);
    }
    tree.replaceKey("/Type", QPDFObjectHandle::newName("/Pages"));
    tree.replaceKey("/Kids", kids);
    tree.replaceKey("/Count", QPDFObjectHandle::newInteger(static_cast<long long>(found.size())));

    auto trailer = pdf.getTrailer();
    auto root = trailer.getKey("/Root");
    if (!root.isDictionary()) {
        root = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
        root.replaceKey("/Type", QPDFObjectHandle::newName("/Catalog"));
        trailer.replaceKey("/Root", root);
    }
    root.replaceKey("/Pages", tree);
    pdf.updateAllPagesCache();
    doc.pages = QPDFPageDocumentHelper(pdf).getAllPages();
    return int(doc.pages.size());
}

} // namespace spq

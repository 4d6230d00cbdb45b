// A PDF's text in the order it is drawn, with each character's box: what poppler-glib does not
// give (its text comes in poppler's reading order, which takes the columns of a table or a
// line of preformatted text apart). The markup page map compares WebKit's print with the
// document's own text, which is in drawing order. See CPDFRepair.h.
#define TEXTOUT_WORD_LIST 1
#include "CPDFRepair.h"
#include "engine_globals.h"

#include <GlobalParams.h>
#include <PDFDoc.h>
#include <TextOutputDev.h>
#include <goo/GooString.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

void appendUTF8(std::string &out, Unicode u) {
    if (u == 0) u = 0xFFFD;  // the text is handed on NUL-terminated
    if (u < 0x80) {
        out += char(u);
    } else if (u < 0x800) {
        out += char(0xC0 | (u >> 6)); out += char(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
        if (u >= 0xD800 && u <= 0xDFFF) u = 0xFFFD;
        out += char(0xE0 | (u >> 12)); out += char(0x80 | ((u >> 6) & 0x3F)); out += char(0x80 | (u & 0x3F));
    } else if (u < 0x110000) {
        out += char(0xF0 | (u >> 18)); out += char(0x80 | ((u >> 12) & 0x3F));
        out += char(0x80 | ((u >> 6) & 0x3F)); out += char(0x80 | (u & 0x3F));
    } else {
        appendUTF8(out, 0xFFFD);
    }
}

} // namespace

extern "C" __attribute__((visibility("default")))
int spr_drawn_text(const char *input, char **text, double **boxes, int **pageStarts, int *pageCount, char **error) {
    spr_ensure_global_params();
    PDFDoc doc(std::make_unique<GooString>(input));
    if (!doc.isOk()) {
        if (error) *error = strdup(("poppler cannot read it (error " + std::to_string(doc.getErrorCode()) + ")").c_str());
        return -1;
    }
    int pages = doc.getNumPages();
    std::string utf8;
    std::vector<double> places;
    std::vector<int> starts;
    for (int page = 1; page <= pages; page++) {
        starts.push_back(int(places.size() / 4));
        // Raw order: words as the content stream draws them; boxes in points from the page's
        // top-left corner, as poppler-glib gives them.
        TextOutputDev device(nullptr, false, 0, true, false);
        if (!device.isOk()) continue;
        doc.displayPage(&device, page, 72, 72, 0, false, true, false);
        std::unique_ptr<TextWordList> words = device.makeWordList();
        for (int w = 0; words && w < words->getLength(); w++) {
            const TextWord *word = words->get(w);
            for (int c = 0; c < word->getLength(); c++) {
                double x0, y0, x1, y1;
                word->getCharBBox(c, &x0, &y0, &x1, &y1);
                appendUTF8(utf8, *word->getChar(c));
                places.insert(places.end(), {x0, y0, x1, y1});
            }
        }
    }
    starts.push_back(int(places.size() / 4));
    *text = strdup(utf8.c_str());
    *boxes = static_cast<double *>(malloc(sizeof(double) * (places.empty() ? 1 : places.size())));
    if (!places.empty()) memcpy(*boxes, places.data(), sizeof(double) * places.size());
    *pageStarts = static_cast<int *>(malloc(sizeof(int) * starts.size()));
    memcpy(*pageStarts, starts.data(), sizeof(int) * starts.size());
    *pageCount = pages;
    return 0;
}

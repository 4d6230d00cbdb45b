// Pages drawn by poppler's own rasteriser (Splash, the engine of pdftoppm and cups-filters'
// pdftoraster) for raster output of pages that draw images. poppler-glib's cairo device decodes
// every image whole before scaling it (a 24 MP photo: 96 MB, 100 MP: 400 MB), whatever its
// size on the sheet; Splash reads an image row by row through its scaler. A band of the page is
// drawn at a time, into a bitmap of that band alone. See CPDFRepair.h.
#include "CPDFRepair.h"
#include "engine_globals.h"
#include <OutputDev.h>
#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <goo/GooString.h>
#include <splash/SplashBitmap.h>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

struct SPRPages {
    std::unique_ptr<PDFDoc> doc;
    std::unique_ptr<SplashOutputDev> device;
};

namespace {

int fail(char **error, const std::string &message) {
    if (error) *error = strdup(message.c_str());
    return -1;
}

SPRPages *pages_open(const char *input, int antialias, char **error) {
    spr_ensure_global_params();
    auto pages = std::make_unique<SPRPages>();
    pages->doc = std::make_unique<PDFDoc>(std::make_unique<GooString>(input));
    if (!pages->doc->isOk()) {
        fail(error, "poppler cannot read it (error " + std::to_string(pages->doc->getErrorCode()) + ")");
        return nullptr;
    }
    SplashColor paper;
    paper[0] = paper[1] = paper[2] = paper[3] = 255;
    // Four bytes a pixel, blue, green, red and 255: the order of a cairo RGB24 pixel in memory,
    // which the raster encoder reads.
    pages->device = std::make_unique<SplashOutputDev>(splashModeXBGR8, 4, false, paper);
    // Set before startDoc, which makes the font engine with them.
    pages->device->setFontAntialias(antialias != 0);
    pages->device->setVectorAntialias(antialias != 0);
    pages->device->startDoc(pages->doc.get());
    return pages.release();
}

int pages_render(SPRPages *pages, int page, double dpiX, double dpiY, int width, int height, int top, int rows,
                 int mirrorAcross, int mirrorAlong, const unsigned char **data, long *stride, char **error) {
    if (page < 0 || page >= pages->doc->getNumPages()) return fail(error, "poppler has no page " + std::to_string(page + 1));
    if (rows <= 0 || top < 0 || top + rows > height) return fail(error, "a band outside the page");
    // Mirrored along the feed, the band's rows come from the other end of the page, in reverse.
    int y = mirrorAlong ? height - top - rows : top;
    pages->doc->displayPageSlice(pages->device.get(), page + 1, dpiX, dpiY, 0, false, true, true, 0, y, width, rows);
    SplashBitmap *bitmap = pages->device->getBitmap();
    if (!bitmap || bitmap->getWidth() < width || bitmap->getHeight() < rows) return fail(error, "poppler drew no band for page " + std::to_string(page + 1));
    unsigned char *base = bitmap->getDataPtr();
    long rowSize = bitmap->getRowSize();
    if (mirrorAcross) {
        for (int r = 0; r < rows; r++) {
            auto *row = reinterpret_cast<uint32_t *>(base + r * rowSize);
            for (int a = 0, b = width - 1; a < b; a++, b--) std::swap(row[a], row[b]);
        }
    }
    if (mirrorAlong) {
        std::unique_ptr<unsigned char[]> swap(new unsigned char[size_t(rowSize)]);
        for (int a = 0, b = rows - 1; a < b; a++, b--) {
            memcpy(swap.get(), base + a * rowSize, size_t(rowSize));
            memcpy(base + a * rowSize, base + b * rowSize, size_t(rowSize));
            memcpy(base + b * rowSize, swap.get(), size_t(rowSize));
        }
    }
    *data = base;
    *stride = rowSize;
    return 0;
}

void pages_close(SPRPages *pages) { delete pages; }

// Goes through a page's content noting the size of each image it draws, decoding none (an
// inline image's bytes are passed over, as the content goes on after them).
class ImageSizes : public OutputDev {
public:
    double largest = 0;
    bool upsideDown() override { return true; }
    bool useDrawChar() override { return false; }
    bool interpretType3Chars() override { return false; }
    void drawImage(GfxState *state, Object *ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate,
                   const int *maskColors, bool inlineImg) override {
        note(width, height);
        OutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
    }
    void drawMaskedImage(GfxState *state, Object *ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate,
                         Stream *maskStr, int maskWidth, int maskHeight, bool maskInvert, bool maskInterpolate) override {
        note(width, height);
        note(maskWidth, maskHeight);
    }
    void drawSoftMaskedImage(GfxState *state, Object *ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate,
                             Stream *maskStr, int maskWidth, int maskHeight, GfxImageColorMap *maskColorMap, bool maskInterpolate) override {
        note(width, height);
        note(maskWidth, maskHeight);
    }

private:
    void note(int width, int height) { largest = std::max(largest, double(width) * double(height)); }
};

double pages_largest_image(SPRPages *pages, int page) {
    if (page < 0 || page >= pages->doc->getNumPages()) return 0;
    ImageSizes sizes;
    pages->doc->displayPage(&sizes, page + 1, 72, 72, 0, false, true, true);
    return sizes.largest;
}

const spr_page_renderer renderer = {pages_open, pages_render, pages_largest_image, pages_close};

} // namespace

extern "C" __attribute__((visibility("default")))
const spr_page_renderer *spr_page_renderer_functions(void) { return &renderer; }

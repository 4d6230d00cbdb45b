// Pages drawn by poppler's own rasteriser (Splash, the engine of pdftoppm and cups-filters'
// pdftoraster) for raster output of pages that draw images. poppler-glib's cairo device decodes
// every image whole before scaling it (a 24 MP photo: 96 MB, 100 MP: 400 MB), whatever its
// size on the sheet; Splash reads an image row by row through its scaler. A band of the page is
// drawn at a time, into a bitmap of that band alone; a page's large photos are scaled once
// before its bands (prescaled_images.h), so that the bands can be small. See CPDFRepair.h.
#include "CPDFRepair.h"
#include "canvas_colours.h"
#include "engine_globals.h"
#include "prescaled_images.h"
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

namespace {

// Splash's device, drawing the images `PrescaledImages` scaled before the bands from their
// scaled rows; every other image, and everything else, as Splash draws it.
class BandDevice : public SplashOutputDev {
public:
    BandDevice(SplashColorPtr paper, int scratch) : SplashOutputDev(splashModeXBGR8, 4, false, paper), prescaled(scratch) {}

    PrescaledImages prescaled;
    // The colours pages are drawn in when managed; null for sRGB, unmanaged.
    std::unique_ptr<CanvasColours> colours;
    // The band being drawn: its first row on the page, and its rows.
    int bandTop = 0, bandRows = 0;
    // Why a scaled image's rows could not be read, for the band's caller.
    std::string failure;

    void initGfxState(GfxState *state) override {
        if (colours) colours->apply(state);
        else OutputDev::initGfxState(state);
    }

    void beginTransparencyGroup(GfxState *state, const double *bbox, GfxColorSpace *blendingColorSpace, bool isolated, bool knockout,
                                bool forSoftMask) override {
        ++groups;
        SplashOutputDev::beginTransparencyGroup(state, bbox, blendingColorSpace, isolated, knockout, forSoftMask);
    }
    void endTransparencyGroup(GfxState *state) override {
        SplashOutputDev::endTransparencyGroup(state);
        --groups;
    }

    void drawImage(GfxState *state, Object *ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate,
                   const int *maskColors, bool inlineImg) override {
        // In a group, device space is the group's bitmap's, not the band's.
        const PrescaledImage *image = groups == 0 && !inlineImg && !maskColors ? prescaled.find(ref, state->getCTM(), bandTop) : nullptr;
        if (!image) {
            SplashOutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
            return;
        }
        double saved[6];
        std::copy(state->getCTM(), state->getCTM() + 6, saved);
        GfxImageColorMap *samples = image->converted ? &canvas : colorMap;
        prescaled.drawRows(*image, bandTop, bandRows, [&](Stream *rows, int w, int h, const double *ctm) {
            state->setCTM(ctm[0], ctm[1], ctm[2], ctm[3], ctm[4], ctm[5]);
            SplashOutputDev::drawImage(state, ref, rows, w, h, samples, false, nullptr, false);
        }, failure);
        state->setCTM(saved[0], saved[1], saved[2], saved[3], saved[4], saved[5]);
    }

private:
    int groups = 0;
    // Samples already in the canvas's colours, 8 bits, as given.
    Object noDecode{objNull};
    GfxImageColorMap canvas{8, &noDecode, new GfxDeviceRGBColorSpace()};
};

} // namespace

struct SPRPages {
    std::unique_ptr<PDFDoc> doc;
    std::unique_ptr<BandDevice> device;
};

namespace {

int fail(char **error, const std::string &message) {
    if (error) *error = strdup(message.c_str());
    return -1;
}

SPRPages *pages_open(const char *input, int antialias, int scratch, const void *canvasProfile, size_t canvasProfileLength, char **error) {
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
    pages->device = std::make_unique<BandDevice>(paper, scratch);
    if (canvasProfile) {
        std::string failure;
        pages->device->colours = CanvasColours::make(canvasProfile, canvasProfileLength, failure);
        if (!pages->device->colours) {
            fail(error, failure);
            return nullptr;
        }
    }
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
    BandDevice *device = pages->device.get();
    device->bandTop = y;
    device->prescaled.startBand();
    device->bandRows = rows;
    device->failure.clear();
    pages->doc->displayPageSlice(device, page + 1, dpiX, dpiY, 0, false, true, true, 0, y, width, rows);
    if (!device->failure.empty()) return fail(error, device->failure);
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

int pages_prepare(SPRPages *pages, int page, double dpiX, double dpiY, int width, int height, char **error) {
    if (page < 0 || page >= pages->doc->getNumPages()) return fail(error, "poppler has no page " + std::to_string(page + 1));
    std::string failure;
    int plan = pages->device->prescaled.plan(pages->doc.get(), pages->device->colours.get(), page + 1, dpiX, dpiY, width, height, failure);
    return plan < 0 ? fail(error, failure) : plan;
}

const spr_page_renderer renderer = {SPR_PAGE_RENDERER_VERSION, sizeof(spr_page_renderer), pages_open, pages_prepare, pages_render, pages_largest_image, pages_close};

} // namespace

extern "C" __attribute__((visibility("default")))
const spr_page_renderer *spr_page_renderer_functions(void) { return &renderer; }

// See prescaled_images.h.
#include "prescaled_images.h"
#include "canvas_colours.h"
#include <OutputDev.h>
#include <PDFDoc.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <lcms2.h>
#include <memory>
#include <unistd.h>

namespace {

// An image no larger than this is read again for each band: a 1 MP photo decodes in a few
// milliseconds.
constexpr double smallImagePixels = 1 << 20;

// Splash's rounding of an image's edges to device pixels (the fill rule: lower edge down,
// upper edge down plus one), as Splash::drawImage does for an image that is only scaled.
int lowerEdge(double x) { return int(std::floor(x)); }
int upperEdge(double x) { return int(std::floor(x)) + 1; }

// Splash's Bresenham steps: `large` rows or columns shared among `small` as evenly as whole
// numbers allow, each taking large / small of them, or one more as the remainder builds up.
struct BresenhamSteps {
    int p, q, n, t = 0;
    BresenhamSteps(int large, int small) : p(large / small), q(large % small), n(small) {}
    int next() {
        if ((t += q) >= n) {
            t -= n;
            return p + 1;
        }
        return p;
    }
};

} // namespace

// An image's rows, read in order, once; a stream that ends early gives rows of zeros, as
// Splash's image source does. With `greys` (a table of the RGB of each grey level), a grey
// image's rows come as RGB, as Splash converts a grey image through such a table before it
// scales it. Closes the stream when it goes.
class SourceRows {
  public:
    SourceRows(Stream *str, int width, int comps, const std::vector<unsigned char> *greys = nullptr)
        : rows(str, width, greys ? 1 : comps, 8), greys(greys), width(width), blank(size_t(width) * comps, 0) {
        rows.reset();
        if (greys) expanded.resize(size_t(width) * 3);
    }
    ~SourceRows() { rows.close(); }
    const unsigned char *next() {
        const unsigned char *row = ended ? nullptr : rows.getLine();
        if (!row) {
            ended = true;
            return blank.data();
        }
        if (!greys) return row;
        for (int x = 0; x < width; x++) std::copy_n(greys->data() + 3 * size_t(row[x]), 3, expanded.data() + 3 * size_t(x));
        return expanded.data();
    }

  private:
    ImageStream rows;
    const std::vector<unsigned char> *greys;
    int width;
    std::vector<unsigned char> blank, expanded;
    bool ended = false;
};

// Goes through a page as Splash would, with no bitmap: notes each image, and scales those
// `PrescaledImages::takes` into the scratch file.
class ImagePlanner : public OutputDev {
public:
    ImagePlanner(PrescaledImages &images, const CanvasColours *colours) : images(images), colours(colours) {}

    // The largest image (or mask) left for Splash to read itself, in pixels.
    double largestLeft = 0;
    // A tiling pattern's cell is drawn by Splash into a bitmap of its own, with images this
    // pass does not see.
    bool sawPattern = false;
    std::string failure;

    bool upsideDown() override { return true; }
    bool useDrawChar() override { return false; }
    bool interpretType3Chars() override { return false; }
    void initGfxState(GfxState *state) override {
        if (colours) colours->apply(state);
        else OutputDev::initGfxState(state);
    }
    bool useTilingPatternFill() override { return true; }
    bool tilingPatternFill(GfxState *, Gfx *, Catalog *, GfxTilingPattern *, const double *, int, int, int, int, double, double) override {
        sawPattern = true;
        return true;
    }
    // Inside a group Splash draws into a bitmap of the group's own, placed elsewhere.
    bool checkTransparencyGroup(GfxState *, bool) override { return true; }
    void beginTransparencyGroup(GfxState *, const double *, GfxColorSpace *, bool, bool, bool) override { ++groups; }
    void endTransparencyGroup(GfxState *) override { --groups; }

    void drawImage(GfxState *state, Object *ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate,
                   const int *maskColors, bool inlineImg) override {
        if (failure.empty() && groups == 0 && !inlineImg && !maskColors && ref && ref->isRef() && PrescaledImages::takes(colorMap)
            && scale(state, ref->getRef(), str, width, height, colorMap, interpolate)) {
            return;
        }
        leave(width, height);
        OutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
    }
    void drawImageMask(GfxState *state, Object *ref, Stream *str, int width, int height, bool invert, bool interpolate, bool inlineImg) override {
        leave(width, height);
        OutputDev::drawImageMask(state, ref, str, width, height, invert, interpolate, inlineImg);
    }
    void drawMaskedImage(GfxState *, Object *, Stream *, int width, int height, GfxImageColorMap *, bool, Stream *, int maskWidth, int maskHeight, bool,
                         bool) override {
        leave(width, height);
        leave(maskWidth, maskHeight);
    }
    void drawSoftMaskedImage(GfxState *, Object *, Stream *, int width, int height, GfxImageColorMap *, bool, Stream *, int maskWidth, int maskHeight,
                             GfxImageColorMap *, bool) override {
        leave(width, height);
        leave(maskWidth, maskHeight);
    }

private:
    PrescaledImages &images;
    const CanvasColours *colours;
    int groups = 0;

    void leave(int width, int height) { largestLeft = std::max(largestLeft, double(width) * double(height)); }

    // Scales the image into the scratch file when it is large and only scaled (not turned,
    // not mirrored across); false to leave it to Splash.
    bool scale(GfxState *state, Ref ref, Stream *str, int width, int height, GfxImageColorMap *colorMap, bool interpolate) {
        const double *ctm = state->getCTM();
        for (int i = 0; i < 6; i++) {
            if (!std::isfinite(ctm[i])) return false;
        }
        // Splash's image matrix, its first row first.
        double mat[6] = {ctm[0], ctm[1], -ctm[2], -ctm[3], ctm[2] + ctm[4], ctm[3] + ctm[5]};
        if (!(mat[0] > 0 && mat[1] == 0 && mat[2] == 0 && mat[3] != 0)) return false;
        bool flipped = mat[3] < 0;
        int x0 = lowerEdge(mat[4]), x1 = upperEdge(mat[0] + mat[4]);
        int y0 = flipped ? lowerEdge(mat[3] + mat[5]) : lowerEdge(mat[5]);
        int y1 = flipped ? upperEdge(mat[5]) : upperEdge(mat[3] + mat[5]);
        // Splash widens an image narrower than a pixel, differently when flipped: left to it.
        if (x0 == x1 || y0 == y1) return false;
        int scaledWidth = x1 - x0, scaledHeight = y1 - y0;
        // A small image drawn small costs little to read and scale again for each band, unless
        // it has a profile (its own, or in colour-managed output DeviceRGB's and DeviceGray's),
        // which poppler's unoptimised transform converts in every band.
        if (double(width) * double(height) <= smallImagePixels && double(scaledWidth) * double(scaledHeight) <= smallImagePixels
            && colorMap->getColorSpace()->getMode() != csICCBased) {
            return false;
        }
        // Splash's scalers: the box filter down; up, the bilinear one, or from four times up
        // (unless the image asks to be smoothed) the nearest pixel; not the rare one that
        // stretches rows while narrowing them.
        bool down = scaledHeight < height;
        bool upAcross = !down && scaledWidth >= width;
        bool bilinear = upAcross && (interpolate || (scaledWidth / width < 4 && scaledHeight / height < 4));
        if (!down && !upAcross) return false;

        // The same image drawn again at the same place and size: its scaled rows are there.
        PrescaledImages::Placement placement{ref.num, ref.gen, x0, y0, scaledWidth, scaledHeight};
        auto done = images.placed.find(placement);
        if (done != images.placed.end()) {
            PrescaledImage again = images.images[done->second];
            std::copy(ctm, ctm + 6, again.ctm);
            images.images.push_back(again);
            return true;
        }
        PrescaledImage image;
        image.ref = ref;
        std::copy(ctm, ctm + 6, image.ctm);
        image.x0 = x0;
        image.y0 = y0;
        image.width = scaledWidth;
        image.height = scaledHeight;
        image.comps = colorMap->getNumPixelComps();
        image.offset = images.used;
        // Splash converts an ICC-tagged photo's scaled pixels through poppler's Little CMS
        // transform, which poppler makes unoptimised (each pixel through the profile's curves:
        // 6 s for a 12 MP photo on a Letter sheet at 600 dpi). The same conversion (the
        // profile to the display's, sRGB unless set; the same intent; black point
        // compensation), optimised by Little CMS, is made once here on the scaled rows, which
        // are kept as RGB (a grey photo's too).
        image.converted = false;
        transform = {};
        if (colorMap->getColorSpace()->getMode() == csICCBased) {
            auto *icc = static_cast<GfxICCBasedColorSpace *>(colorMap->getColorSpace());
            GfxLCMSProfilePtr display = state->getDisplayProfile();
            transform = images.transform(icc->getProfile(), display ? display : GfxState::sRGBProfile, image.comps, state->getCmsRenderingIntent());
            if (!transform.converts()) return false;
            image.converted = true;
            // A grey image is converted before it is scaled (see SourceRows), an RGB one after.
            if (image.comps == 1) image.comps = 3;
        }
        bool scaled = down ? downscale(str, width, height, image, flipped)
                           : bilinear ? upscale(str, width, height, image, flipped) : enlarge(str, width, height, image, flipped);
        if (!scaled) return false;
        images.used += (long long)scaledWidth * scaledHeight * image.comps;
        images.placed.emplace(placement, images.images.size());
        images.images.push_back(image);
        return true;
    }

    // The image's rows read once and averaged into `image.height` rows of `image.width`
    // pixels with the arithmetic of Splash's downscaler (Splash::scaleImageYdownXdown and
    // scaleImageYdownXup): Bresenham steps in both directions, each box's sum multiplied by
    // 2^23 / its size and shifted back.
    bool downscale(Stream *str, int srcWidth, int srcHeight, const PrescaledImage &image, bool flipped) {
        int comps = image.comps, scaledWidth = image.width, scaledHeight = image.height;
        SourceRows rows(str, srcWidth, comps, greys());
        std::vector<unsigned int> sums(size_t(srcWidth) * comps);
        std::vector<unsigned char> out(size_t(scaledWidth) * comps);
        bool downAcross = scaledWidth < srcWidth;
        BresenhamSteps vertical(srcHeight, scaledHeight);
        for (int y = 0; y < scaledHeight; y++) {
            int yStep = vertical.next();
            std::fill(sums.begin(), sums.end(), 0u);
            for (int i = 0; i < yStep; i++) {
                const unsigned char *row = rows.next();
                for (size_t j = 0; j < sums.size(); j++) sums[j] += row[j];
            }
            unsigned char *q = out.data();
            if (downAcross) {
                BresenhamSteps horizontal(srcWidth, scaledWidth);
                unsigned int d0 = (1u << 23) / unsigned(yStep * horizontal.p), d1 = (1u << 23) / unsigned(yStep * (horizontal.p + 1));
                size_t xx = 0;
                for (int x = 0; x < scaledWidth; x++) {
                    int xStep = horizontal.next();
                    unsigned int d = xStep == horizontal.p ? d0 : d1;
                    for (int c = 0; c < comps; c++) {
                        unsigned int sum = 0;
                        for (int i = 0; i < xStep; i++) sum += sums[xx + size_t(i) * comps + c];
                        *q++ = (unsigned char)((sum * d) >> 23);
                    }
                    xx += size_t(xStep) * comps;
                }
            } else {
                BresenhamSteps horizontal(scaledWidth, srcWidth);
                unsigned int d = (1u << 23) / unsigned(yStep);
                for (int x = 0; x < srcWidth; x++) {
                    int xStep = horizontal.next();
                    unsigned char pixel[4];
                    for (int c = 0; c < comps; c++) pixel[c] = (unsigned char)((sums[size_t(x) * comps + c] * d) >> 23);
                    for (int i = 0; i < xStep; i++) {
                        for (int c = 0; c < comps; c++) *q++ = pixel[c];
                    }
                }
            }
            if (!writeRow(image, y, flipped, out.data())) return false;
        }
        return true;
    }

    // The image's rows read once and stretched into `image.height` rows of `image.width`
    // pixels with the arithmetic of Splash's bilinear upscaler (Splash::scaleImageYupXupBilinear):
    // each row widened by interpolating between neighbours, each output row between the two
    // source rows around it, in doubles, truncated to bytes.
    bool upscale(Stream *str, int srcWidth, int srcHeight, const PrescaledImage &image, bool flipped) {
        int comps = image.comps, scaledWidth = image.width, scaledHeight = image.height;
        SourceRows rows(str, srcWidth, comps, greys());
        std::vector<unsigned char> source(size_t(srcWidth + 1) * comps);
        std::vector<unsigned char> above(size_t(scaledWidth) * comps), below(size_t(scaledWidth) * comps), out(size_t(scaledWidth) * comps);
        // Where each output pixel falls in a source row, and how far past that pixel: the same
        // for every row (Splash works it out again for each, by the same sums).
        std::vector<size_t> at(static_cast<size_t>(scaledWidth));
        std::vector<double> past(static_cast<size_t>(scaledWidth)), before(static_cast<size_t>(scaledWidth));
        double xStep = double(srcWidth) / scaledWidth, xSource = 0, whole;
        for (int x = 0; x < scaledWidth; x++) {
            double fraction = std::modf(xSource, &whole);
            at[size_t(x)] = size_t(whole) * comps;
            past[size_t(x)] = fraction;
            before[size_t(x)] = 1.0 - fraction;
            xSource += xStep;
        }
        auto next = [&] {
            const unsigned char *row = rows.next();
            std::copy(row, row + size_t(srcWidth) * comps, source.begin());
            // The last pixel once more, for the last steps to interpolate against.
            std::copy(source.begin() + size_t(srcWidth - 1) * comps, source.begin() + size_t(srcWidth) * comps, source.begin() + size_t(srcWidth) * comps);
            unsigned char *q = below.data();
            for (int x = 0; x < scaledWidth; x++) {
                const unsigned char *p = source.data() + at[size_t(x)];
                double a = before[size_t(x)], b = past[size_t(x)];
                for (int c = 0; c < comps; c++) *q++ = (unsigned char)(p[c] * a + p[comps + c] * b);
            }
        };
        next();
        double ySource = 0, yStep = double(srcHeight) / scaledHeight;
        int current = -1;
        for (int y = 0; y < scaledHeight; y++) {
            double fraction = std::modf(ySource, &whole);
            if (int(whole) > current) {
                current++;
                above = below;
                // Past the last source row, the last row stays below to interpolate against.
                if (current < srcHeight - 1) next();
            }
            double keep = 1.0 - fraction;
            for (size_t i = 0; i < out.size(); i++) out[i] = (unsigned char)(unsigned int)(above[i] * keep + below[i] * fraction);
            if (!writeRow(image, y, flipped, out.data())) return false;
            ySource += yStep;
        }
        return true;
    }

    // The image's rows read once and repeated into `image.height` rows of `image.width`
    // pixels with the arithmetic of Splash's nearest-pixel upscaler (Splash::scaleImageYupXup):
    // each source pixel repeated across and down by Bresenham steps.
    bool enlarge(Stream *str, int srcWidth, int srcHeight, const PrescaledImage &image, bool flipped) {
        int comps = image.comps, scaledWidth = image.width, scaledHeight = image.height;
        SourceRows rows(str, srcWidth, comps, greys());
        std::vector<unsigned char> out(size_t(scaledWidth) * comps);
        BresenhamSteps vertical(scaledHeight, srcHeight);
        int y = 0;
        for (int sy = 0; sy < srcHeight; sy++) {
            int yStep = vertical.next();
            const unsigned char *row = rows.next();
            unsigned char *q = out.data();
            BresenhamSteps horizontal(scaledWidth, srcWidth);
            for (int x = 0; x < srcWidth; x++) {
                int xStep = horizontal.next();
                for (int i = 0; i < xStep; i++) {
                    for (int c = 0; c < comps; c++) *q++ = row[size_t(x) * comps + c];
                }
            }
            for (int i = 0; i < yStep && y < scaledHeight; i++, y++) {
                if (!writeRow(image, y, flipped, out.data())) return false;
            }
        }
        return true;
    }

    // Row `y` of the scaled image, which lands as row `y` from the image's top on the page,
    // or from its bottom when flipped (Splash flips a flipped image after scaling it);
    // converted to the display's colours first when the image is.
    bool writeRow(const PrescaledImage &image, int y, bool flipped, const unsigned char *row) {
        size_t bytes = size_t(image.width) * size_t(image.comps);
        if (transform.rgb) {
            converted.resize(bytes);
            transform.apply(row, converted.data(), image.width);
            row = converted.data();
        }
        int at = flipped ? image.height - 1 - y : y;
        return write(image.offset + (long long)at * (long long)bytes, row, bytes);
    }

    // The photo being scaled's conversion to the display's colours, when it has a profile
    // (`PrescaledImages::transform`'s).
    PrescaledImages::Conversion transform;
    std::vector<unsigned char> converted;

    // The grey levels' RGB when the image being scaled is grey with a profile, else null.
    const std::vector<unsigned char> *greys() const { return transform.greys.empty() ? nullptr : &transform.greys; }

    bool write(long long offset, const unsigned char *bytes, size_t count) {
        while (count > 0) {
            ssize_t n = pwrite(images.scratch, bytes, count, off_t(offset));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                failure = strerror(n < 0 ? errno : ENOSPC);
                return false;
            }
            bytes += n;
            offset += n;
            count -= size_t(n);
        }
        return true;
    }
};

bool PrescaledImages::takes(GfxImageColorMap *colorMap) {
    if (!colorMap || colorMap->getBits() != 8) return false;
    int comps = colorMap->getNumPixelComps();
    for (int c = 0; c < comps; c++) {
        if (colorMap->getDecodeLow(c) != 0 || colorMap->getDecodeHigh(c) != 1) return false;
    }
    GfxColorSpace *space = colorMap->getColorSpace();
    switch (space->getMode()) {
    // Their samples are the pixels' bytes (grey through a table of each byte to itself).
    case csDeviceRGB:
    case csDeviceGray:
        return true;
    // An RGB or grey profile: Splash scales the samples and converts the scaled image.
    case csICCBased: {
        auto *icc = static_cast<GfxICCBasedColorSpace *>(space);
        GfxColorSpace *alt = icc->getAlt();
        return alt && ((comps == 3 && alt->getMode() == csDeviceRGB) || (comps == 1 && alt->getMode() == csDeviceGray));
    }
    default:
        return false;
    }
}

int PrescaledImages::plan(PDFDoc *doc, const CanvasColours *colours, int page, double dpiX, double dpiY, int width, int height, std::string &error) {
    images.clear();
    placed.clear();
    used = 0;
    // The last page's scaled images are no longer needed.
    if (ftruncate(scratch, 0) != 0) {
        error = strerror(errno);
        return -1;
    }
    // In the device's colours: a DeviceRGB image is ICC-based when DeviceRGB has a profile, and
    // an image converted here is converted to the device's canvas.
    ImagePlanner planner(*this, colours);
    doc->displayPageSlice(&planner, page, dpiX, dpiY, 0, false, true, true, 0, 0, width, height);
    if (!planner.failure.empty()) {
        error = planner.failure;
        images.clear();
        placed.clear();
        return -1;
    }
    return (!planner.sawPattern && planner.largestLeft <= smallImagePixels ? smallBands : 0) | (images.empty() ? 0 : scaledSome);
}

PrescaledImages::Conversion PrescaledImages::transform(const GfxLCMSProfilePtr &source, const GfxLCMSProfilePtr &display, int comps, int intent) {
    if (!source || !display) return {};
    for (const Conversion &known : conversions) {
        if (known.source == source && known.display == display && known.comps == comps && known.intent == intent) return known;
    }
    Conversion made{source, display, comps, intent, nullptr, {}};
    if (comps == 1) {
        // Grey has 256 values: each converted once, as poppler converts them (unoptimised,
        // which an optimised transform can miss by a few levels in the shadows).
        cmsHTRANSFORM exact = cmsCreateTransform(source.get(), TYPE_GRAY_8, display.get(), TYPE_RGB_8, cmsUInt32Number(intent),
                                                 cmsFLAGS_NOOPTIMIZE | cmsFLAGS_BLACKPOINTCOMPENSATION);
        if (!exact) return {};
        unsigned char levels[256];
        for (int v = 0; v < 256; v++) levels[v] = (unsigned char)v;
        made.greys.resize(3 * 256);
        cmsDoTransform(exact, levels, made.greys.data(), 256);
        cmsDeleteTransform(exact);
    } else {
        cmsHTRANSFORM optimised = cmsCreateTransform(source.get(), TYPE_RGB_8, display.get(), TYPE_RGB_8, cmsUInt32Number(intent),
                                                     cmsFLAGS_BLACKPOINTCOMPENSATION);
        if (!optimised) return {};
        made.rgb = std::shared_ptr<void>(optimised, cmsDeleteTransform);
    }
    conversions.push_back(made);
    return made;
}

void PrescaledImages::Conversion::apply(const unsigned char *row, unsigned char *out, int pixels) const {
    cmsDoTransform(rgb.get(), row, out, cmsUInt32Number(pixels));
}

const PrescaledImage *PrescaledImages::find(const Object *ref, const double *ctm, int top) const {
    if (!ref || !ref->isRef() || images.empty()) return nullptr;
    Ref wanted = ref->getRef();
    size_t count = images.size();
    for (size_t k = 0; k < count; k++) {
        size_t i = (nextFound + k) % count;
        const PrescaledImage &image = images[i];
        if (!(image.ref == wanted)) continue;
        bool same = true;
        // A band's transformation is the page's moved up by the band's top; the same up to
        // rounding.
        for (int j = 0; j < 4; j++) same = same && std::fabs(ctm[j] - image.ctm[j]) <= 1e-6 * std::max(1.0, std::fabs(image.ctm[j]));
        same = same && std::fabs(ctm[4] - image.ctm[4]) <= 1e-3 && std::fabs(ctm[5] + top - image.ctm[5]) <= 1e-3;
        if (same) {
            nextFound = i + 1;
            return &image;
        }
    }
    return nullptr;
}

bool PrescaledImages::read(long long offset, unsigned char *into, size_t count, std::string &error) const {
    while (count > 0) {
        ssize_t n = pread(scratch, into, count, off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            error = std::string("cannot read a scaled image back from the temporary file: ") + (n < 0 ? strerror(errno) : "it is shorter than written");
            return false;
        }
        into += n;
        offset += n;
        count -= size_t(n);
    }
    return true;
}

// A page's large photos, each scaled once to the size it is drawn at and kept in a scratch
// file, so that a page can be drawn in small bands without reading any photo again.
//
// Splash (poppler's rasteriser) draws an image by scaling all of it into a bitmap of the size
// it covers on the page (a 24 MP photo across a Letter sheet at 300 dpi: 17 MB), then copying
// the part inside the band. A page drawn in small bands would read and scale every image once
// a band. So before the bands, `PrescaledImages::plan` goes through the page once, and each
// image it can take is read and scaled there, row by row, by the same box filter and arithmetic
// as Splash's own downscaler, into the scratch file. Each band then hands Splash only its rows
// of the scaled image, at one image pixel to one device pixel, through Splash's own drawing
// (clip, blending and colour conversion unchanged). The pixels are those Splash draws in one
// band: the colour is converted after scaling only where Splash itself converts after
// scaling or where the conversion is the identity (see `takes`).
#pragma once
#include <GfxState.h>
#include <Object.h>
#include <Stream.h>
#include <algorithm>
#include <map>
#include <tuple>
#include <memory>
#include <string>
#include <vector>

class CanvasColours;
class PDFDoc;

struct PrescaledImage {
    // The image XObject, and the transformation it was drawn with on the whole page.
    Ref ref;
    double ctm[6];
    // Where it lands on the page, in device pixels, as Splash rounds it.
    int x0, y0, width, height;
    // Samples a pixel (1 or 3), one byte each, as the image's own colour space has them, or,
    // when `converted`, 3: RGB already in the device's colours (an ICC-tagged photo, grey or
    // RGB: see `ImagePlanner`).
    int comps;
    bool converted;
    // Its first row (the top one on the page) in the scratch file; rows follow top to bottom.
    long long offset;
};

class PrescaledImages {
public:
    // The scratch file is `scratch`, an open descriptor that stays the caller's.
    explicit PrescaledImages(int scratch) : scratch(scratch) {}

    // Goes through page `page` (from 1) of `doc` as a band of `width` × `height` at `dpiX` ×
    // `dpiY` would, in `colours` (null: sRGB, unmanaged), scaling the images it takes. Returns `smallBands` when every image it could not take is
    // small enough to be read again for each band, plus `scaledSome` when it took any; -1 with
    // `error` set to why the scratch file cannot be written (strerror's words).
    int plan(PDFDoc *doc, const CanvasColours *colours, int page, double dpiX, double dpiY, int width, int height, std::string &error);
    static constexpr int smallBands = 1, scaledSome = 2;

    // The image planned for an XObject drawn with `ctm` in a band whose top is row `top` of
    // the page, or null. A band draws the page's images in the order they were planned, so
    // the search starts after the last one found: a page that draws one small picture twenty
    // thousand times finds each at once, not after all those before it.
    const PrescaledImage *find(const Object *ref, const double *ctm, int top) const;
    // Before each band: its draws start from the page's first image again.
    void startBand() const { nextFound = 0; }

    // Draws the rows of `image` that fall in the band [top, top + rows) through `draw`, a
    // piece at a time: `draw(stream, width, height, ctm)`, with the piece's samples and the
    // band's transformation for them (one sample to one device pixel); samples of a
    // `converted` image are in the device's colours. False with `error` set when the scratch file cannot be read.
    template <typename Draw>
    bool drawRows(const PrescaledImage &image, int top, int rows, Draw draw, std::string &error) const;

    // Whether Splash's own drawing of an image of this colour map scales the very samples that
    // are in the stream, so that scaling them here first gives the same pixels.
    static bool takes(GfxImageColorMap *colorMap);

private:
    friend class ImagePlanner;
    int scratch;
    std::vector<PrescaledImage> images;
    long long used = 0;
    // Where `find` looks first.
    mutable size_t nextFound = 0;
    // Each image scaled on this page, by the XObject and where and how large it lands: a
    // second draw of the same takes the same rows.
    using Placement = std::tuple<int, int, int, int, int, int>;
    std::map<Placement, size_t> placed;

public:
    // An ICC-based image's samples converted to RGB in the display's colours, as poppler
    // converts them (`intent`, black point compensation): an RGB photo's scaled rows by Little
    // CMS's optimised transform; a grey one's rows, before scaling as Splash does, by a table
    // of its 256 levels.
    struct Conversion {
        // Held, so that another profile cannot take the address while the conversion is kept.
        GfxLCMSProfilePtr source, display;
        int comps = 0, intent = 0;
        std::shared_ptr<void> rgb;
        std::vector<unsigned char> greys;

        bool converts() const { return rgb || !greys.empty(); }
        // `pixels` RGB pixels from `row` into `out` (the RGB photo's transform).
        void apply(const unsigned char *row, unsigned char *out, int pixels) const;
    };

private:
    // The conversion from `source` (a grey profile when `comps` is 1, else RGB) to `display`;
    // made once for all the document's images of that kind (a page of a thousand small images
    // makes one). One that converts nothing when Little CMS cannot make it.
    Conversion transform(const GfxLCMSProfilePtr &source, const GfxLCMSProfilePtr &display, int comps, int intent);
    std::vector<Conversion> conversions;

    bool read(long long offset, unsigned char *into, size_t count, std::string &error) const;
};

// Rows of a piece, at most: 64 rows of a Letter sheet's width at 300 dpi are 0.5 MB of samples
// and, as Splash copies them, 0.65 MB of pixels.
constexpr int prescaledPieceRows = 64;

template <typename Draw>
bool PrescaledImages::drawRows(const PrescaledImage &image, int top, int rows, Draw draw, std::string &error) const {
    int first = std::max(image.y0, top), end = std::min(image.y0 + image.height, top + rows);
    size_t rowBytes = size_t(image.width) * size_t(image.comps);
    std::vector<unsigned char> samples;
    for (int y = first; y < end; y += prescaledPieceRows) {
        int count = std::min(prescaledPieceRows, end - y);
        samples.resize(rowBytes * size_t(count));
        if (!read(image.offset + (long long)(y - image.y0) * (long long)rowBytes, samples.data(), samples.size(), error)) return false;
        // Splash's rounding (the lower edge down, the upper edge down plus one) lands these
        // values on exactly columns x0 ..< x0 + width and rows y - top ..< y - top + count.
        double ctm[6] = {image.width - 0.5, 0, 0, -(count - 0.5), image.x0 + 0.25, double(y - top) + 0.25 + (count - 0.5)};
        MemStream stream(reinterpret_cast<const char *>(samples.data()), 0, Goffset(samples.size()), Object(objNull));
        draw(&stream, image.width, count, ctm);
    }
    return true;
}

// The colours raster pages are drawn in when output is colour-managed (Adobe RGB, CMYK): the
// canvas's RGB profile, with every colour converted to it by Little CMS, and the device colour
// spaces, which carry no profile, taken as the colours they have on a screen and in raster
// output drawn in sRGB: DeviceRGB as sRGB, DeviceGray as grey of sRGB's curve, and DeviceCMYK
// as poppler's own formula makes it sRGB (a profile sampled from that formula), so that a page
// prints in the same colours whichever raster type the printer takes.
//
// poppler's own way (OutputDev's default profiles) builds the default colour spaces' Little CMS
// transforms again for every GfxState it makes: for each band of each page, and for each pass
// that plans a page, some milliseconds each. Here they are built once, when the document is
// opened, and each GfxState gets copies, which share the transforms. (Setting the display
// profile still makes GfxState's four XYZ-to-display transforms, for CalRGB, CalGray and Lab,
// each time: GfxState offers no way to share them.)
//
// The stand-ins are built in relative colorimetric; a page's `ri` does not change them. For
// sRGB and grey into Adobe RGB (matrix profiles) every intent gives the same colours, and the
// CMYK stand-in holds one table, which Little CMS uses for every intent.
//
// A PDF with one output intent would have poppler take its profile as the display's
// (Gfx::initDisplayProfile, after initGfxState). The PDFs drawn here are the jobs' own, which
// the assembler writes without the input's output intents.
#pragma once
#include <GfxState.h>
#include <memory>
#include <string>

class CanvasColours {
public:
    // The canvas's profile from `bytes`, an RGB ICC profile; null with `failure` set when it is
    // not one.
    static std::unique_ptr<CanvasColours> make(const void *bytes, size_t length, std::string &failure);

    // What OutputDev::initGfxState does with default profiles, with the colour spaces built once.
    void apply(GfxState *state) const;

private:
    GfxLCMSProfilePtr display;
    std::unique_ptr<GfxColorSpace> rgb, gray, cmyk;
};

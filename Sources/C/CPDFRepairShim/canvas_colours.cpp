// See canvas_colours.h.
#include "canvas_colours.h"
#include <Page.h>
#include <lcms2.h>

namespace {

// sRGB's tone curve (IEC 61966-2-1), as Little CMS's parametric curve of type 4.
cmsToneCurve *srgbCurve() {
    const cmsFloat64Number p[] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(nullptr, 4, p);
}

// An ICC-based colour space standing for `device` (DeviceRGB or DeviceGray), of `profile`,
// with its transforms to the display profile of `state` built.
GfxColorSpace *standIn(GfxColorSpace *device, int components, cmsHPROFILE profile, GfxState &state) {
    auto none = Ref::INVALID();
    auto *space = new GfxICCBasedColorSpace(components, device, &none);
    auto made = make_GfxLCMSProfilePtr(profile);
    space->setProfile(made);
    space->buildTransforms(&state);
    return space;
}

// A CMYK profile whose colours are those poppler's formula for DeviceCMYK gives in sRGB:
// the formula sampled on a grid of 17 steps an ink (Little CMS interpolates between them) into
// L*a*b*, as a version 4 profile's CMYK-to-L*a*b* table.
cmsHPROFILE formulaCMYK() {
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(nullptr);
    cmsHTRANSFORM toLab = cmsCreateTransform(srgb, TYPE_RGB_DBL, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsCloseProfile(srgb);
    cmsCloseProfile(lab);
    if (!toLab) return nullptr;
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(nullptr);
    cmsSetProfileVersion(profile, 4.3);
    cmsSetDeviceClass(profile, cmsSigColorSpaceClass);
    cmsSetColorSpace(profile, cmsSigCmykData);
    cmsSetPCS(profile, cmsSigLabData);
    cmsPipeline *table = cmsPipelineAlloc(nullptr, 4, 3);
    cmsStage *grid = cmsStageAllocCLut16bit(nullptr, 17, 4, 3, nullptr);
    bool made = table && grid && cmsStageSampleCLut16bit(grid, [](const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) -> cmsInt32Number {
        GfxDeviceCMYKColorSpace formula;
        GfxColor colour;
        for (int i = 0; i < 4; i++) colour.c[i] = dblToCol(in[i] / 65535.0);
        GfxRGB rgb;
        formula.getRGB(&colour, &rgb);
        double srgb[3] = {colToDbl(rgb.r), colToDbl(rgb.g), colToDbl(rgb.b)};
        cmsCIELab lab;
        cmsDoTransform(cargo, srgb, &lab, 1);
        cmsFloat2LabEncoded(out, &lab);
        return 1;
    }, toLab, 0) && cmsPipelineInsertStage(table, cmsAT_END, grid);
    if (!made && grid) cmsStageFree(grid);
    made = made && cmsWriteTag(profile, cmsSigAToB0Tag, table) && cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    if (table) cmsPipelineFree(table);
    cmsDeleteTransform(toLab);
    if (!made) {
        cmsCloseProfile(profile);
        return nullptr;
    }
    return profile;
}

} // namespace

std::unique_ptr<CanvasColours> CanvasColours::make(const void *bytes, size_t length, std::string &failure) {
    cmsHPROFILE canvas = cmsOpenProfileFromMem(bytes, cmsUInt32Number(length));
    if (!canvas || cmsGetColorSpace(canvas) != cmsSigRgbData) {
        if (canvas) cmsCloseProfile(canvas);
        failure = "the canvas's colour profile is not an RGB ICC profile";
        return nullptr;
    }
    auto colours = std::make_unique<CanvasColours>();
    colours->display = make_GfxLCMSProfilePtr(canvas);
    // A state to build the transforms with: only its display profile and (default) rendering
    // intent are read.
    PDFRectangle box(0, 0, 1, 1);
    GfxState state(72, 72, &box, 0, true);
    state.setDisplayProfile(colours->display);
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsToneCurve *curve = srgbCurve();
    cmsHPROFILE grey = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : nullptr;
    if (curve) cmsFreeToneCurve(curve);
    cmsHPROFILE cmyk = formulaCMYK();
    if (!srgb || !grey || !cmyk) {
        for (cmsHPROFILE made : {srgb, grey, cmyk}) {
            if (made) cmsCloseProfile(made);
        }
        failure = "Little CMS cannot make the profiles DeviceRGB, DeviceGray and DeviceCMYK are drawn with";
        return nullptr;
    }
    colours->rgb.reset(standIn(new GfxDeviceRGBColorSpace(), 3, srgb, state));
    colours->gray.reset(standIn(new GfxDeviceGrayColorSpace(), 1, grey, state));
    colours->cmyk.reset(standIn(new GfxDeviceCMYKColorSpace(), 4, cmyk, state));
    return colours;
}

void CanvasColours::apply(GfxState *state) const {
    state->setDisplayProfile(display);
    state->setDefaultRGBColorSpace(rgb->copy());
    state->setDefaultGrayColorSpace(gray->copy());
    state->setDefaultCMYKColorSpace(cmyk->copy());
}

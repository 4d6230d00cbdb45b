// CJxlShim: JPEG XL through libjxl, loaded only when a JPEG XL image is printed.
//
// Why it exists: libjxl is 3.5 MB with its own thread pool, and few jobs are JPEG XL; it is
// opened with dlopen on first use (in swiftprint-image, never in the job's process). Its decoder
// is driven by events and buffers it asks for: that loop is C, here, behind three calls — open
// (to the colour encoding), next frame, close — so Swift owns one object and sees whole frames.
#ifndef CJXLSHIM_H
#define CJXLSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Loads libjxl and libjxl_threads once; 0 on success, else -1 with a message in `error`.
int sp_jxl_load(char *error, size_t errorSize);

/// What a JPEG XL file says of itself before its pixels.
typedef struct {
    /// The size upright (libjxl turns frames as the file's orientation says).
    uint32_t width, height;
    /// 1 (grey) or 3 (RGB); `alpha` says whether a fourth sample follows.
    uint32_t color_channels;
    int alpha;
    /// Bits a sample as stored (8, 10, 12, 16, or 32 for floats).
    uint32_t bits_per_sample;
    int animated;
    /// The colour the decoded samples are in, when the file gives it as numbers rather than an
    /// ICC profile: `transfer` is libjxl's JxlTransferFunction (13 sRGB, 1 BT.709, 8 linear, 16
    /// PQ, 18 HLG, 65535 a power of `gamma`); white and primaries are CIE xy.
    int has_encoding;
    int transfer;
    double gamma;
    double white[2];
    double primaries[6];
} sp_jxl_info;

typedef struct sp_jxl_decoder sp_jxl_decoder;

/// Reads `size` bytes at `data` (which must outlive the decoder) up to the colour encoding,
/// fills `info`, and chooses the samples' colour: the file's own encoding when it has one, else
/// (a lossy image with an ICC profile) sRGB's curve over BT.2020's primaries, wide enough for any
/// photo. NULL with a message in `error` when the file is not a valid JPEG XL image.
sp_jxl_decoder *sp_jxl_open(const uint8_t *data, size_t size, sp_jxl_info *info, char *error, size_t errorSize);

/// Decodes the next frame (of an animation, the next shown one, composed): interleaved samples,
/// `info`'s channels plus alpha, 8 bits, or 16 bits big-endian when the file has more than 8 or
/// its transfer is PQ or HLG; rows top to bottom. `*pixels` and `*icc` (the ICC profile of the
/// samples' colour, or NULL) are malloc'd, for the caller to free. 1 for a frame, 0 when there
/// are no more, -1 with a message in `error`.
int sp_jxl_next_frame(sp_jxl_decoder *decoder, uint8_t **pixels, size_t *size, int *bits, uint8_t **icc, size_t *iccSize,
                      char *error, size_t errorSize);

void sp_jxl_close(sp_jxl_decoder *decoder);

#endif

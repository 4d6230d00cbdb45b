// CAvifShim: AVIF images, still and animated, through libavif, loaded only for them.
//
// Why it exists: libheif (which reads HEIC) reads no AVIF sequences in Debian 12's 1.15 (the
// frames are a track, not items), and decoding a still AVIF it holds twice the memory libavif
// does. libavif is opened with dlopen in swiftprint-image for AVIF files only, never in the
// job's process. Its decoder hands out YUV planes that live until the next frame: the conversion
// to RGB (into one buffer the caller then owns), 16-bit samples made big-endian, grey made one
// sample, and the turning as irot/imir say are done here, in C, so Swift owns one object and
// sees whole upright frames.
#ifndef CAVIFSHIM_H
#define CAVIFSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Loads libavif once; 0 on success, else -1 with a message in `error`.
int sp_avif_load(char *error, size_t errorSize);

/// What an AVIF sequence says of itself before its pixels.
typedef struct {
    /// The size upright (after a quarter turn, width and height are the turned image's).
    uint32_t width, height;
    /// 1 (grey: 4:0:0) or 3 (RGB); `alpha` says whether a fourth sample follows.
    uint32_t color_channels;
    int alpha;
    /// Bits a sample as coded (8, 10 or 12).
    uint32_t depth;
    /// Frames in the sequence.
    int frames;
    /// Its colour as H.273 numbers (used when it has no ICC profile): primaries as CIE xy (red,
    /// green, blue) and the white point, from libavif's table for its code; the transfer code.
    int transfer;
    double primaries[6];
    double white[2];
} sp_avif_info;

typedef struct sp_avif_decoder sp_avif_decoder;

/// Reads `size` bytes at `data` (which must outlive the decoder) as an AVIF sequence's track
/// (`sequence`), or as its still (primary) image, refusing more than `maxPixels` a frame or
/// `maxFrames` frames, and fills `info`. NULL with a message in `error` when it is not a valid
/// AVIF file.
sp_avif_decoder *sp_avif_open(const uint8_t *data, size_t size, int sequence, uint32_t maxPixels, uint32_t maxFrames,
                              sp_avif_info *info, char *error, size_t errorSize);

/// Decodes the next frame: interleaved samples, `info`'s channels plus alpha, 8 bits, or 16 bits
/// big-endian when the depth is more than 8 or the transfer is PQ or HLG; rows top to bottom,
/// upright. `*pixels` and `*icc`
/// (the ICC profile the file carries, or NULL) are malloc'd, for the caller to free. 1 for a
/// frame, 0 when there are no more, -1 with a message in `error`.
int sp_avif_next_frame(sp_avif_decoder *decoder, uint8_t **pixels, size_t *size, int *bits, uint8_t **icc, size_t *iccSize,
                       char *error, size_t errorSize);

void sp_avif_close(sp_avif_decoder *decoder);

#endif

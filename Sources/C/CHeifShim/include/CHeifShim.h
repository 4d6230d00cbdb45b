// CHeifShim: libheif, loaded only when a HEIF image is printed.
//
// Why it exists: linking libheif loads libde265, whose start-up code costs every swiftprint run
// about 10 ms (half the time of printing a one-line text file) although few jobs are HEIF.
// These functions open libheif with dlopen on first use and forward to it; the names are
// libheif's with an sp_ prefix. sp_heif_load says whether the library could be loaded.
#ifndef CHEIFSHIM_H
#define CHEIFSHIM_H

#include <libheif/heif.h>
#include <stddef.h>

/// Loads libheif once; 0 on success, else -1 with a message in `error`.
int sp_heif_load(char *error, size_t errorSize);

struct heif_context *sp_heif_context_alloc(void);
void sp_heif_context_free(struct heif_context *);
struct heif_error sp_heif_context_read_from_file(struct heif_context *, const char *, const struct heif_reading_options *);
struct heif_error sp_heif_context_get_primary_image_handle(struct heif_context *, struct heif_image_handle **);
void sp_heif_image_handle_release(const struct heif_image_handle *);
int sp_heif_image_handle_get_width(const struct heif_image_handle *);
int sp_heif_image_handle_get_height(const struct heif_image_handle *);
size_t sp_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *);
struct heif_error sp_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *, void *);
struct heif_error sp_heif_decode_image(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                       enum heif_chroma, const struct heif_decoding_options *);
void sp_heif_image_release(const struct heif_image *);
int sp_heif_image_get_width(const struct heif_image *, enum heif_channel);
int sp_heif_image_get_height(const struct heif_image *, enum heif_channel);
const uint8_t *sp_heif_image_get_plane_readonly(const struct heif_image *, enum heif_channel, int *);
int sp_heif_image_handle_has_alpha_channel(const struct heif_image_handle *);
int sp_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *);
struct heif_error sp_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle *, struct heif_color_profile_nclx **);
void sp_heif_nclx_color_profile_free(struct heif_color_profile_nclx *);

#endif

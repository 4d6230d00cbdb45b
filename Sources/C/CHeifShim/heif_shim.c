// See include/CHeifShim.h for why this exists.
#include "CHeifShim.h"

#include "CLibraryLoader.h"
#include <pthread.h>
#include <stdio.h>

static int loaded = -1;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define SP_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_file) \
    X(heif_context_get_primary_image_handle) X(heif_image_handle_release) \
    X(heif_image_handle_get_width) X(heif_image_handle_get_height) \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile) \
    X(heif_decode_image) X(heif_image_release) X(heif_image_get_width) X(heif_image_get_height) \
    X(heif_image_get_plane_readonly) X(heif_image_handle_has_alpha_channel) X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_nclx_color_profile) X(heif_nclx_color_profile_free)

#define SP_HEIF_POINTER(name) static __typeof__(&name) p_##name;
SP_HEIF_FUNCTIONS(SP_HEIF_POINTER)

static void load(void) {
#define SP_HEIF_SYMBOL(name) {#name, (void **)&p_##name},
    static const sp_symbol symbols[] = {SP_HEIF_FUNCTIONS(SP_HEIF_SYMBOL)};
    loaded = sp_load_library("libheif.so.1", "libheif1", NULL, symbols, sizeof symbols / sizeof symbols[0], failure, sizeof failure);
}

int sp_heif_load(char *error, size_t errorSize) {
    pthread_once(&once, load);
    if (loaded == 0) return 0;
    if (error && errorSize) snprintf(error, errorSize, "%s", failure);
    return -1;
}

struct heif_context *sp_heif_context_alloc(void) { return p_heif_context_alloc(); }
void sp_heif_context_free(struct heif_context *c) { p_heif_context_free(c); }
struct heif_error sp_heif_context_read_from_file(struct heif_context *c, const char *p, const struct heif_reading_options *o) {
    return p_heif_context_read_from_file(c, p, o);
}
struct heif_error sp_heif_context_get_primary_image_handle(struct heif_context *c, struct heif_image_handle **h) {
    return p_heif_context_get_primary_image_handle(c, h);
}
void sp_heif_image_handle_release(const struct heif_image_handle *h) { p_heif_image_handle_release(h); }
int sp_heif_image_handle_get_width(const struct heif_image_handle *h) { return p_heif_image_handle_get_width(h); }
int sp_heif_image_handle_get_height(const struct heif_image_handle *h) { return p_heif_image_handle_get_height(h); }
size_t sp_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *h) {
    return p_heif_image_handle_get_raw_color_profile_size(h);
}
struct heif_error sp_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *h, void *out) {
    return p_heif_image_handle_get_raw_color_profile(h, out);
}
struct heif_error sp_heif_decode_image(const struct heif_image_handle *h, struct heif_image **i, enum heif_colorspace s,
                                       enum heif_chroma c, const struct heif_decoding_options *o) {
    return p_heif_decode_image(h, i, s, c, o);
}
void sp_heif_image_release(const struct heif_image *i) { p_heif_image_release(i); }
int sp_heif_image_get_width(const struct heif_image *i, enum heif_channel c) { return p_heif_image_get_width(i, c); }
int sp_heif_image_get_height(const struct heif_image *i, enum heif_channel c) { return p_heif_image_get_height(i, c); }
const uint8_t *sp_heif_image_get_plane_readonly(const struct heif_image *i, enum heif_channel c, int *stride) {
    return p_heif_image_get_plane_readonly(i, c, stride);
}
int sp_heif_image_handle_has_alpha_channel(const struct heif_image_handle *h) { return p_heif_image_handle_has_alpha_channel(h); }
int sp_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *h) {
    return p_heif_image_handle_get_luma_bits_per_pixel(h);
}
struct heif_error sp_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle *h, struct heif_color_profile_nclx **out) {
    return p_heif_image_handle_get_nclx_color_profile(h, out);
}
void sp_heif_nclx_color_profile_free(struct heif_color_profile_nclx *p) { p_heif_nclx_color_profile_free(p); }

#include "CFontSubset.h"

#include <cairo-ft.h>
#include "CLibraryLoader.h"
#include <fontconfig/fontconfig.h>
#include <hb-subset.h>
#include <pango/pangofc-font.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

// ---- libharfbuzz-subset, opened on first use ----------------------------------------------

static struct {
    hb_subset_input_t *(*input_create)(void);
    hb_set_t *(*input_unicode_set)(hb_subset_input_t *);
    hb_set_t *(*input_set)(hb_subset_input_t *, hb_subset_sets_t);
    void (*input_set_flags)(hb_subset_input_t *, unsigned);
    void (*input_destroy)(hb_subset_input_t *);
    hb_subset_plan_t *(*plan_create)(hb_face_t *, const hb_subset_input_t *);
    hb_face_t *(*plan_execute)(hb_subset_plan_t *);
    const hb_map_t *(*plan_old_to_new)(const hb_subset_plan_t *);
    void (*plan_destroy)(hb_subset_plan_t *);
    char const *error;
} hbs;
static pthread_once_t hbs_once = PTHREAD_ONCE_INIT;

static void hbs_load(void) {
    static char failure[256];
    const sp_symbol symbols[] = {
        {"hb_subset_input_create_or_fail", (void **)&hbs.input_create},
        {"hb_subset_input_unicode_set", (void **)&hbs.input_unicode_set},
        {"hb_subset_input_set", (void **)&hbs.input_set},
        {"hb_subset_input_set_flags", (void **)&hbs.input_set_flags},
        {"hb_subset_input_destroy", (void **)&hbs.input_destroy},
        {"hb_subset_plan_create_or_fail", (void **)&hbs.plan_create},
        {"hb_subset_plan_execute_or_fail", (void **)&hbs.plan_execute},
        {"hb_subset_plan_old_to_new_glyph_mapping", (void **)&hbs.plan_old_to_new},
        {"hb_subset_plan_destroy", (void **)&hbs.plan_destroy},
    };
    if (sp_load_library("libharfbuzz-subset.so.0", "libharfbuzz-subset0", "HarfBuzz 4.0 or later", symbols,
                        sizeof symbols / sizeof symbols[0], failure, sizeof failure) != 0)
        hbs.error = failure;
}

// ---- FreeType: one library for the cuts, used under a lock ----------------------------------

static FT_Library ft_library;
static FT_Error ft_init_error;
static pthread_once_t ft_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ft_lock = PTHREAD_MUTEX_INITIALIZER;
static void ft_init(void) { ft_init_error = FT_Init_FreeType(&ft_library); }

/// What a cut's cairo font face owns: freed when cairo lets go of the face, which can be after
/// the SPFontSubset is gone (a PDF surface keeps the fonts it drew with until it is finished).
typedef struct {
    FT_Face face;
    hb_blob_t *bytes;
} CutOwner;

static cairo_user_data_key_t const cut_owner_key;

static void cut_owner_free(void *data) {
    CutOwner *owner = data;
    pthread_mutex_lock(&ft_lock);
    FT_Done_Face(owner->face);
    pthread_mutex_unlock(&ft_lock);
    hb_blob_destroy(owner->bytes);
    free(owner);
}

// ---- The cut ---------------------------------------------------------------------------------

typedef struct {
    PangoFont *font;              // a reference: the pointer stays this font's
    cairo_scaled_font_t *scaled;  // the cut at that font's size
} SizedCut;

struct SPFontSubset {
    cairo_font_face_t *face;
    hb_map_t *glyphs;             // the font's glyph numbers the cut has, to theirs in the cut
    SizedCut *sizes;
    size_t size_count;
};

static hb_face_t *hb_face_of(PangoFont *font) {
    hb_font_t *hb = pango_font_get_hb_font(font);
    return hb ? hb_font_get_face(hb) : NULL;
}

size_t SPFontCFFTableLength(PangoFont *font) {
    hb_face_t *face = font ? hb_face_of(font) : NULL;
    if (!face) return 0;
    hb_blob_t *table = hb_face_reference_table(face, HB_TAG('C', 'F', 'F', ' '));
    size_t length = hb_blob_get_length(table);
    hb_blob_destroy(table);
    return length;
}

/// Whether cairo draws the font as its file describes: a cut cannot carry the synthetic bold or
/// slant fontconfig may ask cairo to add.
static bool drawn_as_is(PangoFont *font) {
    if (!PANGO_IS_FC_FONT(font)) return false;
    FcPattern *pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
    FcBool embolden = FcFalse;
    FcMatrix *matrix = NULL;
    if (FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden) == FcResultMatch && embolden) return false;
    if (FcPatternGetMatrix(pattern, FC_MATRIX, 0, &matrix) == FcResultMatch && matrix &&
        (matrix->xx != 1 || matrix->xy != 0 || matrix->yx != 0 || matrix->yy != 1)) return false;
    return true;
}

// HarfBuzz's cut of `source` to the glyphs of `codepoints`, as font bytes, and the kept glyphs'
// new numbers in `*glyphs`; NULL with `error` set when it cannot be made.
static hb_blob_t *cut_font(hb_face_t *source, const uint32_t *codepoints, size_t count, hb_map_t **glyphs, char *error) {
    hb_subset_input_t *input = hbs.input_create();
    if (!input) { snprintf(error, 256, "out of memory"); return NULL; }
    hb_set_t *unicodes = hbs.input_unicode_set(input);
    for (size_t i = 0; i < count; i++) hb_set_add(unicodes, codepoints[i]);
    // Glyphs are numbered afresh (no retain-gids): kept numbers would make the cut hold an
    // empty entry for each of the font's 65,535 glyphs, megabytes of HarfBuzz's time and memory.
    // The cut is only drawn from, as pango shapes with the whole font: positioning and vertical
    // tables are left out. GSUB stays, because leaving it out also skips its closure, and the cut
    // would then lack the glyphs pango's substitutions (local forms, ligatures) pick.
    hb_set_t *drop = hbs.input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
    static char const *const unused[] = {"GPOS", "BASE", "JSTF", "MATH", "vhea", "vmtx", "VORG", "DSIG", "kern"};
    for (size_t i = 0; i < sizeof unused / sizeof *unused; i++) hb_set_add(drop, hb_tag_from_string(unused[i], 4));
    // Charstrings are flattened: keeping the font's subroutines makes HarfBuzz parse and hold
    // every one of them (Noto Sans CJK has tens of thousands) whatever the cut's size. Flattened,
    // a 38-page CJK job peaks 11 MB lower, and its PDF is a little smaller.
    hbs.input_set_flags(input, HB_SUBSET_FLAGS_DESUBROUTINIZE);
    hb_subset_plan_t *plan = hbs.plan_create(source, input);
    hbs.input_destroy(input);
    if (!plan) { snprintf(error, 256, "HarfBuzz could not plan the cut"); return NULL; }
    hb_face_t *cut = hbs.plan_execute(plan);
    if (!cut) {
        hbs.plan_destroy(plan);
        snprintf(error, 256, "HarfBuzz could not cut the font");
        return NULL;
    }
    // The glyphs kept and their new numbers, read from the plan before it goes.
    *glyphs = hb_map_create();
    const hb_map_t *kept = hbs.plan_old_to_new(plan);
    unsigned total = hb_face_get_glyph_count(source);
    for (unsigned g = 0; g < total; g++)
        if (hb_map_has(kept, g)) hb_map_set(*glyphs, g, hb_map_get(kept, g));
    hbs.plan_destroy(plan);
    hb_blob_t *bytes = hb_face_reference_blob(cut);
    hb_face_destroy(cut);
    return bytes;
}

SPFontSubset *SPFontSubsetCreate(PangoFont *font, const uint32_t *codepoints, size_t count, char *error) {
    hb_face_t *source = font ? hb_face_of(font) : NULL;
    if (!source) { snprintf(error, 256, "the font has no HarfBuzz face"); return NULL; }
    if (!drawn_as_is(font)) { snprintf(error, 256, "the font is drawn with synthetic bold or slant"); return NULL; }
    pthread_once(&hbs_once, hbs_load);
    if (hbs.error) { snprintf(error, 256, "%s", hbs.error); return NULL; }
    pthread_once(&ft_once, ft_init);
    if (ft_init_error) { snprintf(error, 256, "FreeType could not start (error %d)", ft_init_error); return NULL; }

    hb_map_t *glyphs = NULL;
    hb_blob_t *bytes = cut_font(source, codepoints, count, &glyphs, error);
    if (!bytes) return NULL;
    unsigned length = 0;
    const char *data = hb_blob_get_data(bytes, &length);
    FT_Face ft = NULL;
    pthread_mutex_lock(&ft_lock);
    FT_Error status = FT_New_Memory_Face(ft_library, (const FT_Byte *)data, (FT_Long)length, 0, &ft);
    pthread_mutex_unlock(&ft_lock);
    if (status) {
        hb_blob_destroy(bytes);
        hb_map_destroy(glyphs);
        snprintf(error, 256, "FreeType could not open the cut (error %d)", status);
        return NULL;
    }
    CutOwner *owner = malloc(sizeof *owner);
    SPFontSubset *subset = calloc(1, sizeof *subset);
    cairo_font_face_t *face = cairo_ft_font_face_create_for_ft_face(ft, 0);
    if (!owner || !subset || cairo_font_face_status(face) != CAIRO_STATUS_SUCCESS ||
        cairo_font_face_set_user_data(face, &cut_owner_key, owner, cut_owner_free) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(face);
        free(owner);
        free(subset);
        pthread_mutex_lock(&ft_lock);
        FT_Done_Face(ft);
        pthread_mutex_unlock(&ft_lock);
        hb_blob_destroy(bytes);
        hb_map_destroy(glyphs);
        snprintf(error, 256, "cairo could not use the cut");
        return NULL;
    }
    owner->face = ft;
    owner->bytes = bytes;
    subset->face = face;
    subset->glyphs = glyphs;
    return subset;
}

void SPFontSubsetDestroy(SPFontSubset *subset) {
    if (!subset) return;
    for (size_t i = 0; i < subset->size_count; i++) {
        cairo_scaled_font_destroy(subset->sizes[i].scaled);
        g_object_unref(subset->sizes[i].font);
    }
    free(subset->sizes);
    hb_map_destroy(subset->glyphs);
    cairo_font_face_destroy(subset->face);
    free(subset);
}

/// The cut at `font`'s size, made once per font.
///
/// The size comes from the font's pattern, as pango's own cairo font takes it. Asking pango for
/// that cairo font instead would make FreeType open the whole font as well (a megabyte of tables
/// for Noto Sans CJK) only to read its matrix.
static cairo_scaled_font_t *sized_cut(SPFontSubset *subset, PangoFont *font) {
    for (size_t i = 0; i < subset->size_count; i++)
        if (subset->sizes[i].font == font) return subset->sizes[i].scaled;
    double size = 0;
    if (!PANGO_IS_FC_FONT(font) ||
        FcPatternGetDouble(pango_fc_font_get_pattern(PANGO_FC_FONT(font)), FC_PIXEL_SIZE, 0, &size) != FcResultMatch ||
        !(size > 0)) return NULL;
    cairo_matrix_t matrix, ctm;
    cairo_matrix_init_scale(&matrix, size, size);
    cairo_matrix_init_identity(&ctm);
    // As FontSystem sets them: outlines and advances unhinted, as a PDF keeps them.
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_scaled_font_t *scaled = cairo_scaled_font_create(subset->face, &matrix, &ctm, options);
    cairo_font_options_destroy(options);
    SizedCut *grown = realloc(subset->sizes, (subset->size_count + 1) * sizeof *grown);
    if (cairo_scaled_font_status(scaled) != CAIRO_STATUS_SUCCESS || !grown) {
        if (grown) subset->sizes = grown;
        cairo_scaled_font_destroy(scaled);
        return NULL;
    }
    subset->sizes = grown;
    subset->sizes[subset->size_count++] = (SizedCut){g_object_ref(font), scaled};
    return scaled;
}

bool SPFontSubsetShowGlyphItem(SPFontSubset *subset, cairo_t *cr, const char *text,
                               PangoGlyphItem *run, double x, double y) {
    PangoGlyphString *glyphs = run->glyphs;
    int n = glyphs->num_glyphs;
    for (int i = 0; i < n; i++) {
        PangoGlyph g = glyphs->glyphs[i].glyph;
        // Empty and unknown glyphs carry flags pango's renderer acts on: leave those runs to it.
        if (g == PANGO_GLYPH_EMPTY || (g & PANGO_GLYPH_UNKNOWN_FLAG) || !hb_map_has(subset->glyphs, g)) return false;
    }
    if (n == 0) return true;
    cairo_scaled_font_t *scaled = sized_cut(subset, run->item->analysis.font);
    if (!scaled) return false;

    // Glyphs in the run's (visual) order, placed as pango places them.
    cairo_glyph_t *placed = cairo_glyph_allocate(n);
    cairo_text_cluster_t *clusters = cairo_text_cluster_allocate(n);
    if (!placed || !clusters) {
        cairo_glyph_free(placed);
        cairo_text_cluster_free(clusters);
        return false;
    }
    int pen = 0;
    for (int i = 0; i < n; i++) {
        PangoGlyphGeometry *at = &glyphs->glyphs[i].geometry;
        placed[i].index = hb_map_get(subset->glyphs, glyphs->glyphs[i].glyph);
        placed[i].x = x + (double)(pen + at->x_offset) / PANGO_SCALE;
        placed[i].y = y + (double)at->y_offset / PANGO_SCALE;
        pen += at->width;
    }
    // Clusters in the text's (logical) order; a right-to-left run lists them from its last glyph.
    int cluster_count = 0;
    PangoGlyphItemIter iter;
    for (gboolean more = pango_glyph_item_iter_init_start(&iter, run, text); more;
         more = pango_glyph_item_iter_next_cluster(&iter)) {
        if (cluster_count == n) {  // a cluster without glyphs: not a run this draws
                    cairo_glyph_free(placed);
            cairo_text_cluster_free(clusters);
            return false;
        }
        clusters[cluster_count].num_bytes = iter.end_index - iter.start_index;
        clusters[cluster_count].num_glyphs = abs(iter.end_glyph - iter.start_glyph);
        cluster_count++;
    }
    bool backward = (run->item->analysis.level & 1) != 0;
    cairo_save(cr);
    cairo_set_scaled_font(cr, scaled);
    cairo_show_text_glyphs(cr, text + run->item->offset, run->item->length, placed, n, clusters, cluster_count,
                           backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : 0);
    cairo_restore(cr);
    cairo_glyph_free(placed);
    cairo_text_cluster_free(clusters);
    return true;
}

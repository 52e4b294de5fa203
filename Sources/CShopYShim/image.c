#include "CShopYImage.h"
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Loading

#define RESOLVE(handle, name, symbol, library)                                                 \
    do {                                                                                       \
        *(void **)(&name) = dlsym(handle, symbol);                                             \
        if (!name) {                                                                           \
            snprintf(error, error_size, "%s has no %s: it is not %s", path, symbol, library); \
            dlclose(handle);                                                                   \
            return -1;                                                                         \
        }                                                                                      \
    } while (0)

// TurboJPEG (libjpeg-turbo).
typedef struct { int num, denom; } tj_scaling_factor;
static void *(*p_tj_init_decompress)(void);
static int (*p_tj_decompress_header3)(void *, const unsigned char *, unsigned long, int *, int *, int *, int *);
static int (*p_tj_decompress2)(void *, const unsigned char *, unsigned long, unsigned char *, int, int, int, int, int);
static int (*p_tj_destroy)(void *);
static char *(*p_tj_error_str2)(void *);
#define TJPF_RGBA 7
#define TJFLAG_STOPONWARNING 8192
#define TJFLAG_LIMITSCANS 32768

// libpng's simplified API (png.h 1.6: png_image).
typedef struct {
    void *opaque;
    uint32_t version;
    uint32_t width;
    uint32_t height;
    uint32_t format;
    uint32_t flags;
    uint32_t colormap_entries;
    uint32_t warning_or_error;
    char message[64];
} png_image_abi;
#define PNG_IMAGE_VERSION 1
#define PNG_FORMAT_RGBA 3
static int (*p_png_begin_read_from_memory)(png_image_abi *, const void *, size_t);
static int (*p_png_finish_read)(png_image_abi *, const void *, void *, int32_t, void *);
static void (*p_png_image_free)(png_image_abi *);

// libwebp.
static int (*p_webp_get_info)(const uint8_t *, size_t, int *, int *);
static uint8_t *(*p_webp_decode_rgba_into)(const uint8_t *, size_t, uint8_t *, size_t, int);

// giflib 5 (gif_lib.h).
typedef unsigned char GifByteType;
typedef struct { GifByteType Red, Green, Blue; } GifColorType;
typedef struct { int ColorCount; int BitsPerPixel; bool SortFlag; GifColorType *Colors; } ColorMapObject;
typedef struct { int Left, Top, Width, Height; bool Interlace; ColorMapObject *ColorMap; } GifImageDesc;
typedef struct GifFileType {
    int SWidth, SHeight;
    int SColorResolution;
    int SBackGroundColor;
    GifByteType AspectByte;
    ColorMapObject *SColorMap;
    int ImageCount;
    GifImageDesc Image;
    void *SavedImages;
    int ExtensionBlockCount;
    void *ExtensionBlocks;
    int Error;
    void *UserData;
    void *Private;
} GifFileType;
typedef int (*GifInputFunc)(GifFileType *, GifByteType *, int);
#define GIF_OK 1
#define GIF_IMAGE_DESC_RECORD 2
#define GIF_EXTENSION_RECORD 3
#define GIF_TERMINATE_RECORD 4
#define GIF_GRAPHICS_EXT 0xf9
static GifFileType *(*p_gif_open)(void *, GifInputFunc, int *);
static int (*p_gif_close)(GifFileType *, int *);
static int (*p_gif_record_type)(GifFileType *, int *);
static int (*p_gif_image_desc)(GifFileType *);
static int (*p_gif_line)(GifFileType *, GifByteType *, int);
static int (*p_gif_extension)(GifFileType *, int *, GifByteType **);
static int (*p_gif_extension_next)(GifFileType *, GifByteType **);
static const char *(*p_gif_error_string)(int);

// chafa (and the one glib function its GString needs).
typedef struct { char *str; size_t len; size_t allocated_len; } GStringABI;
static void *(*p_chafa_term_db_get_default)(void);
static void *(*p_chafa_term_db_detect)(void *, char **);
static void *(*p_chafa_term_db_get_fallback_info)(void *);
static void (*p_chafa_term_info_supplement)(void *, void *);
static int (*p_chafa_term_info_have_seq)(void *, int);
static void (*p_chafa_term_info_unref)(void *);
static void *(*p_chafa_symbol_map_new)(void);
static void (*p_chafa_symbol_map_add_by_tags)(void *, int);
static void (*p_chafa_symbol_map_remove_by_tags)(void *, int);
static void (*p_chafa_symbol_map_unref)(void *);
static void *(*p_chafa_canvas_config_new)(void);
static void (*p_chafa_canvas_config_unref)(void *);
static void (*p_chafa_canvas_config_set_geometry)(void *, int, int);
static void (*p_chafa_canvas_config_set_cell_geometry)(void *, int, int);
static void (*p_chafa_canvas_config_set_canvas_mode)(void *, int);
static void (*p_chafa_canvas_config_set_pixel_mode)(void *, int);
static void (*p_chafa_canvas_config_set_symbol_map)(void *, const void *);
static void (*p_chafa_canvas_config_set_dither_mode)(void *, int);
static void (*p_chafa_canvas_config_set_work_factor)(void *, float);
static void *(*p_chafa_canvas_new)(const void *);
static void (*p_chafa_canvas_unref)(void *);
static void (*p_chafa_canvas_draw_all_pixels)(void *, int, const uint8_t *, int, int, int);
static GStringABI *(*p_chafa_canvas_print)(void *, void *);
static char *(*p_g_string_free)(GStringABI *, int);

int cshopy_image_load(cshopy_image_library library, const char *path, char *error, size_t error_size) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
    switch (library) {
    case CSHOPY_IMAGE_LIBRARY_JPEG:
        RESOLVE(handle, p_tj_init_decompress, "tjInitDecompress", "libturbojpeg 1.4 or later");
        RESOLVE(handle, p_tj_decompress_header3, "tjDecompressHeader3", "libturbojpeg 1.4 or later");
        RESOLVE(handle, p_tj_decompress2, "tjDecompress2", "libturbojpeg 1.4 or later");
        RESOLVE(handle, p_tj_destroy, "tjDestroy", "libturbojpeg 1.4 or later");
        RESOLVE(handle, p_tj_error_str2, "tjGetErrorStr2", "libturbojpeg 1.4 or later");
        break;
    case CSHOPY_IMAGE_LIBRARY_PNG:
        RESOLVE(handle, p_png_begin_read_from_memory, "png_image_begin_read_from_memory", "libpng 1.6 or later");
        RESOLVE(handle, p_png_finish_read, "png_image_finish_read", "libpng 1.6 or later");
        RESOLVE(handle, p_png_image_free, "png_image_free", "libpng 1.6 or later");
        break;
    case CSHOPY_IMAGE_LIBRARY_WEBP:
        RESOLVE(handle, p_webp_get_info, "WebPGetInfo", "libwebp 0.5 or later");
        RESOLVE(handle, p_webp_decode_rgba_into, "WebPDecodeRGBAInto", "libwebp 0.5 or later");
        break;
    case CSHOPY_IMAGE_LIBRARY_GIF:
        RESOLVE(handle, p_gif_open, "DGifOpen", "giflib 5 or later");
        RESOLVE(handle, p_gif_close, "DGifCloseFile", "giflib 5 or later");
        RESOLVE(handle, p_gif_record_type, "DGifGetRecordType", "giflib 5 or later");
        RESOLVE(handle, p_gif_image_desc, "DGifGetImageDesc", "giflib 5 or later");
        RESOLVE(handle, p_gif_line, "DGifGetLine", "giflib 5 or later");
        RESOLVE(handle, p_gif_extension, "DGifGetExtension", "giflib 5 or later");
        RESOLVE(handle, p_gif_extension_next, "DGifGetExtensionNext", "giflib 5 or later");
        RESOLVE(handle, p_gif_error_string, "GifErrorString", "giflib 5 or later");
        break;
    case CSHOPY_IMAGE_LIBRARY_CHAFA:
        RESOLVE(handle, p_chafa_term_db_get_default, "chafa_term_db_get_default", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_term_db_detect, "chafa_term_db_detect", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_term_db_get_fallback_info, "chafa_term_db_get_fallback_info", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_term_info_supplement, "chafa_term_info_supplement", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_term_info_have_seq, "chafa_term_info_have_seq", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_term_info_unref, "chafa_term_info_unref", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_symbol_map_new, "chafa_symbol_map_new", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_symbol_map_add_by_tags, "chafa_symbol_map_add_by_tags", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_symbol_map_remove_by_tags, "chafa_symbol_map_remove_by_tags", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_symbol_map_unref, "chafa_symbol_map_unref", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_new, "chafa_canvas_config_new", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_unref, "chafa_canvas_config_unref", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_geometry, "chafa_canvas_config_set_geometry", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_cell_geometry, "chafa_canvas_config_set_cell_geometry", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_canvas_mode, "chafa_canvas_config_set_canvas_mode", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_pixel_mode, "chafa_canvas_config_set_pixel_mode", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_symbol_map, "chafa_canvas_config_set_symbol_map", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_dither_mode, "chafa_canvas_config_set_dither_mode", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_config_set_work_factor, "chafa_canvas_config_set_work_factor", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_new, "chafa_canvas_new", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_unref, "chafa_canvas_unref", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_draw_all_pixels, "chafa_canvas_draw_all_pixels", "libchafa 1.6 or later");
        RESOLVE(handle, p_chafa_canvas_print, "chafa_canvas_print", "libchafa 1.6 or later");
        // glib, which libchafa links: found through libchafa's own dependencies.
        RESOLVE(handle, p_g_string_free, "g_string_free", "a libchafa linked with glib 2");
        break;
    default:
        snprintf(error, error_size, "unknown library %d", (int)library);
        dlclose(handle);
        return -1;
    }
    return 0;
}

/// width × height × 4 bytes, or 0 when it overflows or a side is not positive.
static size_t rgba_size(int width, int height) {
    if (width <= 0 || height <= 0) return 0;
    size_t w = (size_t)width, h = (size_t)height;
    if (w > SIZE_MAX / 4 / h) return 0;
    return w * h * 4;
}

// MARK: - JPEG

int cshopy_decode_jpeg(const uint8_t *data, size_t size, int width, int height, int scale,
                       uint8_t *pixels, char *error, size_t error_size) {
    if (scale != 1 && scale != 2 && scale != 4 && scale != 8) {
        snprintf(error, error_size, "no 1/%d scale", scale);
        return -1;
    }
    void *tj = p_tj_init_decompress();
    if (!tj) {
        snprintf(error, error_size, "libturbojpeg could not start a decoder");
        return -1;
    }
    int found_width = 0, found_height = 0, subsampling = 0, colorspace = 0;
    if (p_tj_decompress_header3(tj, data, (unsigned long)size, &found_width, &found_height, &subsampling, &colorspace) != 0) {
        snprintf(error, error_size, "%s", p_tj_error_str2(tj));
        p_tj_destroy(tj);
        return -1;
    }
    if (found_width != width || found_height != height) {
        snprintf(error, error_size, "%d×%d pixels", found_width, found_height);
        p_tj_destroy(tj);
        return -2;
    }
    // TurboJPEG picks the largest of its scaling factors that fits the size asked for: asked
    // for ceil(side / scale), that is 1/scale (a larger factor gives a larger size).
    int scaled_width = (width + scale - 1) / scale, scaled_height = (height + scale - 1) / scale;
    // STOPONWARNING: a truncated or corrupt stream is an error, not a grey lower half.
    // LIMITSCANS: a progressive JPEG of thousands of scans (a CPU bomb) is refused.
    int status = p_tj_decompress2(tj, data, (unsigned long)size, pixels, scaled_width, scaled_width * 4, scaled_height,
                                  TJPF_RGBA, TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS);
    if (status != 0) {
        snprintf(error, error_size, "%s", p_tj_error_str2(tj));
        p_tj_destroy(tj);
        return -1;
    }
    p_tj_destroy(tj);
    return 0;
}

// MARK: - PNG

int cshopy_decode_png(const uint8_t *data, size_t size, int width, int height,
                      uint8_t *pixels, char *error, size_t error_size) {
    png_image_abi image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!p_png_begin_read_from_memory(&image, data, size)) {
        snprintf(error, error_size, "%s", image.message);
        p_png_image_free(&image);
        return -1;
    }
    if (width <= 0 || height <= 0 || image.width != (uint32_t)width || image.height != (uint32_t)height) {
        snprintf(error, error_size, "%u×%u pixels", image.width, image.height);
        p_png_image_free(&image);
        return -2;
    }
    image.format = PNG_FORMAT_RGBA;
    if (!p_png_finish_read(&image, NULL, pixels, (int32_t)(image.width * 4), NULL)) {
        snprintf(error, error_size, "%s", image.message);
        p_png_image_free(&image);
        return -1;
    }
    // A warning (a bad CRC in an ancillary chunk) leaves a whole picture: kept.
    p_png_image_free(&image);
    return 0;
}

// MARK: - WebP

int cshopy_decode_webp(const uint8_t *data, size_t size, int width, int height,
                       uint8_t *pixels, char *error, size_t error_size) {
    int found_width = 0, found_height = 0;
    if (!p_webp_get_info(data, size, &found_width, &found_height)) {
        snprintf(error, error_size, "not a WebP bitstream libwebp can read");
        return -1;
    }
    if (found_width != width || found_height != height) {
        snprintf(error, error_size, "%d×%d pixels", found_width, found_height);
        return -2;
    }
    size_t bytes = rgba_size(width, height);
    if (!bytes || !p_webp_decode_rgba_into(data, size, pixels, bytes, width * 4)) {
        snprintf(error, error_size, "the WebP data is corrupt or truncated (or an animation, which libwebp's simple decoder does not read)");
        return -1;
    }
    return 0;
}

// MARK: - GIF

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} gif_reader;

static int gif_read(GifFileType *gif, GifByteType *buffer, int count) {
    gif_reader *reader = (gif_reader *)gif->UserData;
    if (count <= 0) return 0;
    size_t left = reader->size - reader->offset;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(buffer, reader->data + reader->offset, n);
    reader->offset += n;
    return (int)n;
}

static int gif_failed(GifFileType *gif, const char *what, char *error, size_t error_size) {
    const char *reason = p_gif_error_string(gif->Error);
    snprintf(error, error_size, "%s: %s", what, reason ? reason : "giflib error");
    int ignored = 0;
    p_gif_close(gif, &ignored);
    return -1;
}

int cshopy_decode_gif(const uint8_t *data, size_t size, int width, int height,
                      uint8_t *pixels, char *error, size_t error_size) {
    gif_reader reader = { data, size, 0 };
    int code = 0;
    GifFileType *gif = p_gif_open(&reader, gif_read, &code);
    if (!gif) {
        const char *reason = p_gif_error_string(code);
        snprintf(error, error_size, "%s", reason ? reason : "not a GIF giflib can read");
        return -1;
    }
    if (width <= 0 || height <= 0 || gif->SWidth != width || gif->SHeight != height) {
        snprintf(error, error_size, "%d×%d pixels", gif->SWidth, gif->SHeight);
        int ignored = 0;
        p_gif_close(gif, &ignored);
        return -2;
    }
    int transparent = -1;
    for (;;) {
        int type = 0;
        if (p_gif_record_type(gif, &type) != GIF_OK) return gif_failed(gif, "reading a record", error, error_size);
        if (type == GIF_EXTENSION_RECORD) {
            int function = 0;
            GifByteType *block = NULL;
            if (p_gif_extension(gif, &function, &block) != GIF_OK) return gif_failed(gif, "reading an extension", error, error_size);
            // Graphics control: byte 1 bit 0 says whether byte 4 is the transparent index.
            if (function == GIF_GRAPHICS_EXT && block && block[0] >= 4) transparent = (block[1] & 1) ? block[4] : -1;
            while (block) {
                if (p_gif_extension_next(gif, &block) != GIF_OK) return gif_failed(gif, "reading an extension", error, error_size);
            }
            continue;
        }
        if (type == GIF_TERMINATE_RECORD) {
            snprintf(error, error_size, "the GIF has no picture");
            int ignored = 0;
            p_gif_close(gif, &ignored);
            return -1;
        }
        if (type != GIF_IMAGE_DESC_RECORD) continue;
        if (p_gif_image_desc(gif) != GIF_OK) return gif_failed(gif, "reading the first frame", error, error_size);
        break;
    }
    GifImageDesc frame = gif->Image;
    ColorMapObject *map = frame.ColorMap ? frame.ColorMap : gif->SColorMap;
    if (!map || map->ColorCount <= 0 || !map->Colors) {
        snprintf(error, error_size, "the first frame has no colour table");
        int ignored = 0;
        p_gif_close(gif, &ignored);
        return -1;
    }
    // The frame lies within the canvas (giflib checks this); its lines are read whole.
    if (frame.Width <= 0 || frame.Height <= 0 || frame.Left < 0 || frame.Top < 0 ||
        frame.Left > gif->SWidth - frame.Width || frame.Top > gif->SHeight - frame.Height) {
        snprintf(error, error_size, "the first frame lies outside the picture");
        int ignored = 0;
        p_gif_close(gif, &ignored);
        return -1;
    }
    GifByteType *line = malloc((size_t)frame.Width);
    if (!line) {
        snprintf(error, error_size, "no memory");
        int ignored = 0;
        p_gif_close(gif, &ignored);
        return -1;
    }
    // Interlaced rows come in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    static const int starts[4] = { 0, 4, 2, 1 }, steps[4] = { 8, 8, 4, 2 };
    int passes = frame.Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = frame.Interlace ? starts[pass] : 0, step = frame.Interlace ? steps[pass] : 1;
        for (int row = start; row < frame.Height; row += step) {
            if (p_gif_line(gif, line, frame.Width) != GIF_OK) {
                free(line);
                return gif_failed(gif, "reading the first frame", error, error_size);
            }
            uint8_t *pixel = pixels + ((size_t)(frame.Top + row) * (size_t)gif->SWidth + (size_t)frame.Left) * 4;
            for (int x = 0; x < frame.Width; x++, pixel += 4) {
                int index = line[x];
                if (index == transparent || index >= map->ColorCount) continue;  // stays transparent
                pixel[0] = map->Colors[index].Red;
                pixel[1] = map->Colors[index].Green;
                pixel[2] = map->Colors[index].Blue;
                pixel[3] = 255;
            }
        }
    }
    free(line);
    int ignored = 0;
    p_gif_close(gif, &ignored);
    return 0;
}

// MARK: - chafa

void *cshopy_chafa_term_info_detect(char **envp) {
    if (!p_chafa_term_db_detect) return NULL;
    void *db = p_chafa_term_db_get_default();
    void *info = p_chafa_term_db_detect(db, envp);
    if (!info) return NULL;
    return info;
}

int cshopy_chafa_term_info_have_seq(void *info, int seq) {
    return info && p_chafa_term_info_have_seq(info, seq) ? 1 : 0;
}

void cshopy_chafa_term_info_free(void *info) {
    if (info) p_chafa_term_info_unref(info);
}

#define CHAFA_PIXEL_RGBA8_UNASSOCIATED 4
#define CHAFA_SYMBOL_TAG_SPACE (1 << 0)
#define CHAFA_SYMBOL_TAG_BLOCK (1 << 3)
#define CHAFA_SYMBOL_TAG_BORDER (1 << 4)
#define CHAFA_SYMBOL_TAG_WIDE (1 << 18)
#define CHAFA_SYMBOL_TAG_AMBIGUOUS (1 << 19)
#define CHAFA_DITHER_MODE_NONE 0

int cshopy_chafa_render(const cshopy_image *image, const cshopy_chafa_options *options, void *term_info,
                        char **out, size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (!p_chafa_canvas_new) {
        snprintf(error, error_size, "libchafa is not loaded");
        return -1;
    }
    if (!image || !image->pixels || image->width <= 0 || image->height <= 0 || options->width_cells <= 0 || options->height_cells <= 0) {
        snprintf(error, error_size, "nothing to draw");
        return -1;
    }
    // Any pixel mode can be printed: chafa's fallback sequences are added to the terminal's.
    void *fallback = p_chafa_term_db_get_fallback_info(p_chafa_term_db_get_default());
    if (fallback) {
        p_chafa_term_info_supplement(term_info, fallback);
        p_chafa_term_info_unref(fallback);
    }
    void *config = p_chafa_canvas_config_new();
    p_chafa_canvas_config_set_geometry(config, options->width_cells, options->height_cells);
    if (options->cell_width > 0 && options->cell_height > 0) {
        p_chafa_canvas_config_set_cell_geometry(config, options->cell_width, options->cell_height);
    }
    p_chafa_canvas_config_set_pixel_mode(config, options->pixel_mode);
    if (options->pixel_mode == CSHOPY_CHAFA_PIXEL_MODE_SYMBOLS) {
        p_chafa_canvas_config_set_canvas_mode(config, options->canvas_mode);
        // Block and border elements and the space: narrow, unambiguous, in every monospace font.
        void *map = p_chafa_symbol_map_new();
        p_chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SPACE);
        p_chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE | CHAFA_SYMBOL_TAG_AMBIGUOUS);
        p_chafa_canvas_config_set_symbol_map(config, map);
        p_chafa_symbol_map_unref(map);
        p_chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE);
    } else {
        p_chafa_canvas_config_set_canvas_mode(config, CSHOPY_CHAFA_CANVAS_MODE_TRUECOLOR);
    }
    p_chafa_canvas_config_set_work_factor(config, 0.5f);
    void *canvas = p_chafa_canvas_new(config);
    p_chafa_canvas_config_unref(config);
    if (!canvas) {
        snprintf(error, error_size, "libchafa could not make a canvas of %d×%d cells", options->width_cells, options->height_cells);
        return -1;
    }
    p_chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, image->pixels, image->width, image->height, image->width * 4);
    GStringABI *printed = p_chafa_canvas_print(canvas, term_info);
    p_chafa_canvas_unref(canvas);
    if (!printed) {
        snprintf(error, error_size, "libchafa printed nothing");
        return -1;
    }
    char *bytes = malloc(printed->len ? printed->len : 1);
    if (!bytes) {
        p_g_string_free(printed, 1);
        snprintf(error, error_size, "no memory");
        return -1;
    }
    memcpy(bytes, printed->str, printed->len);
    *out = bytes;
    *out_size = printed->len;
    p_g_string_free(printed, 1);
    return 0;
}

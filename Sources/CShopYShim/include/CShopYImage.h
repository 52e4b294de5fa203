#ifndef CSHOPY_IMAGE_H
#define CSHOPY_IMAGE_H
// Pictures: the image decoders (libjpeg-turbo's TurboJPEG API, libpng's simplified API, libwebp,
// giflib) and libchafa, each opened with dlopen at its first use, as libcurl is (CShopYCurl.h):
// no headers of theirs are needed to build, a machine without one of them still runs everything
// else, and the Swift side says which package to install. Only the few functions used are
// resolved; the structures read (png_image, GifFileType, GString) are those libraries' stable ABI
// (png.h 1.6, gif_lib.h 5.x, glib 2.x), and every enum value below is chafa 1.6's or later's.

#include <stddef.h>
#include <stdint.h>

/// The libraries, by what they are for.
typedef enum {
    CSHOPY_IMAGE_LIBRARY_JPEG = 0,
    CSHOPY_IMAGE_LIBRARY_PNG = 1,
    CSHOPY_IMAGE_LIBRARY_WEBP = 2,
    CSHOPY_IMAGE_LIBRARY_GIF = 3,
    CSHOPY_IMAGE_LIBRARY_CHAFA = 4,
} cshopy_image_library;

/// Opens `library` from `path` and resolves its functions. Returns 0, or -1 with the loader's
/// words in `error` (the library stays unloaded). Call once per library (the Swift side guards
/// it with a lock); a loaded library stays open for the life of the process.
int cshopy_image_load(cshopy_image_library library, const char *path, char *error, size_t error_size);

/// A picture handed to chafa: `width` × `height` pixels of RGBA, 8 bits each, not premultiplied,
/// rows of `width * 4` bytes (the caller's memory).
typedef struct {
    uint8_t *pixels;
    int width;
    int height;
} cshopy_image;

/// Each decoder decodes a picture whose header the caller read as `width` × `height` into
/// `pixels`, the caller's zeroed buffer of RGBA (8 bits each, not premultiplied, rows of
/// `width * 4` bytes): no decoder allocates the picture, so a decode holds one copy of it. The
/// library's own header must say the same size, else no pixel is decoded and -2 is returned.
/// Returns 0, or -1 with the library's words in `error`. The first frame of an animation is
/// decoded (over transparent pixels, where it does not cover the whole picture).
///
/// The JPEG decoder scales down by 1/`scale` (1, 2, 4 or 8) while decoding: `pixels` then holds
/// ceil(width / scale) × ceil(height / scale) pixels.
int cshopy_decode_jpeg(const uint8_t *data, size_t size, int width, int height, int scale,
                       uint8_t *pixels, char *error, size_t error_size);
int cshopy_decode_png(const uint8_t *data, size_t size, int width, int height,
                      uint8_t *pixels, char *error, size_t error_size);
int cshopy_decode_webp(const uint8_t *data, size_t size, int width, int height,
                       uint8_t *pixels, char *error, size_t error_size);
int cshopy_decode_gif(const uint8_t *data, size_t size, int width, int height,
                      uint8_t *pixels, char *error, size_t error_size);

// ChafaPixelMode.
#define CSHOPY_CHAFA_PIXEL_MODE_SYMBOLS 0
#define CSHOPY_CHAFA_PIXEL_MODE_SIXELS  1
#define CSHOPY_CHAFA_PIXEL_MODE_KITTY   2
#define CSHOPY_CHAFA_PIXEL_MODE_ITERM2  3

// ChafaCanvasMode.
#define CSHOPY_CHAFA_CANVAS_MODE_TRUECOLOR   0
#define CSHOPY_CHAFA_CANVAS_MODE_INDEXED_256 1
#define CSHOPY_CHAFA_CANVAS_MODE_INDEXED_240 2
#define CSHOPY_CHAFA_CANVAS_MODE_INDEXED_16  3
#define CSHOPY_CHAFA_CANVAS_MODE_FGBG_BGFG   4
#define CSHOPY_CHAFA_CANVAS_MODE_FGBG        5
#define CSHOPY_CHAFA_CANVAS_MODE_INDEXED_8   6

// ChafaTermSeq: the sequences whose presence in a terminal's ChafaTermInfo tells what it draws
// (the enum's order is append-only since chafa 1.6).
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FG_DIRECT           31
#define CSHOPY_CHAFA_SEQ_SET_COLOR_BG_DIRECT           32
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_DIRECT         33
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FG_256              34
#define CSHOPY_CHAFA_SEQ_SET_COLOR_BG_256              35
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_256            36
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FG_16               37
#define CSHOPY_CHAFA_SEQ_SET_COLOR_BG_16               38
#define CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_16             39
#define CSHOPY_CHAFA_SEQ_BEGIN_SIXELS                  40
#define CSHOPY_CHAFA_SEQ_END_SIXELS                    41
#define CSHOPY_CHAFA_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1 43
#define CSHOPY_CHAFA_SEQ_BEGIN_ITERM2_IMAGE            47

/// chafa's terminal database asked about an environment (`envp`: "NAME=value" strings, NULL
/// ended), with chafa's fallback sequences added so that any pixel mode can be printed. Free it
/// with cshopy_chafa_term_info_free. NULL when chafa is not loaded.
void *cshopy_chafa_term_info_detect(char **envp);
/// Whether the terminal `info` describes has `seq` (a CSHOPY_CHAFA_SEQ_…): 1 or 0.
int cshopy_chafa_term_info_have_seq(void *info, int seq);
void cshopy_chafa_term_info_free(void *info);

/// How a picture is drawn.
typedef struct {
    int pixel_mode;      // CSHOPY_CHAFA_PIXEL_MODE_…
    int canvas_mode;     // CSHOPY_CHAFA_CANVAS_MODE_… (symbols' colours; pixel modes use truecolor)
    int width_cells;     // the canvas, in cells
    int height_cells;
    int cell_width;      // a cell in pixels (pixel modes), e.g. 10 × 20
    int cell_height;
} cshopy_chafa_options;

/// Draws `image` (RGBA, unassociated) on a canvas as `options` say and prints it for the terminal
/// `term_info` describes: symbols are rows of SGR colours and block characters separated by
/// newlines; pixel modes one image sequence. Returns 0 with the bytes in `*out` (malloc'd, free
/// with free) and their count in `*out_size`, or -1 with a reason in `error`.
int cshopy_chafa_render(const cshopy_image *image, const cshopy_chafa_options *options, void *term_info,
                        char **out, size_t *out_size, char *error, size_t error_size);

#endif

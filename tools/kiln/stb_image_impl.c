/*
 * stb_image's implementation (Debian libstb-dev), JPEG and PNG decoded from
 * memory, for image.c.  A translation unit of its own so that it can be
 * built without four of UBSan's checks: Debian 12's stb_image indexes one
 * past the 257-entry size table of stbi__build_huffman on some corrupt
 * JPEG Huffman tables (a write inside the same struct, which ASan does not
 * see; fuzz_image finds it in a minute), and on a first IDAT chunk of
 * length 0 its PNG reader adds a zero offset to a null pointer and copies
 * zero bytes to it (UBSan's pointer-overflow and nonnull-attribute
 * checks); on some corrupt entropy-coded JPEG data its bit reader's count
 * goes below zero and stbi__grow_buffer_unsafe shifts a byte by 24 minus
 * it, 32 or more (UBSan's shift check; fuzz_image found it).  Defects of
 * the library, not of kiln's code,
 * which keeps every check.
 */
#define STB_IMAGE_IMPLEMENTATION
#include "stb_image_opts.h"
#include <stb/stb_image.h>

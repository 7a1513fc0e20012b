/* The stb_image configuration kiln decodes with (image.c, stb_image_impl.c). */
#ifndef KILN_STB_IMAGE_OPTS_H
#define KILN_STB_IMAGE_OPTS_H
#define STBI_ONLY_JPEG
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS (1 << 14) /* 16384 pixels a side: 800 MB of RGB at most */
#endif

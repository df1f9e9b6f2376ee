/* The CommonMark/GFM parser of Debian's libcmark-gfm-dev, with its table, strikethrough and
 * autolink extensions, as one module for Swift. */
#ifndef EMEND_CMARK_H
#define EMEND_CMARK_H
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#endif

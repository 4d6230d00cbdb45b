// cmark-gfm: GitHub's CommonMark parser, with its tables, strikethrough, autolinks and task
// lists, which Markdown documents are read with (MarkupHandler/MarkdownDocument.swift). Its
// core and its extensions are two libraries; this module links both.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

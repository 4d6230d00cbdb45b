// Font subsetting for an opened input. WebKit (through Skia) embeds every TrueType font it uses
// whole, under a subset-style name: half a megabyte per face, several faces per page. This cuts
// each such font program down to the glyphs the document actually shows.
//
// Glyph numbers are kept (HarfBuzz's retain-gids), so no content stream, width array or
// ToUnicode map has to change: only the FontFile2 stream's bytes do. The scan is conservative:
// a font that any content uses in a way this code does not follow is left whole, and content it
// cannot read stops the whole pass (every font stays as it was).
#include "engine.h"

#include <hb-subset.h>
#include <hb.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)

namespace {

/// Why the scan gave up: the document keeps its fonts.
struct Unfollowable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct FontUse {
    /// Font programs that may be cut, with the glyphs shown from them.
    std::map<QPDFObjGen, std::set<unsigned>> glyphs;
    /// Font programs some font uses in a way that is not followed (a simple TrueType font, a
    /// CID-to-GID map): never cut.
    std::set<QPDFObjGen> untouchable;
    std::map<QPDFObjGen, QPDFObjectHandle> programs;
    /// The font descriptors that name each program (indirect ones, by object).
    std::map<QPDFObjGen, std::map<QPDFObjGen, QPDFObjectHandle>> descriptors;
    /// Programs some direct (unnumbered) descriptor names: never shared with another.
    std::set<QPDFObjGen> unshareable;
};

/// The FontFile2 stream of a Type0 font whose codes are glyph numbers (Identity-H, identity CID
/// to GID map), or a null handle when the font is not one.
QPDFObjectHandle cuttableProgram(QPDFObjectHandle font, FontUse &use) {
    auto markDescriptor = [&](QPDFObjectHandle f) {
        auto descriptor = f.getKey("/FontDescriptor");
        if (descriptor.isDictionary()) {
            auto file = descriptor.getKey("/FontFile2");
            if (file.isStream()) use.untouchable.insert(file.getObjGen());
        }
    };
    if (!font.isDictionary()) return QPDFObjectHandle::newNull();
    auto subtype = font.getKey("/Subtype");
    // A CID font is only ever used through the Type0 font above it, which decides.
    if (subtype.isNameAndEquals("/CIDFontType2") || subtype.isNameAndEquals("/CIDFontType0")) return QPDFObjectHandle::newNull();
    if (!subtype.isNameAndEquals("/Type0")) {
        markDescriptor(font);
        return QPDFObjectHandle::newNull();
    }
    auto descendants = font.getKey("/DescendantFonts");
    if (!descendants.isArray() || descendants.getArrayNItems() != 1) return QPDFObjectHandle::newNull();
    auto cid = descendants.getArrayItem(0);
    if (!cid.isDictionary()) return QPDFObjectHandle::newNull();
    auto map = cid.getKey("/CIDToGIDMap");
    bool identity = font.getKey("/Encoding").isNameAndEquals("/Identity-H") &&
                    cid.getKey("/Subtype").isNameAndEquals("/CIDFontType2") &&
                    (map.isNull() || map.isNameAndEquals("/Identity"));
    if (!identity) {
        markDescriptor(cid);
        return QPDFObjectHandle::newNull();
    }
    auto descriptor = cid.getKey("/FontDescriptor");
    auto file = descriptor.isDictionary() ? descriptor.getKey("/FontFile2") : QPDFObjectHandle::newNull();
    if (!file.isStream()) return QPDFObjectHandle::newNull();
    use.programs.emplace(file.getObjGen(), file);
    if (descriptor.isIndirect()) use.descriptors[file.getObjGen()].emplace(descriptor.getObjGen(), descriptor);
    else use.unshareable.insert(file.getObjGen());
    return file;
}

/// Follows one content stream's text: which font is current (through q/Q) and which codes each
/// string shows.
///
/// It has its own small tokenizer. A WebKit page is tens of thousands of positioned strings:
/// qpdf's object parser spent 1.4 s on a 42-page document allocating objects, and its tokenizer,
/// reading one character at a time through a virtual call, 0.35 s; this reads 3 MB in a few
/// milliseconds. It only needs names, strings and operators; numbers, arrays and dictionaries
/// are skipped over.
class TextScanner {
  public:
    TextScanner(QPDFObjectHandle resources, FontUse &use) : use(use) {
        if (resources.isDictionary()) fonts = resources.getKey("/Font");
    }

    void scan(std::shared_ptr<Buffer> content) {
        auto const *p = reinterpret_cast<char const *>(content->getBuffer());
        auto const *end = p + content->getSize();
        while (p < end) {
            char c = *p;
            if (isSpace(c) || c == '[' || c == ']' || c == '{' || c == '}') {
                ++p;
            } else if (c == '%') {
                while (p < end && *p != '\n' && *p != '\r') ++p;
            } else if (c == '(') {
                strings.push_back(literalString(p, end));
            } else if (c == '<' && p + 1 < end && p[1] == '<') {
                p += 2;
            } else if (c == '>' && p + 1 < end && p[1] == '>') {
                p += 2;
            } else if (c == '<') {
                strings.push_back(hexString(p, end));
            } else if (c == '/') {
                names.push_back(name(p, end));
            } else if (c == ')' || c == '>') {
                throw Unfollowable("an unbalanced delimiter");
            } else {
                auto const *word = p;
                while (p < end && !isSpace(*p) && !isDelimiter(*p)) ++p;
                if ((*word >= '0' && *word <= '9') || *word == '-' || *word == '+' || *word == '.') continue;
                std::string op(word, p);
                if (op == "ID") p = afterInlineImage(p + 1, end);
                operate(op);
            }
        }
    }

  private:
    static bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }
    static bool isDelimiter(char c) { return strchr("()<>[]{}/%", c) != nullptr && c != '\0'; }
    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /// A hexadecimal string's bytes; `p` moves past its closing bracket.
    static std::string hexString(char const *&p, char const *end) {
        std::string bytes;
        int high = -1;
        for (++p; p < end && *p != '>'; ++p) {
            int v = hex(*p);
            if (v < 0) {
                if (isSpace(*p)) continue;
                throw Unfollowable("a bad hexadecimal string");
            }
            if (high < 0) high = v;
            else bytes.push_back(char(high << 4 | v)), high = -1;
        }
        if (p == end) throw Unfollowable("an unterminated hexadecimal string");
        ++p;
        if (high >= 0) bytes.push_back(char(high << 4));
        return bytes;
    }

    /// A name, `#xx` escapes resolved; `p` moves past it.
    static std::string name(char const *&p, char const *end) {
        std::string name = "/";
        for (++p; p < end && !isSpace(*p) && !isDelimiter(*p); ++p) {
            if (*p == '#' && p + 2 < end && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
                name.push_back(char(hex(p[1]) << 4 | hex(p[2])));
                p += 2;
            } else {
                name.push_back(*p);
            }
        }
        return name;
    }

    /// A literal string's bytes, escapes resolved; `p` moves past its closing parenthesis.
    static std::string literalString(char const *&p, char const *end) {
        std::string bytes;
        int depth = 1;
        for (++p; p < end; ++p) {
            char c = *p;
            if (c == '\\' && p + 1 < end) {
                char e = *++p;
                switch (e) {
                case 'n': bytes.push_back('\n'); break;
                case 'r': bytes.push_back('\r'); break;
                case 't': bytes.push_back('\t'); break;
                case 'b': bytes.push_back('\b'); break;
                case 'f': bytes.push_back('\f'); break;
                case '\r': if (p + 1 < end && p[1] == '\n') ++p; break; // a line continuation
                case '\n': break;
                default:
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        for (int k = 0; k < 2 && p + 1 < end && p[1] >= '0' && p[1] <= '7'; ++k) v = v * 8 + (*++p - '0');
                        bytes.push_back(char(v));
                    } else {
                        bytes.push_back(e); // \( \) \\ and any other character stand for themselves
                    }
                }
            } else if (c == '(') {
                ++depth;
                bytes.push_back(c);
            } else if (c == ')') {
                if (--depth == 0) {
                    ++p;
                    return bytes;
                }
                bytes.push_back(c);
            } else {
                bytes.push_back(c);
            }
        }
        throw Unfollowable("an unterminated string");
    }

    /// Skips an inline image's data: it ends at an EI between white space.
    static char const *afterInlineImage(char const *p, char const *end) {
        for (; p + 2 <= end; ++p) {
            if (p[0] == 'E' && p[1] == 'I' && (p + 2 == end || strchr(" \n\r\t\f", p[2])) &&
                strchr(" \n\r\t\f", p[-1]))
                return p;
        }
        throw Unfollowable("an unterminated inline image");
    }

    void operate(std::string const &op) {
        if (op == "q") {
            saved.push_back(current);
        } else if (op == "Q") {
            if (!saved.empty()) {
                current = saved.back();
                saved.pop_back();
            }
        } else if (op == "Tf") {
            if (names.empty()) throw Unfollowable("a Tf without a font name");
            auto font = fonts.isDictionary() ? fonts.getKey(names.front()) : QPDFObjectHandle::newNull();
            if (!font.isDictionary()) throw Unfollowable("a font missing from the resources");
            current = cuttableProgram(font, use);
            known = true;
        } else if (op == "Tj" || op == "'" || op == "\"" || op == "TJ") {
            for (auto const &string : strings) show(string);
        }
        names.clear();
        strings.clear();
    }

    void show(std::string const &bytes) {
        if (!known) throw Unfollowable("text shown before any font was set");
        if (current.isNull()) return;
        if (bytes.size() % 2) throw Unfollowable("an odd number of bytes for a two-byte encoding");
        auto &set = use.glyphs[current.getObjGen()];
        for (size_t i = 0; i < bytes.size(); i += 2)
            set.insert((unsigned(static_cast<unsigned char>(bytes[i])) << 8) | static_cast<unsigned char>(bytes[i + 1]));
    }

    FontUse &use;
    QPDFObjectHandle fonts;
    QPDFObjectHandle current = QPDFObjectHandle::newNull();
    bool known = false;
    std::vector<QPDFObjectHandle> saved;
    std::vector<std::string> names, strings; // the operands since the last operator
};

/// Every place text can be drawn from: pages, form XObjects (annotation appearances and
/// transparency groups included), tiling patterns and Type 3 glyphs.
void scanDocument(QPDF &pdf, FontUse &use) {
    for (auto &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        Pl_Buffer content("page content");
        page.pipeContents(&content);
        TextScanner(page.getAttribute("/Resources", false), use).scan(content.getBufferSharedPointer());
    }
    for (auto &object : pdf.getAllObjects()) {
        if (object.isStream()) {
            auto dict = object.getDict();
            if (dict.getKey("/Subtype").isNameAndEquals("/Form") || dict.getKey("/PatternType").isInteger()) {
                TextScanner(dict.getKey("/Resources"), use).scan(object.getStreamData(qpdf_dl_generalized));
            }
        } else if (object.isDictionary() && object.getKey("/Type").isNameAndEquals("/Font")) {
            // Fonts no content was seen using still count: their programs may be shared.
            cuttableProgram(object, use);
            if (object.getKey("/Subtype").isNameAndEquals("/Type3")) {
                auto procs = object.getKey("/CharProcs");
                if (!procs.isDictionary()) continue;
                for (auto &entry : procs.ditems()) {
                    if (!entry.second.isStream()) continue;
                    TextScanner(object.getKey("/Resources"), use).scan(entry.second.getStreamData(qpdf_dl_generalized));
                }
            }
        }
    }
}

/// The font program cut to `glyphs` (glyph numbers kept), or an empty string when HarfBuzz
/// cannot read it.
std::string subset(std::string const &program, std::set<unsigned> const &glyphs) {
    hb_blob_t *blob = hb_blob_create(program.data(), unsigned(program.size()), HB_MEMORY_MODE_READONLY, nullptr, nullptr);
    hb_face_t *face = hb_face_create(blob, 0);
    hb_blob_destroy(blob);
    std::string result;
    if (hb_subset_input_t *input = hb_subset_input_create_or_fail()) {
        hb_set_t *keep = hb_subset_input_glyph_set(input);
        hb_set_add(keep, 0); // .notdef
        for (unsigned g : glyphs) hb_set_add(keep, g);
        hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS);
        // A PDF viewer draws glyphs by number: shaping and layout tables are never read.
        hb_set_t *drop = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
        for (char const *tag : {"GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "morx", "kerx", "DSIG"})
            hb_set_add(drop, hb_tag_from_string(tag, 4));
        if (hb_face_t *cut = hb_subset_or_fail(face, input)) {
            hb_blob_t *bytes = hb_face_reference_blob(cut);
            unsigned length = 0;
            char const *data = hb_blob_get_data(bytes, &length);
            if (data && length) result.assign(data, length);
            hb_blob_destroy(bytes);
            hb_face_destroy(cut);
        }
        hb_subset_input_destroy(input);
    }
    hb_face_destroy(face);
    return result;
}

} // namespace

namespace spq {

int document_subset_fonts(SPQDocument *doc, int64_t *bytesBefore, int64_t *bytesAfter, char **error) {
    return guarded<int>(error, -1, [&]() {
        if (bytesBefore) *bytesBefore = 0;
        if (bytesAfter) *bytesAfter = 0;
        FontUse use;
        try {
            scanDocument(*doc->pdf, use);
        } catch (Unfollowable const &e) {
            setError(error, e.what()); // why every font stays whole: not a failure
            return 0;
        }
        // WebKit embeds the same face whole under several fonts (one page's bold, another's):
        // identical programs are cut once, to the glyphs all of them show, and their fonts'
        // descriptors all name that one (glyph numbers are kept, so each font still finds its
        // glyphs). The others are then no longer referenced, and not written.
        struct Group {
            std::string original;
            std::vector<QPDFObjGen> members;
            std::set<unsigned> glyphs;
        };
        std::vector<Group> groups;
        std::map<std::pair<size_t, size_t>, size_t> byContent; // (size, hash) -> group
        for (auto &[id, glyphs] : use.glyphs) {
            if (use.untouchable.count(id)) continue;
            auto data = use.programs.at(id).getStreamData(qpdf_dl_generalized);
            std::string original(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
            auto key = std::make_pair(original.size(), std::hash<std::string>{}(original));
            auto found = use.unshareable.count(id) ? byContent.end() : byContent.find(key);
            if (found != byContent.end() && groups[found->second].original == original) {
                groups[found->second].members.push_back(id);
                groups[found->second].glyphs.insert(glyphs.begin(), glyphs.end());
                continue;
            }
            if (!use.unshareable.count(id) && found == byContent.end()) byContent.emplace(key, groups.size());
            groups.push_back(Group{std::move(original), {id}, glyphs});
        }
        int cut = 0;
        for (auto &group : groups) {
            std::string smaller = subset(group.original, group.glyphs);
            if (smaller.empty() || smaller.size() >= group.original.size()) continue;
            auto program = use.programs.at(group.members.front());
            Pl_Buffer buffer("font program");
            Pl_Flate flate("font program", &buffer, Pl_Flate::a_deflate);
            flate.write(reinterpret_cast<unsigned char const *>(smaller.data()), smaller.size());
            flate.finish();
            program.replaceStreamData(buffer.getBufferSharedPointer(), QPDFObjectHandle::newName("/FlateDecode"),
                                      QPDFObjectHandle::newNull());
            program.getDict().replaceKey("/Length1", QPDFObjectHandle::newInteger(int64_t(smaller.size())));
            for (size_t i = 1; i < group.members.size(); ++i) {
                for (auto &[descriptorId, descriptor] : use.descriptors[group.members[i]])
                    descriptor.replaceKey("/FontFile2", program);
            }
            if (bytesBefore) *bytesBefore += int64_t(group.original.size() * group.members.size());
            if (bytesAfter) *bytesAfter += int64_t(smaller.size());
            cut += int(group.members.size());
        }
        return cut;
    });
}

} // namespace spq

#pragma GCC visibility pop

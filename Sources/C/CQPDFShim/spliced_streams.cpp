// Large streams written from their source straight into the output, past qpdf's writer.
//
// qpdf's writer holds every stream whole before writing it, to put its length in its
// dictionary: a 27 MB photo is a 27 MB buffer grown by doubling, then copied once more (about
// 80 MB for a moment). A large stream is therefore given to the writer as a marker of a few
// bytes, and `Splicer`, between the writer and the output, puts the real bytes in the marker's
// place as the document goes out: it corrects the stream's /Length and the offsets of the
// cross-reference table that follow. Everything the writer writes after the first spliced
// stream is held back until the end (the table of offsets comes last); the spliced bytes
// themselves never are.
//
// The markers hold bytes no PDF object written as text can contain (NUL), so only a stream's
// raw data could hold one; and a marker is looked for only between the moment its stream's
// data is asked for (as the writer writes that stream's object) and its place in that same
// object, where only the object's own dictionary comes between.
#include "engine.h"

#include <qpdf/Pl_Count.hh>
#include <qpdf/Pl_Discard.hh>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#pragma GCC visibility push(hidden)

namespace spq {

namespace {

// The splicer of the document being written on this thread, if any.
thread_local Splicer *activeSplicer = nullptr;

constexpr size_t markerLength = 16;

std::string marker(size_t index) {
    char text[markerLength + 1];
    snprintf(text, sizeof text, "%c%cSPQ%08zx%c%c%c", 0, 0xFF, index, 0xFF, 0, 0xFF);
    return std::string(text, markerLength);
}

// Counts what a source gives, so that a source that gives other than it said is an error
// instead of a broken file.
class CountingPipeline : public Pipeline {
  public:
    CountingPipeline(Pipeline &next) : Pipeline("swiftprint splice count", nullptr), next(next) {}
    void write(unsigned char const *data, size_t length) override {
        count += length;
        next.write(data, length);
    }
    void finish() override {}
    long long count = 0;

  private:
    Pipeline &next;
};

} // namespace

class Splicer {
  public:
    explicit Splicer(Pipeline &out) : out(out) {}

    // A spliced stream's data is being asked for: the marker to write in its place. The writer
    // may ask twice for one stream, a first time to try filtering what it gets (a stream copied
    // from another document), and keep only what the second time gave: the same marker.
    std::string arm(SplicedStream const *stream) {
        holding = true;
        if (!pending.empty() && sources[pending.back()] == stream) return marker(pending.back());
        sources.push_back(stream);
        pending.push_back(sources.size() - 1);
        return marker(sources.size() - 1);
    }

    void write(unsigned char const *data, size_t length) {
        if (!holding) {
            out.write(data, length);
            passed += (long long)length;
            return;
        }
        // A marker may straddle two writes.
        size_t from = held.size() >= markerLength ? held.size() - (markerLength - 1) : 0;
        held.append(reinterpret_cast<char const *>(data), length);
        for (size_t i = 0; i < pending.size();) {
            size_t at = held.find(marker(pending[i]), from);
            if (at == std::string::npos) {
                i++;
                continue;
            }
            hits.push_back({at, pending[i]});
            pending.erase(pending.begin() + long(i));
        }
    }

    // After the writer has finished: the held bytes, corrected, with each stream's bytes from
    // its source in its marker's place.
    void finish() {
        if (!pending.empty()) throw std::logic_error("a spliced stream's marker was not found in the output");
        if (hits.empty()) {
            emit(0, held.size());
            return;
        }
        std::sort(hits.begin(), hits.end());
        // Each edit replaces held[at, at + length) with `text` or, when `source` is set, with
        // that stream's bytes.
        struct Edit {
            size_t at, length;
            std::string text;
            SplicedStream const *source;
        };
        std::vector<Edit> edits;
        size_t bound = 0;
        for (auto [at, index] : hits) {
            static const std::string streamKeyword = "stream\n";
            if (at < streamKeyword.size() || held.compare(at - streamKeyword.size(), streamKeyword.size(), streamKeyword) != 0) {
                throw std::logic_error("a spliced stream's marker is not where its data starts");
            }
            std::string length = "/Length " + std::to_string(markerLength);
            size_t key = held.rfind(length, at);
            if (key == std::string::npos || key < bound || !isDelimiter(held[key + length.size()])) {
                throw std::logic_error("a spliced stream's length is not in its dictionary");
            }
            edits.push_back({key, length.size(), "/Length " + std::to_string(sources[index]->length), nullptr});
            edits.push_back({at, markerLength, "", sources[index]});
            bound = at + markerLength;
        }
        auto growth = [&](Edit const &e) { return (e.source ? e.source->length : (long long)e.text.size()) - (long long)e.length; };
        // Where a byte the writer put at offset `offset` ends up.
        auto moved = [&](long long offset) {
            long long by = 0;
            for (auto const &e : edits) {
                if (passed + (long long)e.at < offset) by += growth(e);
            }
            return offset + by;
        };
        // The cross-reference table, which the writer put last, and its offset after startxref.
        size_t start = held.rfind("startxref\n");
        if (start == std::string::npos || start < bound) throw std::logic_error("the cross-reference table's offset is not at the end");
        size_t digits = start + 10, digitsEnd = held.find('\n', digits);
        if (digitsEnd == std::string::npos) throw std::logic_error("the cross-reference table's offset is cut short");
        long long table = std::stoll(held.substr(digits, digitsEnd - digits));
        if (table < passed + (long long)bound) throw std::logic_error("the cross-reference table is not after the spliced streams");
        size_t at = size_t(table - passed);
        if (held.compare(at, 5, "xref\n") != 0) throw std::logic_error("no cross-reference table where startxref says");
        at += 5;
        while (held.compare(at, 7, "trailer") != 0) {
            size_t lineEnd = held.find('\n', at);
            if (lineEnd == std::string::npos) throw std::logic_error("the cross-reference table is cut short");
            long long first = 0, count = 0;
            if (sscanf(held.c_str() + at, "%lld %lld", &first, &count) != 2 || count < 0) throw std::logic_error("a cross-reference section without its count");
            at = lineEnd + 1;
            for (long long n = 0; n < count; n++, at += 20) {
                if (at + 20 > held.size()) throw std::logic_error("the cross-reference table is cut short");
                if (held[at + 17] != 'n') continue;
                long long offset = std::stoll(held.substr(at, 10));
                char text[11];
                snprintf(text, sizeof text, "%010lld", moved(offset));
                held.replace(at, 10, text, 10);
            }
        }
        edits.push_back({digits, digitsEnd - digits, std::to_string(moved(table)), nullptr});
        size_t from = 0;
        for (auto const &e : edits) {
            emit(from, e.at);
            if (e.source) {
                CountingPipeline counted(out);
                e.source->emit(counted);
                if (counted.count != e.source->length) {
                    throw std::runtime_error("a stream's source gave " + std::to_string(counted.count) + " bytes, not the " +
                                             std::to_string(e.source->length) + " it had");
                }
            } else {
                out.write(reinterpret_cast<unsigned char const *>(e.text.data()), e.text.size());
            }
            from = e.at + e.length;
        }
        emit(from, held.size());
    }

  private:
    Pipeline &out;
    std::vector<SplicedStream const *> sources; // by marker number
    std::vector<size_t> pending; // markers given out and not yet seen in the output
    std::vector<std::pair<size_t, size_t>> hits; // where each marker is in `held`, and its number
    bool holding = false; // from the first marker on, everything is held until the end
    long long passed = 0; // bytes written out before holding began
    std::string held;

    static bool isDelimiter(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '/' || c == '>' || c == '\t'; }

    void emit(size_t from, size_t to) {
        if (to > from) out.write(reinterpret_cast<unsigned char const *>(held.data()) + from, to - from);
    }
};

void SplicedStream::provideStreamData(QPDFObjGen const &, Pipeline *pipeline) {
    if (activeSplicer) {
        auto text = activeSplicer->arm(this);
        pipeline->write(reinterpret_cast<unsigned char const *>(text.data()), text.size());
    } else {
        // Written by no splicer (a document written some other way): given whole, as qpdf
        // would have it.
        emit(*pipeline);
    }
    pipeline->finish();
}

namespace {

class SplicingPipeline : public Pipeline {
  public:
    SplicingPipeline(Splicer &splicer) : Pipeline("swiftprint splicer", nullptr), splicer(splicer) {}
    void write(unsigned char const *data, size_t length) override { splicer.write(data, length); }
    void finish() override {}

  private:
    Splicer &splicer;
};

} // namespace

void writeSpliced(QPDFWriter &writer, Pipeline &out) {
    Splicer splicer(out);
    SplicingPipeline in(splicer);
    writer.setOutputPipeline(&in);
    activeSplicer = &splicer;
    try {
        writer.write();
    } catch (...) {
        activeSplicer = nullptr;
        throw;
    }
    activeSplicer = nullptr;
    splicer.finish();
}

long long splicedStreamMinimum() {
    static const long long minimum = [] {
        const char *given = getenv("SWIFTPRINT_SPLICED_STREAM_MINIMUM");
        return given && *given ? std::max(0LL, std::atoll(given)) : 1LL << 20;
    }();
    return minimum;
}

// Read through a mapping, a photo's pages would stay resident once read: they are given back
// (what qpdf reads again is read again from the file).
static void giveBack(MappedFile *mapping) {
    if (mapping->address != MAP_FAILED) madvise(mapping->address, mapping->length, MADV_DONTNEED);
}

namespace {

// Passes a stream's bytes on, giving the mapping's pages back after every megabyte (qpdf 11
// passes stored bytes on in 10 KB pieces) and at the end: read whole before they were given
// back, a 6.6 MB photo held 3.6 MB of its file resident in the job's process at its peak.
class GivingBackPipeline : public Pipeline {
  public:
    GivingBackPipeline(Pipeline &next, MappedFile *mapping) : Pipeline("swiftprint give back", nullptr), next(next), mapping(mapping) {}
    void write(unsigned char const *data, size_t length) override {
        next.write(data, length);
        passed += length;
        if (passed >= givenBackEvery) {
            giveBack(mapping);
            passed = 0;
        }
    }
    void finish() override {
        next.finish();
        giveBack(mapping);
    }

  private:
    static constexpr size_t givenBackEvery = 1 << 20;
    Pipeline &next;
    MappedFile *mapping;
    size_t passed = 0;
};

} // namespace

void spliceLargeStreams(QPDFObjectHandle resources, SPQDocument &source) {
    auto &seen = source.splicedSearched;
    MappedFile *mapping = &source.mapping;
    if (!resources.isDictionary()) return;
    auto visit = [&](QPDFObjectHandle object) {
        if (!object.isStream() || !object.isIndirect() || !seen.insert(object.getObjGen()).second) return;
        auto dict = object.getDict();
        if (dict.getKey("/Subtype").isNameAndEquals("/Image")) {
            for (auto image : {object, dict.getKey("/SMask")}) {
                if (!image.isStream() || image.getObjGen() != object.getObjGen() && !seen.insert(image.getObjGen()).second) continue;
                // Stored data qpdf's writer passes on as it is: compressed by a filter it does
                // not undo.
                auto filter = image.getDict().getKey("/Filter");
                auto declared = image.getDict().getKey("/Length");
                if (!filter.isName() || !declared.isInteger() || declared.getIntValue() < splicedStreamMinimum()) continue;
                auto name = filter.getName();
                if (name != "/DCTDecode" && name != "/FlateDecode" && name != "/JPXDecode" && name != "/JBIG2Decode") continue;
                // A copy sharing the stored data, read from the file only when the stream is
                // spliced into the output; counted once now (a damaged file's /Length may not be
                // what qpdf reads), none of it kept.
                auto stored = image.copyStream();
                Pl_Discard discard;
                Pl_Count counted("swiftprint stored length", &discard);
                GivingBackPipeline counting(counted, mapping);
                bool decoded = false; // none asked
                bool read = stored.pipeStreamData(&counting, &decoded, 0, qpdf_dl_none, true, false);
                if (!read) continue;
                auto parms = image.getDict().getKey("/DecodeParms");
                image.replaceStreamData(std::make_shared<SplicedStream>(
                                            [stored, mapping](Pipeline &p) mutable {
                                                bool decoded = false;
                                                GivingBackPipeline passing(p, mapping);
                                                if (!stored.pipeStreamData(&passing, &decoded, 0, qpdf_dl_none, true, false)) {
                                                    throw std::runtime_error("a photo's stored bytes cannot be read again");
                                                }
                                            },
                                            (long long)counted.getCount()),
                                        filter, parms);
                image.setFilterOnWrite(false);
            }
        } else {
            spliceLargeStreams(dict.getKey("/Resources"), source);
        }
    };
    for (auto const &kind : {"/XObject", "/Pattern"}) {
        auto group = resources.getKey(kind);
        if (!group.isDictionary()) continue;
        for (auto const &key : group.getKeys()) visit(group.getKey(key));
    }
}

} // namespace spq

#pragma GCC visibility pop

// Images for the assembler engine: JPEGs stored byte for byte (read from their files only
// when the document is written), other images compressed as their rows come.
#include "engine.h"

#include <exception>

#pragma GCC visibility push(hidden)

namespace {

using spq::guarded;

QPDFObjectHandle colorSpace(QPDF &pdf, SPQImageInfo const &info, std::string const &icc) {
    char const *device = info.components == 1 ? "/DeviceGray" : info.components == 4 ? "/DeviceCMYK" : "/DeviceRGB";
    if (icc.empty()) return QPDFObjectHandle::newName(device);
    auto profile = pdf.newStream(icc);
    profile.getDict().replaceKey("/N", QPDFObjectHandle::newInteger(info.components));
    profile.getDict().replaceKey("/Alternate", QPDFObjectHandle::newName(device));
    auto array = QPDFObjectHandle::newArray();
    array.appendItem(QPDFObjectHandle::newName("/ICCBased"));
    array.appendItem(profile);
    return array;
}

QPDFObjectHandle imageDictionary(QPDF &pdf, SPQImageInfo const &info, std::string const &icc) {
    auto dict = QPDFObjectHandle::newDictionary();
    dict.replaceKey("/Type", QPDFObjectHandle::newName("/XObject"));
    dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/Image"));
    dict.replaceKey("/Width", QPDFObjectHandle::newInteger(info.width));
    dict.replaceKey("/Height", QPDFObjectHandle::newInteger(info.height));
    dict.replaceKey("/BitsPerComponent", QPDFObjectHandle::newInteger(info.bitsPerComponent));
    if (info.interpolate) dict.replaceKey("/Interpolate", QPDFObjectHandle::newBool(true));
    dict.replaceKey("/ColorSpace", colorSpace(pdf, info, icc));
    if (info.invertCMYK && info.components == 4) dict.replaceKey("/Decode", QPDFObjectHandle::parse("[1 0 1 0 1 0 1 0]"));
    return dict;
}

void copyDictionary(QPDFObjectHandle stream, QPDFObjectHandle dict) {
    for (auto const &key : dict.getKeys()) stream.getDict().replaceKey(key, dict.getKey(key));
}

// Gives a supplier's bytes to `pipeline`. An exception thrown by the pipeline (the writer's
// own failure) is caught before it could unwind through the supplier's frames, which are not
// C++, and thrown again once the supplier has returned.
void supply(spq_provide_fn provide, void *context, Pipeline &pipeline) {
    struct Target {
        Pipeline *pipeline;
        std::exception_ptr failure;
    } target{&pipeline, nullptr};
    auto write = [](void *c, const uint8_t *data, size_t length) -> int {
        auto *t = static_cast<Target *>(c);
        try {
            t->pipeline->write(data, length);
            return 0;
        } catch (...) {
            t->failure = std::current_exception();
            return 1;
        }
    };
    int status = provide(context, write, &target);
    if (target.failure) std::rethrow_exception(target.failure);
    if (status != 0) throw std::runtime_error("an image's bytes could not be read again");
}

// A stream whose bytes its supplier gives when the writer asks for them.
class SuppliedStream : public QPDFObjectHandle::StreamDataProvider {
  public:
    SuppliedStream(spq_provide_fn provide, void *context) : provide(provide), context(context) {}

    void provideStreamData(QPDFObjGen const &, Pipeline *pipeline) override {
        supply(provide, context, *pipeline);
        pipeline->finish();
    }

  private:
    spq_provide_fn provide;
    void *context;
};

// Gives `stream` the bytes of a supplier, `length` of them, stored as they are (already
// compressed by `filter`): a long stream is spliced into the output from its supplier
// (spliced_streams.cpp), a short one goes through the writer.
void attachSupplied(QPDFObjectHandle stream, spq_provide_fn provide, void *context, long long length, QPDFObjectHandle filter,
                    QPDFObjectHandle parms) {
    std::shared_ptr<QPDFObjectHandle::StreamDataProvider> data;
    if (length >= spq::splicedStreamMinimum()) {
        data = std::make_shared<spq::SplicedStream>([provide, context](Pipeline &p) { supply(provide, context, p); }, length);
    } else {
        data = std::make_shared<SuppliedStream>(provide, context);
    }
    stream.replaceStreamData(data, filter, parms);
    // Nothing to decode or compress: without this qpdf's writer asks for the bytes twice (a
    // first try at filtering them, then as they are), holding each copy whole.
    stream.setFilterOnWrite(false);
}

} // namespace

namespace spq {

int64_t add_jpeg(SPQDocument *dst, const SPQImageInfo *info, int64_t length, spq_provide_fn provide, void *context, char **error) {
    return guarded<int64_t>(error, -1, [&]() {
        std::string icc = info->icc ? std::string(reinterpret_cast<const char *>(info->icc), info->iccLength) : "";
        auto image = dst->pdf->newStream();
        copyDictionary(image, imageDictionary(*dst->pdf, *info, icc));
        attachSupplied(image, provide, context, length, QPDFObjectHandle::newName("/DCTDecode"), QPDFObjectHandle::newNull());
        return int64_t(image.getObjectID());
    });
}

SPQImageWriter *image_begin(SPQDocument *dst, const SPQImageInfo *info, const SPQImageSpools *spools, char **error) {
    return guarded<SPQImageWriter *>(error, nullptr, [&]() {
        auto w = std::make_unique<SPQImageWriter>();
        w->doc = dst;
        w->info = *info;
        if (info->icc) w->icc.assign(reinterpret_cast<const char *>(info->icc), info->iccLength);
        w->info.icc = nullptr;
        // The Flate stage writes into a spool when there is one, else into memory.
        auto sink = [](spq_write_fn spool, void *context, std::unique_ptr<CallbackPipeline> &spooled,
                       std::unique_ptr<Pl_Buffer> &buffered, char const *name) -> Pipeline * {
            if (spool) {
                spooled = std::make_unique<CallbackPipeline>(spool, context, "cannot spool the image's samples");
                return spooled.get();
            }
            buffered = std::make_unique<Pl_Buffer>(name);
            return buffered.get();
        };
        Pipeline *color = sink(spools ? spools->color : nullptr, spools ? spools->colorContext : nullptr, w->colorSpool, w->colorBuffer, "image");
        w->color = std::make_unique<Pl_Flate>("image flate", color, Pl_Flate::a_deflate);
        if (info->hasAlpha) {
            Pipeline *alpha = sink(spools ? spools->alpha : nullptr, spools ? spools->alphaContext : nullptr, w->alphaSpool, w->alphaBuffer, "alpha");
            w->alpha = std::make_unique<Pl_Flate>("alpha flate", alpha, Pl_Flate::a_deflate);
        }
        return w.release();
    });
}

int image_write(SPQImageWriter *w, const uint8_t *data, size_t length, char **error) {
    return guarded<int>(error, -1, [&]() {
        if (!w->started && w->info.compressionLevel > 0) {
            // qpdf's level is global and read when the stream's zlib state starts, on its
            // first write: set it for that write only.
            Pl_Flate::setCompressionLevel(w->info.compressionLevel);
            try {
                w->color->write(data, length);
            } catch (...) {
                Pl_Flate::setCompressionLevel(-1);
                throw;
            }
            Pl_Flate::setCompressionLevel(-1);
        } else {
            w->color->write(data, length);
        }
        w->started = true;
        return 0;
    });
}

int image_write_alpha(SPQImageWriter *w, const uint8_t *data, size_t length, char **error) {
    return guarded<int>(error, -1, [&]() {
        if (!w->alpha) throw std::logic_error("the image has no alpha channel");
        w->alpha->write(data, length);
        return 0;
    });
}

int64_t image_end(SPQImageWriter *w, const SPQImageSuppliers *suppliers, char **error) {
    std::unique_ptr<SPQImageWriter> owner(w);
    return guarded<int64_t>(error, -1, [&]() {
        QPDF &pdf = *w->doc->pdf;
        auto flate = QPDFObjectHandle::newName("/FlateDecode");
        w->color->finish();
        auto image = pdf.newStream();
        copyDictionary(image, imageDictionary(pdf, w->info, w->icc));
        auto parameters = QPDFObjectHandle::newNull();
        if (w->info.pngPredictor) {
            parameters = QPDFObjectHandle::newDictionary();
            parameters.replaceKey("/Predictor", QPDFObjectHandle::newInteger(15));
            parameters.replaceKey("/Colors", QPDFObjectHandle::newInteger(w->info.components));
            parameters.replaceKey("/BitsPerComponent", QPDFObjectHandle::newInteger(w->info.bitsPerComponent));
            parameters.replaceKey("/Columns", QPDFObjectHandle::newInteger(w->info.width));
        }
        // A spooled stream is already compressed as it should be: written as it comes, once.
        auto store = [&](QPDFObjectHandle stream, CallbackPipeline *spooled, std::unique_ptr<Pl_Buffer> &buffer, spq_provide_fn provide,
                         void *context, QPDFObjectHandle parms) {
            if (spooled) {
                if (!provide) throw std::logic_error("a spooled image needs a supplier");
                attachSupplied(stream, provide, context, spooled->written, flate, parms);
            } else {
                stream.replaceStreamData(buffer->getBufferSharedPointer(), flate, parms);
            }
        };
        store(image, w->colorSpool.get(), w->colorBuffer, suppliers ? suppliers->color : nullptr,
              suppliers ? suppliers->colorContext : nullptr, parameters);
        if (w->alpha) {
            w->alpha->finish();
            SPQImageInfo maskInfo = w->info;
            maskInfo.components = 1;
            maskInfo.bitsPerComponent = w->info.alphaBitsPerComponent ? w->info.alphaBitsPerComponent : 8;
            maskInfo.invertCMYK = 0;
            auto mask = pdf.newStream();
            copyDictionary(mask, imageDictionary(pdf, maskInfo, ""));
            store(mask, w->alphaSpool.get(), w->alphaBuffer, suppliers ? suppliers->alpha : nullptr,
                  suppliers ? suppliers->alphaContext : nullptr, QPDFObjectHandle::newNull());
            image.getDict().replaceKey("/SMask", mask);
        }
        return int64_t(image.getObjectID());
    });
}

void image_abandon(SPQImageWriter *w) { delete w; }

} // namespace spq

#pragma GCC visibility pop

// poppler's process-wide settings, made once for every entry point of the engine.
#pragma once
#include <GlobalParams.h>
#include <memory>
#include <mutex>

__attribute__((visibility("hidden"))) inline void spr_ensure_global_params() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!globalParams) globalParams = std::make_unique<GlobalParams>();
    });
}

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/Summary.h"
#include "core/scenario/GpuFit.h"
#include "core/scenario/KvCurve.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// A point of the cache curves' x or y axis with its label: "context 128K", "W 4K", "room beside
/// the weights on 1 x H100 SXM".
struct KvMarker {
    double value = 0;
    std::string label;
};

/// A curve the scenario's cache is compared with: every layer global, or MLA's latent expanded.
struct KvComparison {
    std::string label; ///< "bf16 if every layer were global", "bf16 per-head K and V (MLA expanded)"
    KvCurve curve;
};

/// Everything the KV cache view shows of an analysis, derived once per change: its text, the cache
/// by layer kind, the curves over context length in each precision, what windows and latent
/// attention save, and the fit on each device. The view draws it and computes nothing.
struct KvFigure {
    /// Not empty: no curve to draw, and this says why: the model keeps no cache (noKvCacheNote()), or
    /// the allocator has no rule for it (KvCacheReport::unsupported).
    std::string noCache;
    std::string subtitle;
    std::string headline;       ///< the whole cache: "16.0 GiB"
    std::string headlineDetail; ///< "at S = 8,192 tokens × batch 1, bf16 cache · 128 KiB per token of context"
    std::vector<std::string> notes;
    std::vector<KvKindShare> shares;
    std::vector<KvCurve> curves;           ///< the cache over context length, one curve per precision
    std::vector<KvComparison> comparisons; ///< what windows and latent attention save, as curves
    std::vector<KvMarker> lengthMarkers;   ///< the context length and each window
    std::vector<KvMarker> roomMarkers;     ///< the room beside the weights, where it meets the curves
    std::vector<GpuFit> fits;              ///< the scenario's devices, then the others (gpuFits())
    std::vector<GpuFitText> fitTexts;      ///< each fit's row, as core words it
};

/// How vLLM or llama.cpp lays the cache out, one sentence per line, llama.cpp's buffers as its log
/// prints them ("K (q8_0): 1166.62 MiB"); empty under the other allocators.
[[nodiscard]] std::vector<std::string> engineLayoutLines(const KvCacheReport& kv);

/// The KV cache view's figure of `analysis`; empty (no text, no curve) for an invalid analysis.
[[nodiscard]] KvFigure kvFigure(const Analysis& analysis);

} // namespace archplay::core

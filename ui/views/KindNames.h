// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"

#include <QString>

#include <cstdint>

namespace archplay::ui::views {

/// Short names of layer kinds as the views label them.
/// "global", "sliding 4096", "chunked 8192", "latent (MLA)", "bidirectional", "local 128".
QString attentionName(const core::LayerPlan& layer);
/// "MLP", "gated", "MoE 8 × top-2".
QString ffnName(const core::ModelConfig& config, core::FfnKind kind);
/// "Layer 12 of 32", "Decoder layer 3 of 6".
QString layerTitle(const core::Analysis& analysis, std::int64_t planIndex);
/// "global · gated", from the two names above.
QString kindName(const core::ModelConfig& config, const core::LayerPlan& layer);

/// Exact count with thousands separators, and the short form: "8,030,261,248", "8.03B".
QString exactCount(std::uint64_t value);
QString shortCount(std::uint64_t value);
/// A number of tokens as people write context lengths: "8K", "128K", "4,000".
QString tokenCount(std::uint64_t tokens);
/// "128 KiB".
QString bytesText(std::uint64_t bytes);
/// part / whole as core::percentText() writes it: "27.6%", "0.14%", "< 0.01%".
QString percentText(std::uint64_t part, std::uint64_t whole);

} // namespace archplay::ui::views

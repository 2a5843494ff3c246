// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/DesignFigures.h"

#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {

const std::vector<DesignFigureInfo>& designFigures() {
    using F = DesignFigure;
    using U = FigureUnit;
    static const std::vector<DesignFigureInfo> figures = {
        {F::TotalParams, "total_params", "Total parameters", U::Count, true, false, false},
        {F::ActiveParams, "active_params", "Active parameters", U::Count, true, false, false},
        {F::KvBytesPerToken, "kv_bytes_per_token", "KV cache per token", U::Bytes, true, false, false},
        {F::KvBytesScenario, "kv_bytes", "KV cache at the scenario", U::Bytes, true, false, false},
        {F::WeightBytes, "weight_bytes", "Weight memory", U::Bytes, true, false, false},
        {F::FlopsPerToken, "flops_per_token", "FLOPs per token", U::Flops, true, true, false},
        {F::PrefillFlops, "prefill_flops", "Prefill FLOPs", U::Flops, true, true, false},
        {F::TrainingFlops, "training_flops", "Training FLOPs", U::Flops, true, true, false},
        {F::ServingBytes, "serving_bytes", "Serving memory", U::Bytes, true, true, false},
        {F::TrainingBytesPerGpu, "training_bytes_per_gpu", "Training memory per GPU", U::Bytes, true, true, false},
        {F::DecodeTokensPerSecond, "decode_tokens_per_second", "Decode speed (upper bound)", U::TokensPerSecond, false,
         true, true},
        {F::TimeToFirstToken, "time_to_first_token", "Time to first token (lower bound)", U::Seconds, true, true, true},
    };
    return figures;
}

const DesignFigureInfo& figureInfo(DesignFigure figure) {
    return designFigures()[static_cast<std::size_t>(figure)];
}

std::optional<DesignFigure> figureFromKey(std::string_view key) {
    const auto& figures = designFigures();
    const auto it = std::find_if(figures.begin(), figures.end(), [key](const auto& f) { return f.key == key; });
    if (it == figures.end()) {
        return std::nullopt;
    }
    return it->figure;
}

std::optional<double> figureValue(const Analysis& analysis, DesignFigure figure) {
    if (!analysis.valid || analysis.params.overflow) {
        return std::nullopt;
    }
    if (figureInfo(figure).isCost && !analysis.costsValid) {
        return std::nullopt;
    }
    const bool keepsCache = analysis.config.hasDecoder();
    switch (figure) {
    case DesignFigure::TotalParams:
        return double(analysis.params.total);
    case DesignFigure::ActiveParams:
        return double(analysis.params.active);
    case DesignFigure::KvBytesPerToken:
        if (!keepsCache || analysis.kv.overflow) {
            return std::nullopt;
        }
        return double(analysis.kv.bytesPerToken);
    case DesignFigure::KvBytesScenario:
        if (!keepsCache || analysis.kv.overflow) {
            return std::nullopt;
        }
        return double(analysis.kv.totalBytes);
    case DesignFigure::WeightBytes:
        if (analysis.weights.overflow) {
            return std::nullopt;
        }
        return double(analysis.weightBytes);
    case DesignFigure::FlopsPerToken:
        return double(analysis.compute.perToken);
    case DesignFigure::PrefillFlops:
        return analysis.compute.prefill;
    case DesignFigure::TrainingFlops:
        return analysis.compute.trainingFlops;
    case DesignFigure::ServingBytes:
        return double(analysis.serving.totalBytes);
    case DesignFigure::TrainingBytesPerGpu:
        return double(analysis.training.gpuTotalBytes);
    case DesignFigure::DecodeTokensPerSecond:
        if (!keepsCache || !analysis.speed.fits) { // no speed for a batch that does not fit
            return std::nullopt;
        }
        return analysis.speed.scenario.tokensPerSecond;
    case DesignFigure::TimeToFirstToken:
        if (!keepsCache || !analysis.speed.fits) {
            return std::nullopt;
        }
        return analysis.speed.timeToFirstToken;
    }
    return std::nullopt;
}

std::string absentFigureText(const Analysis& analysis, DesignFigure figure) {
    const bool speed = figure == DesignFigure::DecodeTokensPerSecond || figure == DesignFigure::TimeToFirstToken;
    return speed && analysis.valid && analysis.costsValid && !analysis.speed.fits ? std::string(kDoesNotFit) : "\u2014";
}

namespace {

/// A whole, non-negative value that a uint64 holds exactly enough to print in full.
std::optional<std::uint64_t> asCount(double value) {
    if (!(value >= 0) || value >= 18446744073709551615.0 || std::floor(value) != value) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(value);
}

} // namespace

std::string figureText(DesignFigure figure, double value) {
    switch (figureInfo(figure).unit) {
    case FigureUnit::Count:
        if (const auto count = asCount(value)) {
            return shortCount(*count);
        }
        break;
    case FigureUnit::Bytes:
        if (const auto count = asCount(value)) {
            return binaryBytes(*count);
        }
        break;
    case FigureUnit::Flops:
        return flopText(value);
    case FigureUnit::TokensPerSecond:
        return tokenRateText(value);
    case FigureUnit::Seconds:
        return durationText(value);
    }
    return fmt::format("{:.4g}", value); // a count or byte size that is not a whole number
}

std::string figureExactText(DesignFigure figure, double value) {
    const FigureUnit unit = figureInfo(figure).unit;
    if (unit == FigureUnit::Count || unit == FigureUnit::Bytes) {
        if (const auto count = asCount(value)) {
            return withThousands(*count);
        }
    }
    return figureText(figure, value);
}

std::string figureDifferenceText(DesignFigure figure, double difference) {
    if (difference == 0) {
        return "0";
    }
    return (difference > 0 ? "+" : "-") + figureText(figure, std::fabs(difference));
}

std::string figureDifferenceExactText(DesignFigure figure, double difference) {
    if (difference == 0) {
        return "0";
    }
    return (difference > 0 ? "+" : "-") + figureExactText(figure, std::fabs(difference));
}

} // namespace archplay::core

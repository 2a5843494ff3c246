// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooQuery.h"

#include "core/analysis/DesignFigures.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

namespace archplay::core {
namespace {

/// How a numeric column's value reads.
enum class Shape { Count, Bytes, Whole, Ratio, Flops, Speed, Layers };

Shape shapeOf(ZooColumn column) {
    switch (column) {
    case ZooColumn::TotalParams:
    case ZooColumn::ActiveParams:
    case ZooColumn::PublishedParams:
        return Shape::Count;
    case ZooColumn::KvBytesPerToken:
    case ZooColumn::KvTotalBytes:
    case ZooColumn::WeightBytes:
        return Shape::Bytes;
    case ZooColumn::FfnRatio:
        return Shape::Ratio;
    case ZooColumn::FlopsPerToken:
        return Shape::Flops;
    case ZooColumn::DecodeTokensPerSecond:
        return Shape::Speed;
    case ZooColumn::LayersRule12:
    case ZooColumn::LayersRule12Error:
    case ZooColumn::LayersPerLayer:
    case ZooColumn::LayersPerLayerError:
        return Shape::Layers;
    default:
        return Shape::Whole;
    }
}

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::optional<double> decimal(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return text;
}

/// "2024-04", "2026", or empty: the release date as the preset records it.
std::string releasedText(const ZooRow& row) {
    if (!row.counted() || !row.released) {
        return {};
    }
    return row.released->month == 0 ? fmt::format("{}", row.released->year)
                                    : fmt::format("{}-{:02}", row.released->year, row.released->month);
}

/// True when a kind ("hybrid+moe") is `wanted` ("moe") or has it among its "+"-joined parts.
bool hasKind(std::string_view kind, std::string_view wanted) {
    if (kind == wanted) {
        return true;
    }
    for (std::size_t start = 0; start <= kind.size();) {
        const std::size_t plus = std::min(kind.find('+', start), kind.size());
        if (kind.substr(start, plus - start) == wanted) {
            return true;
        }
        start = plus + 1;
    }
    return false;
}

/// -1, 0 or 1 as a is less than, equal to or greater than b.
template <typename T> int compare(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

} // namespace

const std::vector<ZooColumnInfo>& zooColumns() {
    static const std::vector<ZooColumnInfo> columns = {
        {ZooColumn::Source, "id", "Source", false},
        {ZooColumn::Origin, "origin", "Origin", false},
        {ZooColumn::Snapshot, "snapshot", "Snapshot", false},
        {ZooColumn::Name, "name", "Model", false},
        {ZooColumn::Family, "family", "Family", false},
        {ZooColumn::Released, "released", "Released", true},
        {ZooColumn::ModelType, "model_type", "model_type", false},
        {ZooColumn::Architecture, "architecture", "Architecture", false},
        {ZooColumn::Kind, "kind", "Kind", false},
        {ZooColumn::Status, "status", "Status", false},
        {ZooColumn::Layers, "layers", "Layers", true},
        {ZooColumn::HiddenSize, "hidden_size", "Hidden", true},
        {ZooColumn::Heads, "heads", "Heads", true},
        {ZooColumn::KvHeads, "kv_heads", "KV heads", true},
        {ZooColumn::HeadDim, "head_dim", "Head dim", true},
        {ZooColumn::Attention, "attention", "Attention", false},
        {ZooColumn::Ffn, "ffn", "FFN", false},
        {ZooColumn::FfnRatio, "ffn_ratio", "FFN ratio", true},
        {ZooColumn::Experts, "experts", "Experts", true},
        {ZooColumn::TopK, "top_k", "Top-k", true},
        {ZooColumn::Vocab, "vocab", "Vocabulary", true},
        {ZooColumn::Context, "context", "Context", true},
        {ZooColumn::TotalParams, "total_params", "Total parameters", true},
        {ZooColumn::ActiveParams, "active_params", "Active parameters", true},
        {ZooColumn::PublishedParams, "published_params", "Published", true},
        {ZooColumn::MatchesPublished, "matches_published", "Match", false},
        {ZooColumn::KvBytesPerToken, "kv_bytes_per_token", "KV per token", true},
        {ZooColumn::KvTotalBytes, "kv_total_bytes", "KV (scenario)", true},
        {ZooColumn::WeightBytes, "weight_bytes", "Weights", true},
        {ZooColumn::WeightFormat, "weight_format", "Weight format", false},
        {ZooColumn::WeightsAsShipped, "weights_as_shipped", "As shipped", false},
        {ZooColumn::Fits, "fits", "Fits", false},
        {ZooColumn::GpuFit, "gpu_fit", "GPU fit", false},
        {ZooColumn::FlopsPerToken, "flops_per_token", "FLOPs per token", true},
        {ZooColumn::DecodeTokensPerSecond, "decode_tokens_per_second", "Decode (upper bound)", true},
        {ZooColumn::LayersRule12, "layers_rule12", "Layers by 12·L·d²", true},
        {ZooColumn::LayersRule12Error, "layers_rule12_error", "12·L·d² error", true},
        {ZooColumn::LayersPerLayer, "layers_per_layer", "Layers by per-layer count", true},
        {ZooColumn::LayersPerLayerError, "layers_per_layer_error", "Per-layer error", true},
        {ZooColumn::Reason, "reason", "Reason", false},
    };
    return columns;
}

const ZooColumnInfo& zooColumnInfo(ZooColumn column) {
    return zooColumns()[static_cast<std::size_t>(column)];
}

std::optional<ZooColumn> zooColumnFromKey(std::string_view key) {
    if (key == "params") {
        return ZooColumn::TotalParams;
    }
    for (const ZooColumnInfo& info : zooColumns()) {
        if (info.key == key) {
            return info.column;
        }
    }
    return std::nullopt;
}

std::optional<double> zooNumber(const ZooRow& row, ZooColumn column) {
    if (!row.counted()) {
        return std::nullopt;
    }
    const auto whole = [](auto value) {
        return std::optional<double>(static_cast<double>(value));
    };
    const ZooLayerEstimate& estimate = row.layerEstimate;
    const bool estimated = estimate.perLayerParams > 0;
    switch (column) {
    case ZooColumn::Released:
        return row.released ? whole(row.released->year) : std::nullopt;
    case ZooColumn::Layers:
        return whole(row.layers());
    case ZooColumn::HiddenSize:
        return whole(row.hiddenSize);
    case ZooColumn::Heads:
        return whole(row.heads);
    case ZooColumn::KvHeads:
        return whole(row.kvHeads);
    case ZooColumn::HeadDim:
        return whole(row.headDim);
    case ZooColumn::FfnRatio:
        return row.ffnRatio;
    case ZooColumn::Experts:
        return whole(row.experts);
    case ZooColumn::TopK:
        return whole(row.topK);
    case ZooColumn::Vocab:
        return whole(row.vocabSize);
    case ZooColumn::Context:
        return whole(row.context);
    case ZooColumn::TotalParams:
        return whole(row.totalParams);
    case ZooColumn::ActiveParams:
        return whole(row.activeParams);
    case ZooColumn::PublishedParams:
        return row.publishedParams ? whole(*row.publishedParams) : std::nullopt;
    case ZooColumn::KvBytesPerToken:
        return whole(row.kvBytesPerToken);
    case ZooColumn::KvTotalBytes:
        return whole(row.kvTotalBytes);
    case ZooColumn::WeightBytes:
        return whole(row.weightBytes);
    case ZooColumn::FlopsPerToken:
        return row.flopsPerToken;
    case ZooColumn::DecodeTokensPerSecond:
        return row.decodeTokensPerSecond;
    case ZooColumn::LayersRule12:
        return estimated ? std::optional<double>(estimate.rule12) : std::nullopt;
    case ZooColumn::LayersRule12Error:
        return estimated ? std::optional<double>(estimate.rule12 - static_cast<double>(row.layers())) : std::nullopt;
    case ZooColumn::LayersPerLayer:
        return estimated ? std::optional<double>(estimate.perLayer) : std::nullopt;
    case ZooColumn::LayersPerLayerError:
        return estimated ? std::optional<double>(estimate.perLayer - static_cast<double>(row.layers())) : std::nullopt;
    default:
        return std::nullopt;
    }
}

std::string zooText(const ZooRow& row, ZooColumn column) {
    if (column == ZooColumn::Released) {
        return releasedText(row);
    }
    if (zooColumnInfo(column).numeric) {
        const std::optional<double> value = zooNumber(row, column);
        if (!value) {
            // No speed for a batch the devices cannot hold: say so rather than leave a gap.
            return column == ZooColumn::DecodeTokensPerSecond && row.counted() && !row.fits ? std::string(kDoesNotFit)
                                                                                            : std::string();
        }
        switch (shapeOf(column)) {
        case Shape::Count:
            return shortCount(wholeFigure(*value).value_or(kSaturated));
        case Shape::Bytes:
            return binaryBytes(wholeFigure(*value).value_or(kSaturated));
        case Shape::Ratio:
            return fmt::format("{:.2f}", *value);
        case Shape::Flops:
            return figureText(DesignFigure::FlopsPerToken, *value);
        case Shape::Speed:
            return figureText(DesignFigure::DecodeTokensPerSecond, *value);
        case Shape::Layers:
            return fmt::format("{:.1f}", *value);
        case Shape::Whole:
            return column == ZooColumn::Layers ? row.layersLabel() : fmt::format("{:.0f}", *value);
        }
    }
    switch (column) {
    case ZooColumn::Source:
        return row.id;
    case ZooColumn::Origin:
        return std::string(toString(row.origin));
    case ZooColumn::Snapshot:
        return row.snapshot;
    case ZooColumn::Name:
        return row.name;
    case ZooColumn::Family:
        return row.family;
    case ZooColumn::ModelType:
        return row.modelType;
    case ZooColumn::Architecture:
        return row.architecture;
    case ZooColumn::Kind:
        return row.kind;
    case ZooColumn::Status:
        return std::string(toString(row.status));
    case ZooColumn::Attention:
        return row.attention;
    case ZooColumn::Ffn:
        return row.ffn;
    case ZooColumn::MatchesPublished:
        return row.counted() && row.publishedParams ? (row.matchesPublished ? "yes" : "no") : "";
    case ZooColumn::Fits:
        return row.counted() ? (row.fits ? "yes" : "no") : "";
    case ZooColumn::WeightFormat:
        return row.weightFormat;
    case ZooColumn::WeightsAsShipped:
        return row.counted() && row.weightsAsShipped ? "yes" : "";
    case ZooColumn::GpuFit:
        return row.fit;
    case ZooColumn::Reason:
        return row.reason;
    default:
        return {};
    }
}

namespace {

/// A whole figure as the CSV writes it: its digits, or "beyond 2^64 - 1" for a saturated one.
std::string exactFigure(std::uint64_t value) {
    return value == kSaturated ? std::string(kBeyondText) : std::to_string(value);
}

} // namespace

std::string zooExactText(const ZooRow& row, ZooColumn column) {
    if (!zooColumnInfo(column).numeric || column == ZooColumn::Released) {
        return zooText(row, column);
    }
    const std::optional<double> value = zooNumber(row, column);
    if (!value) {
        return {};
    }
    switch (column) {
    case ZooColumn::TotalParams:
        return exactFigure(row.totalParams);
    case ZooColumn::ActiveParams:
        return exactFigure(row.activeParams);
    case ZooColumn::PublishedParams:
        return exactFigure(*row.publishedParams);
    case ZooColumn::KvBytesPerToken:
        return exactFigure(row.kvBytesPerToken);
    case ZooColumn::KvTotalBytes:
        return exactFigure(row.kvTotalBytes);
    case ZooColumn::WeightBytes:
        return exactFigure(row.weightBytes);
    default:
        break;
    }
    if (std::floor(*value) == *value && std::fabs(*value) < 1e18) {
        return fmt::format("{:.0f}", *value);
    }
    std::string text = fmt::format("{:.4f}", *value);
    text.erase(text.find_last_not_of('0') + 1);
    return text;
}

ZooFilterParse parseZooFilter(std::string_view text) {
    ZooFilterParse result;
    ZooFilter filter;
    static constexpr std::array<std::pair<std::string_view, ZooOp>, 7> kOps = {{
        {"!=", ZooOp::NotEqual},
        {"<=", ZooOp::LessEqual},
        {">=", ZooOp::GreaterEqual},
        {"=", ZooOp::Equal},
        {"<", ZooOp::Less},
        {">", ZooOp::Greater},
        {"~", ZooOp::Contains},
    }};
    if (trim(text).empty()) {
        result.filter = std::move(filter);
        return result;
    }
    for (std::size_t start = 0;;) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view clause = trim(text.substr(start, comma - start));
        start = comma + 1;
        const auto fail = [&](const std::string& why) {
            result.error = fmt::format("clause '{}': {}", clause, why);
            return result;
        };
        if (clause.empty()) {
            return fail("empty (two commas in a row, or a comma at an end)");
        }
        const std::size_t at = clause.find_first_of("=!<>~");
        if (at == std::string_view::npos) {
            return fail("no comparison (one of = != < <= > >= ~)");
        }
        ZooClause parsed{};
        std::size_t opLength = 0;
        for (const auto& [symbol, op] : kOps) {
            if (clause.substr(at).starts_with(symbol)) {
                parsed.op = op;
                opLength = symbol.size();
                break;
            }
        }
        if (opLength == 0) {
            return fail("no comparison (one of = != < <= > >= ~)");
        }
        const std::string_view key = trim(clause.substr(0, at));
        const std::optional<ZooColumn> column = zooColumnFromKey(key);
        if (!column) {
            return fail(fmt::format("no column '{}' (see the column keys)", key));
        }
        parsed.column = *column;
        parsed.text = std::string(trim(clause.substr(at + opLength)));
        const bool numeric = zooColumnInfo(*column).numeric;
        if (parsed.op != ZooOp::Contains && numeric) {
            if (const std::optional<std::uint64_t> count = parseCount(parsed.text)) {
                parsed.number = static_cast<double>(*count);
            } else if (!(parsed.number = decimal(parsed.text))) {
                return fail(fmt::format("'{}' is not a number (7B, 350M, 4096, 0.5)", parsed.text));
            }
        } else if (!numeric && parsed.op != ZooOp::Equal && parsed.op != ZooOp::NotEqual &&
                   parsed.op != ZooOp::Contains) {
            return fail(fmt::format("{} is text: use =, != or ~", key));
        }
        filter.clauses.push_back(std::move(parsed));
        if (comma >= text.size()) {
            break;
        }
    }
    result.filter = std::move(filter);
    return result;
}

bool zooMatches(const ZooRow& row, const ZooFilter& filter) {
    for (const ZooClause& clause : filter.clauses) {
        if (clause.op == ZooOp::Contains) {
            if (lowered(zooText(row, clause.column)).find(lowered(clause.text)) == std::string::npos) {
                return false;
            }
            continue;
        }
        int order = 0;
        if (clause.number) {
            const std::optional<double> value = zooNumber(row, clause.column);
            if (!value) {
                return false;
            }
            order = compare(*value, *clause.number);
        } else if (clause.column == ZooColumn::Kind && (clause.op == ZooOp::Equal || clause.op == ZooOp::NotEqual)) {
            order = hasKind(lowered(row.kind), lowered(clause.text)) ? 0 : 1;
        } else {
            order = compare(lowered(zooText(row, clause.column)), lowered(clause.text));
        }
        bool holds = false;
        switch (clause.op) {
        case ZooOp::Equal:
            holds = order == 0;
            break;
        case ZooOp::NotEqual:
            holds = order != 0;
            break;
        case ZooOp::Less:
            holds = order < 0;
            break;
        case ZooOp::LessEqual:
            holds = order <= 0;
            break;
        case ZooOp::Greater:
            holds = order > 0;
            break;
        case ZooOp::GreaterEqual:
            holds = order >= 0;
            break;
        case ZooOp::Contains:
            break;
        }
        if (!holds) {
            return false;
        }
    }
    return true;
}

std::vector<std::size_t> filterZoo(const std::vector<ZooRow>& rows, const ZooFilter& filter) {
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (zooMatches(rows[i], filter)) {
            kept.push_back(i);
        }
    }
    return kept;
}

void sortZoo(const std::vector<ZooRow>& rows, std::vector<std::size_t>& order, ZooColumn column, bool descending) {
    if (zooColumnInfo(column).numeric) {
        std::vector<std::optional<double>> keys(rows.size());
        for (std::size_t i : order) {
            keys[i] = column == ZooColumn::Released && rows[i].counted() && rows[i].released
                          ? std::optional<double>(rows[i].released->years())
                          : zooNumber(rows[i], column);
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            if (!keys[a] || !keys[b]) {
                return keys[a].has_value() && !keys[b].has_value();
            }
            return descending ? *keys[b] < *keys[a] : *keys[a] < *keys[b];
        });
        return;
    }
    std::vector<std::string> keys(rows.size());
    for (std::size_t i : order) {
        keys[i] = lowered(zooText(rows[i], column));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (keys[a].empty() || keys[b].empty()) {
            return !keys[a].empty() && keys[b].empty();
        }
        return descending ? keys[b] < keys[a] : keys[a] < keys[b];
    });
}

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The columns of the model zoo, and the filter and sort over its rows: pure functions shared by
// archplay-cli zoo and the window.

#include "core/report/ModelZoo.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A column of the zoo.
enum class ZooColumn {
    Source,
    Origin,
    Snapshot,
    Name,
    Family,
    Released,
    ModelType,
    Architecture,
    Kind,
    Status,
    Layers,
    HiddenSize,
    Heads,
    KvHeads,
    HeadDim,
    Attention,
    Ffn,
    FfnRatio,
    Experts,
    TopK,
    Vocab,
    Context,
    TotalParams,
    ActiveParams,
    PublishedParams,
    MatchesPublished,
    KvBytesPerToken,
    KvTotalBytes,
    WeightBytes,
    WeightFormat,
    WeightsAsShipped,
    Fits,
    GpuFit,
    FlopsPerToken,
    DecodeTokensPerSecond,
    LayersRule12,
    LayersRule12Error,
    LayersPerLayer,
    LayersPerLayerError,
    Reason,
};

/// What the program says about a column.
struct ZooColumnInfo {
    ZooColumn column;
    std::string_view key;   ///< stable machine name, the filter and sort key and the CSV/JSON name: "total_params"
    std::string_view label; ///< "Total parameters"
    bool numeric;           ///< compared as a number (zooNumber()); else as text (zooText())
};

/// Every column, in display order.
[[nodiscard]] const std::vector<ZooColumnInfo>& zooColumns();
[[nodiscard]] const ZooColumnInfo& zooColumnInfo(ZooColumn column);
/// The column whose key is `key`, or nullopt.
[[nodiscard]] std::optional<ZooColumn> zooColumnFromKey(std::string_view key);

/// A numeric column's value, or nullopt: a text column, a row not counted, a value the row does not
/// have (no experts in a dense model: 0, not nullopt; no published count or release date: nullopt).
/// Errors are estimate − real layers. Released is the year, so "released=2024" holds for a model of
/// April 2024; it sorts by year and month.
[[nodiscard]] std::optional<double> zooNumber(const ZooRow& row, ZooColumn column);
/// The value as the program shows it: counts short ("8.03B"), bytes binary ("128 KiB"), FLOPs and
/// speeds as DesignFigures writes them, layer estimates with one decimal, release dates as recorded
/// ("2024-04", "2026"); empty when there is none.
[[nodiscard]] std::string zooText(const ZooRow& row, ZooColumn column);
/// The value as CSV writes it: whole numbers in full ("8030261248"), fractions with up to 4
/// decimals; zooText() for text columns; empty when there is none.
[[nodiscard]] std::string zooExactText(const ZooRow& row, ZooColumn column);

/// A comparison of a filter clause. Contains is "~": case-insensitive substring of zooText().
enum class ZooOp { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, Contains };

/// One clause: `key op value`.
struct ZooClause {
    ZooColumn column;
    ZooOp op;
    std::string text;             ///< the value as written
    std::optional<double> number; ///< the value as a number, for a numeric column (not for ~)
};

/// Clauses that must all hold.
struct ZooFilter {
    std::vector<ZooClause> clauses;
};

/// What parseZooFilter() read: the filter, or an error naming the clause.
struct ZooFilterParse {
    std::optional<ZooFilter> filter;
    std::string error; ///< "clause 'params>7Q': '7Q' is not a number (7B, 350M, 0.5, 4096)"
};

/// Reads "kind=moe,total_params>7B,family~llama": clauses separated by commas, each `key op value`
/// with op one of = != < <= > >= ~, key a zooColumns() key ("params" is accepted for total_params).
/// kind=moe also keeps hybrid+moe rows, and kind=hybrid too: "+" joins the kinds a row has.
/// A numeric column's value is a count (parseCount(): "7B", "350M", "4096") or a decimal ("1.5");
/// text columns take =, != (case-insensitive) and ~ only. An empty text is a filter that keeps every
/// row. Never throws.
[[nodiscard]] ZooFilterParse parseZooFilter(std::string_view text);

/// True when the row satisfies every clause. A numeric clause never holds for a row without the value
/// (a row not counted, no published count), whatever the op, != included.
[[nodiscard]] bool zooMatches(const ZooRow& row, const ZooFilter& filter);

/// The indices of the rows that satisfy the filter, in row order.
[[nodiscard]] std::vector<std::size_t> filterZoo(const std::vector<ZooRow>& rows, const ZooFilter& filter);

/// Sorts `order` (indices into `rows`) by a column: numbers numerically, text case-insensitively;
/// rows without a value last in both directions; ties keep their order (stable).
void sortZoo(const std::vector<ZooRow>& rows, std::vector<std::size_t>& order, ZooColumn column,
             bool descending = false);

} // namespace archplay::core

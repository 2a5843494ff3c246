// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooQuery.h"

#include "core/analysis/DesignFigures.h"
#include "tests/support/TestSupport.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

namespace archplay::test {
namespace {

TEST(ZooQuery, EveryColumnHasOneKeyAndItsOwnPlace) {
    std::set<std::string_view> keys;
    for (std::size_t i = 0; i < core::zooColumns().size(); ++i) {
        const core::ZooColumnInfo& info = core::zooColumns()[i];
        EXPECT_EQ(static_cast<std::size_t>(info.column), i) << info.key;
        EXPECT_TRUE(keys.insert(info.key).second) << info.key;
        EXPECT_EQ(core::zooColumnFromKey(info.key), info.column);
    }
    EXPECT_EQ(core::zooColumnFromKey("params"), core::ZooColumn::TotalParams);
    EXPECT_FALSE(core::zooColumnFromKey("colour"));
}

TEST(ZooQuery, ParsesClausesWithCountsAndText) {
    const core::ZooFilterParse parsed = core::parseZooFilter("kind=moe, params>7B ,family~llama,ffn_ratio<=2.5");
    ASSERT_TRUE(parsed.filter) << parsed.error;
    const auto& clauses = parsed.filter->clauses;
    ASSERT_EQ(clauses.size(), 4u);
    EXPECT_EQ(clauses[0].column, core::ZooColumn::Kind);
    EXPECT_EQ(clauses[0].op, core::ZooOp::Equal);
    EXPECT_EQ(clauses[0].text, "moe");
    EXPECT_FALSE(clauses[0].number);
    EXPECT_EQ(clauses[1].column, core::ZooColumn::TotalParams);
    EXPECT_EQ(clauses[1].op, core::ZooOp::Greater);
    EXPECT_EQ(clauses[1].number, 7e9);
    EXPECT_EQ(clauses[2].op, core::ZooOp::Contains);
    EXPECT_EQ(clauses[3].op, core::ZooOp::LessEqual);
    EXPECT_EQ(clauses[3].number, 2.5);
    EXPECT_TRUE(core::parseZooFilter("  ").filter->clauses.empty());
}

TEST(ZooQuery, ErrorsNameTheClause) {
    auto error = [](const std::string& text) {
        return core::parseZooFilter(text).error;
    };
    EXPECT_EQ(error("kind=moe,params>7Q"), "clause 'params>7Q': '7Q' is not a number (7B, 350M, 4096, 0.5)");
    EXPECT_EQ(error("colour=red"), "clause 'colour=red': no column 'colour' (see the column keys)");
    EXPECT_EQ(error("family>l"), "clause 'family>l': family is text: use =, != or ~");
    EXPECT_EQ(error("kind"), "clause 'kind': no comparison (one of = != < <= > >= ~)");
    EXPECT_EQ(error("kind=moe,,layers>2"), "clause '': empty (two commas in a row, or a comma at an end)");
    EXPECT_FALSE(core::parseZooFilter("params>7Q").filter);
}

TEST(ZooQuery, FilterKeepsExactlyTheRowsThatSatisfyEveryClause) {
    const core::ModelZoo zoo = core::modelZoo({});
    const std::vector<std::size_t> kept =
        core::filterZoo(zoo.rows, *core::parseZooFilter("kind=MoE,params>7B,family~qwen").filter);
    std::vector<std::size_t> expected;
    for (std::size_t i = 0; i < zoo.rows.size(); ++i) {
        const core::ZooRow& row = zoo.rows[i];
        // kind=moe keeps the hybrid stacks that route too (Qwen3-Next: "hybrid+moe").
        if ((row.kind == "moe" || row.kind == "hybrid+moe") && row.totalParams > 7'000'000'000u &&
            (row.family.find("Qwen") != std::string::npos || row.family.find("qwen") != std::string::npos)) {
            expected.push_back(i);
        }
    }
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(kept, expected);

    // A numeric clause never holds without the value: != keeps only presets with a published count.
    for (std::size_t i : core::filterZoo(zoo.rows, *core::parseZooFilter("published_params!=1").filter)) {
        EXPECT_TRUE(zoo.rows[i].publishedParams) << zoo.rows[i].id;
    }
    EXPECT_EQ(core::filterZoo(zoo.rows, {}).size(), zoo.rows.size());
}

TEST(ZooQuery, SortsByNumbersAndTextWithMissingValuesLast) {
    const core::ModelZoo zoo = core::modelZoo({});
    std::vector<std::size_t> order(zoo.rows.size());
    std::iota(order.begin(), order.end(), 0);

    core::sortZoo(zoo.rows, order, core::ZooColumn::KvBytesPerToken, true);
    for (std::size_t i = 1; i < order.size(); ++i) {
        EXPECT_GE(zoo.rows[order[i - 1]].kvBytesPerToken, zoo.rows[order[i]].kvBytesPerToken);
    }
    core::sortZoo(zoo.rows, order, core::ZooColumn::Family);
    for (std::size_t i = 1; i < order.size(); ++i) {
        std::string a = zoo.rows[order[i - 1]].family;
        std::string b = zoo.rows[order[i]].family;
        std::transform(a.begin(), a.end(), a.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::transform(b.begin(), b.end(), b.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        EXPECT_LE(a, b);
    }
    for (bool descending : {false, true}) {
        core::sortZoo(zoo.rows, order, core::ZooColumn::PublishedParams, descending);
        const auto firstMissing =
            std::find_if(order.begin(), order.end(), [&](std::size_t i) { return !zoo.rows[i].publishedParams; });
        ASSERT_NE(firstMissing, order.end());
        EXPECT_TRUE(
            std::none_of(firstMissing, order.end(), [&](std::size_t i) { return zoo.rows[i].publishedParams; }));
    }
}

TEST(ZooQuery, TextAndExactTextOfOneRow) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooRow& llama =
        *std::find_if(zoo.rows.begin(), zoo.rows.end(), [](const core::ZooRow& r) { return r.id == "llama-3-8b"; });
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::TotalParams), "8.03B");
    EXPECT_EQ(core::zooExactText(llama, core::ZooColumn::TotalParams), "8030261248");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::KvBytesPerToken), "128 KiB");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::FfnRatio), "3.50");
    EXPECT_EQ(core::zooExactText(llama, core::ZooColumn::FfnRatio), "3.5");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::Status), "exact");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::Origin), "preset");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::FlopsPerToken),
              core::figureText(core::DesignFigure::FlopsPerToken, *llama.flopsPerToken));
}

} // namespace
} // namespace archplay::test

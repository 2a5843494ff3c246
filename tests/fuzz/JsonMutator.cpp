// SPDX-License-Identifier: GPL-3.0-or-later
// A structure-aware mutator for the JSON targets. Byte mutations rarely build what breaks a reader of
// sizes: two fields at 2^40 whose product passes 2^64, or nesting far past the limit. One mutation in
// four parses the input and either sets one or two numbers anywhere in it to an edge value, or replaces
// a value by arrays nested 63 to 100,000 deep; the others are libFuzzer's own.
#include "core/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

using nlohmann::json;

/// Every number and every member value, depth first.
void collectValues(json& value, std::vector<json*>& numbers, std::vector<json*>& members) {
    if (value.is_number()) {
        numbers.push_back(&value);
    }
    if (value.is_structured()) {
        for (json& child : value) {
            members.push_back(&child);
            collectValues(child, numbers, members);
        }
    }
}

json edgeNumber(std::minstd_rand& random) {
    static const json kEdges[] = {0,
                                  -1,
                                  1,
                                  std::int64_t{1} << 31,
                                  (std::int64_t{1} << 32) + 1,
                                  std::int64_t{1} << 40,
                                  std::int64_t{1} << 62,
                                  INT64_MAX,
                                  INT64_MIN,
                                  UINT64_MAX,
                                  1e300,
                                  0.5};
    return kEdges[random() % std::size(kEdges)];
}

/// The mutated text, or empty when the input is not JSON or has nothing to mutate.
std::string mutateJson(std::string_view text, std::minstd_rand& random) {
    archplay::core::Diagnostics ignored;
    std::optional<json> root = archplay::core::parseJsonText(text, ignored);
    if (!root) {
        return {};
    }
    std::vector<json*> numbers;
    std::vector<json*> members;
    collectValues(*root, numbers, members);
    if (random() % 8 == 0 && !members.empty()) {
        static const std::size_t kDepths[] = {63, 64, 65, 1000, 100000};
        const std::size_t depth = kDepths[random() % std::size(kDepths)];
        const std::string marker = "\"\\u0001nest\\u0001\"";
        *members[random() % members.size()] = "\x01nest\x01";
        std::string out = root->dump();
        out.replace(out.find(marker), marker.size(), std::string(depth, '[') + "1" + std::string(depth, ']'));
        return out;
    }
    if (numbers.empty()) {
        return {};
    }
    const int count = 1 + static_cast<int>(random() % 2);
    for (int i = 0; i < count; ++i) {
        *numbers[random() % numbers.size()] = edgeNumber(random);
    }
    return root->dump();
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed) {
    std::minstd_rand random(seed);
    if (random() % 4 == 0) {
        const std::string mutated = mutateJson(std::string_view(reinterpret_cast<const char*>(data), size), random);
        if (!mutated.empty() && mutated.size() <= maxSize) {
            std::memcpy(data, mutated.data(), mutated.size());
            return mutated.size();
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KindNames.h"

#include "core/util/Format.h"
#include "ui/Strings.h"

#include <QCoreApplication>

#include <cmath>

namespace archplay::ui::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("archplay::ui::KindNames", text);
}

} // namespace

QString attentionName(const core::LayerPlan& layer) {
    return qs(core::attentionKindName(layer));
}

QString ffnName(const core::ModelConfig& config, core::FfnKind kind) {
    return qs(core::ffnKindName(config, kind));
}

QString kindName(const core::ModelConfig& config, const core::LayerPlan& layer) {
    return qs(core::layerKindName(config, layer));
}

QString layerTitle(const core::Analysis& analysis, std::int64_t planIndex) {
    const auto& layers = analysis.plan.layers;
    if (planIndex < 0 || planIndex >= static_cast<std::int64_t>(layers.size())) {
        return tr("No layer");
    }
    return qs(core::layerTitle(analysis.config, layers[static_cast<std::size_t>(planIndex)]));
}

QString exactCount(std::uint64_t value) {
    return qs(core::withThousands(value));
}

QString shortCount(std::uint64_t value) {
    return qs(core::shortCount(value));
}

QString tokenCount(std::uint64_t tokens) {
    return qs(core::tokenCount(tokens));
}

QString bytesText(std::uint64_t bytes) {
    return qs(core::binaryBytes(bytes));
}

QString percentText(std::uint64_t part, std::uint64_t whole) {
    return qs(core::percentText(core::fractionOf(part, whole)));
}

} // namespace archplay::ui::views

// SPDX-License-Identifier: GPL-3.0-or-later
// What the summary cards say: pure formatting of numbers the core computed.
#include "report/Tables.h"
#include "ui/panels/SummaryCards.h"
#include "util/Format.h"

#include <QStringList>

#include <algorithm>

namespace archplay::ui {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
QString exact(std::uint64_t value) {
    return qs(core::withThousands(value));
}
QString dash() {
    return QStringLiteral("—");
}

QString dtypeName(core::DType dtype) {
    return qs(core::toString(dtype)).toUpper();
}

/// "58 × MoE, 3 × dense" from the plan: how many layers of each kind, most common first.
QString layerKinds(const core::ModelPlan& plan, QString* toolTip) {
    std::vector<std::pair<std::string, int>> counts;
    for (const core::LayerPlan& layer : plan.layers) {
        const std::string name = core::layerKindName(layer);
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& entry) { return entry.first == name; });
        if (it == counts.end()) {
            counts.emplace_back(name, 1);
        } else {
            ++it->second;
        }
    }
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    QStringList parts;
    QStringList lines;
    for (const auto& [name, count] : counts) {
        parts << QStringLiteral("%1 × %2").arg(count).arg(qs(name));
        lines << QStringLiteral("%1 × %2").arg(count).arg(qs(name).toHtmlEscaped());
    }
    *toolTip = lines.join(QStringLiteral("<br>"));
    if (counts.size() == 1) {
        return qs(counts.front().first);
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

std::vector<CardContent> summaryCards(const core::Analysis& analysis, const OriginSummary& origin) {
    using Tone = CardContent::Tone;
    const core::ModelConfig& config = analysis.config;
    const bool valid = analysis.valid;
    const core::ParamReport& params = analysis.params;
    std::vector<CardContent> cards;

    CardContent total{QStringLiteral("total"), SummaryCards::tr("Total parameters")};
    if (valid) {
        total.value = qs(core::shortCount(params.total));
        total.toolTip =
            SummaryCards::tr("%1 parameters (unique and trainable; tied weights once)").arg(exact(params.total));
        if (params.extras.params > 0) {
            total.toolTip += SummaryCards::tr("<br>Not counted: %1 stored beside the model (%2)")
                                 .arg(exact(params.extras.params), qs(params.extras.name).toHtmlEscaped());
        }
        if (origin.publishedParams) {
            const std::uint64_t published = *origin.publishedParams;
            total.toolTip += SummaryCards::tr("<br>Published: %1").arg(exact(published));
            if (published == params.total) {
                total.detail =
                    SummaryCards::tr("✓ published %1")
                        .arg(origin.publishedLabel.isEmpty() ? qs(core::shortCount(published)) : origin.publishedLabel);
                total.toolTip += SummaryCards::tr(" — an exact match");
                total.tone = Tone::Good;
            } else {
                const double delta = (double(params.total) - double(published)) / double(published) * 100.0;
                total.detail =
                    SummaryCards::tr("published %1 · Δ %2%")
                        .arg(qs(core::shortCount(published)))
                        .arg(delta >= 0 ? QStringLiteral("+%1").arg(delta, 0, 'f', 2) : QString::number(delta, 'f', 2));
                total.tone = Tone::Caution;
            }
        } else if (origin.modified && !origin.label.isEmpty()) {
            total.detail = SummaryCards::tr("modified from %1").arg(origin.label);
        } else {
            total.detail = SummaryCards::tr("unique, tied once");
        }
        if (params.overflow) {
            total.detail = SummaryCards::tr("overflow: saturated");
            total.tone = Tone::Bad;
        }
    } else {
        total.value = dash();
        total.detail = SummaryCards::tr("fix the errors below");
        total.tone = Tone::Bad;
    }
    cards.push_back(total);

    CardContent active{QStringLiteral("active"), SummaryCards::tr("Active parameters")};
    if (valid) {
        active.value = qs(core::shortCount(params.active));
        active.toolTip = SummaryCards::tr("%1 parameters used per token").arg(exact(params.active));
        if (params.active == params.total) {
            active.detail = SummaryCards::tr("dense: all used per token");
        } else if (params.total > 0) {
            active.detail = SummaryCards::tr("per token · %1% of total")
                                .arg(double(params.active) / double(params.total) * 100.0, 0, 'f', 1);
        }
    } else {
        active.value = dash();
    }
    cards.push_back(active);

    CardContent layers{QStringLiteral("layers"), SummaryCards::tr("Layers")};
    layers.value = qs(core::layersLabel(config));
    if (valid) {
        QString kindsTip;
        layers.detail = layerKinds(analysis.plan, &kindsTip);
        layers.toolTip = kindsTip;
    }
    if (config.architecture == core::ArchitectureKind::EncoderDecoder) {
        layers.toolTip = SummaryCards::tr("encoder + decoder<br>") + layers.toolTip;
    }
    cards.push_back(layers);

    CardContent head{QStringLiteral("head-dim"), SummaryCards::tr("d_head")};
    head.value = qs(core::headDimLabel(config));
    if (config.latent) {
        head.detail = SummaryCards::tr("MLA q/k · v %1").arg(config.latent->vHeadDim);
        head.toolTip =
            SummaryCards::tr("qk_nope_head_dim + qk_rope_head_dim; v_head_dim %1").arg(config.latent->vHeadDim);
    } else {
        head.detail = config.headDim ? SummaryCards::tr("set by head_dim") : SummaryCards::tr("hidden / heads");
    }
    cards.push_back(head);

    CardContent attention{QStringLiteral("attention"), SummaryCards::tr("Attention")};
    attention.value = qs(core::attentionLabel(config));
    attention.detail = qs(core::attentionDetail(config));
    attention.toolTip =
        SummaryCards::tr("%1 query heads, %2 key/value heads").arg(config.numHeads).arg(config.numKvHeads);
    cards.push_back(attention);

    CardContent kv{QStringLiteral("kv-per-token"), SummaryCards::tr("KV cache / token")};
    if (valid && !config.hasDecoder()) {
        kv.value = SummaryCards::tr("none");
        kv.detail = SummaryCards::tr("encoder-only: nothing cached");
        kv.toolTip = SummaryCards::tr("An encoder attends over the whole input at once and keeps no KV cache.");
    } else if (valid) {
        const core::KvCacheReport& cache = analysis.kv;
        kv.value = qs(core::binaryBytes(cache.bytesPerToken));
        kv.detail = cache.batch == 1 ? SummaryCards::tr("%1 for %2 tokens")
                                           .arg(qs(core::binaryBytes(cache.totalBytes)), exact(cache.sequenceLength))
                                     : SummaryCards::tr("%1 for %2 × %3 tokens")
                                           .arg(qs(core::binaryBytes(cache.totalBytes)), QString::number(cache.batch),
                                                exact(cache.sequenceLength));
        kv.toolTip = SummaryCards::tr("%1 bytes per token at %2, all layers<br>%3 bytes for %4 tokens × batch %5 "
                                      "(windows applied)")
                         .arg(exact(cache.bytesPerToken), dtypeName(cache.dtype), exact(cache.totalBytes),
                              exact(cache.sequenceLength))
                         .arg(cache.batch);
        if (cache.fixedStateBytes > 0) {
            // Linear-attention and state-space layers keep a fixed state instead of a per-token cache.
            kv.detail =
                SummaryCards::tr("+ %1 fixed state").arg(qs(core::binaryBytes(cache.fixedStateBytesPerSequence)));
            kv.toolTip += SummaryCards::tr("<br>of which %1 bytes are the fixed convolution and recurrent state of "
                                           "the linear-attention / state-space layers (%2 bytes per sequence), "
                                           "which does not grow with the sequence")
                              .arg(exact(cache.fixedStateBytes), exact(cache.fixedStateBytesPerSequence));
        }
        if (cache.expandedBytesPerToken != cache.bytesPerToken) {
            kv.toolTip += SummaryCards::tr("<br>Expanded per-head cache (Hugging Face eager MLA): %1 bytes per token")
                              .arg(exact(cache.expandedBytesPerToken));
        }
    } else {
        kv.value = dash();
    }
    cards.push_back(kv);

    CardContent ffn{QStringLiteral("ffn"), SummaryCards::tr("FFN")};
    ffn.value = qs(core::ffnKindLabel(config));
    if (config.ffnKind == core::FfnKind::Moe) {
        QString detail = SummaryCards::tr("%1 wide").arg(
            exact(std::uint64_t(std::max<std::int64_t>(0, config.moe.expertIntermediateSize))));
        if (config.moe.numSharedExperts > 0) {
            detail += SummaryCards::tr(" · +%1 shared").arg(config.moe.numSharedExperts);
        }
        ffn.detail = detail;
        ffn.toolTip = SummaryCards::tr("top-%1 of %2 routed experts").arg(config.moe.topK).arg(config.moe.numExperts);
    } else {
        ffn.detail =
            SummaryCards::tr("width %1").arg(exact(std::uint64_t(std::max<std::int64_t>(0, config.intermediateSize))));
    }
    cards.push_back(ffn);

    CardContent weights{QStringLiteral("weights"), SummaryCards::tr("Weights")};
    if (valid) {
        const core::DeviceFit& fit = analysis.devices;
        weights.value = qs(core::binaryBytes(analysis.weightBytes));
        const QString devices = qs(core::devicesLabel(analysis.scenario));
        weights.detail =
            fit.fits
                ? SummaryCards::tr("%1 · fits on %2").arg(dtypeName(analysis.scenario.weightDType), devices)
                : SummaryCards::tr("%1 · %2").arg(dtypeName(analysis.scenario.weightDType), qs(core::fitVerdict(fit)));
        weights.tone = fit.fits ? CardContent::Tone::Good : CardContent::Tone::Caution;
        weights.toolTip = SummaryCards::tr("%1 bytes of weights at %2<br>weights + KV cache on %3: %4 of %5 bytes, %6")
                              .arg(exact(analysis.weightBytes), dtypeName(analysis.scenario.weightDType), devices,
                                   exact(fit.requiredBytes), exact(fit.capacityBytes), qs(core::fitVerdict(fit)));
    } else {
        weights.value = dash();
    }
    cards.push_back(weights);
    return cards;
}

QString originText(const OriginSummary& origin) {
    const QString label = origin.label.toHtmlEscaped();
    QString text;
    switch (origin.kind) {
    case ConfigOrigin::Kind::Default:
        text = origin.modified ? SummaryCards::tr("Custom config") : SummaryCards::tr("Default config");
        break;
    case ConfigOrigin::Kind::Preset:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from preset <b>%1</b>").arg(label)
                               : SummaryCards::tr("Preset <b>%1</b>").arg(label);
        break;
    case ConfigOrigin::Kind::File:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from file <b>%1</b>").arg(label)
                               : SummaryCards::tr("File <b>%1</b>").arg(label);
        break;
    case ConfigOrigin::Kind::Clipboard:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from pasted config")
                               : SummaryCards::tr("Pasted config");
        break;
    }
    if (!origin.source.isEmpty()) {
        text += QStringLiteral(" — ") + origin.source.toHtmlEscaped();
    }
    return text;
}

} // namespace archplay::ui

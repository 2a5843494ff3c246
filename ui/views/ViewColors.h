// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/cost/Compute.h"
#include "core/memory/KvCache.h"
#include "core/params/Tensors.h"
#include "core/report/Costs.h"
#include "core/scenario/KvCurve.h"

#include <QColor>
#include <QPalette>

namespace archplay::ui::views::colors {

/// The categorical colours of the views, derived from a palette so light and dark themes both
/// read well (the general colours live in ui/Theme.h). Hues follow a colour-blind-safe set:
/// attention kinds are blues and purples, feed-forward kinds oranges and reds.

/// Attention of a layer: global causal, sliding window, chunked, latent (MLA) or bidirectional.
QColor attention(const core::LayerPlan& layer, const QPalette& palette);
/// Cross-attention of a decoder layer.
QColor crossAttention(const QPalette& palette);
/// A share of the KV cache by layer kind: the colour of the layers that hold it.
QColor kvShare(const core::KvKindShare& share, const QPalette& palette);
QColor ffn(core::FfnKind kind, const QPalette& palette);
QColor component(core::Component component, const QPalette& palette);
/// One line per cache precision width.
QColor dtype(core::DType dtype, const QPalette& palette);

/// A part of a token's FLOPs: weights in their component's colour, attention scores, states.
QColor flops(core::FlopsKind kind, core::Component component, const QPalette& palette);
/// A part of a GPU's memory in the memory view.
QColor memory(core::MemoryPart part, const QPalette& palette);

/// The `index`-th of several compared or swept series (designs side by side, figures of a sweep):
/// Okabe and Ito's colour-blind-safe set, repeating after eight.
QColor series(const QPalette& palette, int index);

/// The weights segment of memory bars.
QColor weights(const QPalette& palette);
/// Black or white, whichever reads better on `fill`.
QColor textOn(const QColor& fill);
/// Secondary text.
QColor muted(const QPalette& palette);
/// A figure's colour by its tone: good, caution, bad (the error colour) or the text colour.
QColor tone(core::Tone tone, const QPalette& palette);
/// Thin lines: grids, frames, separators.
QColor rule(const QPalette& palette);
/// Background of a panel inside a view, a step off the view's background.
QColor panel(const QPalette& palette);
/// `color` faded towards the palette's base, `amount` in [0, 1] (0 = unchanged).
QColor faded(const QColor& color, double amount, const QPalette& palette);

} // namespace archplay::ui::views::colors

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QLineF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <vector>

namespace archplay::ui::views::layout {

/// One stack (encoder or decoder) as the diagram needs it, bottom to top.
struct StackColumnInput {
    struct Layer {
        int planIndex = 0;     ///< position in ModelPlan::layers
        bool cross = false;    ///< has cross-attention (decoder of an encoder-decoder model)
        double parameters = 0; ///< the layer's parameters as a share of the largest layer's, in [0, 1]
        double cache = 0;      ///< the layer's KV cache at the scenario as a share of the largest, in [0, 1]
    };
    struct Run {
        int first = 0; ///< index into `layers`
        int count = 0;
        QString label; ///< e.g. "×58  latent · MoE  (11.9B each)"
    };
    QString title; ///< "Encoder", "Decoder", or empty for a single stack
    std::vector<Layer> layers;
    std::vector<Run> runs; ///< consecutive runs of identical layers, covering `layers`
    QString bottomLabel;   ///< token embeddings
    QString normLabel;     ///< final norm, or empty when the model has none
    QString topLabel;      ///< output head, encoder output or pooler; empty for none
};

/// A layer's slab and its parts: attention, cross-attention (when present) and feed-forward.
struct StackSlab {
    int planIndex = 0;
    QRectF rect;
    QRectF attention;
    QRectF cross; ///< empty without cross-attention
    QRectF ffn;
    QRectF parameterBar; ///< in the parameter column, empty when the column does not fit
    QRectF cacheBar;     ///< in the KV cache column, likewise
};

/// A labelled run: a bracket beside its slabs and the label, wrapped to the box's width.
struct StackRunLabel {
    int run = 0; ///< index into the column's runs
    QLineF bracket;
    QRectF text;
    QStringList lines; ///< the run's label, one entry per line of `text`
};

/// A layer-index tick left of the slabs.
struct StackTick {
    int layer = 0; ///< index within the stack
    QRectF text;
};

struct StackColumn {
    QRectF frame;
    QRectF title;
    QRectF bottom;                     ///< embeddings box
    QRectF norm;                       ///< final norm box, empty when none
    QRectF top;                        ///< head box, empty when none
    std::vector<StackSlab> slabs;      ///< one per layer, bottom to top
    std::vector<StackRunLabel> labels; ///< runs whose label fits; the others keep only their bracket
    std::vector<QLineF> brackets;      ///< every run's bracket
    std::vector<StackTick> ticks;
    QRectF parameterHeader; ///< title of the per-layer parameter column; empty without the column
    QRectF cacheHeader;     ///< title of the per-layer KV cache column
};

struct LayerStackLayout {
    std::vector<StackColumn> columns;
    QLineF crossFeed;               ///< from the encoder output across to the bus
    QLineF crossBus;                ///< down the gap between the columns
    std::vector<QLineF> crossLinks; ///< from the bus into each decoder layer with cross-attention
};

/// Lays out one or two stacks side by side inside `bounds`: every layer gets a slab (no matter how
/// many), runs of identical layers get a bracket and, where it fits without overlapping, a label
/// wrapped to at most three lines;
/// layer numbers are ticked at a step that keeps them apart. Two columns are joined by
/// cross-attention links from the first column's top into every layer of the second that has
/// cross-attention. Where the width allows, two narrow columns at the right of each stack draw
/// every layer's parameters and KV cache as bars. `font` is the labels' font.
LayerStackLayout layoutLayerStack(const std::vector<StackColumnInput>& columns, const QRectF& bounds,
                                  const QFont& font);

} // namespace archplay::ui::views::layout

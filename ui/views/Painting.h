// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Drawing helpers the custom-painted views share (their labels are in KindNames.h).

#include <QLineF>

class QPainter;

namespace archplay::ui::views {

/// A filled arrowhead at the end of `line`, in the pen's colour, `size` pixels long.
void drawArrowHead(QPainter& painter, const QLineF& line, qreal size);

} // namespace archplay::ui::views

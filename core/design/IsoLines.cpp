// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/IsoLines.h"

#include <array>
#include <cstdint>

namespace archplay::core {
namespace {

constexpr std::size_t kNoPoint = SIZE_MAX;

/// The crossings of one level with a grid's edges, and the segments joining them. An edge is named by
/// 2 x (its first node's index) + 0 for the edge to the right, + 1 for the edge upwards.
class Marcher {
public:
    Marcher(const std::vector<double>& xs, const std::vector<double>& ys,
            const std::vector<std::optional<double>>& values, double level)
        : m_xs(xs)
        , m_ys(ys)
        , m_values(values)
        , m_level(level)
        , m_nx(xs.size())
        , m_points(2 * xs.size() * ys.size())
        , m_ends(2 * xs.size() * ys.size(), {kNoPoint, kNoPoint}) {}

    void march() {
        for (std::size_t j = 0; j + 1 < m_ys.size(); ++j) {
            for (std::size_t i = 0; i + 1 < m_nx; ++i) {
                cell(i, j);
            }
        }
    }

    std::vector<IsoPolyline> join() {
        std::vector<IsoPolyline> lines;
        std::vector<bool> used(m_segments.size(), false);
        // Open lines first, from an end that only one segment touches; what remains are loops.
        for (std::size_t edge = 0; edge < m_ends.size(); ++edge) {
            if (m_ends[edge][0] != kNoPoint && m_ends[edge][1] == kNoPoint && !used[m_ends[edge][0]]) {
                addLine(lines, walk(edge, used));
            }
        }
        for (std::size_t s = 0; s < m_segments.size(); ++s) {
            if (!used[s]) {
                addLine(lines, walk(m_segments[s][0], used));
            }
        }
        return lines;
    }

private:
    std::size_t node(std::size_t i, std::size_t j) const { return j * m_nx + i; }
    bool above(std::size_t i, std::size_t j) const { return *m_values[node(i, j)] >= m_level; }

    /// The edge from node (i, j) rightwards or upwards, with its crossing computed once.
    std::size_t edge(std::size_t i, std::size_t j, bool up) {
        const std::size_t id = 2 * node(i, j) + (up ? 1 : 0);
        const double a = *m_values[node(i, j)];
        const double b = up ? *m_values[node(i, j + 1)] : *m_values[node(i + 1, j)];
        const double t = (m_level - a) / (b - a);
        m_points[id] = up ? IsoPoint{m_xs[i], m_ys[j] + t * (m_ys[j + 1] - m_ys[j])}
                          : IsoPoint{m_xs[i] + t * (m_xs[i + 1] - m_xs[i]), m_ys[j]};
        return id;
    }

    void segment(std::size_t from, std::size_t to) {
        const std::size_t index = m_segments.size();
        m_segments.push_back({from, to});
        for (const std::size_t e : {from, to}) {
            m_ends[e][m_ends[e][0] == kNoPoint ? 0 : 1] = index;
        }
    }

    void cell(std::size_t i, std::size_t j) {
        for (const std::size_t n : {node(i, j), node(i + 1, j), node(i, j + 1), node(i + 1, j + 1)}) {
            if (!m_values[n]) {
                return;
            }
        }
        // Corners counter-clockwise from the lower left: 0 (i, j), 1 (i+1, j), 2 (i+1, j+1), 3 (i, j+1).
        const bool a0 = above(i, j), a1 = above(i + 1, j), a2 = above(i + 1, j + 1), a3 = above(i, j + 1);
        std::vector<std::size_t> crossed;
        if (a0 != a1) {
            crossed.push_back(edge(i, j, false)); // bottom
        }
        if (a1 != a2) {
            crossed.push_back(edge(i + 1, j, true)); // right
        }
        if (a2 != a3) {
            crossed.push_back(edge(i, j + 1, false)); // top
        }
        if (a3 != a0) {
            crossed.push_back(edge(i, j, true)); // left
        }
        if (crossed.size() == 2) {
            segment(crossed[0], crossed[1]);
        } else if (crossed.size() == 4) {
            const double mean = (*m_values[node(i, j)] + *m_values[node(i + 1, j)] + *m_values[node(i + 1, j + 1)] +
                                 *m_values[node(i, j + 1)]) /
                                4;
            if ((mean >= m_level) == a0) {
                // Corners 0 and 2 are joined through the centre: the lines cut off corners 1 and 3.
                segment(crossed[0], crossed[1]);
                segment(crossed[2], crossed[3]);
            } else {
                segment(crossed[3], crossed[0]);
                segment(crossed[1], crossed[2]);
            }
        }
    }

    IsoPolyline walk(std::size_t start, std::vector<bool>& used) const {
        IsoPolyline line{m_points[start]};
        std::size_t at = start;
        for (;;) {
            std::size_t next = kNoPoint;
            for (const std::size_t s : m_ends[at]) {
                if (s != kNoPoint && !used[s]) {
                    next = s;
                    break;
                }
            }
            if (next == kNoPoint) {
                return line;
            }
            used[next] = true;
            at = m_segments[next][0] == at ? m_segments[next][1] : m_segments[next][0];
            if (!(m_points[at] == line.back())) {
                line.push_back(m_points[at]);
            }
        }
    }

    static void addLine(std::vector<IsoPolyline>& lines, IsoPolyline line) {
        if (line.size() >= 2) {
            lines.push_back(std::move(line));
        }
    }

    const std::vector<double>& m_xs;
    const std::vector<double>& m_ys;
    const std::vector<std::optional<double>>& m_values;
    double m_level;
    std::size_t m_nx;
    std::vector<IsoPoint> m_points;                     ///< by edge: where the level crosses it
    std::vector<std::array<std::size_t, 2>> m_ends;     ///< by edge: the segments ending on it
    std::vector<std::array<std::size_t, 2>> m_segments; ///< pairs of edges
};

} // namespace

std::vector<IsoPolyline> isoPolylines(const std::vector<double>& xs, const std::vector<double>& ys,
                                      const std::vector<std::optional<double>>& values, double level) {
    if (xs.size() < 2 || ys.size() < 2 || values.size() != xs.size() * ys.size()) {
        return {};
    }
    Marcher marcher(xs, ys, values, level);
    marcher.march();
    return marcher.join();
}

} // namespace archplay::core

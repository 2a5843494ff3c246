// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/Benchmark.h"

#include "ui/Strings.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/AtomicWrite.h"
#include "ui/session/ModelBridge.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/PaintedView.h"
#include "ui/window/MainWindow.h"

#include <QFile>
#include <QMouseEvent>
#include <QSlider>
#include <QStyle>
#include <QSysInfo>
#include <QThread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>

namespace archplay::app {
namespace {

// The default set: a dense 8B, a sparse MoE, MLA with 256 experts, a 126-layer dense
// model, and an encoder-decoder.
QStringList defaultPresets() {
    return {QStringLiteral("llama-3-8b"), QStringLiteral("mixtral-8x7b-v0.1"), QStringLiteral("deepseek-v3"),
            QStringLiteral("llama-3.1-405b"), QStringLiteral("t5-large")};
}

// The main sliders, dragged in this order when they apply to the preset.
QStringList sliderKeys() {
    return {QStringLiteral("num_hidden_layers"),       QStringLiteral("hidden_size"),
            QStringLiteral("num_attention_heads"),     QStringLiteral("num_key_value_heads"),
            QStringLiteral("intermediate_size"),       QStringLiteral("vocab_size"),
            QStringLiteral("max_position_embeddings"), QStringLiteral("num_experts"),
            QStringLiteral("moe_intermediate_size"),   QStringLiteral("num_encoder_layers"),
            QStringLiteral("sequence_length")};
}

// Budgets of issue 6 on this class of machine (2 cores, software rendering, offscreen).
constexpr double kP99BudgetMs = 16.7;
constexpr double kMedianBudgetMs = 8.0;
constexpr double kStartupBudgetMs = 400.0;
constexpr double kRssBudgetMb = 150.0;
// Issue 12's targets for the overview alone (--view overview), meant at 2560x1440: a median under
// 4 ms and a p99 under one 120 Hz frame, aiming for one 240 Hz frame.
constexpr double kOverviewMedianMs = 4.0;
constexpr double kOverviewP99Ms = 8.3;
constexpr double kOverviewP99AimMs = 4.2;

std::int64_t steadyNowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// Milliseconds since the kernel started this process (/proc/self/stat's starttime, in clock
/// ticks of 10 ms), or -1 when it cannot be read.
double msSinceProcessStart() {
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray text = stat.readAll();
    // Fields after the command name, which is in parentheses and may hold spaces.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    constexpr int kStartTimeField = 22 - 3; // field 22, counted from field 3
    if (fields.size() <= kStartTimeField) {
        return -1;
    }
    const double startSeconds = fields[kStartTimeField].toDouble() / double(sysconf(_SC_CLK_TCK));
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return (double(now.tv_sec) + double(now.tv_nsec) * 1e-9 - startSeconds) * 1000.0;
}

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // Linux reports kilobytes
}

QString cpuModel() {
    QFile info(QStringLiteral("/proc/cpuinfo"));
    if (info.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : info.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                return QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
            }
        }
    }
    return QSysInfo::currentCpuArchitecture();
}

/// Delivers everything a change set in motion: layout requests, queued replots, and the update
/// requests that paint every dirty visible widget into the backing store.
void flush() {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents();
}

void sendMouse(QSlider* slider, QEvent::Type type, int x) {
    const QPointF local(x, slider->height() / 2.0);
    QMouseEvent event(type, local, slider->mapToGlobal(local), Qt::LeftButton,
                      type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(slider, &event);
}

/// The x of the slider's handle centre for `value`.
int handleX(const QSlider& slider, int value) {
    const int length = slider.style()->pixelMetric(QStyle::PM_SliderLength, nullptr, &slider);
    const int span = std::max(1, slider.width() - length);
    return QStyle::sliderPositionFromValue(slider.minimum(), slider.maximum(), value, span) + length / 2;
}

struct Samples {
    std::vector<std::int64_t> updates;
    std::size_t invalid = 0; ///< updates whose config was invalid (the views show the error state)
};

nlohmann::ordered_json statsJson(const LatencyStats& s) {
    auto round = [](double ms) {
        return std::round(ms * 1000.0) / 1000.0;
    };
    return {{"p50", round(s.p50)}, {"p95", round(s.p95)}, {"p99", round(s.p99)}, {"max", round(s.max)}, {"n", s.n}};
}

class Bench {
public:
    Bench(PaintTimingApplication& app, const GuiOptions& options)
        : m_app(app)
        , m_options(options) {}

    void start(std::int64_t mainStartNs) {
        ui::theme::applyTheme(m_options.theme.value_or(ui::theme::ThemeMode::Light));
        ui::window::MainWindowOptions windowOptions;
        windowOptions.persistent = false; // the default layout, and the user's settings untouched
        m_window = std::make_unique<ui::window::MainWindow>(windowOptions);
        m_window->setThemeMode(m_options.theme.value_or(ui::theme::ThemeMode::Light));
        m_window->resize(m_options.size);
        m_app.setTiming(true);
        m_window->show();
        m_window->applyDefaultLayout();
        flush(); // the expose and update requests: the first frame is painted here
        if (m_app.takePaintTimes().isEmpty()) {
            m_window->repaint(); // the platform has not asked for a frame yet: paint it now
        }
        m_app.setTiming(false);
        m_startupFromMainMs = double(steadyNowNs() - mainStartNs) / 1e6;
        m_startupMs = msSinceProcessStart();

        for (ui::views::AnalysisView* view : m_window->views()) {
            m_app.track(view, ui::qs(core::toString(view->kind())));
            if (auto* overview = qobject_cast<ui::views::OverviewPage*>(view)) {
                // Each tile on its own line: which of them a step repaints, and at what cost.
                for (ui::views::PaintedView* tile : overview->tiles()) {
                    m_app.track(tile, QStringLiteral("overview/%1").arg(tile->name()));
                }
            }
        }
        m_app.track(m_window->summaryCards(), QStringLiteral("summary-cards"));
        m_app.track(m_window->configPanel(), QStringLiteral("config-panel"));
        m_app.track(m_window->diagnostics(), QStringLiteral("diagnostics"));
        QObject::connect(m_window->bridge(), &ui::session::ModelBridge::analysisChanged, m_window.get(),
                         [this] { ++m_changes; });
    }

    void measure(const QString& presetId) {
        Samples& samples = m_perPreset[presetId];
        for (ui::views::AnalysisView* view : m_window->views()) {
            if (m_options.view && view->kind() != *m_options.view) {
                continue;
            }
            m_window->selectView(view->kind());
            const QStringList keys = sliderKeys();
            for (const QString& key : keys) {
                m_window->bridge()->loadPreset(presetId);
                flush();
                auto* slider = m_window->findChild<QSlider*>(QStringLiteral("field.%1.slider").arg(key));
                if (slider == nullptr || !slider->isVisibleTo(m_window.get()) || !slider->isEnabled()) {
                    continue;
                }
                drag(slider, samples, m_perSlider[key]);
            }
        }
    }

    QByteArray report() const {
        std::vector<std::int64_t> all;
        std::size_t invalid = 0;
        for (const auto& [id, samples] : m_perPreset) {
            all.insert(all.end(), samples.updates.begin(), samples.updates.end());
            invalid += samples.invalid;
        }
        const LatencyStats overall = latencyStats(all);
        const double rss = peakRssMb();
        return m_options.benchJson ? json(overall, invalid, rss) : text(overall, invalid, rss);
    }

private:
    /// One drag: press on the handle, move `steps` positions towards the far end and `steps` back,
    /// release. Each move that changes the config is one timed update.
    void drag(QSlider* slider, Samples& samples, std::vector<std::int64_t>& sliderSamples) {
        const int from = handleX(*slider, slider->value());
        const int to = from < slider->width() / 2 ? slider->width() * 17 / 20 : slider->width() * 3 / 20;
        const int steps = m_options.benchSteps;
        sendMouse(slider, QEvent::MouseButtonPress, from);
        flush();
        for (int i = 1; i <= 2 * steps; ++i) {
            const double t = double(i <= steps ? i : 2 * steps - i) / steps;
            const int x = from + int(std::lround(t * (to - from)));
            m_app.takePaintTimes();
            const quint64 changesBefore = m_changes;
            m_app.setTiming(true);
            const std::int64_t begin = steadyNowNs();
            sendMouse(slider, QEvent::MouseMove, x);
            const std::int64_t edited = steadyNowNs();
            flush();
            const std::int64_t elapsed = steadyNowNs() - begin;
            m_app.setTiming(false);
            if (m_changes == changesBefore) {
                continue; // the snapped value did not move: nothing to show
            }
            samples.updates.push_back(elapsed);
            sliderSamples.push_back(elapsed);
            m_edits.push_back(edited - begin);
            samples.invalid += m_window->bridge()->analysis().valid ? 0 : 1;
            const QHash<QString, std::int64_t> paints = m_app.takePaintTimes();
            for (auto it = paints.begin(); it != paints.end(); ++it) {
                m_viewPaints[it.key()].push_back(it.value());
            }
        }
        sendMouse(slider, QEvent::MouseButtonRelease, from);
        flush();
    }

    QByteArray json(const LatencyStats& overall, std::size_t invalid, double rss) const {
        nlohmann::ordered_json out;
        out["update_ms"] = statsJson(overall);
        out["edit_ms"] = statsJson(latencyStats(m_edits));
        out["invalid_updates"] = invalid;
        out["startup_ms"] = std::round(m_startupMs * 10.0) / 10.0;
        out["startup_from_main_ms"] = std::round(m_startupFromMainMs * 10.0) / 10.0;
        out["peak_rss_mb"] = std::round(rss * 10.0) / 10.0;
        nlohmann::ordered_json views = nlohmann::ordered_json::object();
        for (const auto& [name, samples] : m_viewPaints) {
            const LatencyStats s = latencyStats(samples);
            views[name.toStdString()] = statsJson(s);
        }
        out["views"] = views;
        nlohmann::ordered_json presets = nlohmann::ordered_json::object();
        for (const auto& [id, samples] : m_perPreset) {
            presets[id.toStdString()] = statsJson(latencyStats(samples.updates));
        }
        out["presets"] = presets;
        nlohmann::ordered_json sliders = nlohmann::ordered_json::object();
        for (const auto& [key, updates] : m_perSlider) {
            sliders[key.toStdString()] = statsJson(latencyStats(updates));
        }
        out["sliders"] = sliders;
        out["budgets"] = {{"update_p99_under_16_7_ms", overall.p99 < kP99BudgetMs},
                          {"update_median_under_8_ms", overall.p50 < kMedianBudgetMs},
                          {"startup_under_400_ms", m_startupMs >= 0 && m_startupMs < kStartupBudgetMs},
                          {"peak_rss_under_150_mb", rss < kRssBudgetMb}};
        if (overviewOnly()) {
            out["budgets"]["overview_median_under_4_ms"] = overall.p50 < kOverviewMedianMs;
            out["budgets"]["overview_p99_under_8_3_ms"] = overall.p99 < kOverviewP99Ms;
            out["budgets"]["overview_p99_under_4_2_ms"] = overall.p99 < kOverviewP99AimMs;
        }
        out["setup"] = {{"size", fmt::format("{}x{}", m_options.size.width(), m_options.size.height())},
                        {"steps_per_sweep", m_options.benchSteps},
                        {"platform", QApplication::platformName().toStdString()},
                        {"qt", qVersion()},
                        {"cpu", cpuModel().toStdString()},
                        {"cores", QThread::idealThreadCount()},
                        {"tile_workers", tileWorkers()}};
        return QByteArray::fromStdString(out.dump(2) + "\n");
    }

    QByteArray text(const LatencyStats& overall, std::size_t invalid, double rss) const {
        std::string out = fmt::format(
            "archplay --bench: {}x{} on '{}' (Qt {}), {} x {}, {} mouse positions per sweep each way, "
            "{} tile workers\n\n",
            m_options.size.width(), m_options.size.height(), QApplication::platformName().toStdString(), qVersion(),
            QThread::idealThreadCount(), cpuModel().toStdString(), m_options.benchSteps, tileWorkers());
        const char* rowFormat = "{:<28} {:>8} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f}\n";
        out += fmt::format("{:<28} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "update latency (ms)", "updates", "p50", "p95",
                           "p99", "max");
        for (const auto& [id, samples] : m_perPreset) {
            const LatencyStats s = latencyStats(samples.updates);
            out += fmt::format(fmt::runtime(rowFormat), id.toStdString(), s.n, s.p50, s.p95, s.p99, s.max);
        }
        out +=
            fmt::format(fmt::runtime(rowFormat), "all", overall.n, overall.p50, overall.p95, overall.p99, overall.max);
        const LatencyStats edits = latencyStats(m_edits);
        out += fmt::format(fmt::runtime(rowFormat), "of which before painting", edits.n, edits.p50, edits.p95,
                           edits.p99, edits.max);
        out += fmt::format("({} of the updates made the config invalid and show its error state)\n\n", invalid);
        out += fmt::format("{:<28} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "update latency by slider", "updates", "p50",
                           "p95", "p99", "max");
        for (const auto& [key, updates] : m_perSlider) {
            const LatencyStats s = latencyStats(updates);
            out += fmt::format(fmt::runtime(rowFormat), key.toStdString(), s.n, s.p50, s.p95, s.p99, s.max);
        }
        out += "\n";
        out += fmt::format("{:<28} {:>8} {:>8} {:>8}\n", "paint time per update (ms)", "paints", "p50", "p99");
        for (const auto& [name, samples] : m_viewPaints) {
            const LatencyStats s = latencyStats(samples);
            out += fmt::format("{:<28} {:>8} {:>8.2f} {:>8.2f}\n", name.toStdString(), s.n, s.p50, s.p99);
        }
        auto verdict = [](bool met) {
            return met ? "met" : "MISSED";
        };
        out +=
            fmt::format("\nstart-up to the first painted frame: {:.0f} ms from process start ({:.0f} ms from main)\n",
                        m_startupMs, m_startupFromMainMs);
        out += fmt::format("peak resident memory: {:.1f} MB\n\n", rss);
        out += fmt::format("budgets: p99 < {} ms {}, median < {} ms {}, start-up < {} ms {}, memory < {} MB {}\n",
                           kP99BudgetMs, verdict(overall.p99 < kP99BudgetMs), kMedianBudgetMs,
                           verdict(overall.p50 < kMedianBudgetMs), kStartupBudgetMs,
                           verdict(m_startupMs >= 0 && m_startupMs < kStartupBudgetMs), kRssBudgetMb,
                           verdict(rss < kRssBudgetMb));
        if (overviewOnly()) {
            out += fmt::format("overview (issue 12, meant at 2560x1440): median < {} ms {}, p99 < {} ms {}, "
                               "p99 < {} ms (the aim) {}\n",
                               kOverviewMedianMs, verdict(overall.p50 < kOverviewMedianMs), kOverviewP99Ms,
                               verdict(overall.p99 < kOverviewP99Ms), kOverviewP99AimMs,
                               verdict(overall.p99 < kOverviewP99AimMs));
        }
        return QByteArray::fromStdString(out);
    }

    bool overviewOnly() const { return m_options.view == core::ViewKind::Overview; }

    /// The threads that draw the overview's tiles beside the GUI thread (ui/views/FramePool).
    int tileWorkers() const {
        for (ui::views::AnalysisView* view : m_window->views()) {
            if (auto* overview = qobject_cast<ui::views::OverviewPage*>(view)) {
                return overview->framePool()->workers();
            }
        }
        return 0;
    }

    PaintTimingApplication& m_app;
    const GuiOptions& m_options;
    std::unique_ptr<ui::window::MainWindow> m_window;
    double m_startupMs = -1;
    double m_startupFromMainMs = 0;
    quint64 m_changes = 0;
    std::map<QString, Samples> m_perPreset;
    std::vector<std::int64_t> m_edits; ///< each update's share before painting: the edit, the analysis, the rebuilds
    std::map<QString, std::vector<std::int64_t>> m_perSlider; ///< every preset's updates, by the slider dragged
    std::map<QString, std::vector<std::int64_t>> m_viewPaints;
};

} // namespace

LatencyStats latencyStats(std::vector<std::int64_t> samples) {
    LatencyStats stats;
    stats.n = samples.size();
    if (samples.empty()) {
        return stats;
    }
    std::sort(samples.begin(), samples.end());
    auto rank = [&](double q) {
        const auto index = static_cast<std::size_t>(std::ceil(q * double(samples.size())));
        return double(samples[std::clamp<std::size_t>(index, 1, samples.size()) - 1]) / 1e6;
    };
    stats.p50 = rank(0.50);
    stats.p95 = rank(0.95);
    stats.p99 = rank(0.99);
    stats.max = double(samples.back()) / 1e6;
    return stats;
}

PaintTimingApplication::PaintTimingApplication(int& argc, char** argv)
    : QApplication(argc, argv) {}

void PaintTimingApplication::track(QWidget* root, const QString& name) {
    m_roots.insert(root, name);
}

QHash<QString, std::int64_t> PaintTimingApplication::takePaintTimes() {
    return std::exchange(m_paintNs, {});
}

QString PaintTimingApplication::trackedName(QObject* receiver) const {
    for (QObject* object = receiver; object != nullptr; object = object->parent()) {
        if (auto it = m_roots.find(object); it != m_roots.end()) {
            return it.value();
        }
    }
    return QStringLiteral("window-other");
}

bool PaintTimingApplication::notify(QObject* receiver, QEvent* event) {
    if (!m_timing || event->type() != QEvent::Paint || m_depth > 0) {
        return QApplication::notify(receiver, event);
    }
    ++m_depth;
    const std::int64_t begin = steadyNowNs();
    const bool handled = QApplication::notify(receiver, event);
    m_paintNs[trackedName(receiver)] += steadyNowNs() - begin;
    --m_depth;
    return handled;
}

int runBenchmark(PaintTimingApplication& app, const GuiOptions& options, std::int64_t mainStartNs, QString* error) {
    Bench bench(app, options);
    bench.start(mainStartNs);
    const QStringList presets = options.benchPresets.isEmpty() ? defaultPresets() : options.benchPresets;
    for (const QString& id : presets) {
        bench.measure(id);
    }
    const QByteArray report = bench.report();
    std::fwrite(report.constData(), 1, std::size_t(report.size()), stdout);
    std::fflush(stdout);
    if (!options.benchOutPath.isEmpty()) {
        if (const core::Status written = ui::session::writeAtomically(options.benchOutPath, report); !written.ok()) {
            *error = QStringLiteral("cannot write %1: %2").arg(options.benchOutPath, ui::qs(written.error()));
            return 1;
        }
    }
    return 0;
}

} // namespace archplay::app

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/theme/Theme.h"

#include <QApplication>
#include <QFile>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QPixmap>
#include <QPixmapCache>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QSvgRenderer>

namespace archplay::ui::theme {

namespace {

ThemeMode g_mode = ThemeMode::System;

/// The desktop's palette and style, as they were before the first applyTheme().
struct SystemLook {
    std::optional<QPalette> palette;
    QString style;
};

SystemLook& systemLook() {
    static SystemLook look; // made on first use, after QApplication
    return look;
}

/// A click on a slider's groove moves the handle there and starts a drag, as on every modern
/// toolkit, instead of paging towards the click.
class ArchplayStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;

    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                  QStyleHintReturn* returnData) const override {
        if (hint == SH_Slider_AbsoluteSetButtons) {
            return Qt::LeftButton;
        }
        if (hint == SH_Slider_PageSetButtons) {
            return Qt::MiddleButton;
        }
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }

    // Fusion outlines fields in a darker shade of the window colour, which vanishes on a dark
    // palette; a light rim keeps check boxes and spin boxes findable.
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if ((element == PE_IndicatorCheckBox || element == PE_FrameLineEdit) && needsRim(option)) {
            drawRim(option, painter);
        }
    }

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                            const QWidget* widget) const override {
        QProxyStyle::drawComplexControl(control, option, painter, widget);
        if (control == CC_SpinBox && needsRim(option)) {
            drawRim(option, painter);
        }
    }

private:
    bool needsRim(const QStyleOption* option) const {
        return baseStyle()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) == 0 &&
               option->palette.color(QPalette::Window).lightness() < 128;
    }

    static void drawRim(const QStyleOption* option, QPainter* painter) {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(option->palette.color(QPalette::Mid), 1));
        painter->drawRoundedRect(QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        painter->restore();
    }
};

/// The colours of one theme; the palette is built from them by one rule (palette()).
struct PaletteColors {
    QRgb window, base, alternateBase, text, placeholder, button, light, midlight, mid, dark, shadow;
    QRgb toolTipBase, highlight, link, linkVisited;
    QRgb disabledText, disabledButton, disabledHighlight;
};

constexpr PaletteColors kLightColors{.window = 0xf3f4f6,
                                     .base = 0xffffff,
                                     .alternateBase = 0xf6f7f9,
                                     .text = 0x1d2127,
                                     .placeholder = 0x6b7280,
                                     .button = 0xfafafb,
                                     .light = 0xffffff,
                                     .midlight = 0xe6e8ec,
                                     .mid = 0xc4c8d0,
                                     .dark = 0x9aa0aa,
                                     .shadow = 0x40444c,
                                     .toolTipBase = 0xfffff2,
                                     .highlight = 0x2f6fd0,
                                     .link = 0x2f6fd0,
                                     .linkVisited = 0x6a4fc0,
                                     .disabledText = 0x9aa0aa,
                                     .disabledButton = 0xfafafb,
                                     .disabledHighlight = 0xb8c2d2};

constexpr PaletteColors kDarkColors{.window = 0x23252a,
                                    .base = 0x1a1c20,
                                    .alternateBase = 0x212429,
                                    .text = 0xe4e7ec,
                                    .placeholder = 0x8e95a1,
                                    .button = 0x2d3036,
                                    .light = 0x3c4048,
                                    .midlight = 0x33373e,
                                    .mid = 0x4a4f58,
                                    .dark = 0x15171a,
                                    .shadow = 0x0c0d0f,
                                    .toolTipBase = 0x2f333a,
                                    .highlight = 0x3d8be8,
                                    .link = 0x72b0ff,
                                    .linkVisited = 0xb39cff,
                                    .disabledText = 0x6c727c,
                                    .disabledButton = 0x23252a,
                                    .disabledHighlight = 0x444c5a};

QPalette palette(const PaletteColors& c) {
    QPalette p;
    const auto set = [&p](QPalette::ColorRole role, QRgb rgb) {
        p.setColor(role, QColor::fromRgb(rgb));
    };
    set(QPalette::Window, c.window);
    set(QPalette::Base, c.base);
    set(QPalette::AlternateBase, c.alternateBase);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText}) {
        set(role, c.text);
    }
    set(QPalette::ToolTipBase, c.toolTipBase);
    set(QPalette::PlaceholderText, c.placeholder);
    set(QPalette::Button, c.button);
    set(QPalette::BrightText, 0xffffff);
    set(QPalette::Light, c.light);
    set(QPalette::Midlight, c.midlight);
    set(QPalette::Mid, c.mid);
    set(QPalette::Dark, c.dark);
    set(QPalette::Shadow, c.shadow);
    set(QPalette::Highlight, c.highlight);
    set(QPalette::HighlightedText, 0xffffff);
    set(QPalette::Link, c.link);
    set(QPalette::LinkVisited, c.linkVisited);
    for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, QColor::fromRgb(c.disabledText));
    }
    p.setColor(QPalette::Disabled, QPalette::Base, QColor::fromRgb(c.window));
    p.setColor(QPalette::Disabled, QPalette::Button, QColor::fromRgb(c.disabledButton));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor::fromRgb(c.disabledHighlight));
    return p;
}

QByteArray svgSource(const QString& name) {
    static QHash<QString, QByteArray> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        QFile file(QStringLiteral(":/icons/%1.svg").arg(name));
        QByteArray data;
        if (file.open(QIODevice::ReadOnly)) {
            data = file.readAll();
        }
        it = cache.insert(name, data);
    }
    return *it;
}

/// Renders a monochrome SVG in the current palette's text colour (or its disabled colour).
class TintedSvgEngine : public QIconEngine {
public:
    explicit TintedSvgEngine(QString name)
        : m_name(std::move(name)) {}

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override {
        QByteArray svg = svgSource(m_name);
        svg.replace("currentColor", colorFor(mode).name().toLatin1());
        QSvgRenderer renderer(svg);
        renderer.render(painter, rect);
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        return scaledPixmap(size, mode, state, 1.0);
    }

    /// Drawn once per size, scale and colour: a tool button repaints its icon whenever it is enabled
    /// or disabled (Undo, at the first step of every drag), and rendering the SVG each time took about
    /// 0.2 ms.
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal scale) override {
        const QString key = QStringLiteral("archplay-icon/%1/%2x%3@%4/%5")
                                .arg(m_name)
                                .arg(size.width())
                                .arg(size.height())
                                .arg(scale)
                                .arg(colorFor(mode).rgba());
        QPixmap pixmap;
        if (QPixmapCache::find(key, &pixmap)) {
            return pixmap;
        }
        pixmap = QPixmap(size * scale);
        pixmap.setDevicePixelRatio(scale);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        painter.end();
        QPixmapCache::insert(key, pixmap);
        return pixmap;
    }

    QIconEngine* clone() const override { return new TintedSvgEngine(m_name); }
    QString key() const override { return QStringLiteral("archplay-tinted-svg"); }

private:
    /// The palette's text colour for `mode` (its disabled colour, or the selection's).
    static QColor colorFor(QIcon::Mode mode) {
        const QPalette palette = QApplication::palette();
        if (mode == QIcon::Selected) {
            return palette.color(QPalette::HighlightedText);
        }
        return palette.color(mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Normal, QPalette::ButtonText);
    }

    QString m_name;
};

} // namespace

QString toString(ThemeMode mode) {
    switch (mode) {
    case ThemeMode::Light:
        return QStringLiteral("light");
    case ThemeMode::Dark:
        return QStringLiteral("dark");
    case ThemeMode::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<ThemeMode> parseThemeMode(const QString& text) {
    const QString lower = text.trimmed().toLower();
    if (lower == QLatin1String("system")) {
        return ThemeMode::System;
    }
    if (lower == QLatin1String("light")) {
        return ThemeMode::Light;
    }
    if (lower == QLatin1String("dark")) {
        return ThemeMode::Dark;
    }
    return std::nullopt;
}

void applyTheme(ThemeMode mode) {
    SystemLook& system = systemLook();
    if (!system.palette) {
        system.palette = QApplication::palette();
        system.style = QApplication::style()->name();
    }
    g_mode = mode;
    // The system style is kept for System so the desktop's look stays; our palettes need Fusion,
    // the one style that honours every palette role on every platform.
    const QString styleName = mode == ThemeMode::System ? system.style : QStringLiteral("Fusion");
    QStyle* base = QStyleFactory::create(styleName);
    if (base == nullptr) {
        base = QStyleFactory::create(QStringLiteral("Fusion"));
    }
    QApplication::setStyle(new ArchplayStyle(base));
    switch (mode) {
    case ThemeMode::Light:
        QApplication::setPalette(palette(kLightColors));
        break;
    case ThemeMode::Dark:
        QApplication::setPalette(palette(kDarkColors));
        break;
    case ThemeMode::System:
        QApplication::setPalette(*system.palette);
        break;
    }
}

ThemeMode currentThemeMode() {
    return g_mode;
}

QPalette themePalette(ThemeMode mode) {
    switch (mode) {
    case ThemeMode::Light:
        return palette(kLightColors);
    case ThemeMode::Dark:
        return palette(kDarkColors);
    case ThemeMode::System:
        break;
    }
    const SystemLook& system = systemLook();
    return system.palette ? *system.palette : QApplication::palette();
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor severityColor(core::Severity severity, const QPalette& palette) {
    const bool dark = isDark(palette);
    switch (severity) {
    case core::Severity::Error:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc4, 0x2b, 0x2b);
    case core::Severity::Warning:
        return dark ? QColor(0xf2, 0xb8, 0x4b) : QColor(0x9a, 0x62, 0x00);
    case core::Severity::Hint:
        break;
    }
    return dark ? QColor(0x6c, 0xb2, 0xff) : QColor(0x2a, 0x6a, 0xc0);
}

QColor goodColor(const QPalette& palette) {
    return isDark(palette) ? QColor(0x5f, 0xd0, 0x8a) : QColor(0x1e, 0x7f, 0x46);
}

QColor cautionColor(const QPalette& palette) {
    return severityColor(core::Severity::Warning, palette);
}

QColor mutedText(const QPalette& palette) {
    return palette.color(QPalette::PlaceholderText);
}

QColor cardBackground(const QPalette& palette) {
    return isDark(palette) ? palette.color(QPalette::Base).lighter(125) : palette.color(QPalette::Base);
}

QColor cardBorder(const QPalette& palette) {
    return palette.color(QPalette::Mid);
}

QColor shareBar(const QPalette& palette) {
    QColor color = palette.color(QPalette::Highlight);
    color.setAlpha(isDark(palette) ? 110 : 70);
    return color;
}

QColor flashBackground(const QPalette& palette) {
    QColor color = palette.color(QPalette::Highlight);
    color.setAlpha(80);
    return color;
}

QIcon icon(const QString& name) {
    return QIcon(new TintedSvgEngine(name));
}

QIcon colorIcon(const QString& name) {
    // Kept once loaded: the diagnostics list asks for its icons after every edit, and loading one
    // parses its SVG. Never freed, so no icon outlives the application object's teardown order.
    static auto* const loaded = new QHash<QString, QIcon>;
    const auto found = loaded->constFind(name);
    if (found == loaded->constEnd()) {
        return *loaded->insert(name, QIcon(QStringLiteral(":/icons/%1.svg").arg(name)));
    }
    return *found;
}

QIcon severityIcon(core::Severity severity) {
    switch (severity) {
    case core::Severity::Error:
        return colorIcon(QStringLiteral("severity-error"));
    case core::Severity::Warning:
        return colorIcon(QStringLiteral("severity-warning"));
    case core::Severity::Hint:
        break;
    }
    return colorIcon(QStringLiteral("severity-hint"));
}

QIcon okIcon() {
    return colorIcon(QStringLiteral("severity-ok"));
}

} // namespace archplay::ui::theme

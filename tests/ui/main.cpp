// SPDX-License-Identifier: GPL-3.0-or-later
// One QApplication on the offscreen platform for every UI test.
#include "ui/theme/Theme.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // Settings and recent files go to a throw-away location, never the user's.
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("archplay-tests"));
    // ctest runs each test in its own process, several at once: each process has its own settings
    // file, so one test's saved window state never leaks into another's.
    QApplication::setApplicationName(QStringLiteral("archplay-ui-tests-%1").arg(QCoreApplication::applicationPid()));
    QApplication app(argc, argv);
    archplay::ui::theme::applyTheme(archplay::ui::theme::ThemeMode::Light);
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    QFile::remove(QSettings().fileName());
    return status;
}

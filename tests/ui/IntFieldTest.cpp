// SPDX-License-Identifier: GPL-3.0-or-later
// The config panel's integer fields hold 64-bit values: a hidden size of 2^32 + 1 is shown as it is
// and never written back clamped to 32 bits.
#include "ui/widgets/IntField.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

constexpr qint64 k2To32Plus1 = (qint64{1} << 32) + 1;

QString digits(const QString& text) {
    QString only;
    for (const QChar c : text) {
        if (c.isDigit()) {
            only += c;
        }
    }
    return only;
}

TEST(IntField, ShowsValuesBeyond32BitsAndNeverWritesAClampedOneBack) {
    QWidget parent;
    widgets::IntField field(1, 1 << 20, qint64{1} << 40, widgets::SliderScale::Logarithmic, core::Snap::None, &parent);
    QSignalSpy edited(&field, &widgets::IntField::valueEdited);
    field.setValue(k2To32Plus1);
    widgets::SnapSpinBox* spin = field.spinBox();
    EXPECT_EQ(spin->value(), k2To32Plus1);
    EXPECT_EQ(digits(spin->text()), QStringLiteral("4294967297"));
    EXPECT_EQ(edited.count(), 0);

    // Finishing an edit that typed nothing reports nothing.
    emit spin->editingFinished();
    EXPECT_EQ(edited.count(), 0);

    // A step moves from the real value, not from 2,147,483,647.
    spin->stepBy(1);
    ASSERT_EQ(edited.count(), 1);
    EXPECT_EQ(edited.takeFirst().front().value<qint64>(), k2To32Plus1 + 1);

    // Typed values beyond 32 bits are taken exactly; garbage is put back to the value.
    spin->findChild<QLineEdit*>()->setText(QStringLiteral("5000000000"));
    emit spin->editingFinished();
    ASSERT_EQ(edited.count(), 1);
    EXPECT_EQ(edited.takeFirst().front().value<qint64>(), qint64{5000000000});
    spin->findChild<QLineEdit*>()->setText(QStringLiteral("99999999999999999999"));
    emit spin->editingFinished();
    EXPECT_EQ(edited.count(), 0);
    EXPECT_EQ(digits(spin->text()), QStringLiteral("5000000000"));
}

} // namespace
} // namespace archplay::ui

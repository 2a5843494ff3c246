// SPDX-License-Identifier: GPL-3.0-or-later
// The config panel's integer fields hold 64-bit values: a hidden size of 2^32 + 1 is shown as it is
// and never written back clamped to 32 bits.
#include "ui/widgets/IntField.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include <gtest/gtest.h>

#include <utility>

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

TEST(IntField, ANarrowFieldShowsTheLeadingDigits) {
    QWidget parent;
    widgets::IntField field(1, 1 << 20, qint64{1} << 40, widgets::SliderScale::Logarithmic, core::Snap::None, &parent);
    widgets::SnapSpinBox* spin = field.spinBox();
    spin->setFixedWidth(60); // narrower than "1,099,511,627,776"
    field.setValue(qint64{1} << 40);
    EXPECT_EQ(spin->findChild<QLineEdit*>()->cursorPosition(), 0) << "the head, which carries the magnitude, is shown";
}

/// Training tokens are typed as people write them ("15T", "1.5T", "360B") and shown so.
TEST(IntField, CountsReadAndShowThousandsSuffixes) {
    QWidget parent;
    widgets::IntField field(1'000'000, 100'000'000'000'000, 10'000'000'000'000'000, widgets::SliderScale::Logarithmic,
                            core::Snap::TwoDigits, &parent, widgets::NumberStyle::Count);
    QSignalSpy edited(&field, &widgets::IntField::valueEdited);
    widgets::SnapSpinBox* spin = field.spinBox();
    auto* line = spin->findChild<QLineEdit*>();
    for (const auto& [typed, value] :
         {std::pair{"15T", qint64{15'000'000'000'000}}, std::pair{"1.5T", qint64{1'500'000'000'000}},
          std::pair{"360B", qint64{360'000'000'000}}, std::pair{"2t", qint64{2'000'000'000'000}}}) {
        line->setText(QString::fromLatin1(typed));
        emit spin->editingFinished();
        ASSERT_EQ(edited.count(), 1) << typed;
        EXPECT_EQ(edited.takeFirst().front().value<qint64>(), value) << typed;
        EXPECT_EQ(spin->text(), QString::fromLatin1(typed).toUpper()) << "shown as typed";
    }
    // A count shortCount() cannot write exactly is shown in full.
    field.setValue(1'234'567'890'123);
    EXPECT_EQ(digits(spin->text()), QStringLiteral("1234567890123"));
    // Below the minimum, or not a count: put back.
    line->setText(QStringLiteral("5K"));
    emit spin->editingFinished();
    line->setText(QStringLiteral("15X"));
    emit spin->editingFinished();
    EXPECT_EQ(edited.count(), 0);
    EXPECT_EQ(spin->value(), 1'234'567'890'123);
    int position = 0;
    QString partial = QStringLiteral("1.5");
    EXPECT_EQ(spin->validate(partial, position), QValidator::Intermediate);

    // Sizes keep K = 1024 and know no T.
    widgets::IntField size(1, 1 << 20, 1 << 30, widgets::SliderScale::Logarithmic, core::Snap::None, &parent);
    EXPECT_EQ(size.spinBox()->valueFromText(QStringLiteral("8K")), 8192);
    EXPECT_EQ(size.spinBox()->valueFromText(QStringLiteral("2T")), std::nullopt);
    EXPECT_EQ(spin->valueFromText(QStringLiteral("8K")), std::nullopt) << "below the count field's minimum";
    EXPECT_EQ(spin->valueFromText(QStringLiteral("8M")), 8'000'000);
}

} // namespace
} // namespace archplay::ui

// SPDX-License-Identifier: GPL-3.0-or-later
// The maths typesetter and the derivation view: every preset typesets with no unknown command, boxes
// are built as maths is, copies give the core's LaTeX and Markdown.
#include "ui/views/DerivationView.h"

#include "core/analysis/Analysis.h"
#include "core/derivation/Derivation.h"
#include "core/io/Presets.h"
#include "tests/support/TestSupport.h"
#include "ui/mathtext/MathParser.h"
#include "ui/mathtext/MathTypesetter.h"
#include "ui/views/layout/DerivationDocument.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

using ui::mathtext::Node;

TEST(MathParser, BuildsTheStructureOfAFormula) {
    const ui::mathtext::ParseResult parsed = ui::mathtext::parse(
        QStringLiteral("A_{h} = \\operatorname{softmax}\\left(\\frac{Q K^{\\top}}{\\sqrt{128}}\\right) V"));
    EXPECT_TRUE(parsed.unknown.isEmpty());
    const auto& items = parsed.root.children;
    ASSERT_GE(items.size(), 5u);
    EXPECT_EQ(items[0].kind, archplay::ui::mathtext::Node::Kind::Scripts);
    EXPECT_EQ(items[1].atom, ui::mathtext::Atom::Rel);
    EXPECT_EQ(items[2].atom, ui::mathtext::Atom::Op);
    ASSERT_EQ(items[3].kind, archplay::ui::mathtext::Node::Kind::Delimited);
    EXPECT_EQ(items[3].left, QStringLiteral("("));
    EXPECT_EQ(items[3].children[0].children[0].kind, archplay::ui::mathtext::Node::Kind::Fraction);
}

TEST(MathParser, ReportsUnknownCommandsAndSplitsAtTopLevelQuads) {
    EXPECT_EQ(ui::mathtext::parse(QStringLiteral("\\frobnicate{x} + 1")).unknown,
              QStringList{QStringLiteral("\\frobnicate")});
    const QStringList parts =
        ui::mathtext::splitAtQuads(QStringLiteral("a = b, \\quad c \\in \\left( d \\quad e \\right) \\qquad f"));
    EXPECT_EQ(parts, (QStringList{QStringLiteral("a = b,"), QStringLiteral("c \\in \\left( d \\quad e \\right)"),
                                  QStringLiteral("f")}));
}

TEST(MathTypesetter, FractionsStackAroundTheAxisAndScriptsShrink) {
    const ui::mathtext::MathTypesetter typesetter(QApplication::font());
    const ui::mathtext::MathBox fraction = typesetter.typeset(QStringLiteral("\\frac{a}{b}"), true);
    ASSERT_EQ(fraction.runs.size(), 2u);
    EXPECT_LT(fraction.runs[0].origin.y(), 0); // numerator above the baseline
    EXPECT_GT(fraction.runs[1].origin.y(), fraction.runs[0].origin.y());
    ASSERT_EQ(fraction.rules.size(), 1u);
    EXPECT_GT(fraction.rules[0].top(), fraction.runs[0].origin.y());
    EXPECT_LT(fraction.rules[0].bottom(), fraction.runs[1].origin.y());

    const ui::mathtext::MathBox scripted = typesetter.typeset(QStringLiteral("x_{i}^{2}"), false);
    ASSERT_EQ(scripted.runs.size(), 3u);
    // The base, then its superscript, then its subscript.
    EXPECT_NE(scripted.runs[1].font, scripted.runs[0].font); // script size
    EXPECT_EQ(scripted.runs[1].text, QStringLiteral("2"));
    EXPECT_LT(scripted.runs[1].origin.y(), 0); // superscript raised
    EXPECT_GT(scripted.runs[2].origin.y(), 0); // subscript lowered

    // A relation gets more room than a binary operator, which gets more than nothing.
    const ui::mathtext::MathBox relation = typesetter.typeset(QStringLiteral("a=b"), false);
    const ui::mathtext::MathBox binary = typesetter.typeset(QStringLiteral("a+b"), false);
    const ui::mathtext::MathBox plain = typesetter.typeset(QStringLiteral("ab"), false);
    EXPECT_GT(relation.runs[2].origin.x() - relation.runs[1].origin.x(), 0);
    EXPECT_GT(binary.width, plain.width);
}

TEST(DerivationDocument, EveryPresetTypesetsWithKnownCommandsOnly) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Analysis analysis = analyzePreset(preset.info.id.c_str());
        ASSERT_TRUE(analysis.valid) << preset.info.id;
        const core::Derivation derivation = core::deriveForwardPass(analysis.config, analysis.plan);
        const ui::views::layout::DerivationDocument document(derivation, QApplication::font(), nullptr);
        EXPECT_TRUE(document.unknownCommands().isEmpty())
            << preset.info.id << ": " << document.unknownCommands().join(QLatin1Char(' ')).toStdString();
        const auto blocks = document.layout(560);
        ASSERT_FALSE(blocks.empty());
        for (std::size_t i = 1; i < blocks.size(); ++i) {
            EXPECT_GE(blocks[i].rect.top(), blocks[i - 1].rect.bottom() - 0.01) << preset.info.id;
        }
        for (const auto& block : blocks) {
            for (const auto& maths : block.maths) {
                EXPECT_LE(maths.origin.x() + maths.box->width * maths.scale, 560 + 1.0)
                    << preset.info.id << " (a display equation wider than the page)";
            }
        }
    }
}

TEST(DerivationView, CopiesTheCoresLatexAndMarkdown) {
    const core::Analysis analysis = analyzePreset("mixtral-8x7b-v0.1");
    ui::views::DerivationView view;
    view.setAnalysis(analysis);
    const core::Derivation derivation = core::deriveForwardPass(analysis.config, analysis.plan);
    EXPECT_EQ(view.latex().toStdString(), core::toLatex(derivation));
    EXPECT_EQ(view.markdown().toStdString(), core::toMarkdown(derivation));
    view.copyLatexAction()->trigger();
    EXPECT_EQ(QApplication::clipboard()->text(), view.latex());
    view.copyMarkdownAction()->trigger();
    EXPECT_EQ(QApplication::clipboard()->text(), view.markdown());
}

} // namespace
} // namespace archplay::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mathtext/MathSymbols.h"

namespace archplay::ui::mathtext {

const QHash<QString, SymbolInfo>& symbols() {
    static const QHash<QString, SymbolInfo> table = [] {
        QHash<QString, SymbolInfo> t;
        const char* greekNames[] = {"alpha",  "beta",  "gamma", "delta", "epsilon", "varepsilon", "zeta",
                                    "eta",    "theta", "iota",  "kappa", "lambda",  "mu",         "nu",
                                    "xi",     "pi",    "rho",   "sigma", "tau",     "upsilon",    "phi",
                                    "varphi", "chi",   "psi",   "omega"};
        const char16_t greekLetters[] = {u'α', u'β', u'γ', u'δ', u'ϵ', u'ε', u'ζ', u'η', u'θ', u'ι', u'κ', u'λ', u'μ',
                                         u'ν', u'ξ', u'π', u'ρ', u'σ', u'τ', u'υ', u'ϕ', u'φ', u'χ', u'ψ', u'ω'};
        for (std::size_t i = 0; i < std::size(greekNames); ++i) {
            t.insert(QString::fromLatin1(greekNames[i]), {QString(QChar(greekLetters[i])), Atom::Ord, Face::Italic});
        }
        const char* capitalNames[] = {"Gamma", "Delta",   "Theta", "Lambda", "Xi",   "Pi",
                                      "Sigma", "Upsilon", "Phi",   "Psi",    "Omega"};
        const char16_t capitals[] = {u'Γ', u'Δ', u'Θ', u'Λ', u'Ξ', u'Π', u'Σ', u'Υ', u'Φ', u'Ψ', u'Ω'};
        for (std::size_t i = 0; i < std::size(capitalNames); ++i) {
            t.insert(QString::fromLatin1(capitalNames[i]), {QString(QChar(capitals[i])), Atom::Ord});
        }
        const struct {
            const char* name;
            const char16_t* text;
            Atom atom;
        } others[] = {
            {"in", u"∈", Atom::Rel},         {"notin", u"∉", Atom::Rel},    {"times", u"×", Atom::Bin},
            {"cdot", u"⋅", Atom::Bin},       {"odot", u"⊙", Atom::Bin},     {"oplus", u"⊕", Atom::Bin},
            {"otimes", u"⊗", Atom::Bin},     {"pm", u"±", Atom::Bin},       {"circ", u"∘", Atom::Bin},
            {"ast", u"∗", Atom::Bin},        {"le", u"≤", Atom::Rel},       {"leq", u"≤", Atom::Rel},
            {"ge", u"≥", Atom::Rel},         {"geq", u"≥", Atom::Rel},      {"ne", u"≠", Atom::Rel},
            {"neq", u"≠", Atom::Rel},        {"approx", u"≈", Atom::Rel},   {"sim", u"∼", Atom::Rel},
            {"equiv", u"≡", Atom::Rel},      {"to", u"→", Atom::Rel},       {"rightarrow", u"→", Atom::Rel},
            {"leftarrow", u"←", Atom::Rel},  {"gets", u"←", Atom::Rel},     {"mapsto", u"↦", Atom::Rel},
            {"Rightarrow", u"⇒", Atom::Rel}, {"mid", u"∣", Atom::Rel},      {"subset", u"⊂", Atom::Rel},
            {"top", u"⊤", Atom::Ord},        {"infty", u"∞", Atom::Ord},    {"partial", u"∂", Atom::Ord},
            {"nabla", u"∇", Atom::Ord},      {"ell", u"ℓ", Atom::Ord},      {"prime", u"′", Atom::Ord},
            {"forall", u"∀", Atom::Ord},     {"exists", u"∃", Atom::Ord},   {"ldots", u"…", Atom::Inner},
            {"dots", u"…", Atom::Inner},     {"cdots", u"⋯", Atom::Inner},  {"lceil", u"⌈", Atom::Open},
            {"rceil", u"⌉", Atom::Close},    {"lfloor", u"⌊", Atom::Open},  {"rfloor", u"⌋", Atom::Close},
            {"langle", u"⟨", Atom::Open},    {"rangle", u"⟩", Atom::Close}, {"{", u"{", Atom::Open},
            {"}", u"}", Atom::Close},        {"|", u"‖", Atom::Ord},        {"Vert", u"‖", Atom::Ord},
            {"_", u"_", Atom::Ord},          {"%", u"%", Atom::Ord},        {"#", u"#", Atom::Ord},
            {"&", u"&", Atom::Ord},          {"cup", u"∪", Atom::Bin},      {"cap", u"∩", Atom::Bin},
        };
        for (const auto& other : others) {
            t.insert(QString::fromLatin1(other.name), {QString::fromUtf16(other.text), other.atom});
        }
        for (const char* function : {"exp", "log", "ln", "sin", "cos", "tan", "tanh", "max", "min", "arg", "det", "lim",
                                     "sup", "inf", "argmax"}) {
            t.insert(QString::fromLatin1(function), {QString::fromLatin1(function), Atom::Op});
        }
        return t;
    }();
    return table;
}

double spaceOf(const QString& command) {
    if (command == QLatin1String("quad")) {
        return 1.0;
    }
    if (command == QLatin1String("qquad")) {
        return 2.0;
    }
    if (command == QLatin1String(",")) {
        return 3.0 / 18;
    }
    if (command == QLatin1String(":")) {
        return 4.0 / 18;
    }
    if (command == QLatin1String(";")) {
        return 5.0 / 18;
    }
    if (command == QLatin1String("!")) {
        return -3.0 / 18;
    }
    if (command == QLatin1String(" ")) {
        return 1.0 / 3;
    }
    return 0;
}

QString blackboard(const QString& text) {
    QString out;
    for (QChar ch : text) {
        switch (ch.unicode()) {
        case 'R':
            out += QChar(0x211D);
            break;
        case 'N':
            out += QChar(0x2115);
            break;
        case 'Z':
            out += QChar(0x2124);
            break;
        case 'Q':
            out += QChar(0x211A);
            break;
        case 'C':
            out += QChar(0x2102);
            break;
        default:
            out += ch;
        }
    }
    return out;
}

QString calligraphic(const QString& text) {
    QString out;
    for (QChar ch : text) {
        const char16_t c = ch.unicode();
        if (c < 'A' || c > 'Z') {
            out += ch;
            continue;
        }
        char32_t code = 0x1D49C + (c - 'A');
        switch (c) {
        case 'B':
            code = 0x212C;
            break;
        case 'E':
            code = 0x2130;
            break;
        case 'F':
            code = 0x2131;
            break;
        case 'H':
            code = 0x210B;
            break;
        case 'I':
            code = 0x2110;
            break;
        case 'L':
            code = 0x2112;
            break;
        case 'M':
            code = 0x2133;
            break;
        case 'R':
            code = 0x211B;
            break;
        default:
            break;
        }
        out += QString::fromUcs4(&code, 1);
    }
    return out;
}

} // namespace archplay::ui::mathtext

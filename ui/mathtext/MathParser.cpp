// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mathtext/MathParser.h"

#include "ui/mathtext/MathSymbols.h"

namespace archplay::ui::mathtext {
namespace {

class Parser {
public:
    explicit Parser(const QString& source)
        : m_s(source) {}

    ParseResult run() {
        ParseResult result;
        result.root = parseList(Stop::End);
        result.unknown = m_unknown;
        return result;
    }

private:
    enum class Stop { End, Brace, Right, Cell };
    enum class Ended { Input, Brace, Right, Ampersand, Row, Environment };

    bool atEnd() const { return m_pos >= m_s.size(); }
    QChar peek(int ahead = 0) const { return m_pos + ahead < m_s.size() ? m_s[m_pos + ahead] : QChar(); }
    void skipSpaces() {
        while (!atEnd() && peek().isSpace()) {
            ++m_pos;
        }
    }

    /// After a backslash: a run of letters, or one other character.
    QString commandName() {
        const qsizetype start = m_pos;
        if (!atEnd() && peek().isLetter()) {
            while (!atEnd() && peek().isLetter()) {
                ++m_pos;
            }
        } else if (!atEnd()) {
            ++m_pos;
        }
        return m_s.mid(start, m_pos - start);
    }

    /// The raw text of a {group} (or one character), for \text, \mathrm and friends.
    QString rawArgument() {
        skipSpaces();
        if (peek() != QLatin1Char('{')) {
            return atEnd() ? QString() : QString(m_s[m_pos++]);
        }
        ++m_pos;
        QString text;
        int depth = 1;
        while (!atEnd()) {
            const QChar ch = m_s[m_pos++];
            if (ch == QLatin1Char('\\') && !atEnd()) {
                const QChar next = m_s[m_pos++];
                text += next == QLatin1Char(',') || next == QLatin1Char(' ') ? QChar(0x2009) : next;
                continue;
            }
            if (ch == QLatin1Char('{')) {
                ++depth;
            } else if (ch == QLatin1Char('}') && --depth == 0) {
                break;
            }
            if (ch != QLatin1Char('{') && ch != QLatin1Char('}')) {
                text += ch;
            }
        }
        return text;
    }

    QString delimiter() {
        skipSpaces();
        if (peek() == QLatin1Char('\\')) {
            ++m_pos;
            const QString name = commandName();
            const auto found = symbols().constFind(name);
            return found != symbols().constEnd() ? found->text : name;
        }
        return atEnd() ? QString() : QString(m_s[m_pos++]);
    }

    Node argument() {
        skipSpaces();
        if (peek() == QLatin1Char('{')) {
            ++m_pos;
            return parseList(Stop::Brace);
        }
        std::vector<Node> one;
        if (!atEnd()) {
            parseOne(one, Stop::Brace);
        }
        return Node::list(std::move(one));
    }

    static void attach(std::vector<Node>& list, Node script, bool superscript) {
        if (list.empty() || list.back().kind != Node::Kind::Scripts) {
            Node base = list.empty() ? Node::list() : list.back();
            if (!list.empty()) {
                list.pop_back();
            }
            Node scripts;
            scripts.kind = Node::Kind::Scripts;
            scripts.children = {std::move(base), Node::list(), Node::list()};
            list.push_back(std::move(scripts));
        }
        Node& slot = list.back().children[superscript ? 2 : 1];
        slot.children.push_back(std::move(script));
    }

    Node parseList(Stop stop) {
        std::vector<Node> items;
        while (!atEnd()) {
            const QChar ch = peek();
            if (ch.isSpace()) {
                ++m_pos;
                continue;
            }
            if (ch == QLatin1Char('}')) {
                ++m_pos;
                if (stop == Stop::Brace) {
                    m_ended = Ended::Brace;
                    return Node::list(std::move(items));
                }
                continue;
            }
            if (stop == Stop::Cell && ch == QLatin1Char('&')) {
                ++m_pos;
                m_ended = Ended::Ampersand;
                return Node::list(std::move(items));
            }
            if (ch == QLatin1Char('\\') && peek(1) == QLatin1Char('\\')) {
                m_pos += 2;
                if (stop == Stop::Cell) {
                    m_ended = Ended::Row;
                    return Node::list(std::move(items));
                }
                continue;
            }
            if (ch == QLatin1Char('\\') &&
                (m_s.mid(m_pos, 6) == QLatin1String("\\right") && !QChar(peek(6)).isLetter())) {
                m_pos += 6;
                m_right = delimiter();
                if (stop == Stop::Right) {
                    m_ended = Ended::Right;
                    return Node::list(std::move(items));
                }
                continue;
            }
            if (ch == QLatin1Char('\\') && m_s.mid(m_pos, 4) == QLatin1String("\\end") && !QChar(peek(4)).isLetter()) {
                m_pos += 4;
                rawArgument();
                m_ended = Ended::Environment;
                return Node::list(std::move(items));
            }
            parseOne(items, stop);
        }
        m_ended = Ended::Input;
        return Node::list(std::move(items));
    }

    void parseOne(std::vector<Node>& items, Stop stop) {
        const QChar ch = m_s[m_pos++];
        if (ch == QLatin1Char('{')) {
            items.push_back(parseList(Stop::Brace));
        } else if (ch == QLatin1Char('^') || ch == QLatin1Char('_')) {
            attach(items, argument(), ch == QLatin1Char('^'));
        } else if (ch == QLatin1Char('\'')) {
            // The prime glyph already sits at superscript height: set it at full size beside its base.
            if (!items.empty() && items.back().kind == Node::Kind::Symbol && items.back().text == QStringLiteral("′")) {
                items.back().text = QStringLiteral("″");
            } else {
                items.push_back(Node::symbol(QStringLiteral("′"), Face::Roman, Atom::Ord));
            }
        } else if (ch == QLatin1Char('\\')) {
            command(items, commandName());
        } else if (ch.isLetter()) {
            if (!items.empty() && items.back().kind == Node::Kind::Symbol && items.back().face == Face::Italic &&
                items.back().atom == Atom::Ord && items.back().text.back().isLetter() && items.back().text.size() < 8 &&
                items.back().text.front().unicode() < 128) {
                items.back().text += ch;
            } else {
                items.push_back(Node::symbol(ch, Face::Italic, Atom::Ord));
            }
        } else if (ch.isDigit() || (ch == QLatin1Char('.') && peek().isDigit())) {
            if (!items.empty() && items.back().kind == Node::Kind::Symbol && items.back().face == Face::Roman &&
                (items.back().text.back().isDigit() || items.back().text.back() == QLatin1Char('.'))) {
                items.back().text += ch;
            } else {
                items.push_back(Node::symbol(ch, Face::Roman, Atom::Ord));
            }
        } else {
            items.push_back(character(ch));
        }
        (void)stop;
    }

    static Node character(QChar ch) {
        switch (ch.unicode()) {
        case '+':
            return Node::symbol(QStringLiteral("+"), Face::Roman, Atom::Bin);
        case '-':
            return Node::symbol(QStringLiteral("−"), Face::Roman, Atom::Bin);
        case '*':
            return Node::symbol(QStringLiteral("∗"), Face::Roman, Atom::Bin);
        case '=':
        case '<':
        case '>':
        case ':':
            return Node::symbol(ch, Face::Roman, Atom::Rel);
        case ',':
        case ';':
            return Node::symbol(ch, Face::Roman, Atom::Punct);
        case '(':
        case '[':
            return Node::symbol(ch, Face::Roman, Atom::Open);
        case ')':
        case ']':
        case '!':
            return Node::symbol(ch, Face::Roman, Atom::Close);
        case '~': {
            Node space;
            space.kind = Node::Kind::Space;
            space.space = 1.0 / 3;
            return space;
        }
        default:
            return Node::symbol(ch, Face::Roman, Atom::Ord);
        }
    }

    void command(std::vector<Node>& items, const QString& name) {
        if (const double space = spaceOf(name); space != 0) {
            Node node;
            node.kind = Node::Kind::Space;
            node.space = space;
            items.push_back(node);
        } else if (name == QLatin1String("frac")) {
            Node fraction;
            fraction.kind = Node::Kind::Fraction;
            fraction.children.push_back(argument());
            fraction.children.push_back(argument());
            items.push_back(std::move(fraction));
        } else if (name == QLatin1String("sqrt")) {
            Node root;
            root.kind = Node::Kind::Root;
            root.children.push_back(argument());
            items.push_back(std::move(root));
        } else if (name == QLatin1String("text")) {
            items.push_back(Node::symbol(rawArgument(), Face::Text, Atom::Ord));
        } else if (name == QLatin1String("mathrm") || name == QLatin1String("mathit")) {
            items.push_back(
                Node::symbol(rawArgument(), name == QLatin1String("mathit") ? Face::Italic : Face::Roman, Atom::Ord));
        } else if (name == QLatin1String("operatorname")) {
            items.push_back(Node::symbol(rawArgument(), Face::Roman, Atom::Op));
        } else if (name == QLatin1String("mathbf")) {
            items.push_back(Node::symbol(rawArgument(), Face::Bold, Atom::Ord));
        } else if (name == QLatin1String("mathbb")) {
            items.push_back(Node::symbol(blackboard(rawArgument()), Face::Roman, Atom::Ord));
        } else if (name == QLatin1String("mathcal")) {
            items.push_back(Node::symbol(calligraphic(rawArgument()), Face::Roman, Atom::Ord));
        } else if (name == QLatin1String("left")) {
            Node delimited;
            delimited.kind = Node::Kind::Delimited;
            delimited.left = delimiter();
            delimited.children.push_back(parseList(Stop::Right));
            delimited.right = m_right;
            items.push_back(std::move(delimited));
        } else if (name == QLatin1String("begin")) {
            rawArgument();
            Node cases;
            cases.kind = Node::Kind::Cases;
            for (int guard = 0; guard < 64; ++guard) {
                cases.children.push_back(parseList(Stop::Cell));
                if (m_ended != Ended::Ampersand) {
                    // A row ended without its condition: keep two cells per row.
                    cases.children.push_back(Node::list());
                } else {
                    cases.children.push_back(parseList(Stop::Cell));
                }
                if (m_ended != Ended::Row) {
                    break;
                }
            }
            items.push_back(std::move(cases));
        } else if (name == QLatin1String("hat") || name == QLatin1String("tilde") || name == QLatin1String("bar")) {
            Node accent;
            accent.kind = Node::Kind::Accent;
            accent.text = name;
            accent.children.push_back(argument());
            items.push_back(std::move(accent));
        } else if (name == QLatin1String("sum") || name == QLatin1String("prod")) {
            Node op = Node::symbol(name == QLatin1String("sum") ? QStringLiteral("∑") : QStringLiteral("∏"),
                                   Face::Roman, Atom::Op);
            op.kind = Node::Kind::BigOp;
            items.push_back(std::move(op));
        } else if (name == QLatin1String("mathrel") || name == QLatin1String("mathbin")) {
            Node inner = argument();
            for (Node& child : inner.children) {
                child.atom = name == QLatin1String("mathrel") ? Atom::Rel : Atom::Bin;
                items.push_back(std::move(child));
            }
        } else if (const auto found = symbols().constFind(name); found != symbols().constEnd()) {
            items.push_back(Node::symbol(found->text, found->face, found->atom));
        } else {
            m_unknown << QLatin1Char('\\') + name;
            items.push_back(Node::symbol(QLatin1Char('\\') + name, Face::Roman, Atom::Ord));
        }
    }

    const QString& m_s;
    qsizetype m_pos = 0;
    QString m_right;
    Ended m_ended = Ended::Input;
    QStringList m_unknown;
};

} // namespace

Node Node::symbol(const QString& text, Face face, Atom atom) {
    Node node;
    node.kind = Kind::Symbol;
    node.text = text;
    node.face = face;
    node.atom = atom;
    return node;
}

Node Node::list(std::vector<Node> children) {
    Node node;
    node.kind = Kind::List;
    node.children = std::move(children);
    return node;
}

ParseResult parse(const QString& latex) {
    return Parser(latex).run();
}

QStringList splitAtQuads(const QString& latex) {
    QStringList parts;
    int depth = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i < latex.size(); ++i) {
        const QChar ch = latex[i];
        if (ch == QLatin1Char('\\')) {
            qsizetype end = i + 1;
            while (end < latex.size() && latex[end].isLetter()) {
                ++end;
            }
            const QString name = latex.mid(i + 1, end - i - 1);
            if (name == QLatin1String("left") || name == QLatin1String("begin")) {
                ++depth;
            } else if (name == QLatin1String("right") || name == QLatin1String("end")) {
                --depth;
            } else if (depth == 0 && (name == QLatin1String("quad") || name == QLatin1String("qquad"))) {
                parts << latex.mid(start, i - start).trimmed();
                start = end;
            }
            i = std::max(i, end - 1);
            if (name.isEmpty()) {
                ++i; // an escaped character such as \{ or \,
            }
        } else if (ch == QLatin1Char('{')) {
            ++depth;
        } else if (ch == QLatin1Char('}')) {
            --depth;
        }
    }
    parts << latex.mid(start).trimmed();
    parts.removeIf(
        [](const QString& part) { return part.isEmpty() || part == QLatin1String(",") || part == QLatin1String(";"); });
    return parts;
}

} // namespace archplay::ui::mathtext

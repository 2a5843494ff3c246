// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"

#include <string>
#include <vector>

namespace archplay::core {

/// One step of the forward pass. All maths is LaTeX in the subset below, which the program's own
/// typesetter draws and which KaTeX, MathJax and LaTeX (amsmath, amssymb) read unchanged:
///   groups {..}, _ and ^, \frac{..}{..}, \sqrt{..}, \left( \right) \left[ \right] \left\{ \right.,
///   \mathrm \mathbf \mathbb \mathcal \operatorname \text, \hat \tilde \bar, \begin{cases} a & b \\ .. \end{cases},
///   Greek letters, \in \times \cdot \odot \oplus \le \ge \ne \approx \to \leftarrow \mapsto \mid \top \infty
///   \sum \exp \log \sin \cos \tanh \max \min \ldots \cdots \lceil \rceil \lfloor \rfloor \{ \} \quad \qquad \, \; \!
///   and {,}.
struct DerivationStep {
    std::string title;                  ///< plain words, may hold inline maths between $ signs
    std::string text;                   ///< one or two sentences; inline maths between $ signs
    std::vector<std::string> equations; ///< display equations, one per line
};

/// A group of steps: the input, the layers of one kind, the output.
struct DerivationSection {
    std::string title; ///< e.g. "Layers 3–60 ($\times 58$): latent attention, MoE"; inline maths between $ signs
    std::string text;  ///< optional introduction
    std::vector<DerivationStep> steps;
};

/// The whole forward pass of a config, specialised to its sizes: one section for the input, one
/// per layer kind (so heterogeneous stacks show every kind), one for the output. Shapes are
/// written for one sequence of T tokens in the row-vector convention x W, W in R^{d_in x d_out}.
struct Derivation {
    std::string title;
    std::string notation; ///< the conventions, as prose with inline maths
    std::vector<DerivationSection> sections;
};

/// Writes out the forward pass of `config` as planned. Sources: the Hugging Face modeling files
/// of FORMULAS.md §2; attention from Vaswani et al. 2017, GQA (Ainslie et al. 2023), MLA (DeepSeek-V2,
/// arXiv:2405.04434), RoPE (Su et al. 2021), SwiGLU (Shazeer 2020), MoE routing (Fedus et al. 2021,
/// Jiang et al. 2024, DeepSeek-V3 arXiv:2412.19437). An empty plan gives a derivation without layers.
Derivation deriveForwardPass(const ModelConfig& config, const ModelPlan& plan);

/// The section of the forward pass that covers the layer at `planIndex` (a position in
/// ModelPlan::layers): the section of its kind as deriveForwardPass() writes it, but self-contained,
/// every symbol it uses defined in it. An index outside the plan gives an empty section.
DerivationSection deriveLayerSection(const ModelConfig& config, const ModelPlan& plan, std::int64_t planIndex);

/// The derivation as a LaTeX fragment for a document with amsmath and amssymb: \section*, prose
/// and align*-free display equations (\[ .. \]).
std::string toLatex(const Derivation& derivation);
/// The derivation as Markdown with $..$ and $$..$$ maths (GitHub, Jupyter, Obsidian, pandoc).
std::string toMarkdown(const Derivation& derivation);

/// Every maths fragment of the derivation (inline and display), for checking the typesetter covers them.
std::vector<std::string> mathFragments(const Derivation& derivation);

} // namespace archplay::core

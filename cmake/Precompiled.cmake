# SPDX-License-Identifier: GPL-3.0-or-later
# Precompiled headers (ARCHPLAY_PCH, on by default; off in the fuzz preset, whose clang build of the
# core and the CLI then still checks that each file includes what it uses): the library headers most
# files of a target include, parsed once per target instead of once per file. GCC takes a precompiled
# header only where the -D flags match, so core's libraries share one (their flags are the same) and
# each ui/ library and test program makes its own (Qt defines one macro per module it links).
set(archplay_pch_std <algorithm> <array> <cmath> <cstdint> <functional> <map> <memory> <optional> <string>
                     <string_view> <utility> <vector>)
set(archplay_pch_core ${archplay_pch_std} <fmt/format.h> <nlohmann/json.hpp>)
set(archplay_pch_qt ${archplay_pch_std} <QAction> <QApplication> <QComboBox> <QLabel> <QPainter> <QString>
                    <QVBoxLayout> <QWidget>)
set(archplay_pch_tests ${archplay_pch_core} <filesystem> <fstream> <gtest/gtest.h>)

# archplay_precompile(TARGET HEADER...): TARGET's files are compiled with HEADER... precompiled.
# archplay_precompile(TARGET REUSE_FROM OTHER): with OTHER's, made with the same flags.
function(archplay_precompile target)
    if(NOT ARCHPLAY_PCH)
        return()
    endif()
    if(ARGV1 STREQUAL "REUSE_FROM")
        target_precompile_headers(${target} REUSE_FROM ${ARGV2})
    else()
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

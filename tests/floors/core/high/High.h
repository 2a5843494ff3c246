// SPDX-License-Identifier: GPL-3.0-or-later
// The core.floors.findsAnUpwardInclude test: a high floor that includes a lower one, as it may.
#pragma once
#include "core/low/Low.h"

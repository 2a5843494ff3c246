// SPDX-License-Identifier: GPL-3.0-or-later
// The core.floors.findsAnUpwardInclude test: a low floor that includes a higher one.
#pragma once
#include "core/high/High.h"

/* SPDX-License-Identifier: MIT */
#include "core/model.h"

//===- GccIncludes.h - the GCC plugin headers kernplug-gcc.so uses -*- C++ -*-===//
#ifndef KERNPLUG_GCC_INCLUDES_H
#define KERNPLUG_GCC_INCLUDES_H

// The C++ library first: GCC's system.h poisons names some of its headers use.
#include <cstring>
#include <string>
#include <vector>

#include "gcc-plugin.h"
// gcc-plugin.h first: it defines what the others need.
#include "tree.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "langhooks.h"
#include "stor-layout.h"
#include "options.h"
#include "toplev.h"

#endif

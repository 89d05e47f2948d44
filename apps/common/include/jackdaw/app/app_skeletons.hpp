// The skeletons the app frame compiles into every app: all of them, unless the build says fewer
// (CMake -DJACKDAW_APP_SKELETONS="budget;depth_bounded"), which cuts each app file's compile time
// and memory. An app may also name its own with runSearch<M, K, skeletons::Only<...>>.
#pragma once

#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::app {

#ifdef JACKDAW_APP_SKELETON_ROWS
using AppSkeletons = skeletons::Only<JACKDAW_APP_SKELETON_ROWS>;
#else
using AppSkeletons = skeletons::All;
#endif

}  // namespace jackdaw::app

#include "jackdaw/app/context.hpp"

#include "jackdaw/app/feature_states.hpp"

namespace jackdaw::app {

AppContext::AppContext() : features(std::make_unique<FeatureStates>()) {}

AppContext::~AppContext() = default;

}  // namespace jackdaw::app

// configs.h — the schemas of the engine's configs (configs.cpp declares every field once) and the
// writers that put a config into a result document. Internal to the engine: callers outside it use
// the *_from_json functions and validate() of api.h, and schema_json().
#pragma once
#include "config.h"
#include "json.h"
#include "schema.h"

namespace lnx::config {

const schema::Schema<ModelConfig>& model_schema();
const schema::Schema<ProbeConfig>& probe_schema();
const schema::Schema<TrainConfig>& train_schema();
const schema::Schema<GridConfig>& grid_schema();

// The fields of a config, written into the JSON object being written (docs/json-schema.md).
void write_fields(json::Writer& w, const ProbeConfig& c);
void write_fields(json::Writer& w, const TrainConfig& c);
void write_fields(json::Writer& w, const GridConfig& g);

// Rough upper bound of the bytes one run of this model needs, with or without an optimizer's state.
double model_bytes(const ModelConfig& m, int optimizer_states);
// What one run of a grid holds for the whole grid's life: parameters, gradients and two optimizer
// moment buffers (model_bytes without the activations, which are per thread).
double grid_run_state_bytes(const ModelConfig& m);

}  // namespace lnx::config

// bindings.cpp — the Embind registrations of the WebAssembly module, nothing else.
// Adapters: js_adapters.h. Typings: public/wasm/lnx.d.ts (hand-written; keep in step with this list).
#include <emscripten/bind.h>

#include "gemm.h"
#include "js_adapters.h"

EMSCRIPTEN_BINDINGS(lnx) {
  using namespace emscripten;
  using namespace lnx::js;
  function("engineVersion", &lnx::engine_version);
  function("buildFlavour", &lnx::build_flavour);
  function("setThreads", &set_threads_js);
  function("threads", &lnx::threads);
  function("setTextCorpus", &set_text_corpus_js);
  function("setGemmFma", &lnx::set_gemm_fma);
  function("gemmFma", &lnx::gemm_fma);
  function("gridPlanJson", &grid_plan_js);
  function("checkConfigJson", &check_config_js);
  function("schemaJson", &schema_js);
  class_<Probe>("ProbeRun")
      .constructor(&make_probe, allow_raw_pointers())
      .function("step", &Probe::step)
      .function("done", &Probe::done)
      .function("progress", &Probe::progress)
      .function("resultJson", &Probe::result_json)
      .function("handoffJson", &Probe::handoff_json)
      .function("continueFrom", &Probe::continue_from);
  class_<Train>("TrainRun")
      .constructor(&make_train, allow_raw_pointers())
      .function("step", &Train::step)
      .function("status", &Train::status)
      .function("resultJson", &Train::result_json)
      .function("setCheckpointEvery", &Train::set_checkpoint_every)
      .function("takeCheckpoint", &Train::take_checkpoint);
  class_<Grid>("GridRun")
      .constructor(&make_grid, allow_raw_pointers())
      .function("step", &Grid::step)
      .function("done", &Grid::done)
      .function("progress", &Grid::progress)
      .function("resultJson", &Grid::result_json)
      .function("continueRun", &Grid::continue_run);
  function("experimentNamesJson", &experiment_names_js);
  class_<Exp>("ExperimentRun")
      .constructor(&make_experiment, allow_raw_pointers())
      .function("step", &Exp::step)
      .function("done", &Exp::done)
      .function("progress", &Exp::progress)
      .function("resultJson", &Exp::result_json);
  class_<GridDoc>("GridDocument")
      .constructor(&make_grid_document, allow_raw_pointers())
      .function("runs", &GridDoc::runs)
      .function("stepsHeld", &GridDoc::steps_held)
      .function("append", &GridDoc::append)
      .function("done", &GridDoc::done)
      .function("progress", &GridDoc::progress)
      .function("resultJson", &GridDoc::result_json);
}

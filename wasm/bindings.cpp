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
  stepped_class<Probe>("ProbeRun", &make_probe)
      .function("handoffJson", &Probe::handoff_json)
      .function("continueFrom", &Probe::continue_from);
  training_class<Train>("TrainRun", &make_train);
  stepped_class<Grid>("GridRun", &make_grid).function("continueRun", &Grid::continue_run);
  function("experimentNamesJson", &experiment_names_js);
  stepped_class<Exp>("ExperimentRun", &make_experiment);
  class_<GridDoc>("GridDocument")
      .constructor(&make_grid_document, allow_raw_pointers())
      .function("runs", &GridDoc::runs)
      .function("stepsHeld", &GridDoc::steps_held)
      .function("append", &GridDoc::append)
      .function("done", &GridDoc::done)
      .function("progress", &GridDoc::progress)
      .function("resultJson", &GridDoc::result_json);
}

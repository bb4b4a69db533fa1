// cli_run.h — running the CLI (`lnx`, built beside the tests: LNX_CLI) from a test, for the tests of
// its flags (placement_spec_test.cpp's --placement-spec, cli_text_test.cpp's --text-dir): its exit
// code and what it printed (stdout and stderr together), and temporary files to hand it.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <sys/wait.h>

namespace lnx::test {

#ifdef LNX_CLI
struct Cli {
  int rc;
  std::string out;
};
inline Cli run_cli(const std::string& args) {
  const std::string cmd = std::string("'") + LNX_CLI + "' " + args + " 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}
#endif

// Writes `text` to `name` under the tests' temporary folder; its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace lnx::test
